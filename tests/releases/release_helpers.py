"""Small real wheels (zip files with metadata) and signing keys, for release tests."""

from __future__ import annotations

import zipfile
from pathlib import Path

from kiosk.releases.signing import make_key


def fake_wheel(folder: Path, version: str, dist: str = "poker_kiosk", body: bytes = b"") -> Path:
    """A wheel of `dist` at `version`: enough for the store (pip would not install it)."""
    folder.mkdir(parents=True, exist_ok=True)
    path = folder / f"{dist}-{version}-py3-none-any.whl"
    with zipfile.ZipFile(path, "w") as z:
        z.writestr(f"{dist}-{version}.dist-info/METADATA",
                   f"Metadata-Version: 2.1\nName: {dist}\nVersion: {version}\n\n")
        z.writestr("payload.bin", body or version.encode() * 100)
    return path


def keys(folder: Path, name: str = "release") -> tuple[Path, Path]:
    """(private, public) key files made as provisioning makes them."""
    private, public = folder / f"{name}-signing.key", folder / f"{name}.pub"
    make_key(private, public)
    return private, public
