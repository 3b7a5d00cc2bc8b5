"""Running a room's director until it stops (`pokerkiosk director`).

The players of a CSV and the start, if asked; then serving until SIGTERM or SIGINT. With
the log on PostgreSQL a standby follows the log and takes over when the leader is gone
(kiosk.director.standby.leadership); a leader that loses its lease rejoins as a standby in
the same process."""

from __future__ import annotations

import asyncio
import contextlib
import faulthandler
import logging
import signal
import time
from pathlib import Path
from typing import TYPE_CHECKING, Protocol

from kiosk.base.errors import KioskError
from kiosk.base.texts import M_, Msg
from kiosk.config.room import RoomConfig, load_director_config
from kiosk.core.model.commands import Start

if TYPE_CHECKING:   # the director itself is imported when it runs: --help stays quick
    from kiosk.director.standby.leadership import Leadership

log = logging.getLogger("kiosk.director")


class Running(Protocol):
    """What the command runs until it stops: a director built by the composition root
    (kiosk.director.service), its leadership on PostgreSQL and its health lines."""

    @property
    def ha(self) -> Leadership | None: ...
    @property
    def health(self) -> dict[str, Msg | str]: ...
    @property
    def exit_code(self) -> int: ...

    async def serve(self, web: bool = True) -> None: ...


def run_director(config_path: str, *, event: str | None = None, players: str | None = None,
                 start: bool = False, ready: bool = False, web: bool = True,
                 standby: bool = False,
                 update_root: str | None = None, release_key: str | None = None) -> int:
    """Build the director of the room `config_path` names and serve until stopped."""
    from kiosk.director.service import Director

    # `kill -USR1 <pid>`: every thread's stack into the log, for a director that hangs
    with contextlib.suppress(OSError, ValueError):   # no real stderr (embedded, tests)
        faulthandler.register(signal.SIGUSR1, all_threads=True)

    config = load_director_config(config_path)
    director = Director(config, standby=standby, update_root=update_root,
                        release_key=release_key)
    if director.ha is not None and not director.ha.leading:
        return _serve_until_stopped(director, config, web=web,
                                update_root=update_root, release_key=release_key)
    desk = director.event(event)
    if players and not desk.tour.players:
        try:
            text = Path(players).read_text(encoding="utf-8")
        except OSError as exc:
            raise KioskError(f"{players}: {exc.strerror}") from None
        added, errors = director.import_csv(text, desk.name)
        for line in errors:
            log.warning("%s: %s", players, line)
        log.info("registered %d players from %s", added, players)
    if start and not desk.tour.started:
        director.act(Start(ready=ready), event=desk.name)
    return _serve_until_stopped(director, config, web=web,
                                update_root=update_root, release_key=release_key)


def _serve_until_stopped(director: Running, config: RoomConfig, web: bool,
                         **kw: str | None) -> int:
    """Serve; a director that stepped down rejoins as a standby, its fold rebuilt."""

    while True:
        stopped = asyncio.run(_serve(director, web=web))
        if stopped or director.ha is None or director.ha.role != "stepped down":
            return director.exit_code     # RESTART: the supervisor starts the new version
        why = director.ha.why
        director = _rejoin(config, **kw)
        director.health["leader"] = M_("health.rejoined", "rejoined as a standby after: {why}",
                                        why=why)


def _rejoin(config: RoomConfig, update_root: str | None = None,
            release_key: str | None = None) -> Running:
    """A standby again, as soon as the database lets it (it may be the one that is gone)."""
    from kiosk.director.service import Director

    told = False
    while True:
        try:
            return Director(config, standby=True, update_root=update_root,
                            release_key=release_key)
        except KioskError as exc:
            if not told:
                log.warning("cannot rejoin as a standby yet: %s; retrying", exc)
                told = True
            time.sleep(1)


async def _serve(director: Running, web: bool) -> bool:
    """Serve until SIGTERM or SIGINT (True), then shut down cleanly (offline status, log
    closed), or until the director stepped down (False)."""
    task = asyncio.current_task()
    loop = asyncio.get_running_loop()
    assert task is not None
    for sig in (signal.SIGTERM, signal.SIGINT):
        loop.add_signal_handler(sig, task.cancel)
    try:
        await director.serve(web=web)
    except asyncio.CancelledError:
        return True
    return False
