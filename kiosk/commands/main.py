"""`pokerkiosk` command line: each subcommand lives in its own module of kiosk.commands.

A subcommand module exposes `add_arguments(parser)` and `run(args) -> int`; it is
imported only when chosen, so `pokerkiosk sim` never loads Kivy or aiohttp. Whatever
goes wrong reaches the person as one line and a non-zero exit, never a traceback.
"""

from __future__ import annotations

import argparse
import importlib
import logging
import sys

from kiosk import __version__
from kiosk.base.errors import KioskError

# each command is the module kiosk.commands.<name, "-" as "_">
COMMANDS: dict[str, str] = {
    "demo": "broker, director, dashboard and simulated tables on this machine",
    "director": "run the director service for one event",
    "table": "run one table kiosk (--headless: no screen, for a PC)",
    "sim": "simulate whole tournaments through the core",
    "provision": "broker users, ACL, TLS and configs for a room",
    "doctor": "check this machine's setup, one line per check",
    "replica": "PostgreSQL hot standby: set up, check, promote",
    "floor-user": "add, remove or list dashboard floor logins",
    "room": "events, tables and tickets of a running director's room",
    "db": "copy a room's log between SQLite and PostgreSQL",
    "new-event": "set the event log aside to start a new event",
    "profiles": "list rule profiles and blind structures, or check a file",
    "results": "results from the director's log: an event, or one player across the room",
    "league": "a league's standings from the director's log",
    "release": "kiosk releases: add, list, remove, roll out to the tables",
    "dealer": "add, remove or list the room's dealers (badges and PINs as hashes)",
    "dealers": "the dealers' downs, hours, hands an hour and staff shares, from the log",
    "help": "this list, or `help COMMAND` for one command's options",
}


def module_of(command: str) -> str:
    return __name__ if command == "help" else f"kiosk.commands.{command.replace('-', '_')}"


class _Parser(argparse.ArgumentParser):
    def error(self, message: str) -> None:  # type: ignore[override]
        """argparse's two-line usage error, as one line."""
        self.exit(2, f"{self.prog}: error: {message} (see {self.prog} --help)\n")


def add_arguments(p: argparse.ArgumentParser) -> None:
    p.add_argument("topic", nargs="?", help="a command")


def run(args: argparse.Namespace) -> int:
    return main([args.topic, "--help"] if args.topic else ["--help"])


def build(argv: list[str]) -> argparse.ArgumentParser:
    parser = _Parser(prog="pokerkiosk", description=__doc__.splitlines()[0])
    parser.add_argument("--version", action="version", version=f"pokerkiosk {__version__}")
    parser.add_argument("-v", "--verbose", action="store_true", help="debug logging")
    sub = parser.add_subparsers(dest="command", metavar="COMMAND", parser_class=_Parser)
    chosen = next((a for a in argv if a in COMMANDS), None)
    for name, help_text in COMMANDS.items():
        p = sub.add_parser(name, help=help_text, description=help_text)
        if name == chosen:
            mod = importlib.import_module(module_of(name))
            mod.add_arguments(p)
            p.set_defaults(_run=mod.run)
    return parser


def main(argv: list[str] | None = None) -> int:
    argv = sys.argv[1:] if argv is None else argv
    parser = build(argv)
    try:
        args = parser.parse_args(argv)
    except SystemExit as exc:
        return int(exc.code or 0)
    logging.basicConfig(level=logging.DEBUG if args.verbose else logging.INFO,
                        format="%(asctime)s %(levelname)s %(name)s: %(message)s")
    if not getattr(args, "_run", None):
        parser.print_help()
        return 2
    try:
        return int(args._run(args) or 0)
    except KioskError as exc:
        print(f"pokerkiosk {args.command}: error: {exc}", file=sys.stderr)
        return 2
    except OSError as exc:
        where = f"{exc.filename}: " if exc.filename else ""
        print(f"pokerkiosk {args.command}: error: {where}{exc.strerror or exc}",
              file=sys.stderr)
        return 2
    except KeyboardInterrupt:
        return 130


if __name__ == "__main__":
    sys.exit(main())
