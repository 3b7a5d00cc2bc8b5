"""A signed release, fetched from the director's HTTPS, checked and installed into a new
virtual environment beside the running one: the part of an update that a table kiosk and
a director updating itself share.

The manifest's signature is checked with the room's public key before anything is
downloaded; each file goes to `.part` and is renamed only once its size and hash match;
the environment is built offline from those files alone. Anything wrong raises `Refused`
with the reason the floor reads; the running version is never touched.
"""

from __future__ import annotations

import base64
import hashlib
import http.client
import os
import shutil
import ssl
import subprocess
import sys
import sysconfig
import urllib.error
import urllib.request
from collections.abc import Callable, Iterable, Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PublicKey

from kiosk.base.errors import KioskError
from kiosk.releases import manifest as mf
from kiosk.releases.ab import Install
from kiosk.releases.signing import verify

BASE_PTH = "pokerkiosk-base.pth"   # a shared, read-only layer of site-packages, carried over
PIP_TIMEOUT_S = 600


Fetch = Callable[[str, "mf.FileEntry", Path], None]   # (version, file, folder): kept checked


class Refused(KioskError):
    """This release is not installed, and why (the running version goes on)."""


@dataclass
class Source:
    """Where the release files come from: the director's URL and the login it accepts."""

    url: str
    user: str
    password: str
    ca_file: str | None = None


class Installer:
    """Fetch, check and install releases into `install`'s `envs/<version>`."""

    def __init__(self, install: Install, key: Ed25519PublicKey, *,
                 on_state: Callable[[str, str], None] = lambda state, why: None) -> None:
        self.install, self.key, self.on_state = install, key, on_state

    def prepare(self, version: str, manifest: str, signature: str, get: Fetch,
                min_free_mb: int = 0) -> None:
        """Verify, fetch (`get`: over HTTPS, or from the database), check and install one
        release, leaving `min_free_mb` free; Refused says why not."""
        try:
            verify(self.key, manifest.encode(), signature)
            m = mf.decode(manifest.encode())
        except KioskError as exc:
            raise Refused(str(exc)) from None
        if m.version != version:
            raise Refused(f"the manifest is of version {m.version}, not {version}")
        need = m.size * 4 + min_free_mb * 1024 * 1024
        root = self.install.root
        root.mkdir(parents=True, exist_ok=True)
        free = shutil.disk_usage(root).free
        if free < need:
            raise Refused(f"not enough disk space: {free // 2**20} MB free, "
                          f"{need // 2**20} MB needed")
        self.on_state("downloading", f"{len(m.files)} file(s), {m.size:,} bytes")
        folder = root / "downloads" / m.version
        folder.mkdir(parents=True, exist_ok=True)
        for entry in m.files:
            final = folder / entry.name
            if not (final.exists() and mf.sha256_of(final) == entry.sha256):
                get(m.version, entry, folder)
        self.install_env(m, folder)
        self.on_state("ready", "")

    def install_env(self, m: mf.Manifest, folder: Path) -> None:
        """A new virtual environment with the release installed from `folder` alone."""
        env = self.install.env(m.version)
        if env.exists():
            shutil.rmtree(env)       # a half install from before a power cut
        # as the running one: a table's sees Debian's packages (python3-lgpio on a Pi 5)
        system = ["--system-site-packages"] if _system_site() else []
        _run([sys.executable, "-m", "venv", "--without-pip", *system, str(env)],
             "make the environment")
        base = Path(sysconfig.get_paths()["purelib"]) / BASE_PTH
        if base.exists():
            site = next(env.glob("lib/python*/site-packages"))
            shutil.copyfile(base, site / BASE_PTH)
        python = str(env / "bin" / "python")
        _run([sys.executable, "-m", "pip", "--isolated", "--disable-pip-version-check",
              "--python", python, "install", "--quiet", "--no-index", "--no-cache-dir",
              "--find-links", str(folder), f"{mf.PROJECT}=={m.version}"], "install", cwd=env)
        got = _run([python, "-I", "-c", "import kiosk; print(kiosk.__version__)"], "check",
                   cwd=env).strip()
        if got != m.version:
            raise Refused(f"the installed kiosk says version {got}, not {m.version}")


def _system_site() -> bool:
    """Whether the running environment sees the system's site-packages."""
    try:
        cfg = (Path(sys.prefix) / "pyvenv.cfg").read_text()
    except OSError:
        return False
    return any(line.replace(" ", "").lower() == "include-system-site-packages=true"
               for line in cfg.splitlines())


def keep_checked(entry: mf.FileEntry, folder: Path, blocks: Iterable[bytes]) -> int:
    """Write `blocks` to `.part`, renamed to the file's name only when its size and hash
    are the signed ones; the bytes taken (Refused when they are not the file)."""
    part = folder / (entry.name + ".part")
    h, got = hashlib.sha256(), 0
    with part.open("wb") as out:
        for block in blocks:
            got += len(block)
            if got > entry.size:
                break
            h.update(block)
            out.write(block)
    if got != entry.size:
        part.unlink(missing_ok=True)
        raise Refused(f"download of {entry.name} cut at {got:,} of {entry.size:,} bytes"
                      if got < entry.size else f"{entry.name} is larger than signed")
    if h.hexdigest() != entry.sha256:
        part.unlink(missing_ok=True)
        raise Refused(f"{entry.name} has a wrong hash (not the file that was signed)")
    os.replace(part, folder / entry.name)
    return got


def over_https(source: Source) -> Fetch:
    """Fetch from the director's HTTPS with a table's login (the table's updater)."""

    def get(version: str, entry: mf.FileEntry, folder: Path) -> None:
        got = [0]

        def blocks(resp: Any) -> Iterator[bytes]:
            while block := resp.read(1 << 16):
                got[0] += len(block)
                yield block

        try:
            with urllib.request.urlopen(_request(source, version, entry.name), timeout=30,
                                        context=_tls(source)) as resp:
                keep_checked(entry, folder, blocks(resp))
        except urllib.error.HTTPError as exc:
            raise Refused(f"{entry.name}: the director answered {exc.code} {exc.reason}") \
                from None
        except (urllib.error.URLError, http.client.HTTPException, TimeoutError,
                ConnectionError) as exc:
            raise Refused(f"download of {entry.name} cut at {got[0]:,} of {entry.size:,} "
                          f"bytes: {getattr(exc, 'reason', None) or exc!r}") from None

    return get


def _request(source: Source, version: str, name: str) -> urllib.request.Request:
    token = base64.b64encode(f"{source.user}:{source.password}".encode()).decode()
    return urllib.request.Request(f"{source.url.rstrip('/')}/releases/{version}/{name}",
                                  headers={"Authorization": f"Basic {token}"})


def _tls(source: Source) -> ssl.SSLContext | None:
    if not source.url.startswith("https://"):
        return None
    return ssl.create_default_context(cafile=source.ca_file)


def why(exc: BaseException) -> str:
    """A refusal's reason in the floor's words (a full disk named as such)."""
    if isinstance(exc, OSError) and exc.errno == 28:
        return f"disk full: {exc.strerror}"
    if isinstance(exc, OSError):
        return f"{exc.strerror or exc}{f': {exc.filename}' if exc.filename else ''}"
    return str(exc)


def _run(cmd: list[str], what: str, cwd: Path | None = None) -> str:
    try:
        r = subprocess.run(cmd, capture_output=True, text=True, timeout=PIP_TIMEOUT_S, cwd=cwd)
    except subprocess.TimeoutExpired:
        raise Refused(f"{what}: no answer within {PIP_TIMEOUT_S} s") from None
    if r.returncode != 0:
        last = (r.stderr.strip().splitlines() or ["(no message)"])[-1]
        raise Refused(f"{what} failed: {last}")
    return r.stdout
