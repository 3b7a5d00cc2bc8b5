"""The director's room.toml: one room, its pool of tables, and the events it opens with.

A room file declares the room (`[room]`), the director's broker and dashboard settings as
an event.toml does, and any number of `[[events]]`, each an `[event]` section plus what the
room needs to know of it (title, kind, tables at the start, a satellite's target, a Day 2's
flights). Events listed here are opened at the first start; more are opened while the
director runs, from the dashboard or `pokerkiosk room`. An old event.toml is read as a room
of one event named after it, which behaves exactly as the single-event director did.
"""

from __future__ import annotations

import logging
from dataclasses import dataclass, field, replace
from datetime import UTC, datetime
from pathlib import Path
from typing import Annotated, Any, Literal
from zoneinfo import ZoneInfo, ZoneInfoNotFoundError

import msgspec
from msgspec import Meta

from kiosk.base.errors import ConfigError
from kiosk.base.texts import M_
from kiosk.base.tomlfile import read_toml
from kiosk.config.dealers import DealersConfig, DealersSection, dealers_config
from kiosk.config.files import (
    BrokerSection,
    DirectorSection,
    EventConfig,
    EventSection,
    MoneySection,
    PrinterSection,
    ShotClockSection,
    _check_rules,
    _doc,
    _event_name,
    _money,
    _Section,
    convert,
    director_settings,
    load_event_config,
    shot_clock,
)
from kiosk.config.sections import SectionEntry, load_sections
from kiosk.core.season.leagues import FormulaError, LeagueSpec, formula
from kiosk.lang.codes import UnknownLanguage, check

log = logging.getLogger("kiosk.config.files")
# one director keeps every table's plan, connection and calls: tried with 558 tables of a
# 5,000-entrant flight (bench/festival_bench.py); past this, run a second room
MAX_ROOM_TABLES = 2000
EventKind = Literal["event", "satellite", "flight", "day2"]


class RoomSection(_Section):
    """`[room]`: the card room this director serves."""

    name: Annotated[str, _doc("room name, used in the MQTT topics (letters, digits, "
                              "'-', '_')")]
    title: Annotated[str, _doc("shown on free tables, the dashboard and the TV clock; "
                               "unset: the name")] = ""
    tables: Annotated[int, _doc("tables provisioned to the room, numbered 1..N",
                                ge=1, le=MAX_ROOM_TABLES)] = 8
    calls_to_room_s: Annotated[int, _doc("seconds a call waits for its section's floor "
                                         "staff before it goes to the whole room, marked "
                                         "late", ge=5, le=3600)] = 60
    timezone: Annotated[str, _doc("the room's time zone (IANA name, e.g. "
                                  "\"Europe/Vienna\"): times of day on the dealers' "
                                  "pages; unset: UTC", max_length=64)] = ""
    languages: Annotated[list[Annotated[str, Meta(max_length=16)]],
                         _doc("the languages the room speaks, the first its default (en, "
                              "es, de, fr, cs, pt_BR, zh_Hans; docs/languages.md)",
                              max_length=7)] = msgspec.field(default_factory=lambda: ["en"])
    table_languages: Annotated[dict[str, Annotated[str, Meta(max_length=16)]],
                               _doc("a table's own language, by table number (\"12\" = "
                                    "\"de\"); the others speak the default",
                                    max_length=MAX_ROOM_TABLES)] = {}
    currency: Annotated[str, _doc("the room's currency (ISO 4217, e.g. \"EUR\", \"CZK\"): "
                                  "money on screens and slips; unset: plain amounts",
                                  pattern=r"^([A-Z]{3})?$")] = ""


class RoomEventSection(EventSection):
    """`[[events]]`: an event the room opens at its first start."""

    title: Annotated[str, _doc("the event's name for people; unset: the name")] = ""
    kind: Annotated[EventKind, _doc("event, satellite (its seats go to `target`), flight "
                                    "(a Day 1 that bags), or day2 (from `flights`)")] \
        = "event"
    tables: Annotated[int, _doc("tables taken from the pool at the start (0: as the "
                                "draw needs them)", ge=0, le=MAX_ROOM_TABLES)] = 0
    target: Annotated[str, _doc("satellites: the event its seats are for")] = ""
    flights: Annotated[list[str], _doc("day2: the flights it is made of")] = []
    scheduled: Annotated[bool, _doc("announced only: it takes entries (and the tickets held "
                                    "for it) once the floor opens it")] = False
    starts: Annotated[str, _doc("when it starts, ISO 8601 (\"2026-12-06T19:00\", in the "
                                "room's time zone, or with an offset \"2026-12-06T19:00+01:00\"): "
                                "the players' pages and the TV clock show it before it does, "
                                "in each reader's language", max_length=64)] = ""
    keep: Annotated[Literal["largest", "first"],
                    _doc("day2: a player who survived two flights keeps this stack")] \
        = "largest"
    draw: Annotated[Literal["random", "stack"],
                    _doc("day2: seats by random draw (TDA) or balanced by stack")] = "random"
    max_entries: Annotated[Annotated[int, Meta(ge=1)] | None,
                           _doc("stacks for sale; unset: no limit")] = None
    max_tables: Annotated[Annotated[int, Meta(ge=1, le=MAX_ROOM_TABLES)] | None,
                          _doc("tables the event may take from the pool; unset: any "
                               "free")] = None
    reservations: Annotated[bool, _doc("players reserve a seat from their phone "
                                       "(/p/EVENT), confirmed at the desk; a full event "
                                       "keeps an alternates list")] = False
    reservations_per_day: Annotated[int, _doc("reservations taken a day (0: no cap)",
                                              ge=0, le=100_000)] = 0
    reservations_per_address: Annotated[int, _doc("reservations from one address (0: no "
                                                  "cap)", ge=0, le=1000)] = 3
    reservation_hold: Annotated[str, _doc("an unconfirmed reservation lapses when late "
                                          "registration closes (late_reg), when play "
                                          "starts (start) or after level N (level-N)",
                                          pattern=r"^(late_reg|start|level-\d{1,3})$")] \
        = "late_reg"
    reservation_contact: Annotated[Literal["none", "phone", "email", "either"],
                                   _doc("what the reservation form asks beside the name")] \
        = "none"
    money: MoneySection = msgspec.field(default_factory=MoneySection)
    shot_clock: ShotClockSection = msgspec.field(default_factory=ShotClockSection)


class LeagueSection(_Section):
    """`[[leagues]]`: a season's points over the room's finished events."""

    name: Annotated[str, _doc("the league's name in its addresses (/p/league/NAME)",
                              pattern=r"^[a-z0-9][a-z0-9_-]{0,47}$")]
    title: Annotated[str, _doc("shown on the standings; unset: the name")] = ""
    events: Annotated[list[str], _doc("the events that count, by name")] = []
    kinds: Annotated[list[EventKind], _doc("...and every event of these kinds")] = []
    since: Annotated[str, _doc("...and every event finished on or after this date "
                               "(YYYY-MM-DD, UTC); none of the three: every finished "
                               "event", pattern=r"^(\d{4}-\d{2}-\d{2})?$")] = ""
    formula: Annotated[Literal["sqrt", "table", "expression"],
                       _doc("sqrt: scale * sqrt(entrants / place); table: `points` by "
                            "place; expression: `expression`")] = "sqrt"
    scale: Annotated[float, _doc("sqrt: the points of a winner of a field of one",
                                 gt=0, le=1e6)] = 10.0
    points: Annotated[list[Annotated[float, Meta(ge=0, le=1e6)]],
                      _doc("table: the points of 1st, 2nd, ... place (0 after)")] = []
    expression: Annotated[str, _doc("expression: over entrants, place, buy_in, prize "
                                    "and bounties, with + - * / // % **, sqrt, log, "
                                    "log10, abs, floor, ceil, round, min, max")] = ""
    best: Annotated[int, _doc("the best N results of each player count (0: all)",
                              ge=0, le=1000)] = 0


class RoomFile(_Section):
    """room.toml"""

    room: RoomSection
    broker: BrokerSection = msgspec.field(default_factory=BrokerSection)
    director: DirectorSection = msgspec.field(
        default_factory=lambda: DirectorSection(db="room.db"))
    printer: PrinterSection = msgspec.field(default_factory=PrinterSection)
    events: Annotated[list[RoomEventSection], Meta(max_length=200)] = []
    leagues: Annotated[list[LeagueSection], Meta(max_length=50)] = []
    dealers: DealersSection = msgspec.field(default_factory=DealersSection)
    sections: Annotated[list[SectionEntry], Meta(max_length=200)] = []


@dataclass(frozen=True)
class RoomEvent:
    """What the room knows of one event beside its tournament settings."""

    config: EventConfig
    title: str = ""
    kind: EventKind = "event"
    tables: int = 0
    target: str = ""
    flights: tuple[str, ...] = ()
    keep: Literal["largest", "first"] = "largest"
    draw: Literal["random", "stack"] = "random"
    scheduled: bool = False
    reservations: dict[str, Any] | None = None   # SetReservations fields, when taken
    starts: str = ""                   # when it starts: ISO 8601 with its offset ("": not said)

    @property
    def name(self) -> str:
        return self.config.name


@dataclass(frozen=True)
class RoomConfig:
    """The room as the director runs it. It carries the director's settings under the same
    names an EventConfig does, so the dashboard and the services read either."""

    name: str
    title: str = ""
    tables: int = 0                    # 0: a room of one legacy event numbers its own
    events: tuple[RoomEvent, ...] = ()
    legacy: bool = False               # read from an event.toml
    director: EventConfig = field(default_factory=lambda: EventConfig(name="room"))
    leagues: tuple[LeagueSpec, ...] = ()
    dealers: DealersConfig | None = None   # the rotation and the roster (kiosk.config.dealers)
    sections: tuple[tuple[str, tuple[int, ...]], ...] = ()   # (name, tables), file order
    calls_to_room_s: int = 60          # a section's call goes to the room after this
    timezone: str = ""                 # IANA name for times of day on pages ("": UTC)
    languages: tuple[str, ...] = ("en",)   # the room's, the default first
    table_languages: tuple[tuple[int, str], ...] = ()   # (table, its own language)
    currency: str = ""                 # ISO 4217 ("": plain amounts)

    @property
    def language(self) -> str:
        """The room's default language."""
        return self.languages[0] if self.languages else "en"

    def table_language(self, table: int) -> str:
        """The language `table` speaks: its own, else the room's default."""
        return dict(self.table_languages).get(table, self.language)

    def __getattr__(self, key: str) -> Any:
        """broker, db, http_host, tls_cert, floor_users, state_dir...: the director's."""
        if key.startswith("__"):
            raise AttributeError(key)
        return getattr(self.director, key)

    @property
    def pool(self) -> bool:
        """Whether events take their tables from the room's pool."""
        return not self.legacy

    @classmethod
    def of_event(cls, cfg: EventConfig) -> RoomConfig:
        """A room of one event: today's single-event director."""
        return cls(name=cfg.name, title=cfg.name, legacy=True, director=cfg,
                   events=(RoomEvent(config=cfg, title=cfg.name),))


def load_director_config(path: str | Path) -> RoomConfig:
    """room.toml, or an event.toml read as a room of one (with a one-line notice)."""
    source = str(path)
    data = read_toml(path)
    if "room" not in data and "event" in data:
        cfg = load_event_config(path)
        log.info("%s is a single-event config: read as a room of one event (%s); "
                 "docs/room.md says how to move to a room.toml", source, cfg.name)
        return RoomConfig.of_event(cfg)
    _check_room_size(source, data)
    doc = convert(source, data, RoomFile)
    name = _event_name(source, "room.name", doc.room.name)
    base = Path(path).parent
    director = director_settings(source, base, name, doc.broker, doc.director, doc.printer)
    events = []
    zone = _timezone(source, doc.room.timezone)
    for i, ev in enumerate(doc.events):
        event = _room_event(source, base, i, ev, director, name)
        events.append(replace(event, starts=_starts(source, i, event.starts, zone)))
    seen = [e.name for e in events]
    for dup in {n for n in seen if seen.count(n) > 1}:
        raise ConfigError(source, "events", f"two events are named {dup!r}")
    # the events others name first: a satellite's target and a Day 2's flights
    events.sort(key=lambda e: {"satellite": 1, "day2": 2}.get(e.kind, 0))
    return RoomConfig(name=name, title=doc.room.title or name, tables=doc.room.tables,
                      events=tuple(events), director=director,
                      leagues=tuple(_league(source, i, lg) for i, lg in enumerate(doc.leagues)),
                      dealers=dealers_config(source, doc.dealers),
                      sections=load_sections(source, doc.sections, doc.room.tables),
                      calls_to_room_s=doc.room.calls_to_room_s,
                      timezone=_timezone(source, doc.room.timezone),
                      **_languages(source, doc.room),
                      currency=_currency(source, doc.room.currency))


def _languages(source: str, room: RoomSection) -> dict[str, Any]:
    """The room's languages and the tables' own, each a shipped language; else the key
    and the codes there are."""
    def one(key: str, code: str) -> str:
        try:
            return check(code)
        except UnknownLanguage as exc:
            raise ConfigError(source, key, str(exc)) from None

    if not room.languages:
        raise ConfigError(source, "room.languages", "name at least one language: the first "
                          "is the room's default")
    langs = tuple(dict.fromkeys(one(f"room.languages.{i}", c)
                                for i, c in enumerate(room.languages)))
    tables = []
    for key, code in room.table_languages.items():
        where = f"room.table_languages.{key}"
        if not key.isdigit() or not 1 <= int(key) <= room.tables:
            raise ConfigError(source, where, f"{key!r} is no table of the room "
                              f"(1..{room.tables})")
        tables.append((int(key), one(where, code)))
    return {"languages": langs, "table_languages": tuple(sorted(tables))}


def _currency(source: str, code: str) -> str:
    """An ISO 4217 code CLDR knows, or ""; else the key and the reason."""
    if not code:
        return ""
    from babel.numbers import get_currency_name
    if get_currency_name(code, locale="en") == code:
        raise ConfigError(source, "room.currency", f"{code!r} is no currency CLDR knows "
                          "(an ISO 4217 code such as \"EUR\" or \"CZK\")")
    return code


def _timezone(source: str, name: str) -> str:
    """An IANA zone the system knows, or "" (UTC); else the key and the reason."""
    if not name:
        return ""
    try:
        ZoneInfo(name)
    except (ZoneInfoNotFoundError, ValueError):
        raise ConfigError(source, "room.timezone", f"{name!r} is no time zone this system "
                          "knows (an IANA name such as \"Europe/Vienna\")") from None
    return name


def _starts(source: str, i: int, text: str, zone: str) -> str:
    """An event's start as ISO 8601 with its offset (a time without one is the room's
    zone's), or ""; else the key, the reason and an example."""
    if not text:
        return ""
    try:
        when = datetime.fromisoformat(text)
    except ValueError:
        raise ConfigError(source, f"events.{i}.starts", M_(
            "config.starts_iso", "{text} is no date and time: write it as ISO 8601, such as "
            "\"2026-12-06T19:00\" (the room's time zone) or \"2026-12-06T19:00+01:00\"",
            text=repr(text))) from None
    if when.tzinfo is None:
        when = when.replace(tzinfo=ZoneInfo(zone) if zone else UTC)
    return when.isoformat(timespec="minutes")


def _check_room_size(source: str, data: dict[str, Any]) -> None:
    """A room past MAX_ROOM_TABLES is refused with the reason, not a bare bound."""
    tables = (data.get("room") or {}).get("tables") if isinstance(data.get("room"), dict) \
        else None
    if isinstance(tables, int) and not isinstance(tables, bool) and tables > MAX_ROOM_TABLES:
        raise ConfigError(source, "room.tables",
                          f"{tables} tables: a room holds at most {MAX_ROOM_TABLES:,} (one "
                          "director serves every table's plan, calls and connection); "
                          "split the floor into two rooms")


def _league(source: str, i: int, lg: LeagueSection) -> LeagueSpec:
    """A league, its formula checked now: a formula that does not parse or evaluate is
    refused with its line in the file and the reason."""
    key = {"expression": "expression", "table": "points"}.get(lg.formula, "scale")
    try:
        f = formula(lg.formula, lg.expression, lg.scale, lg.points)
    except FormulaError as exc:
        line = _line_of(source, "leagues", i, key)
        raise ConfigError(source, f"leagues.{i}.{key}",
                          (f"line {line}: " if line else "") + str(exc)) from None
    since = None
    if lg.since:
        try:
            since = datetime.strptime(lg.since, "%Y-%m-%d").replace(tzinfo=UTC).timestamp()
        except ValueError as exc:
            raise ConfigError(source, f"leagues.{i}.since", str(exc)) from None
    return LeagueSpec(lg.name, lg.title or lg.name, f, tuple(lg.events), tuple(lg.kinds),
                      since, lg.best)


def _line_of(source: str, table: str, i: int, key: str) -> int | None:
    """The line of `key` in the i-th `[[table]]` of the file (None if not found)."""
    try:
        lines = Path(source).read_text(encoding="utf-8").splitlines()
    except OSError:
        return None
    seen, inside = -1, False
    for n, text in enumerate(lines, 1):
        stripped = text.strip()
        if stripped.startswith("["):
            seen += stripped.replace(" ", "") == f"[[{table}]]"
            inside = stripped.replace(" ", "") == f"[[{table}]]" and seen == i
            continue
        if seen == i and inside and stripped.split("=")[0].strip() == key:
            return n
    return None


def event_spec(room: RoomConfig, data: dict[str, Any],
               source: str = "the new event") -> RoomEvent:
    """An event to open while the room runs, from the same schema as `[[events]]`."""
    ev = convert(source, data, RoomEventSection)
    return _room_event(source, Path(room.source or ".").parent, 0, ev, room.director,
                       room.name, key="")


def _room_event(source: str, base: Path, i: int, ev: RoomEventSection,
                director: EventConfig, room: str, key: str | None = None) -> RoomEvent:
    key = f"events.{i}" if key is None else key
    ename = _event_name(source, f"{key}.name".lstrip("."), ev.name)
    if ename == "room":
        raise ConfigError(source, f"{key}.name".lstrip("."), M_(
            "event.name_room", "'room' names the room's own stream; choose another event "
            "name"))
    try:
        _check_rules(source, ev)
    except ConfigError as exc:
        raise ConfigError(source, f"{key}.{exc.key.rpartition('.')[2]}".lstrip("."),
                          exc.problem_msg) from None
    money = _money(source, base, ev, ev.money)
    shot = shot_clock(source, ev, ev.shot_clock, f"{key}.shot_clock".lstrip("."))
    cfg = replace(director, name=ename, profile=ev.profile, structure=ev.structure,
                  seats=ev.seats, start_stack=ev.start_stack, buy_in=ev.buy_in,
                  payout_percent=ev.payout_percent, seed=ev.seed, money=money,
                  chip_set=tuple(sorted(ev.money.chip_set)),
                  h4h_at_bubble=ev.money.h4h_at_bubble, chip_race=ev.money.chip_race,
                  satellite_leftover=ev.money.satellite_leftover,
                  public_counts=ev.money.public_counts, max_entries=ev.max_entries,
                  max_tables=ev.max_tables, shot_clock=shot)
    if ev.kind == "satellite" and not ev.target:
        raise ConfigError(source, f"{key}.target".lstrip("."), M_(
            "satellite.names_target", "a satellite names the event its seats are for"))
    if ev.kind == "day2" and not ev.flights:
        raise ConfigError(source, f"{key}.flights".lstrip("."), M_(
            "day2.names_flights", "a Day 2 names the flights it is made of"))
    return RoomEvent(config=cfg, title=ev.title or ename, kind=ev.kind, tables=ev.tables,
                     target=ev.target, flights=tuple(ev.flights), keep=ev.keep, draw=ev.draw,
                     scheduled=ev.scheduled, reservations=_reservations(ev),
                     starts=ev.starts.strip())


def _reservations(ev: RoomEventSection) -> dict[str, Any] | None:
    """The event's reservation terms as the room's `set_reservations` takes them."""
    if not ev.reservations:
        return None
    return {"per_day": ev.reservations_per_day, "per_address": ev.reservations_per_address,
            "hold": ev.reservation_hold, "contact": ev.reservation_contact}


__all__ = ["RoomConfig", "RoomEvent", "RoomFile", "event_spec", "load_director_config"]
