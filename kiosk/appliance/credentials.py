"""The room's plaintext secrets, kept in the provisioning directory so re-runs keep them.

Re-running `provision` for more tables must not change the passwords of tables
already set up, or every Pi would need its SD card rewritten.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path

from kiosk.appliance.broker_files import DIRECTOR_USER, table_user
from kiosk.base import tomlwrite
from kiosk.base.errors import KioskError
from kiosk.base.files import SECRET, write
from kiosk.base.tomlfile import read_toml
from kiosk.system.passwords import new_password

FILE = "secrets.toml"
DEFAULT_HOST = "pk-director.local"


@dataclass
class RoomSecrets:
    """Event identity plus one password per broker user and per floor dashboard user."""

    event: str
    director_host: str
    users: dict[str, str] = field(default_factory=dict)
    floor_users: dict[str, str] = field(default_factory=dict)

    @property
    def tables(self) -> list[int]:
        return sorted(int(u.removeprefix("table-")) for u in self.users if u.startswith("table-"))

    def ensure(self, tables: int) -> list[str]:
        """Add missing users for tables 1..tables and the director; return the new names."""
        wanted = [DIRECTOR_USER, *(table_user(n) for n in range(1, tables + 1))]
        added = [u for u in wanted if u not in self.users]
        for user in added:
            self.users[user] = new_password()
        if not self.floor_users:
            self.floor_users["floor"] = new_password()
        return added


def load(out: Path, event: str, director_host: str | None) -> RoomSecrets:
    """Read DIR/secrets.toml if present; refuse to mix two events in one directory."""
    path = out / FILE
    if not path.exists():
        return RoomSecrets(event=event, director_host=director_host or DEFAULT_HOST)
    data = read_toml(path)
    room = data.get("room", {})
    if room.get("event") != event:
        raise KioskError(f"{out} was provisioned for event {room.get('event')!r}, not "
                         f"{event!r}; use another --out directory")
    return RoomSecrets(event=event,
                       director_host=director_host or room.get("director_host", DEFAULT_HOST),
                       users=dict(data.get("users", {})),
                       floor_users=dict(data.get("floor_users", {})))


def save(out: Path, secrets: RoomSecrets) -> Path:
    header = ("Every password of this room, in plain text. Keep this file (and this directory)\n"
              "off the Pis and back it up: re-running `pokerkiosk provision` reuses it.")
    text = tomlwrite.dumps({"room": {"event": secrets.event,
                                     "director_host": secrets.director_host},
                            "users": secrets.users, "floor_users": secrets.floor_users},
                           header)
    return write(out / FILE, text, SECRET)
