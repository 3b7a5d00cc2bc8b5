"""A release's manifest: its version and every file with its size and SHA-256.

The manifest's exact bytes are what the key signs; a table verifies the signature over
those bytes first, then decodes them with the bounds below, then checks every file it
downloads against them. Shared by the director's store and the table's updater.
"""

from __future__ import annotations

import hashlib
import re
from pathlib import Path
from typing import Annotated

import msgspec
from msgspec import Meta

from kiosk.base.errors import KioskError

DIST = "poker_kiosk"     # the wheel's distribution name (project "poker-kiosk")
PROJECT = "poker-kiosk"
Version = Annotated[str, Meta(pattern=r"^[0-9][0-9A-Za-z.+!_-]{0,39}$")]
FileName = Annotated[str, Meta(pattern=r"^[A-Za-z0-9][A-Za-z0-9._+-]{0,199}\.whl$")]
Sha256 = Annotated[str, Meta(pattern=r"^[0-9a-f]{64}$")]
_WHEEL = re.compile(r"^(?P<dist>[A-Za-z0-9_.]+)-(?P<version>[^-]+)-.+\.whl$")


class ReleaseError(KioskError):
    """A release that cannot be recorded, served or installed; the message says why."""


class FileEntry(msgspec.Struct, frozen=True, forbid_unknown_fields=True):
    name: FileName
    sha256: Sha256
    size: Annotated[int, Meta(ge=1, le=2**31)]


class Manifest(msgspec.Struct, frozen=True, forbid_unknown_fields=True):
    version: Version
    kiosk: FileName                  # the kiosk's own wheel; the others are what it needs
    files: Annotated[list[FileEntry], Meta(min_length=1, max_length=500)]
    made: Annotated[float, Meta(ge=0, le=1e11)]

    def encode(self) -> bytes:
        return msgspec.json.encode(self)

    @property
    def size(self) -> int:
        return sum(f.size for f in self.files)

    def entry(self, name: str) -> FileEntry | None:
        return next((f for f in self.files if f.name == name), None)


def decode(data: bytes) -> Manifest:
    try:
        m = msgspec.json.decode(data, type=Manifest)
    except msgspec.DecodeError as exc:
        raise ReleaseError(f"malformed release manifest: {exc}") from None
    names = [f.name for f in m.files]
    if len(set(names)) != len(names) or m.kiosk not in names:
        raise ReleaseError("malformed release manifest: a file twice, or no kiosk wheel")
    return m


def wheel_version(path: Path) -> str:
    """The kiosk version a wheel's file name carries; ReleaseError if it is not a kiosk
    wheel."""
    m = _WHEEL.match(path.name)
    if m is None or m["dist"].lower() != DIST:
        raise ReleaseError(f"{path.name} is not a pokerkiosk wheel ({DIST}-VERSION-...whl)")
    return m["version"]


def sha256_of(path: Path) -> str:
    h = hashlib.sha256()
    with path.open("rb") as f:
        for block in iter(lambda: f.read(1 << 20), b""):
            h.update(block)
    return h.hexdigest()


def entry_of(path: Path) -> FileEntry:
    try:
        return FileEntry(name=path.name, sha256=sha256_of(path), size=path.stat().st_size)
    except msgspec.ValidationError as exc:   # pragma: no cover - names are checked first
        raise ReleaseError(f"{path.name}: {exc}") from None
