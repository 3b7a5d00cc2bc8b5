"""Floor logins for the dashboard: hashed passwords, revocable sessions, rate limits.

A session is a row in `floor.db` in the state directory; the cookie carries its id,
signed with itsdangerous using a secret kept in the same file, so a restarted director
keeps everyone logged in while logging out (or removing the user) ends a session at
once. Each session has its own CSRF token, sent back by the page in a header.
"""

from __future__ import annotations

import logging
import secrets
import sqlite3
import time
from collections import deque
from pathlib import Path

from itsdangerous import BadSignature, URLSafeSerializer

from kiosk.base.texts import M_, Msg
from kiosk.config import floor_users

log = logging.getLogger("kiosk.director.web")
SESSION_SECONDS = 12 * 3600
DB_FILE = "floor.db"


class FloorUsers:
    """The user -> hash table, each user's role and own language, re-read when its file
    changes."""

    def __init__(self, users: dict[str, str], path: str | None, *,
                 allow_defaults: bool = False) -> None:
        self.path = Path(path) if path else None
        self.allow_defaults = allow_defaults
        self._mtime = self._stat()
        self.roles: dict[str, str] = {}
        self.languages: dict[str, str] = {}
        if self.path is not None:
            try:
                self.roles = floor_users.load_roles(self.path)
                self.languages = floor_users.load_languages(self.path)
            except Exception as exc:   # every login stays a director's; say why
                log.error("floor roles not read: %s", exc)
        self._set(users)

    def _stat(self) -> float | None:
        try:
            return self.path.stat().st_mtime_ns if self.path else None
        except OSError:
            return None

    def _set(self, users: dict[str, str]) -> None:
        self.users = dict(users)
        self.weak = set() if self.allow_defaults else {
            u for u, h in self.users.items() if floor_users.has_default_password(u, h)}
        for user in sorted(self.weak):
            log.error("floor user %s has a password anyone could guess; its logins are "
                      "refused until it is changed (pokerkiosk floor-user add %s)", user, user)
        if not self.users:
            log.warning("no floor users: the dashboard is read-only "
                        "(pokerkiosk floor-user add NAME)")

    def refresh(self) -> None:
        mtime = self._stat()
        if mtime != self._mtime and self.path is not None:
            self._mtime = mtime
            try:
                users = floor_users.load(self.path)
                self.roles = floor_users.load_roles(self.path)
                self.languages = floor_users.load_languages(self.path)
                self._set(users)
                log.info("floor users re-read from %s", self.path)
            except Exception as exc:   # keep the last good table; say why
                log.error("floor users not re-read: %s", exc)

    def known(self, user: str) -> bool:
        self.refresh()
        return user in self.users

    def role(self, user: str) -> str:
        """director, floor or cashier; a login without a role is a director's."""
        return self.roles.get(user, floor_users.DEFAULT_ROLE)

    def language(self, user: str) -> str | None:
        """The login's own language for the floor's pages; None: the room's."""
        return self.languages.get(user)

    def check(self, user: str, password: str) -> Msg | None:
        """None when the login is good, else why not (for the person logging in)."""
        stored = self.users.get(user)
        # Verify even for unknown users so timing does not tell which names exist.
        good = floor_users.verify(stored or _DUMMY, password)
        if not (stored and good):
            return M_("login.wrong", "wrong user or password")
        if user in self.weak:
            return M_("login.weak", "the password of {user} is one anyone could guess: set a "
                      "new one with `pokerkiosk floor-user add {user}`", user=user)
        return None


_DUMMY = floor_users.hash_password(secrets.token_hex(8))


class SessionStore:
    """Server-side sessions in SQLite; cookies are signed session ids."""

    def __init__(self, state_dir: Path | None) -> None:
        path = ":memory:" if state_dir is None else str(state_dir / DB_FILE)
        if state_dir is not None:
            state_dir.mkdir(parents=True, exist_ok=True)
            Path(path).touch(mode=0o600, exist_ok=True)
        self.db = sqlite3.connect(path, isolation_level=None, check_same_thread=False)
        self.db.execute("CREATE TABLE IF NOT EXISTS secret (k BLOB NOT NULL)")
        self.db.execute("CREATE TABLE IF NOT EXISTS sessions (id TEXT PRIMARY KEY, "
                        "user TEXT NOT NULL, csrf TEXT NOT NULL, expires REAL NOT NULL)")
        self.db.execute("CREATE TABLE IF NOT EXISTS chosen_sections (user TEXT PRIMARY KEY, "
                        "section TEXT NOT NULL)")
        row = self.db.execute("SELECT k FROM secret").fetchone()
        if row is None:
            row = (secrets.token_bytes(32),)
            self.db.execute("INSERT INTO secret VALUES (?)", row)
        self.signer = URLSafeSerializer(row[0], salt="pokerkiosk-floor-session")

    def create(self, user: str) -> tuple[str, str]:
        """(cookie value, csrf token) for a new session."""
        sid, csrf = secrets.token_urlsafe(24), secrets.token_urlsafe(24)
        now = time.time()
        self.db.execute("DELETE FROM sessions WHERE expires < ?", (now,))
        self.db.execute("INSERT INTO sessions VALUES (?, ?, ?, ?)",
                        (sid, user, csrf, now + SESSION_SECONDS))
        return str(self.signer.dumps(sid)), csrf

    def lookup(self, cookie: str) -> tuple[str, str] | None:
        """(user, csrf) of a live session, or None."""
        if not cookie:
            return None
        try:
            sid = self.signer.loads(cookie)
        except BadSignature:
            return None
        row = self.db.execute("SELECT user, csrf FROM sessions WHERE id = ? AND expires > ?",
                              (sid, time.time())).fetchone()
        return (row[0], row[1]) if row else None

    def revoke(self, cookie: str) -> None:
        try:
            sid = self.signer.loads(cookie)
        except BadSignature:
            return
        self.db.execute("DELETE FROM sessions WHERE id = ?", (sid,))

    def revoke_user(self, user: str) -> None:
        self.db.execute("DELETE FROM sessions WHERE user = ?", (user,))

    def section(self, user: str) -> str:
        """The section `user` works in ("" for the whole room): kept here, beside their
        sessions, so every browser and phone of that login opens on it."""
        row = self.db.execute("SELECT section FROM chosen_sections WHERE user = ?",
                              (user,)).fetchone()
        return str(row[0]) if row else ""

    def choose_section(self, user: str, section: str) -> None:
        if section:
            self.db.execute("INSERT INTO chosen_sections VALUES (?, ?) ON CONFLICT (user) "
                            "DO UPDATE SET section = excluded.section", (user, section))
        else:
            self.db.execute("DELETE FROM chosen_sections WHERE user = ?", (user,))

    def close(self) -> None:
        self.db.close()


class LoginLimiter:
    """At most `attempts` failed logins per `window` seconds from one address."""

    def __init__(self, attempts: int = 5, window: float = 60.0) -> None:
        self.attempts, self.window = attempts, window
        self.failures: dict[str, deque[float]] = {}

    def retry_after(self, who: str, now: float | None = None) -> float:
        """Seconds until `who` may try again (0: now)."""
        now = time.monotonic() if now is None else now
        q = self.failures.get(who)
        if not q:
            return 0.0
        while q and q[0] <= now - self.window:
            q.popleft()
        if not q:
            del self.failures[who]
            return 0.0
        return max(0.0, q[0] + self.window - now) if len(q) >= self.attempts else 0.0

    def failed(self, who: str, now: float | None = None) -> None:
        if len(self.failures) > 10_000:   # a flood of addresses must not grow memory
            self.failures.clear()
        self.failures.setdefault(who, deque()).append(time.monotonic() if now is None
                                                      else now)

    def succeeded(self, who: str) -> None:
        self.failures.pop(who, None)
