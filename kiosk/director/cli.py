"""`pokerkiosk director --config room.toml`: run the director of a room (or of one event,
from an event.toml)."""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import logging
import signal
from pathlib import Path

from kiosk.core.commands import Start
from kiosk.errors import KioskError
from kiosk.roomconfig import load_director_config

log = logging.getLogger("kiosk.director")


def add_arguments(p: argparse.ArgumentParser) -> None:
    p.add_argument("--config", required=True, help="the room's room.toml, or an event.toml")
    p.add_argument("--event", help="the event --players and --start apply to (default: the "
                                   "room's first)")
    p.add_argument("--players", help="CSV of players to register (header: name[,card][,id])")
    p.add_argument("--start", action="store_true", help="draw seats and start the clock")
    p.add_argument("--no-web", action="store_true", help="no dashboard (tests, benchmarks)")


def run(args: argparse.Namespace) -> int:
    from kiosk.director.service import Director

    director = Director(load_director_config(args.config))
    desk = director.desk(args.event)
    if args.players and not desk.tour.players:
        try:
            text = Path(args.players).read_text(encoding="utf-8")
        except OSError as exc:
            raise KioskError(f"{args.players}: {exc.strerror}") from None
        added, errors = director.import_csv(text, desk.name)
        for line in errors:
            log.warning("%s: %s", args.players, line)
        log.info("registered %d players from %s", added, args.players)
    if args.start and not desk.tour.started:
        director.act(Start(), event=desk.name)
    asyncio.run(_serve(director, web=not args.no_web))
    return 0


async def _serve(director: object, web: bool) -> None:
    """Serve until SIGTERM or SIGINT, then shut down cleanly (offline status, log closed)."""
    task = asyncio.current_task()
    loop = asyncio.get_running_loop()
    assert task is not None
    for sig in (signal.SIGTERM, signal.SIGINT):
        loop.add_signal_handler(sig, task.cancel)
    with contextlib.suppress(asyncio.CancelledError):
        await director.serve(web=web)  # type: ignore[attr-defined]
