"""A refused report reads in the language of the screen that shows it: the director says
why as a message key and its arguments (`rejected_msgs`), beside the words of the room's
default language (`rejected`) for a kiosk of the previous release; a Czech table and a
German table of one room each render the key in their own language, reasons listed one
after another included. A real room director decides (in-process, its own log); what it
publishes is checked against the protocol's schema as a kiosk's link checks it, then fed
to a real kiosk service."""

from __future__ import annotations

import random
from pathlib import Path
from typing import Any

from table_helpers import table_config

from kiosk.config.room import load_director_config
from kiosk.core.model import commands
from kiosk.director.service import Director
from kiosk.lang import active
from kiosk.protocol.messages import decode, encode
from kiosk.table.service import TableService

ROOM = """
[room]
name = "rozvadov"
tables = 2
languages = ["cs", "en"]
table_languages = { "2" = "de" }
timezone = "Europe/Prague"

[director]
db = "room.db"

[[events]]
name = "main"
structure = "turbo"
seed = 5
seats = 6
tables = 2
"""


class Published:
    """What the director publishes, by topic, as a kiosk's link receives it."""

    def __init__(self, d: Director) -> None:
        self.d = d
        self.last: dict[str, dict[str, Any]] = {}
        self.acks: dict[int, list[dict[str, Any]]] = {}
        d.wire.send = self._send  # type: ignore[method-assign]

    def _send(self, topic: str, body: dict[str, Any], retain: bool = True) -> int:
        kind = self.d.wire.topics.kind(topic)
        payload = encode(body)
        if kind is None:
            return len(payload)
        msg = decode(kind, payload)          # what the table's link would take
        if kind == "ack":
            self.acks.setdefault(int(topic.rsplit("/", 1)[1]), []).append(msg)
        self.last[topic] = msg
        return len(payload)

    def for_table(self, table: int) -> tuple[dict[str, Any], dict[str, Any]]:
        """The table's plan and its event's schedule, as last published."""
        topics = self.d.wire.topics
        plan = self.last[topics.plan(table)]
        return plan, self.last[topics.schedule(plan["event"])]


def room(tmp_path: Path) -> tuple[Director, Published]:
    (tmp_path / "room.toml").write_text(ROOM)
    d = Director(load_director_config(tmp_path / "room.toml"))
    out = Published(d)
    for i in range(10):
        d.act(commands.decode({"kind": "register", "name": f"Player {i + 1}"}), event="main")
    d.act(commands.decode({"kind": "start"}), event="main")
    d.republish_all()
    return d, out


def report(d: Director, on: int, table: int, rid: str, kind: str, **data: Any) -> None:
    body = {"table": table, "id": rid, "seq": 1, "ts": d.clock(), "kind": kind, "data": data}
    d.inbox.queue.append((d.topics.report(on), encode(body)))


def kiosk(tmp: Path, table: int, out: Published) -> TableService:
    svc = TableService(table_config(str(tmp), 1, table=table), now=lambda: 0.0,
                       rng=random.Random(4), connect=False, debounce_s=0)
    plan, schedule = out.for_table(table)
    svc._on_message("schedule", schedule)
    svc._on_message("plan", plan)
    return svc


def test_each_table_reads_a_refused_report_in_its_own_language(tmp_path: Path) -> None:
    d, out = room(tmp_path)
    try:
        report(d, 1, 2, "r-other", "floor_call")       # names table 2, sent by table 1
        report(d, 2, 1, "r-back", "floor_call")        # and the other way round
        d.inbox.drain()
        [ack1], [ack2] = out.acks[1], out.acks[2]
        # the room's default words for an older kiosk, and the key for every newer one
        assert ack1["rejected"] == {"r-other": "uvádí stůl 2, ale přišlo od stolu 1"}
        assert ack1["rejected_msgs"]["r-other"] == {
            "key": "report.other_table", "args": {"named": 2, "table": 1}}
        assert ack2["rejected"] == {"r-back": "uvádí stůl 1, ale přišlo od stolu 2"}

        czech = kiosk(tmp_path / "t1", 1, out)
        try:
            assert active.language() == "cs"
            czech._on_message("ack", ack1)
            view = czech.view()
            assert view.message == "Odmítnuto: uvádí stůl 2, ale přišlo od stolu 1"
            assert view.message_is_error
        finally:
            czech.stop()
        german = kiosk(tmp_path / "t2", 2, out)
        try:
            assert active.language() == "de"
            german._on_message("ack", ack2)
            assert german.view().message.endswith(": nennt Tisch 1, kam aber von Tisch 2")
            assert "stůl" not in german.view().message   # the key, not the room's words
        finally:
            german.stop()
    finally:
        d.store.close()
        active.use("en")


def test_a_refused_count_lists_its_reasons_each_in_the_tables_language(
        tmp_path: Path) -> None:
    d, out = room(tmp_path)
    try:
        d.act(commands.decode({"kind": "count_chips"}), event="main")
        tab = d.events["main"].tour.tables[2]
        seated = sorted(tab.seat_of)
        empty = next(s for s in range(1, 7) if s not in tab.seat_of)
        stacks = {str(s): 20000 for s in seated[1:]} | {str(empty): 5000}
        report(d, 2, 2, "r-count", "chip_count", stacks=stacks)
        d.inbox.drain()
        [ack] = out.acks[2]
        assert ack["rejected_msgs"]["r-count"]["key"] == "count.refused"
        assert ack["rejected"]["r-count"] == (
            f"stůl 2: sčítání odmítnuto: místo {empty} je prázdné; "
            f"místo {seated[0]} nemá sčítání")
        german = kiosk(tmp_path / "t2", 2, out)
        try:
            german._on_message("ack", ack)
            assert german.view().message.endswith(
                f"Tisch 2: Zählung abgelehnt: Platz {empty} ist leer; "
                f"Platz {seated[0]} hat keine Zählung")
        finally:
            german.stop()
        assert str(d.events["main"].tour.count_round["round"]) == "1"   # still open
    finally:
        d.store.close()
        active.use("en")
