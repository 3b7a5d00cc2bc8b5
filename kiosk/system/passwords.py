"""Broker passwords: random secrets and Mosquitto 2's `$7$` PBKDF2-SHA512 password lines."""

from __future__ import annotations

import base64
import hashlib
import hmac
import secrets

# mosquitto_passwd's default; the passwords are 128-bit random tokens, so more rounds
# would only slow every connect on a Pi without making guessing any harder.
ITERATIONS = 101
SALT_BYTES = 12


def new_password() -> str:
    """URL-safe, so it survives TOML, shell quoting and a dealer reading it aloud."""
    return secrets.token_urlsafe(16)


def hash_line(user: str, password: str, *, iterations: int = ITERATIONS,
              salt: bytes | None = None) -> str:
    """One `user:$7$iterations$salt$hash` line as `mosquitto_passwd` writes it."""
    if ":" in user:
        raise ValueError("a broker user name cannot contain ':'")
    salt = salt if salt is not None else secrets.token_bytes(SALT_BYTES)
    digest = hashlib.pbkdf2_hmac("sha512", password.encode(), salt, iterations, 64)
    b64 = base64.b64encode
    return f"{user}:$7${iterations}${b64(salt).decode()}${b64(digest).decode()}"


def check_line(line: str, user: str, password: str) -> bool:
    """True when `line` is `user`'s entry and matches `password` (used by tests and doctor)."""
    name, _, rest = line.strip().partition(":")
    parts = rest.split("$")
    if name != user or len(parts) != 5 or parts[1] != "7":
        return False
    salt = base64.b64decode(parts[3])
    digest = hashlib.pbkdf2_hmac("sha512", password.encode(), salt, int(parts[2]), 64)
    return hmac.compare_digest(base64.b64encode(digest).decode(), parts[4])
