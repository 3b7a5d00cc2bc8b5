"""`pokerkiosk demo`: a whole room on one machine (kiosk.demo.room runs it): a broker, the
director with its dashboard and TV clock, and simulated tables dealing in real time."""

from __future__ import annotations

import argparse
from collections.abc import Callable
from pathlib import Path

from kiosk.config.files import parse_http
from kiosk.demo.room import PORT, DemoOptions, run_demo
from kiosk.lang.codes import UnknownLanguage
from kiosk.lang.codes import check as check_language
from kiosk.printer.ports import parse_port
from kiosk.rules.loader import DEFAULT_PROFILE


def _http(text: str) -> tuple[str, int]:
    try:
        return parse_http(text)
    except ValueError as exc:
        raise argparse.ArgumentTypeError(str(exc)) from None


def _positive(kind: type[float]) -> Callable[[str], float]:
    def check(text: str) -> float:
        try:
            value = kind(text)
        except ValueError:
            raise argparse.ArgumentTypeError(f"expected a number, got {text!r}") from None
        if not value > 0:
            raise argparse.ArgumentTypeError(f"must be more than 0, got {text}")
        return value
    check.__name__ = kind.__name__
    return check


def _language(text: str) -> str:
    """A shipped language ("zh-CN" is zh_Hans), or why not with the codes there are."""
    try:
        return check_language(text)
    except UnknownLanguage as exc:
        raise argparse.ArgumentTypeError(str(exc)) from None


def _printer_port(text: str) -> str:
    """A `[printer] port`; a relative file: path is taken from the current folder."""
    try:
        spec = parse_port(text)
    except ValueError as exc:
        raise argparse.ArgumentTypeError(str(exc)) from None
    return f"file:{Path(spec.target).resolve()}" if spec.kind == "file" else text


def add_arguments(p: argparse.ArgumentParser) -> None:
    p.add_argument("--players", type=_positive(int), default=45, help="entrants (default 45)")
    p.add_argument("--profile", default=DEFAULT_PROFILE,
                   help=f"the events' rule profile (default {DEFAULT_PROFILE})")
    p.add_argument("--structure", default="turbo")
    p.add_argument("--hand-seconds", type=_positive(float), default=30.0,
                   help="average length of a simulated hand in seconds (default 30)")
    p.add_argument("--http", type=_http, default=None,
                   help="dashboard address host:port (default: this machine's address on "
                        f"its network, port {PORT}, which the QR codes give phones; "
                        "127.0.0.1:PORT keeps the demo to this machine, 0.0.0.0:PORT serves "
                        "every address; port 0: any free port, for several demos at once)")
    p.add_argument("--broker", choices=("mosquitto", "embedded"), default="mosquitto",
                   help="which broker to start (default: Mosquitto when installed)")
    p.add_argument("--dir", help="keep the event log here (default: a temporary folder, "
                                 "removed at the end)")
    p.add_argument("--keep", action="store_true", help="keep the temporary folder")
    p.add_argument("--seed", type=int, default=1)
    p.add_argument("--language", type=_language, default="en", metavar="CODE",
                   help="the room's language: the kiosks, the clock, the pages and the "
                        "slips (en, es, de, fr, cs, pt_BR, zh_Hans; default en)")
    p.add_argument("--printer", type=_printer_port, metavar="PORT",
                   help="a receipt printer at the desk: serial:/dev/ttyUSB0?baud=19200, "
                        "usb:VID:PID, tcp:host:9100, or file:PATH (appends the raw ESC/POS)")
    p.add_argument("--kiosk", choices=("auto", "yes", "no"), default="auto",
                   help="leave table 1 to a real `pokerkiosk table`; auto (the default): "
                        "yes when a display is present and Kivy is installed (the window "
                        "opens by itself), otherwise no. With yes and no display, the "
                        "kiosk's command is printed for you to start it")
    p.add_argument("--time-scale", type=_positive(float), default=1.0,
                   help=argparse.SUPPRESS)   # tests: the demo's clock runs N times as fast


def run(args: argparse.Namespace) -> int:
    return run_demo(DemoOptions(
        players=args.players, profile=args.profile, structure=args.structure,
        hand_seconds=args.hand_seconds, http=args.http, broker=args.broker, dir=args.dir,
        keep=args.keep, seed=args.seed, printer=args.printer, kiosk=args.kiosk,
        language=args.language, time_scale=args.time_scale))
