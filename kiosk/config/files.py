"""The director's event.toml and each table's table.toml, from one declared schema.

The msgspec Structs below are the schema: every key, its type, bounds, default and
meaning is declared once, here. The loaders convert a file with it (unknown and
wrong keys are named with file, key and expected type), then build the runtime
configs the services use. docs/config.md is generated from the same Structs.
"""

from __future__ import annotations

import logging
import re
import typing
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Annotated, Any, Literal, TypeVar
from urllib.parse import urlparse

import msgspec
from msgspec import Meta

from kiosk.base.errors import ConfigError
from kiosk.base.texts import M_, Msg
from kiosk.base.tomlfile import read_toml
from kiosk.config.database import is_dsn
from kiosk.printer.codepages import DEFAULT_PAGES, check_pages
from kiosk.printer.settings import PrinterConfig
from kiosk.protocol.topics import check_event_name, check_room_name

T = TypeVar("T")
log = logging.getLogger("kiosk.config.files")
LOOPBACK = ("127.0.0.1", "::1", "localhost")


def _doc(text: str, **bounds: Any) -> Meta:
    return Meta(description=text, **bounds)


class _Section(msgspec.Struct, forbid_unknown_fields=True, kw_only=True):
    pass


# ------------------------------------------------------------------ the schema
class BrokerSection(_Section):
    """`[broker]`: where the MQTT broker is and how to log in."""

    url: Annotated[str, _doc("mqtt://host:port, or mqtts://host:port for TLS; "
                             "?mqtt311 for MQTT 3.1.1 brokers")] = "mqtt://127.0.0.1:1883"
    urls: Annotated[list[str], _doc(
        "several brokers (same scheme, same logins), in order of preference: the "
        "first that answers is used, and when it is gone the next one; set, it "
        "replaces `url`")] = []
    username: Annotated[str | None, _doc("broker user (provision: director, table-N)")] = None
    password: Annotated[str | None, _doc("that user's broker password")] = None
    ca_file: Annotated[str | None, _doc("CA certificate that signed the broker's "
                                        "certificate (mqtts://)")] = None


class EventSection(_Section):
    """`[event]`: the tournament. Fixed once the event exists (its first event is logged)."""

    name: Annotated[str, _doc("event name, used in the MQTT topics (letters, digits, "
                              "'-', '_')")]
    profile: Annotated[str | None, _doc(
        "house rule profile id (`pokerkiosk profiles`) or a profile file; unset: tda-2024 "
        "for a new event, while an event already logged keeps the profile it was created "
        "with")] = None
    structure: Annotated[str, _doc("blind structure id or file")] = "standard"
    seats: Annotated[int, _doc("seats per table", ge=2, le=10)] = 9
    start_stack: Annotated[Annotated[int, Meta(ge=1)] | None,
                           _doc("chips per entry; unset: the structure's start_stack")] = None
    buy_in: Annotated[int, _doc("buy-in per entry, for the prize pool", ge=0)] = 100
    payout_percent: Annotated[float, _doc("share of the field paid", ge=1, le=100)] = 15.0
    seed: Annotated[int | None, _doc("seed for seat draws; unset: random")] = None


class DirectorSection(_Section):
    """`[director]`: the director service on this machine."""

    db: Annotated[str, _doc("event log: a SQLite file, relative to this file (its folder "
                            "is the state directory: floor sessions are kept there too), "
                            "or a PostgreSQL database, postgresql://user@host/dbname "
                            "(the state directory is then this file's folder)")] \
        = "event.db"
    http: Annotated[str, _doc("dashboard address host:port; anything but 127.0.0.1 "
                              "needs tls_cert and tls_key")] = "127.0.0.1:8080"
    tls_cert: Annotated[str | None, _doc("certificate for HTTPS (provision --tls: "
                                         "https.crt)")] = None
    tls_key: Annotated[str | None, _doc("its private key (provision --tls: https.key)")] = None
    floor_users_file: Annotated[str, _doc("floor logins (argon2 hashes), relative to this "
                                          "file; `pokerkiosk floor-user add NAME`")] \
        = "floor-users.toml"
    public_url: Annotated[str, _doc("the address players' phones reach the director by "
                                    "(https://poker.example.org), for the QR codes on the "
                                    "TV clock and the seat cards; unset: `http`'s own",
                                    pattern=r"^(https?://[^\s/?#]+(/[^\s?#]*)?)?$")] = ""
    slips_at_table: Annotated[bool, _doc("a table with its own [printer] prints the payout "
                                         "slip of a player who busts there with money "
                                         "to collect, for the dealer to hand over; the "
                                         "desk's printer prints its copy as always")] = False


class MoneySection(_Section):
    """`[money]`: how each buy-in splits, bounties, the payout table, chips in play."""

    fee: Annotated[int, _doc("house fee per entry", ge=0)] = 0
    staff: Annotated[int, _doc("staff share per entry", ge=0)] = 0
    bounty: Annotated[int, _doc("bounty per entry (needs bounty_mode)", ge=0)] = 0
    bounty_mode: Annotated[Literal["", "fixed", "pko"],
                           _doc("fixed bounties, or pko (progressive knockouts)")] = ""
    pko_percent: Annotated[int, _doc("PKO: share of a bounty paid in cash, the rest onto "
                                     "the eliminator's head", ge=0, le=100)] = 50
    addon: Annotated[Annotated[int, Meta(ge=0)] | None,
                     _doc("add-on prize money; unset: the buy-in")] = None
    guarantee: Annotated[int, _doc("prize pool at least this (the house pays the overlay)",
                                   ge=0)] = 0
    table: Annotated[Literal["standard", "percent", "wta", "shares"],
                     _doc("payout table: by field size, percent_paid, winner-take-all, or "
                          "shares_csv")] = "standard"
    percent_paid: Annotated[Annotated[float, Meta(ge=0.01, le=100)] | None,
                            _doc("table = percent: share of the field paid; unset: [event] "
                                 "payout_percent")] = None
    shares_csv: Annotated[str | None, _doc("payout table as place,percent rows; relative to "
                                           "this file")] = None
    rounding: Annotated[int, _doc("prizes are multiples of this; first place takes the rest",
                                  ge=1)] = 1
    seat_value: Annotated[int, _doc("satellites: a seat in the target event costs this",
                                    ge=0)] = 0
    target_event: Annotated[str, _doc("satellites: the event the seats are for")] = ""
    satellite_leftover: Annotated[Literal["next", "split"],
                                  _doc("satellites: the cash left over after the seats goes "
                                       "to the next finisher, or is split among the seat "
                                       "winners; a change applies at the director's next "
                                       "start, logged, until the payouts are locked "
                                       "(refused after)")] = "next"
    chip_set: Annotated[list[Annotated[int, Meta(ge=1)]],
                        _doc("denominations in play; with them a break where one leaves "
                             "play races it off at every table; a change applies at the "
                             "director's next start, logged, when no colour-up race is owed "
                             "and the smallest chip on the tables stays the same (refused "
                             "otherwise)")] = []
    h4h_at_bubble: Annotated[bool, _doc("hand-for-hand from the bubble until the money; a "
                                        "change applies at the director's next start, "
                                        "logged, while hand-for-hand is off (refused while "
                                        "it runs)")] = False
    chip_race: Annotated[Literal["dealer", "draw"],
                         _doc("colour-up races: the dealer deals real cards and enters the "
                              "winners, or the director draws them (demo, simulator); a "
                              "change applies at the director's next start, logged, when "
                              "no colour-up race is owed (refused while one is)")] \
        = "dealer"
    public_counts: Annotated[bool, _doc("the players' own pages (/p/EVENT) show the chip "
                                        "counts entered at the tables; false: only the "
                                        "average")] = True


class ShotClockSection(_Section):
    """`[shot_clock]`: a shot clock on every decision, with time-bank cards (TDA RP-19).
    Fixed once the event exists; where it runs, the floor changes while it plays."""

    seconds: Annotated[int, _doc("seconds each decision gets (0: no shot clock)",
                                 ge=0, le=600)] = 0
    applies: Annotated[Literal["event", "level", "final"],
                       _doc("where it runs at the start: the whole event, from level "
                            "`from_level` on, or the final table only")] = "event"
    from_level: Annotated[int, _doc("applies = level: the first level it runs at",
                                    ge=1, le=500)] = 1
    bank_cards: Annotated[int, _doc("time-bank cards each player holds at the start (0: "
                                    "no time bank)", ge=0, le=50)] = 0
    bank_seconds: Annotated[int, _doc("seconds one card adds to the running shot clock",
                                      ge=1, le=600)] = 30
    bank_levels: Annotated[list[Annotated[int, Meta(ge=1, le=500)]],
                           _doc("levels at whose start every player gets `bank_cards` "
                                "more", max_length=100)] = []
    bank_days: Annotated[list[Annotated[int, Meta(ge=2, le=100)]],
                         _doc("days at whose start every player gets `bank_cards` more",
                              max_length=100)] = []


class PrinterSection(_Section):
    """`[printer]`: a receipt printer for seat cards, receipts and payout slips (the
    director's desk in event.toml or room.toml; a table's own in table.toml)."""

    port: Annotated[str | None, _doc("serial:/dev/ttyUSB0?baud=19200, usb:VID:PID (hex, "
                                     "the kernel's usblp device), tcp:host:9100, or "
                                     "file:PATH (appends the raw bytes); unset: no "
                                     "printer")] = None
    columns: Annotated[int, _doc("characters per line: 48 on 80 mm paper, 32 on 58 mm",
                                 ge=24, le=64)] = 42
    status: Annotated[bool, _doc("ask the printer for paper (DLE EOT) before each slip; "
                                 "false for printers that never answer")] = True
    retry: Annotated[float, _doc("seconds between tries while the printer is off, out of "
                                 "paper or unplugged", ge=0.2, le=600)] = 5.0
    player_url: Annotated[str, _doc("an event's public player page for the QR code on seat "
                                    "cards, {event} replaced by its name "
                                    "(https://poker.example/p/{event}); empty: no QR")] = ""
    paper: Annotated[Literal[58, 80], _doc("the paper's width in mm: a line in a script "
                                           "the printer has no font for (Chinese) prints "
                                           "as an image 384 (58 mm) or 576 (80 mm) dots "
                                           "wide")] = 80
    code_pages: Annotated[dict[str, int] | None,
                          _doc("the code pages the printer has and their ESC t numbers "
                               "(default Epson's: cp437 = 0, cp850 = 2, cp1252 = 16, "
                               "cp866 = 17, cp852 = 18, cp858 = 19); a Czech slip prints "
                               "in cp852, Western European ones in cp858 "
                               "(docs/languages.md)")] = None


class EventFile(_Section):
    """event.toml"""

    event: EventSection
    broker: BrokerSection = msgspec.field(default_factory=BrokerSection)
    director: DirectorSection = msgspec.field(default_factory=DirectorSection)
    money: MoneySection = msgspec.field(default_factory=MoneySection)
    printer: PrinterSection = msgspec.field(default_factory=PrinterSection)
    shot_clock: ShotClockSection = msgspec.field(default_factory=ShotClockSection)


class TableSection(_Section):
    """`[table]`: which table this kiosk is."""

    number: Annotated[int, _doc("table number", ge=1, le=9999)]
    room: Annotated[str | None, _doc("the room's name, as the director names it (needed: "
                                     "this key or `event`); the table serves whichever event "
                                     "the room assigns it")] = None
    event: Annotated[str | None, _doc("the old name of `room`, read as the room's name with a "
                                      "notice (a single-event director's room is named after "
                                      "its event)")] = None
    state_dir: Annotated[str, _doc("folder for the outbox; relative to this file")] = "."


class GpioSection(_Section):
    """`[gpio]`: BCM pin numbers and button timing; defaults match firmware_cfg/config.txt."""

    enabled: Annotated[bool, _doc("false: no buttons or lights (a PC, the demo)")] = True
    allin: Annotated[int, _doc("ALL-IN button pin", ge=0, le=27)] = 17
    clock: Annotated[int, _doc("CLOCK button pin", ge=0, le=27)] = 27
    floor: Annotated[int, _doc("FLOOR button pin", ge=0, le=27)] = 22
    floor_led: Annotated[int, _doc("floor light pin", ge=0, le=27)] = 5
    clock_led: Annotated[int, _doc("clock light pin", ge=0, le=27)] = 6
    buzzer: Annotated[int, _doc("buzzer pin", ge=0, le=27)] = 13
    bounce: Annotated[float, _doc("button debounce, seconds", ge=0, le=1)] = 0.05
    hold_to_cancel: Annotated[float, _doc("a press held this long cancels, seconds",
                                          ge=0.2, le=10)] = 1.5


class ReaderSection(_Section):
    """`[reader]`: the serial card reader."""

    port: Annotated[str | None, _doc("serial port: /dev/ttyAMA0 (the header's UART), or a "
                                     "USB reader's /dev/serial/by-id/... (ttyUSBn can "
                                     "change between boots); unset: no reader")] = None
    baud: Annotated[int, _doc("baud rate", ge=300)] = 9600


class UiSection(_Section):
    """`[ui]`: the dealer screen."""

    size: Annotated[str, _doc("window size WIDTHxHEIGHT", pattern=r"^\d+x\d+$")] = "800x480"
    fullscreen: Annotated[bool, _doc("fill the screen (the Pi)")] = False
    log_touches: Annotated[bool, _doc("log each touch's device and place, and each screen "
                                      "it meets, in the journal, to commission a touch "
                                      "panel (docs/install.md)")] = False


class TableFile(_Section):
    """table.toml"""

    table: TableSection
    broker: BrokerSection = msgspec.field(default_factory=BrokerSection)
    gpio: GpioSection = msgspec.field(default_factory=GpioSection)
    reader: ReaderSection = msgspec.field(default_factory=ReaderSection)
    ui: UiSection = msgspec.field(default_factory=UiSection)
    printer: PrinterSection = msgspec.field(default_factory=PrinterSection)


def defaults(cls: type) -> dict[str, Any]:
    """The declared defaults of a schema Struct: the one place they are written."""
    out = {}
    for f in msgspec.structs.fields(cls):
        if f.default is not msgspec.NODEFAULT:
            out[f.name] = f.default
        elif f.default_factory is not msgspec.NODEFAULT:
            out[f.name] = f.default_factory()
    return out


_EV, _DIR, _GPIO = defaults(EventSection), defaults(DirectorSection), defaults(GpioSection)
_BROKER = urlparse(defaults(BrokerSection)["url"])


# -------------------------------------------------------------- file -> schema
_PATH = re.compile(r"^(?P<msg>.*?)(?: - at `\$(?P<path>[^`]*)`)?$", re.S)


def convert(source: str, data: dict[str, Any], cls: type[T]) -> T:
    """`data` as `cls`; any mismatch becomes a ConfigError naming file, key and type."""
    try:
        return msgspec.convert(data, cls)
    except msgspec.ValidationError as exc:
        m = _PATH.match(str(exc))
        assert m is not None
        msg, path = m.group("msg"), (m.group("path") or "").lstrip(".")
        path = re.sub(r"\[(\d+)\]", r".\1", path)
        unknown = re.match(r"Object contains unknown field `(.+)`", msg)
        missing = re.match(r"Object missing required field `(.+)`", msg)
        if unknown:
            key = f"{path}.{unknown.group(1)}".lstrip(".")
            known = ", ".join(f.name for f in msgspec.structs.fields(_struct_at(cls, path)))
            raise ConfigError(source, key, M_("config.unknown_key", "unknown key (known: "
                                              "{known})", known=known)) from None
        if missing:
            raise ConfigError(source, f"{path}.{missing.group(1)}".lstrip("."),
                              M_("config.missing", "missing (required)")) from None
        if msg.startswith("Invalid enum value"):
            msg += f" (expected one of: {_choices(cls, path)})"
        raise ConfigError(source, path, _readable(msg)) from None


def _readable(msg: str) -> str:
    msg = msg.replace(" | null`", "`").replace("`object`", "a table").replace("`array`", "a list")
    msg = msg.replace("`str`", "a string").replace("`int`", "an integer")
    msg = msg.replace("`float`", "a number").replace("`bool`", "true/false")
    return msg[0].lower() + msg[1:]


def _struct_at(cls: type, path: str) -> Any:
    """The declared type at a dotted path (list items by number)."""
    t: Any = cls
    for part in filter(None, path.split(".")):
        while typing.get_origin(t) in (Annotated, list):
            t = typing.get_args(t)[0]
        if part.isdigit():
            continue
        t = next(f for f in msgspec.structs.fields(t) if f.name == part).type
    return t


def _choices(cls: type, path: str) -> str:
    t = _struct_at(cls, path)
    while typing.get_origin(t) is Annotated:
        t = typing.get_args(t)[0]
    return ", ".join(repr(c) for c in typing.get_args(t)) or "?"


# ------------------------------------------------------------ runtime configs
@dataclass(frozen=True)
class BrokerConfig:
    """Where the broker is and how to log in; `mqtts://` turns TLS on."""

    host: str = _BROKER.hostname or "127.0.0.1"
    port: int = _BROKER.port or 1883
    tls: bool = False
    username: str | None = None
    password: str | None = None
    ca_file: str | None = None
    mqtt_version: int = 5      # 5, or 3 for MQTT 3.1.1 brokers (the embedded demo broker)
    more: tuple[tuple[str, int], ...] = ()   # further brokers, tried after host:port

    @property
    def url(self) -> str:
        return self.url_of(self.host, self.port)

    def url_of(self, host: str, port: int) -> str:
        return f"{'mqtts' if self.tls else 'mqtt'}://{host}:{port}"

    @property
    def addresses(self) -> tuple[tuple[str, int], ...]:
        """Every broker in order of preference, host:port first."""
        return ((self.host, self.port), *self.more)

    @property
    def urls(self) -> list[str]:
        return [self.url_of(h, p) for h, p in self.addresses]

    @classmethod
    def from_url(cls, url: str, **kw: object) -> BrokerConfig:
        u = urlparse(url)
        try:
            port = u.port
        except ValueError:
            port = -1
        if u.scheme not in ("mqtt", "mqtts") or not u.hostname or port == -1:
            raise ValueError(f"broker url {url!r} must look like mqtt://host:port or "
                             "mqtts://host:port")
        tls = u.scheme == "mqtts"
        return cls(host=u.hostname, port=port or (8883 if tls else 1883), tls=tls,
                   username=u.username or kw.get("username"),  # type: ignore[arg-type]
                   password=u.password or kw.get("password"),  # type: ignore[arg-type]
                   ca_file=kw.get("ca_file"),  # type: ignore[arg-type]
                   mqtt_version=3 if "mqtt311" in (u.query or "") else 5)


def _broker(source: str, b: BrokerSection) -> BrokerConfig:
    key, urls = ("broker.urls", b.urls) if b.urls else ("broker.url", [b.url])
    if b.urls and b.url != defaults(BrokerSection)["url"] and b.url not in b.urls:
        raise ConfigError(source, "broker.url", f"{b.url!r} is not in broker.urls: set one "
                          "of them (urls lists every broker, in order)")
    try:
        brokers = [BrokerConfig.from_url(u, username=b.username, password=b.password,
                                         ca_file=b.ca_file) for u in urls]
    except ValueError as exc:
        raise ConfigError(source, key, str(exc)) from None
    first = brokers[0]
    if any(replace(o, host=first.host, port=first.port) != first for o in brokers[1:]):
        raise ConfigError(source, key, "every broker must use the same scheme (mqtt:// or "
                          "mqtts://), MQTT version and login")
    if len(set(o.addresses for o in brokers)) < len(brokers):
        raise ConfigError(source, key, "a broker is listed twice")
    return replace(first, more=tuple((o.host, o.port) for o in brokers[1:]))


def _why(exc: Exception) -> Msg | str:
    """An error's sentence, as its message key when it has one (a page shows it in its
    reader's language), else its English line."""
    found = getattr(exc, "msg", None)
    return found if isinstance(found, Msg) else str(exc)


def _event_name(source: str, key: str, name: str) -> str:
    try:
        return check_event_name(name)
    except ValueError:
        raise ConfigError(source, key, M_("event.bad_name", "event name '{name}' must be "
                                          "1-48 chars of a-z, 0-9, '-' or '_'",
                                          name=name)) from None


def _table_room(source: str, t: TableSection) -> str:
    """`[table] room`, or a legacy `event` read as the room's name with a notice."""
    if t.room is not None and t.event is not None:
        raise ConfigError(source, "table.event", "give only `room` (`event` is its old name)")
    if t.room is not None:
        return _room_name(source, "table.room", t.room)
    if t.event is None:
        raise ConfigError(source, "table.room", "missing: the room's name")
    log.warning("%s: [table] event = %r is read as room = %r; rename the key to `room`",
                source, t.event, t.event)
    return _room_name(source, "table.event", t.event)


def _room_name(source: str, key: str, name: str) -> str:
    try:
        return check_room_name(name)
    except ValueError as exc:
        raise ConfigError(source, key, str(exc)) from None


def parse_http(text: str) -> tuple[str, int]:
    """`host:port` with a port in 0..65535; ValueError with a readable message."""
    host, _, port = text.rpartition(":")
    host = host.strip("[]")
    if not host or not port.isdigit() or not 0 <= int(port) <= 65535:
        raise ValueError(f"expected host:port with a port up to 65535, got {text!r}")
    return host, int(port)


@dataclass(frozen=True)
class EventConfig:
    """One tournament as the director runs it."""

    name: str
    profile: str | None = _EV["profile"]   # None: the default for a new event
    structure: str = _EV["structure"]
    seats: int = _EV["seats"]
    start_stack: int | None = _EV["start_stack"]
    buy_in: int = _EV["buy_in"]
    payout_percent: float = _EV["payout_percent"]
    seed: int | None = _EV["seed"]
    broker: BrokerConfig = field(default_factory=BrokerConfig)
    db: str = _DIR["db"]
    http_host: str = parse_http(_DIR["http"])[0]
    http_port: int = parse_http(_DIR["http"])[1]
    tls_cert: str | None = None
    tls_key: str | None = None
    floor_users: dict[str, str] = field(default_factory=dict)   # user -> argon2 hash
    floor_users_file: str | None = None   # re-read when it changes
    allow_default_logins: bool = False    # the demo's floor/floor; never from a file
    source: str = ""
    money: dict[str, Any] = field(default_factory=dict)   # kiosk.core.calc.payouts.PrizeRules
    chip_set: tuple[int, ...] = ()
    h4h_at_bubble: bool = False
    chip_race: str = "dealer"             # "dealer" | "draw": who races at a colour-up
    satellite_leftover: str = "next"      # "next" | "split": a satellite's leftover cash
    printer: PrinterConfig | None = None  # the desk's receipt printer
    public_url: str = ""                  # players' address of the director (QR codes)
    slips_at_table: bool = False          # tables with a printer print their busts' payouts
    public_counts: bool = True            # chip counts on the public player pages
    max_entries: int | None = None        # stacks for sale (a room's [[events]])
    max_tables: int | None = None         # tables the event may take
    shot_clock: dict[str, Any] | None = None   # kiosk.core.model.stall_events.ShotClockSpec

    @property
    def https(self) -> bool:
        return bool(self.tls_cert and self.tls_key)

    @property
    def state_dir(self) -> Path:
        if is_dsn(self.db):
            return Path(self.source).parent if self.source else Path(".")
        return Path(self.db).parent

    def fixed(self) -> dict[str, Any]:
        """The [event] settings fixed once the event exists, as the file gives them."""
        return {k: getattr(self, k) for k in ("profile", "structure", "seats", "start_stack",
                                              "buy_in", "payout_percent", "seed")}


def _relative(base: Path, value: str) -> str:
    return str(value if Path(value).is_absolute() else base / value)


def _database(base: Path, db: str) -> str:
    """A SQLite file relative to the config; a PostgreSQL DSN as written."""
    return db if is_dsn(db) else _relative(base, db)


def load_event_config(path: str | Path) -> EventConfig:
    source = str(path)
    data = read_toml(path)
    director = data.get("director")
    if isinstance(director, dict) and "floor_users" in director:
        raise ConfigError(source, "director.floor_users",
                          "floor logins now live hashed in floor-users.toml beside this "
                          "file: remove this key and run `pokerkiosk floor-user add NAME "
                          f"--config {source}` for each user")
    doc = convert(source, data, EventFile)
    ev = doc.event
    base = Path(path).parent
    name = _event_name(source, "event.name", ev.name)
    settings = director_settings(source, base, name, doc.broker, doc.director, doc.printer)
    _check_rules(source, ev)
    money = _money(source, base, ev, doc.money)
    shot = shot_clock(source, ev, doc.shot_clock)
    return replace(
        settings, profile=ev.profile, structure=ev.structure, seats=ev.seats,
        start_stack=ev.start_stack, buy_in=ev.buy_in, payout_percent=ev.payout_percent,
        seed=ev.seed, money=money, chip_set=tuple(sorted(doc.money.chip_set)),
        h4h_at_bubble=doc.money.h4h_at_bubble, chip_race=doc.money.chip_race,
        satellite_leftover=doc.money.satellite_leftover, public_counts=doc.money.public_counts,
        shot_clock=shot)


def director_settings(source: str, base: Path, name: str, broker: BrokerSection,
                      d: DirectorSection, printer: PrinterSection | None = None
                      ) -> EventConfig:
    """The director's own settings (broker, log, dashboard, logins), checked: shared by an
    event.toml and a room.toml."""
    from kiosk.config import floor_users

    try:
        host, port = parse_http(d.http)
    except ValueError as exc:
        raise ConfigError(source, "director.http", str(exc)) from None
    if bool(d.tls_cert) != bool(d.tls_key):
        raise ConfigError(source, "director.tls_cert" if not d.tls_cert else "director.tls_key",
                          "set both tls_cert and tls_key, or neither")
    cert = _relative(base, d.tls_cert) if d.tls_cert else None
    key = _relative(base, d.tls_key) if d.tls_key else None
    for label, file in (("tls_cert", cert), ("tls_key", key)):
        if file and not Path(file).is_file():
            raise ConfigError(source, f"director.{label}", f"{file} not found")
    if host not in LOOPBACK and not cert:
        raise ConfigError(source, "director.http",
                          f"{d.http} would send floor passwords across the room in clear: "
                          "set tls_cert and tls_key (provision --tls writes them) or listen "
                          "on 127.0.0.1 only")
    users_file = _relative(base, d.floor_users_file)
    return EventConfig(
        name=name, broker=_broker(source, broker), db=_database(base, d.db), http_host=host,
        http_port=port, tls_cert=cert, tls_key=key, floor_users=floor_users.load(users_file),
        floor_users_file=users_file, source=source, public_url=d.public_url.rstrip("/"),
        slips_at_table=d.slips_at_table,
        printer=printer_settings(source, base, printer or PrinterSection()))


def printer_settings(source: str, base: Path, p: PrinterSection) -> PrinterConfig | None:
    """`[printer]` checked; a `file:` path relative to the config file."""
    if p.port is None:
        return None
    port = p.port
    if port.startswith("file:"):
        port = "file:" + _relative(base, port[5:])
    if p.player_url and not urlparse(p.player_url).scheme.startswith("http"):
        raise ConfigError(source, "printer.player_url",
                          f"expected an http:// or https:// address, got {p.player_url!r}")
    try:
        pages = tuple(check_pages(p.code_pages).items()) if p.code_pages is not None \
            else tuple(DEFAULT_PAGES.items())
    except ValueError as exc:
        raise ConfigError(source, "printer.code_pages", str(exc)) from None
    try:
        return PrinterConfig.of(port, columns=p.columns, status=p.status, retry=p.retry,
                                player_url=p.player_url, paper=p.paper, code_pages=pages)
    except ValueError as exc:
        raise ConfigError(source, "printer.port", str(exc)) from None


def _money(source: str, base: Path, ev: EventSection, m: MoneySection) -> dict[str, Any]:
    """The prize rules the core takes (kiosk.core.calc.payouts.PrizeRules), checked."""
    from kiosk.base.errors import RuleError
    from kiosk.core.calc.payouts import PrizeRules, parse_shares_csv

    rules: dict[str, Any] = {
        "buy_in": ev.buy_in, "fee": m.fee, "staff": m.staff, "bounty": m.bounty,
        "bounty_mode": m.bounty_mode, "pko_percent": m.pko_percent, "addon": m.addon,
        "guarantee": m.guarantee, "table": m.table,
        "percent_paid": ev.payout_percent if m.percent_paid is None else m.percent_paid,
        "rounding": m.rounding, "seat_value": m.seat_value, "target_event": m.target_event}
    if m.shares_csv:
        try:
            text = Path(_relative(base, m.shares_csv)).read_text(encoding="utf-8")
            rules["shares"] = list(parse_shares_csv(text))
        except (OSError, RuleError) as exc:
            raise ConfigError(source, "money.shares_csv", _why(exc)) from None
        rules["table"] = "shares"
    try:
        PrizeRules.from_dict(rules)
    except RuleError as exc:
        raise ConfigError(source, "money.table" if "table" in str(exc) or "share" in str(exc)
                          else "money.bounty", _why(exc)) from None
    return rules


def _check_rules(source: str, ev: EventSection) -> None:
    """A profile or structure typo is named at start, before any event is written, and
    so is a structure the profile refuses (TDA 2024 RP-11: antes never reduced) or cannot
    run (levels counted in hands under a time-only procedure)."""
    from kiosk.rules.loader import DEFAULT_PROFILE, load_profile
    from kiosk.rules.stalling import structure_problem
    from kiosk.rules.structure import structure_refusal
    from kiosk.rules.structure_files import load_structure

    try:
        profile = load_profile(ev.profile or DEFAULT_PROFILE)
    except ConfigError as exc:
        raise ConfigError(source, "event.profile", _why(exc)) from None
    try:
        structure = load_structure(ev.structure)
    except ConfigError as exc:
        raise ConfigError(source, "event.structure", _why(exc)) from None
    if refused := structure_refusal(profile, structure) or structure_problem(profile,
                                                                             structure):
        raise ConfigError(source, "event.structure", refused)


def shot_clock(source: str, ev: EventSection, s: ShotClockSection,
               key: str = "shot_clock") -> dict[str, Any] | None:
    """The event's shot clock as its first event records it (None: it has none), checked
    against its profile and structure."""
    from kiosk.rules.loader import DEFAULT_PROFILE, load_profile
    from kiosk.rules.stalling import shot_clock_problem
    from kiosk.rules.structure_files import load_structure

    bad = shot_clock_problem(load_profile(ev.profile or DEFAULT_PROFILE),
                             load_structure(ev.structure), s.seconds, s.bank_cards,
                             s.bank_levels, s.from_level)
    if bad:
        raise ConfigError(source, f"{key}.{bad[0]}", bad[1])
    if not s.seconds:
        return None
    out: dict[str, Any] = {"seconds": s.seconds, "applies": s.applies,
                           "from_level": s.from_level}
    if s.bank_cards:
        out.update(bank_cards=s.bank_cards, bank_seconds=s.bank_seconds,
                   bank_levels=sorted(set(s.bank_levels)), bank_days=sorted(set(s.bank_days)))
    return out


@dataclass(frozen=True)
class GpioConfig:
    """BCM pin numbers and button timing (defaults: GpioSection)."""

    allin: int = _GPIO["allin"]
    clock: int = _GPIO["clock"]
    floor: int = _GPIO["floor"]
    floor_led: int = _GPIO["floor_led"]
    clock_led: int = _GPIO["clock_led"]
    buzzer: int = _GPIO["buzzer"]
    bounce_s: float = _GPIO["bounce"]
    hold_to_cancel_s: float = _GPIO["hold_to_cancel"]


@dataclass(frozen=True)
class TableConfig:
    """One table kiosk, provisioned to a room (never to one event)."""

    table: int
    room: str
    broker: BrokerConfig = field(default_factory=BrokerConfig)
    state_dir: str = "."
    gpio: GpioConfig | None = field(default_factory=GpioConfig)
    reader_port: str | None = None
    reader_baud: int = 9600
    ui_size: str = "800x480"
    fullscreen: bool = False
    log_touches: bool = False
    source: str = ""
    printer: PrinterConfig | None = None  # prints the seat cards of players moved here


def load_table_config(path: str | Path) -> TableConfig:
    source = str(path)
    doc = convert(source, read_toml(path), TableFile)
    g = doc.gpio
    pins = {k: getattr(g, k) for k in ("allin", "clock", "floor", "floor_led", "clock_led",
                                       "buzzer")}
    if len(set(pins.values())) != len(pins):
        raise ConfigError(source, "gpio.allin", "two functions share one GPIO pin")
    gpio = GpioConfig(**pins, bounce_s=g.bounce, hold_to_cancel_s=g.hold_to_cancel)
    return TableConfig(
        table=doc.table.number, room=_table_room(source, doc.table),
        broker=_broker(source, doc.broker),
        state_dir=_relative(Path(path).parent, doc.table.state_dir),
        gpio=gpio if g.enabled else None, reader_port=doc.reader.port,
        reader_baud=doc.reader.baud, ui_size=doc.ui.size, fullscreen=doc.ui.fullscreen,
        log_touches=doc.ui.log_touches, source=source,
        printer=printer_settings(source, Path(path).parent, doc.printer))


__all__ = ["BrokerConfig", "ConfigError", "EventConfig", "EventFile", "GpioConfig",
           "TableConfig", "TableFile", "load_event_config", "load_table_config"]
