"""The director's event.toml and each table's table.toml."""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path
from urllib.parse import urlparse

from kiosk.errors import ConfigError
from kiosk.protocol.topics import check_event_name
from kiosk.tomlfile import Section, parse_with


@dataclass(frozen=True)
class BrokerConfig:
    """Where the broker is and how to log in; `mqtts://` turns TLS on."""

    host: str = "127.0.0.1"
    port: int = 1883
    tls: bool = False
    username: str | None = None
    password: str | None = None
    ca_file: str | None = None
    mqtt_version: int = 5      # 5, or 3 for MQTT 3.1.1 brokers (the embedded demo broker)

    @property
    def url(self) -> str:
        return f"{'mqtts' if self.tls else 'mqtt'}://{self.host}:{self.port}"

    @classmethod
    def from_url(cls, url: str, **kw: object) -> BrokerConfig:
        u = urlparse(url)
        if u.scheme not in ("mqtt", "mqtts") or not u.hostname:
            raise ValueError(f"broker url {url!r} must look like mqtt://host:port or mqtts://host:port")
        tls = u.scheme == "mqtts"
        return cls(host=u.hostname, port=u.port or (8883 if tls else 1883), tls=tls,
                   username=u.username or kw.get("username"),  # type: ignore[arg-type]
                   password=u.password or kw.get("password"),  # type: ignore[arg-type]
                   ca_file=kw.get("ca_file"),  # type: ignore[arg-type]
                   mqtt_version=3 if "mqtt311" in (u.query or "") else 5)


def _broker(sec: Section) -> BrokerConfig:
    b = sec.section("broker")
    b.unknown({"url", "username", "password", "ca_file"})
    url = b.get("url", str, "mqtt://127.0.0.1:1883")
    try:
        return BrokerConfig.from_url(url, username=b.get("username", str, None),
                                     password=b.get("password", str, None),
                                     ca_file=b.get("ca_file", str, None))
    except ValueError as exc:
        raise b.fail("url", str(exc)) from None


def _event_name(sec: Section, key: str) -> str:
    name = sec.get(key, str)
    try:
        return check_event_name(name)
    except ValueError as exc:
        raise sec.fail(key, str(exc)) from None


@dataclass(frozen=True)
class EventConfig:
    """One tournament as the director runs it."""

    name: str
    profile: str = "tda-2017"
    structure: str = "standard"
    seats: int = 9
    start_stack: int = 20000
    buy_in: int = 100
    payout_percent: float = 15.0
    seed: int | None = None
    broker: BrokerConfig = field(default_factory=BrokerConfig)
    db: str = "event.db"
    http_host: str = "127.0.0.1"
    http_port: int = 8080
    floor_users: dict[str, str] = field(default_factory=dict)
    source: str = ""
    money: dict = field(default_factory=dict)      # kiosk.core.payouts.PrizeRules fields
    chip_set: tuple[int, ...] = ()                  # denominations, smallest first
    h4h_at_bubble: bool = False


MONEY_KEYS = {"fee", "staff", "bounty", "bounty_mode", "pko_percent", "addon", "guarantee",
              "table", "percent_paid", "shares_csv", "rounding", "seat_value", "target_event",
              "chip_set", "h4h_at_bubble"}


def _money(sec: Section, base: Path, buy_in: int, percent: float) -> tuple[dict, tuple, bool]:
    """The [money] section: prize split, bounties, payout table, chips."""
    from kiosk.core.payouts import PrizeRules, parse_shares_csv
    from kiosk.errors import RuleError

    m = sec.section("money")
    m.unknown(MONEY_KEYS)
    rules: dict = {"buy_in": buy_in, "percent_paid": percent}
    for key in ("fee", "staff", "bounty", "pko_percent", "guarantee", "rounding", "seat_value",
                "addon"):
        if key in m.data:
            rules[key] = m.number(key, integer=True, minimum=0)
    for key in ("bounty_mode", "table", "target_event"):
        if key in m.data:
            rules[key] = m.get(key, str)
    if "percent_paid" in m.data:
        rules["percent_paid"] = m.number("percent_paid", minimum=0.01, maximum=100)
    if "shares_csv" in m.data:
        path = Path(m.get("shares_csv", str))
        try:
            rules["shares"] = list(parse_shares_csv((path if path.is_absolute() else base / path)
                                                    .read_text(encoding="utf-8")))
        except (OSError, RuleError) as exc:
            raise m.fail("shares_csv", str(exc)) from None
        rules.setdefault("table", "shares")
    try:
        PrizeRules.from_dict(rules)
    except RuleError as exc:
        raise m.fail("table" if "table" in str(exc) else "bounty", str(exc)) from None
    chips = m.get("chip_set", list, [])
    if not all(isinstance(c, int) and c > 0 for c in chips):
        raise m.fail("chip_set", "expected a list of positive denominations")
    return rules, tuple(sorted(chips)), m.get("h4h_at_bubble", bool, False)


def load_event_config(path: str | Path) -> EventConfig:
    def build(top: Section) -> EventConfig:
        top.unknown({"event", "broker", "director", "money"})
        ev = top.section("event", required=True)
        ev.unknown({"name", "profile", "structure", "seats", "start_stack", "buy_in",
                    "payout_percent", "seed"})
        d = top.section("director")
        d.unknown({"db", "http", "floor_users"})
        http = d.get("http", str, "127.0.0.1:8080")
        host, _, port = http.rpartition(":")
        if not host or not port.isdigit():
            raise d.fail("http", f"expected host:port, got {http!r}")
        users = d.get("floor_users", dict, {})
        for user, pw in users.items():
            if not isinstance(pw, str) or not pw:
                raise d.fail(f"floor_users.{user}", "password must be a non-empty string")
        base = Path(path).parent
        db = d.get("db", str, "event.db")
        buy_in = ev.number("buy_in", 100, minimum=0, integer=True)
        percent = ev.number("payout_percent", 15.0, minimum=1, maximum=100)
        money, chip_set, h4h_bubble = _money(top, base, buy_in, percent)
        return EventConfig(
            name=_event_name(ev, "name"),
            profile=ev.get("profile", str, "tda-2017"),
            structure=ev.get("structure", str, "standard"),
            seats=ev.number("seats", 9, minimum=2, maximum=10, integer=True),
            start_stack=ev.number("start_stack", 20000, minimum=1, integer=True),
            buy_in=buy_in, payout_percent=percent, money=money, chip_set=chip_set,
            h4h_at_bubble=h4h_bubble,
            seed=ev.number("seed", None, integer=True),
            broker=_broker(top),
            db=str(db if Path(db).is_absolute() else base / db),
            http_host=host, http_port=int(port),
            floor_users=dict(users), source=str(path),
        )

    return parse_with(path, build)


@dataclass(frozen=True)
class GpioConfig:
    """BCM pin numbers and button timing; defaults match firmware_cfg/config.txt."""

    allin: int = 17
    clock: int = 27
    floor: int = 22
    floor_led: int = 5
    clock_led: int = 6
    buzzer: int = 13
    bounce_s: float = 0.05
    hold_to_cancel_s: float = 1.5


@dataclass(frozen=True)
class TableConfig:
    """One table kiosk."""

    table: int
    event: str
    broker: BrokerConfig = field(default_factory=BrokerConfig)
    state_dir: str = "."
    gpio: GpioConfig | None = field(default_factory=GpioConfig)
    reader_port: str | None = None
    reader_baud: int = 9600
    ui_size: str = "800x480"
    fullscreen: bool = False
    source: str = ""


def load_table_config(path: str | Path) -> TableConfig:
    def build(top: Section) -> TableConfig:
        top.unknown({"table", "broker", "gpio", "reader", "ui"})
        t = top.section("table", required=True)
        t.unknown({"number", "event", "state_dir"})
        g = top.section("gpio")
        g.unknown({"enabled", "allin", "clock", "floor", "floor_led", "clock_led", "buzzer",
                   "bounce", "hold_to_cancel"})
        pins = {k: g.number(k, getattr(GpioConfig, k), minimum=0, maximum=27, integer=True)
                for k in ("allin", "clock", "floor", "floor_led", "clock_led", "buzzer")}
        if len(set(pins.values())) != len(pins):
            raise g.fail("allin", "two functions share one GPIO pin")
        gpio = GpioConfig(**pins, bounce_s=g.number("bounce", 0.05, minimum=0, maximum=1),
                          hold_to_cancel_s=g.number("hold_to_cancel", 1.5, minimum=0.2,
                                                    maximum=10))
        r = top.section("reader")
        r.unknown({"port", "baud"})
        u = top.section("ui")
        u.unknown({"size", "fullscreen"})
        size = u.get("size", str, "800x480")
        w, _, h = size.partition("x")
        if not (w.isdigit() and h.isdigit()):
            raise u.fail("size", f"expected WIDTHxHEIGHT, got {size!r}")
        base = Path(path).parent
        state_dir = t.get("state_dir", str, ".")
        return TableConfig(
            table=t.number("number", minimum=1, maximum=9999, integer=True),
            event=_event_name(t, "event"),
            broker=_broker(top),
            state_dir=str(state_dir if Path(state_dir).is_absolute() else base / state_dir),
            gpio=gpio if g.get("enabled", bool, True) else None,
            reader_port=r.get("port", str, None),
            reader_baud=r.number("baud", 9600, minimum=300, integer=True),
            ui_size=size, fullscreen=u.get("fullscreen", bool, False), source=str(path),
        )

    return parse_with(path, build)


__all__ = ["BrokerConfig", "ConfigError", "EventConfig", "GpioConfig", "TableConfig",
           "load_event_config", "load_table_config"]
