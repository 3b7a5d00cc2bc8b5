"""The release store: a release is recorded with its hashes and a signature every table
can check, listed, removed; anything wrong is refused with the reason and changes nothing."""

from __future__ import annotations

import hashlib
import json
import os
import subprocess
import sys
from pathlib import Path

import pytest
from release_helpers import fake_wheel, keys

from kiosk.appliance.provision import provision
from kiosk.releases import manifest as mf
from kiosk.releases.manifest import ReleaseError
from kiosk.releases.signing import SignatureError, load_public, make_key, verify
from kiosk.releases.store import ReleaseStore


def cli(*args: str, store: Path, key: Path) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", "kiosk", "release", *args,
                           "--dir", str(store), "--key", str(key)],
                          capture_output=True, text=True, timeout=60)


def test_add_records_hashes_and_a_signature_the_tables_key_verifies(tmp_path: Path) -> None:
    private, public = keys(tmp_path)
    wheel = fake_wheel(tmp_path / "dist", "0.2.0")
    dep = fake_wheel(tmp_path / "house", "1.0", dist="somedep")
    r = cli("add", str(wheel), "--wheelhouse", str(tmp_path / "house"),
            store=tmp_path / "store", key=private)
    assert r.returncode == 0, r.stderr
    assert "release 0.2.0: 2 file(s)" in r.stdout
    store = ReleaseStore(tmp_path / "store")
    data, sig = store.manifest("0.2.0")
    verify(load_public(public), data, sig)
    m = mf.decode(data)
    assert m.kiosk == wheel.name
    assert {f.name: f.sha256 for f in m.files} == {
        p.name: hashlib.sha256(p.read_bytes()).hexdigest() for p in (wheel, dep)}
    listed = json.loads(cli("list", store=tmp_path / "store", key=private).stdout)
    assert [r["version"] for r in listed["releases"]] == ["0.2.0"]


def test_a_changed_manifest_or_another_key_does_not_verify(tmp_path: Path) -> None:
    private, public = keys(tmp_path)
    _, other = keys(tmp_path, "other")
    store = ReleaseStore(tmp_path / "store")
    store.add(fake_wheel(tmp_path / "dist", "0.2.0"), private)
    data, sig = store.manifest("0.2.0")
    with pytest.raises(SignatureError, match="another key"):
        verify(load_public(other), data, sig)
    with pytest.raises(SignatureError, match="changed after signing"):
        verify(load_public(public), data.replace(b"0.2.0", b"0.2.9"), sig)
    with pytest.raises(SignatureError, match="not signed"):
        verify(load_public(public), data, "")


def _junk(d: Path) -> Path:
    path = d / "poker_kiosk-0.2.0-py3-none-any.whl"
    path.write_bytes(b"junk")
    return path


def _misnamed(d: Path) -> Path:
    return fake_wheel(d, "0.2.0").rename(d / "poker_kiosk-0.3.0-py3-none-any.whl")


@pytest.mark.parametrize("make, reason", [
    (lambda d: fake_wheel(d, "0.2.0", dist="otherpkg"), "not a pokerkiosk wheel"),
    (_junk, "is not a wheel"),
    (_misnamed, "does not say version 0.3.0"),
    (lambda d: d / "poker_kiosk-0.2.0-py3-none-any.whl", "no file"),
])
def test_a_bad_wheel_is_refused_and_nothing_is_recorded(tmp_path: Path, make,
                                                        reason: str) -> None:
    private, _ = keys(tmp_path)
    (tmp_path / "dist").mkdir()
    wheel = make(tmp_path / "dist")
    r = cli("add", str(wheel), store=tmp_path / "store", key=private)
    assert r.returncode == 2 and reason in r.stderr, r.stderr
    assert ReleaseStore(tmp_path / "store").versions() == []


def test_the_same_version_twice_and_removing_the_rolled_out_one_are_refused(
        tmp_path: Path) -> None:
    private, _ = keys(tmp_path)
    store = ReleaseStore(tmp_path / "store")
    store.add(fake_wheel(tmp_path / "a", "0.2.0"), private)
    with pytest.raises(ReleaseError, match="exists"):
        store.add(fake_wheel(tmp_path / "b", "0.2.0", body=b"other"), private)
    store.set_rollout("0.2.0")
    r = cli("remove", "0.2.0", store=tmp_path / "store", key=private)
    assert r.returncode == 2 and "being rolled out" in r.stderr
    assert cli("rollout", "0.1.0", store=tmp_path / "store", key=private).returncode == 2
    store.set_rollout(None)
    assert cli("remove", "0.2.0", store=tmp_path / "store", key=private).returncode == 0
    assert store.versions() == [] and not any(tmp_path.joinpath("store").glob(".*0.2.0*"))


def test_rollout_to_a_few_tables_then_hold(tmp_path: Path) -> None:
    private, _ = keys(tmp_path)
    store = ReleaseStore(tmp_path / "store")
    store.add(fake_wheel(tmp_path / "a", "0.2.0"), private)
    r = cli("rollout", "0.2.0", "--tables", "1,3-4", store=tmp_path / "store", key=private)
    assert r.returncode == 0 and "tables 1,3,4" in r.stdout
    assert [store.rollout().wanted(n) for n in (1, 2, 3)] == ["0.2.0", None, "0.2.0"]
    assert cli("hold", store=tmp_path / "store", key=private).returncode == 0
    assert store.rollout().hold and store.rollout().tables == [1, 3, 4]


@pytest.mark.skipif(os.geteuid() != 0, reason="chown needs root")
def test_run_as_root_the_store_stays_the_directors(tmp_path: Path) -> None:
    """`pokerkiosk release` is run as root on the director machine; the director (its own
    user) must still be able to write the rollout when the floor steers from the page."""
    private, _ = keys(tmp_path)
    state = tmp_path / "state"
    state.mkdir()
    os.chown(state, 65534, 65534)                     # as /var/lib/pokerkiosk is
    wheel = fake_wheel(tmp_path / "a", "0.2.0")
    assert cli("add", str(wheel), store=state / "releases", key=private).returncode == 0
    assert cli("rollout", "0.2.0", store=state / "releases", key=private).returncode == 0
    owners = {p.stat().st_uid for p in (state / "releases").rglob("*")}
    assert owners == {65534}, owners


def test_a_key_is_never_overwritten_and_provisioning_keeps_it(tmp_path: Path) -> None:
    private, public = keys(tmp_path)
    with pytest.raises(Exception, match="exists"):
        make_key(private, public)
    assert oct(os.stat(private).st_mode & 0o777) == "0o600"
    out = tmp_path / "room"
    provision(out, event="main", tables=2)
    first = (out / "tables" / "release.pub").read_text()
    assert first == (out / "director" / "release.pub").read_text()
    provision(out, event="main", tables=3)
    assert (out / "tables" / "release.pub").read_text() == first
    logins = (out / "director" / "table-logins").read_text()
    assert [line.split(":")[0] for line in logins.splitlines()] == \
        ["table-1", "table-2", "table-3"]
