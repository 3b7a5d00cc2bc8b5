"""Write files whole and with the right mode from the first byte (secrets never 0644)."""

from __future__ import annotations

import os
from pathlib import Path

SECRET = 0o600
PUBLIC = 0o644


def write(path: Path, text: str | bytes, mode: int = PUBLIC) -> Path:
    """Atomically replace `path`; the temp file is created with `mode` so no window leaks it."""
    path.parent.mkdir(parents=True, exist_ok=True)
    tmp = path.with_name(f".{path.name}.tmp")
    data = text.encode() if isinstance(text, str) else text
    fd = os.open(tmp, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, mode)
    try:
        os.fchmod(fd, mode)   # umask may have narrowed it; secrets must be exactly 0600
        os.write(fd, data)
    finally:
        os.close(fd)
    os.replace(tmp, path)
    return path
