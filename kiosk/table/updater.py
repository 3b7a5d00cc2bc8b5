"""The table's updater: a wanted release is downloaded, checked, installed beside the
running kiosk, and switched to at a safe moment.

The director publishes the wanted release on `table/<n>/release` (retained). When it
names another version than this kiosk's, the updater checks the manifest's signature with
the public key on the table's card, checks the disk, downloads every file over the
director's HTTPS with the table's login, checks each hash, and installs them offline into
`envs/<version>` beside the running environment. Anything wrong refuses the release with
the reason (on the floor's room page, via `table/<n>/update`) and the running kiosk goes
on; it tries again after `retry_s`.

It switches only between hands with nothing in the outbox, and only when the table is
free, on a break, or when the floor said "now" (held: it waits). The switch is A/B
(kiosk.releases.ab): `current` moves to the new environment and the kiosk exits with
RESTART; its supervisor starts the new one and rolls back on its own if that one fails.
"""

from __future__ import annotations

import contextlib
import logging
import threading
import time
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Annotated, Any

import msgspec
from msgspec import Meta

from kiosk import __version__
from kiosk.base.errors import KioskError
from kiosk.base.tomlfile import read_toml
from kiosk.config.files import convert
from kiosk.releases import messages as rm
from kiosk.releases.ab import Install
from kiosk.releases.installer import Installer, Refused, Source, over_https, why
from kiosk.releases.signing import load_public
from kiosk.table.service import TableService

log = logging.getLogger(__name__)
FILE = "update.toml"          # beside table.toml; no file, no updater


class UpdateSection(msgspec.Struct, forbid_unknown_fields=True):
    root: str = "/opt/pokerkiosk"
    url: str = ""                  # the director's dashboard, e.g. https://director:8443
    public_key: str = "release.pub"
    ca_file: str | None = None     # the room's CA (the broker's ca_file by default)
    retry_s: Annotated[float, Meta(ge=1)] = 60.0
    min_free_mb: Annotated[int, Meta(ge=0)] = 50
    poll_s: Annotated[float, Meta(gt=0, le=60)] = 1.0


class UpdateFile(msgspec.Struct, forbid_unknown_fields=True):
    update: UpdateSection


@dataclass(frozen=True)
class UpdateSettings:
    root: Path
    url: str
    public_key: Path
    ca_file: str | None
    retry_s: float = 60.0
    min_free_mb: int = 50
    poll_s: float = 1.0


def load_settings(path: Path) -> UpdateSettings:
    doc = convert(str(path), read_toml(path), UpdateFile).update
    base = path.parent
    if not doc.url.startswith(("https://", "http://")):
        raise KioskError(f"{path}: [update] url must be the director's https:// address")
    return UpdateSettings(root=base / doc.root, url=doc.url.rstrip("/"),
                          public_key=base / doc.public_key,
                          ca_file=str(base / doc.ca_file) if doc.ca_file else None,
                          retry_s=doc.retry_s, min_free_mb=doc.min_free_mb, poll_s=doc.poll_s)


class Updater:
    def __init__(self, service: TableService, settings: UpdateSettings, *,
                 version: str = __version__,
                 on_switch: Callable[[], Any] = lambda: None) -> None:
        self.svc, self.cfg, self.version = service, settings, version
        self.install = Install(settings.root)
        self.installer = Installer(self.install, load_public(settings.public_key),
                                   on_state=self._set)
        self.topics = service.link.topics
        self._on_switch = on_switch   # the kiosk stops and exits with RESTART
        self.switched = False
        self.wanted: rm.Wanted | None = None
        self.state, self.reason = "current", ""
        self._refused: dict[tuple[str, str], float] = {}   # (version, signature) -> retry at
        self._ready: tuple[str, str] | None = None
        self._published: bytes | None = None
        self._wake, self._stop = threading.Event(), threading.Event()
        self._thread: threading.Thread | None = None
        self._first_state()
        topic = rm.release_topic(self.topics, service.cfg.table)
        service.link.extra.append(topic)
        service.link.client.message_callback_add(topic, self._on_wanted)

    def _first_state(self) -> None:
        trial, back = self.install.trial(), self.install.rolled_back()
        if trial is not None and trial.get("to") == self.version:
            self.state = "switched"
        elif back is not None:
            self.state, self.reason = "rolled back", f"{back['version']}: {back['reason']}"

    def start(self) -> None:
        self._thread = threading.Thread(target=self._run, daemon=True, name="updater")
        self._thread.start()

    def stop(self) -> None:
        self._stop.set()
        self._wake.set()

    def _on_wanted(self, client: Any, userdata: Any, msg: Any) -> None:
        try:
            self.wanted = rm.decode_wanted(bytes(msg.payload))
        except (ValueError, msgspec.DecodeError) as exc:
            log.warning("table %s: bad release message dropped: %s", self.svc.cfg.table, exc)
            return
        self._wake.set()

    def _run(self) -> None:
        while not self._stop.is_set():
            try:
                self.step()
            except Exception as exc:   # the updater must never take the kiosk down
                log.exception("table %s: updater failed", self.svc.cfg.table)
                self._set("refused", f"updater error: {exc}")
            self._publish()
            self._wake.wait(self.cfg.poll_s)
            self._wake.clear()

    # ---------------------------------------------------------------- steps
    def step(self, now: float | None = None) -> None:
        w, now = self.wanted, time.time() if now is None else now
        if self.switched:
            return     # the switch began: a message again must not make it switch twice,
                       # or `previous` would name the new version and nothing to roll back to
        if w is None or w.version is None or w.version == self.version:
            if self.state not in ("switched", "rolled back", "current"):
                self._set("current")
            return
        back = self.install.rolled_back()
        if back is not None and back.get("version") == w.version:
            return     # it failed here once: not again until another version is wanted
        key = (w.version, w.signature)
        if self._refused.get(key, 0.0) > now:
            return
        if self._ready != key:
            try:
                self.prepare(w)
            except (Refused, OSError) as exc:
                self._refused[key] = now + self.cfg.retry_s
                self._set("refused", why(exc))
                log.warning("table %s: release %s refused: %s", self.svc.cfg.table,
                            w.version, why(exc))
                return
            self._ready = key
        if w.hold:
            self._set("held", "the floor holds the update")
            return
        self.try_switch(w, now)

    def prepare(self, w: rm.Wanted) -> None:
        """Verify, download, check and install `w`; Refused says why not."""
        assert w.version is not None
        b = self.svc.cfg.broker
        self.installer.prepare(w.version, w.manifest, w.signature, over_https(Source(
            self.cfg.url, b.username or "", b.password or "",
            self.cfg.ca_file or b.ca_file)), self.cfg.min_free_mb)

    def try_switch(self, w: rm.Wanted, now: float) -> None:
        """Switch if this is a safe moment; otherwise say what it waits for. The check
        and the start of the switch share the service's lock, so no report slips in."""
        svc = self.svc
        with svc.lock:
            ctx = svc.ctl.ctx
            pending = svc.outbox.pending_count()
            if not ctx.between_hands():
                why = "a hand is in play"
            elif pending:
                why = f"{pending} report(s) still to deliver"
            elif not (w.now or svc.ctl.event is None or svc.ctl.view(now).is_break):
                why = "the table is playing: on a break, when free, or when the floor says now"
            else:
                why = ""
                self.begin(w, {"in_hand": ctx.local.in_hand, "pending": pending})
        if why:
            self._set("waiting", why)
        else:
            self.switched = True
            self._publish(wait=True)
            self._on_switch()

    def begin(self, w: rm.Wanted, record: dict[str, Any]) -> None:
        """Point `current` at the new environment and refuse every dealer action from
        now on; the kiosk then stops cleanly and exits for its supervisor."""
        assert w.version is not None
        old = self.install.target() or self.version
        self.install.begin_trial(old, w.version, record)
        self.svc.closing = w.version       # every dealer action now says so
        self._set("switching", f"to {w.version}")
        log.info("table %s: switching from %s to %s", self.svc.cfg.table, old, w.version)

    # ---------------------------------------------------------------- status
    def _set(self, state: str, reason: str = "") -> None:
        self.state, self.reason = state, reason

    def status(self) -> rm.UpdateStatus:
        w = self.wanted
        return rm.UpdateStatus(table=self.svc.cfg.table, version=self.version,
                               state=self.state,  # type: ignore[arg-type]
                               wanted=w.version if w else None, reason=self.reason[:500],
                               ts=time.time())

    def _publish(self, wait: bool = False) -> None:
        """The state, retained, when it changed (and again after a reconnect)."""
        link = self.svc.link
        if not link.connected:
            self._published = None
            return
        st = self.status()
        key = rm.encode(msgspec.structs.replace(st, ts=0.0))
        if key == self._published:
            return
        info = link.client.publish(rm.update_topic(self.topics, self.svc.cfg.table),
                                   rm.encode(st), qos=1, retain=True)
        self._published = key
        if wait:
            with contextlib.suppress(RuntimeError, ValueError):
                info.wait_for_publish(2.0)


def start_updater(service: TableService, config: str | Path,
                  on_switch: Callable[[], Any]) -> Updater | None:
    """The updater of a table whose card has an update.toml beside table.toml."""
    path = Path(config).parent / FILE
    if not path.exists():
        return None
    return Updater(service, load_settings(path), on_switch=on_switch)
