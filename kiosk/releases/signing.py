"""The release signing key: Ed25519 (`cryptography`), made once at provisioning.

The private key stays on the machine that adds releases (mode 0600); every table's card
holds the public key, one line `ed25519:BASE64`, and installs nothing it does not verify.
"""

from __future__ import annotations

import base64
import os
from pathlib import Path

from cryptography.exceptions import InvalidSignature
from cryptography.hazmat.primitives import serialization
from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PrivateKey, Ed25519PublicKey

from kiosk.base.errors import KioskError

PREFIX = "ed25519:"


class SignatureError(KioskError):
    """A signature that does not verify, or a key that cannot be read."""


def make_key(private: Path, public: Path) -> str:
    """Write a new key pair; refuses to overwrite a private key (every table trusts it).
    Returns the public key's line."""
    if private.exists():
        raise KioskError(f"{private} exists: a new key would make every table refuse the "
                         "releases signed with it (docs/updates.md says how to replace it)")
    key = Ed25519PrivateKey.generate()
    pem = key.private_bytes(serialization.Encoding.PEM, serialization.PrivateFormat.PKCS8,
                            serialization.NoEncryption())
    private.parent.mkdir(parents=True, exist_ok=True)
    fd = os.open(private, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600)
    with os.fdopen(fd, "wb") as f:
        f.write(pem)
    line = public_line(key.public_key())
    public.parent.mkdir(parents=True, exist_ok=True)
    public.write_text(line + "\n")
    return line


def public_line(key: Ed25519PublicKey) -> str:
    raw = key.public_bytes(serialization.Encoding.Raw, serialization.PublicFormat.Raw)
    return PREFIX + base64.b64encode(raw).decode()


def load_private(path: Path) -> Ed25519PrivateKey:
    try:
        key = serialization.load_pem_private_key(path.read_bytes(), password=None)
    except OSError as exc:
        raise SignatureError(f"cannot read the signing key {path}: {exc.strerror}") from None
    except ValueError as exc:
        raise SignatureError(f"{path} is not a PEM private key: {exc}") from None
    if not isinstance(key, Ed25519PrivateKey):
        raise SignatureError(f"{path} is not an Ed25519 key")
    return key


def parse_public(line: str, where: str = "the public key") -> Ed25519PublicKey:
    text = line.strip()
    if not text.startswith(PREFIX):
        raise SignatureError(f"{where} must be one line 'ed25519:BASE64'")
    try:
        return Ed25519PublicKey.from_public_bytes(base64.b64decode(text[len(PREFIX):],
                                                                   validate=True))
    except ValueError as exc:
        raise SignatureError(f"{where} is not an Ed25519 public key: {exc}") from None


def load_public(path: Path) -> Ed25519PublicKey:
    try:
        return parse_public(path.read_text(), str(path))
    except OSError as exc:
        raise SignatureError(f"cannot read the public key {path}: {exc.strerror}") from None


def sign(key: Ed25519PrivateKey, data: bytes) -> str:
    return base64.b64encode(key.sign(data)).decode()


def verify(key: Ed25519PublicKey, data: bytes, signature: str) -> None:
    """SignatureError unless `signature` is this key's signature of `data`."""
    if not signature:
        raise SignatureError("the release is not signed")
    try:
        key.verify(base64.b64decode(signature, validate=True), data)
    except (InvalidSignature, ValueError):
        raise SignatureError("the release's signature does not match this table's key "
                             "(signed by another key, or changed after signing)") from None
