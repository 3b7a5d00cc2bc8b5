"""The director's release store: one folder per version, its manifest and signature,
and the rollout the floor chose.

    <dir>/<version>/manifest.json   the signed bytes
    <dir>/<version>/manifest.sig    Ed25519 signature, base64
    <dir>/<version>/*.whl           the kiosk wheel and the wheels it needs
    <dir>/rollout.json              the wanted version, which tables, held or not

Every write goes to a temporary name first and is renamed into place, so a release is
either all there or not listed, and a running director that reads the store meanwhile
sees the old state or the new one.
"""

from __future__ import annotations

import json
import os
import re
import shutil
import tempfile
import time
import zipfile
from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import Any

from kiosk.releases import manifest as mf
from kiosk.releases.manifest import Manifest, ReleaseError
from kiosk.releases.signing import load_private, sign

ROLLOUT = "rollout.json"
_NAME = re.compile(r"^[A-Za-z0-9][A-Za-z0-9._+-]{0,199}\.whl$")


@dataclass
class Rollout:
    """What the floor wants: `version` on `tables` (None: every table), unless held;
    `now` names tables told to switch at the next moment between hands."""

    version: str | None = None
    tables: list[int] | None = None
    hold: bool = False
    now: list[int] = field(default_factory=list)

    def wanted(self, table: int) -> str | None:
        if self.version is None or (self.tables is not None and table not in self.tables):
            return None
        return self.version


class ReleaseStore:
    def __init__(self, root: Path) -> None:
        self.root = Path(root)

    # ---------------------------------------------------------------- releases
    def add(self, wheel: Path, key: Path, wheelhouse: Path | None = None,
            now: float | None = None) -> Manifest:
        """Record the kiosk `wheel` and the wheels of `wheelhouse`, hashed and signed."""
        version = mf.wheel_version(wheel)
        _check_wheel(wheel, version)
        signer = load_private(key)
        extra = sorted(p for p in wheelhouse.glob("*.whl")) if wheelhouse else []
        if wheelhouse is not None and not wheelhouse.is_dir():
            raise ReleaseError(f"--wheelhouse {wheelhouse} is not a folder")
        files = [wheel, *(p for p in extra if p.name != wheel.name)]
        for p in files:
            if not _NAME.match(p.name):
                raise ReleaseError(f"{p.name}: not a wheel's file name")
        dest = self.root / version
        if dest.exists():
            raise ReleaseError(f"release {version} exists: remove it first")
        self.root.mkdir(parents=True, exist_ok=True)
        tmp = Path(tempfile.mkdtemp(prefix=f".{version}-", dir=self.root))
        try:
            for p in files:
                shutil.copyfile(p, tmp / p.name)
            m = Manifest(version=version, kiosk=wheel.name, made=time.time() if now is None
                         else now, files=[mf.entry_of(tmp / p.name) for p in files])
            data = m.encode()
            (tmp / "manifest.json").write_bytes(data)
            (tmp / "manifest.sig").write_text(sign(signer, data) + "\n")
            os.rename(tmp, dest)
        except BaseException:
            shutil.rmtree(tmp, ignore_errors=True)
            raise
        return m

    def versions(self) -> list[str]:
        if not self.root.is_dir():
            return []
        return sorted(p.name for p in self.root.iterdir()
                      if p.is_dir() and (p / "manifest.json").is_file())

    def manifest(self, version: str) -> tuple[bytes, str]:
        """The signed bytes and their signature; ReleaseError when there is no such
        release."""
        d = self._dir(version)
        try:
            return (d / "manifest.json").read_bytes(), (d / "manifest.sig").read_text().strip()
        except OSError:
            raise ReleaseError(f"no release {version} (releases: "
                               f"{', '.join(self.versions()) or 'none'})") from None

    def listing(self) -> list[dict[str, Any]]:
        out = []
        for v in self.versions():
            m = mf.decode(self.manifest(v)[0])
            out.append({"version": v, "kiosk": m.kiosk, "files": len(m.files),
                        "size": m.size, "made": m.made})
        return out

    def remove(self, version: str) -> None:
        if self.rollout().version == version:
            raise ReleaseError(f"release {version} is being rolled out: roll out another "
                               "version (or hold) first")
        d = self._dir(version)
        if not (d / "manifest.json").is_file():
            raise ReleaseError(f"no release {version}")
        trash = self.root / f".removed-{version}-{os.getpid()}"
        os.rename(d, trash)
        shutil.rmtree(trash, ignore_errors=True)

    def file(self, version: str, name: str) -> Path:
        """The path of one file of a release, only if its manifest names it."""
        data, _ = self.manifest(version)
        if mf.decode(data).entry(name) is None:
            raise ReleaseError(f"release {version} has no file {name}")
        return self._dir(version) / name

    def _dir(self, version: str) -> Path:
        if not re.match(r"^[0-9][0-9A-Za-z.+!_-]{0,39}$", version) or ".." in version:
            raise ReleaseError(f"{version!r} is not a version")
        return self.root / version

    # ---------------------------------------------------------------- rollout
    def rollout(self) -> Rollout:
        try:
            data = json.loads((self.root / ROLLOUT).read_text())
        except FileNotFoundError:
            return Rollout()
        except (OSError, ValueError) as exc:
            raise ReleaseError(f"cannot read {self.root / ROLLOUT}: {exc}") from None
        return Rollout(**{k: data.get(k, v) for k, v in asdict(Rollout()).items()})

    def set_rollout(self, version: str | None, tables: list[int] | None = None, *,
                    hold: bool = False, now: list[int] | None = None) -> Rollout:
        if version is not None:
            self.manifest(version)    # only a release that exists
        r = Rollout(version=version, tables=sorted(set(tables)) if tables else None,
                    hold=hold, now=sorted(set(now or ())))
        self.root.mkdir(parents=True, exist_ok=True)
        tmp = self.root / f".{ROLLOUT}.{os.getpid()}"
        tmp.write_text(json.dumps(asdict(r)) + "\n")
        os.replace(tmp, self.root / ROLLOUT)
        return r

    def stamp(self) -> tuple[int, ...]:
        """Changes when the rollout or the releases change (the director polls it)."""
        try:
            return (os.stat(self.root / ROLLOUT).st_mtime_ns, os.stat(self.root).st_mtime_ns)
        except OSError:
            return ()

    def owned_like_its_folder(self) -> None:
        """Run as root, the store stays its director's (user pokerkiosk owns the state
        folder): the director writes the rollout when the floor steers it from the room page."""
        if os.geteuid() != 0 or not self.root.exists():
            return
        owner = self.root.parent.stat()
        if owner.st_uid == 0:
            return
        for path in (self.root, *self.root.rglob("*")):
            os.chown(path, owner.st_uid, owner.st_gid, follow_symlinks=False)


def _check_wheel(wheel: Path, version: str) -> None:
    """The wheel opens and its metadata says the version its name says."""
    try:
        with zipfile.ZipFile(wheel) as z:
            meta = next((n for n in z.namelist() if n.endswith(".dist-info/METADATA")), None)
            text = z.read(meta).decode(errors="replace") if meta else ""
    except FileNotFoundError:
        raise ReleaseError(f"no file {wheel}") from None
    except (OSError, zipfile.BadZipFile) as exc:
        raise ReleaseError(f"{wheel} is not a wheel: {exc}") from None
    if f"\nVersion: {version}\n" not in text:
        raise ReleaseError(f"{wheel.name}: its metadata does not say version {version}")
