"""Who reads decides: the kiosk speaks its table's language, the dealing dealer's while
they deal and the table's again after, and shows a refused report's reason in its own
language (the director's key), or in the room's words a key it does not know."""

from __future__ import annotations

import random
from pathlib import Path

from table_helpers import T0, plan, schedule, table_config

from kiosk.lang import active
from kiosk.table.service import TableService


def service(tmp: Path) -> TableService:
    svc = TableService(table_config(str(tmp), 1), now=lambda: T0 + 60,
                       rng=random.Random(4), connect=False, debounce_s=0)
    svc._on_message("schedule", schedule())
    return svc


def test_the_table_the_dealer_and_back(tmp_path: Path) -> None:
    svc = service(tmp_path)
    try:
        svc._on_message("plan", plan(rev=1, language="de"))
        assert svc.view().guidance == "NEUE HAND antippen"
        dealer = {"dealer": "Wei", "language": "zh_Hans", "push_at": T0 + 600}
        svc._on_message("plan", plan(rev=2, language="de", dealer=dealer))
        view = svc.view()
        assert view.guidance == "点选新的一手开始发牌" and active.language() == "zh_Hans"
        assert view.level == "级别 1"
        svc._on_message("plan", plan(rev=3, language="de",
                                     dealer={"dealer": "Ann", "push_at": T0 + 900}))
        assert svc.view().guidance == "NEUE HAND antippen"   # Ann: the table's
        svc._on_message("plan", plan(rev=4, language="ja"))               # not shipped here
        assert svc.view().guidance == "Tap NEW HAND to deal"
    finally:
        svc.stop()
        active.use("en")


def test_a_refused_report_reads_in_the_kiosks_language(tmp_path: Path) -> None:
    svc = service(tmp_path)
    try:
        svc._on_message("plan", plan(rev=1, language="cs"))
        svc._on_message("ack", {"v": 2, "ids": ["r1"], "rejected": {"r1": "stůl se ruší"},
                                "rejected_msgs": {"r1": {"key": "seat.empty", "args": {
                                    "table": 3, "seat": 4}}}})
        view = svc.view()
        assert view.message == "Odmítnuto: stůl 3: místo 4 je prázdné" and \
            view.message_is_error
        svc._on_message("ack", {"v": 2, "ids": ["r2"],
                                "rejected": {"r2": "stůl se ruší"},
                                "rejected_msgs": {"r2": {"key": "future.key"}}})
        assert svc.view().message == "Odmítnuto: stůl se ruší"    # the room's words
    finally:
        svc.stop()
        active.use("en")


def test_the_services_own_lines_and_a_dealers_answer_read_in_the_readers_language(
        tmp_path: Path) -> None:
    svc = service(tmp_path)
    try:
        svc._on_message("plan", plan(rev=1, language="cs"))
        svc.closing = "2.4.0"                               # an update is switching
        res = svc.act("new_hand")
        assert res.refused and res.message == "Restart na verzi 2.4.0"
        svc.closing = ""
        svc._storage("DISK FULL: /var/lib/pokerkiosk (0 B free): database or disk is full")
        assert svc.view().storage == "DISK PLNÝ: neukládá se (0 uchováno)"
        svc._on_message("dealer_answer", {   # in the language of the dealer who badged
            "ok": False, "text": "Špatný PIN: zbývají 4 pokusy", "language": "de",
            "text_msg": {"key": "pin.wrong", "args": {"n": 4}}})
        assert svc.view().checkin == "Falsche PIN: noch 4 Versuche"
        svc._on_message("dealer_answer", {"ok": True, "text": "Ann přebírá stůl 3"})
        assert svc.view().checkin == "Ann přebírá stůl 3"  # a director without keys
    finally:
        svc.stop()
        active.use("en")
