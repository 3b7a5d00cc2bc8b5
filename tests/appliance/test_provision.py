"""Provisioning output, checked by a real Mosquitto enforcing it (plain and TLS)."""

from __future__ import annotations

import stat
import tomllib
from pathlib import Path

import pytest
from appliance_helpers import EVENT, Broker, free_port, make_room, start_broker, stop_broker

from kiosk.commands.main import main
from kiosk.config.files import load_event_config, load_table_config
from kiosk.protocol.topics import Topics, V1Topics
from kiosk.system import tls
from kiosk.system.passwords import check_line, hash_line

T = Topics(EVENT)
NOT_AUTHORIZED = 135   # MQTT v5 reason code, CONNACK and SUBACK


def mode(p: Path) -> int:
    return stat.S_IMODE(p.stat().st_mode)


def test_files_modes_and_configs_load(tmp_path: Path) -> None:
    out = tmp_path / "room"
    assert main(["provision", "--tables", "3", "--event", EVENT, "--out", str(out),
                 "--director-host", "10.0.0.2"]) == 0
    for secret in ("secrets.toml", "broker/passwd", "director/event.toml",
                   "tables/table-1.toml", "tables/table-3.toml"):
        assert mode(out / secret) == 0o600, secret
    assert mode(out) == 0o700
    t3 = load_table_config(out / "tables" / "table-3.toml")
    assert (t3.table, t3.room, t3.broker.url) == (3, EVENT, "mqtt://10.0.0.2:1883")
    assert t3.broker.username == "table-3" and t3.broker.password
    assert t3.broker.ca_file is None and t3.reader_port == "/dev/ttyAMA0"
    ev = load_event_config(out / "director" / "event.toml")
    assert (ev.name, ev.broker.url, ev.broker.username) == (EVENT, "mqtt://127.0.0.1:1883",
                                                            "director")
    assert ev.floor_users["floor"]
    users = tomllib.loads((out / "secrets.toml").read_text())["users"]
    lines = (out / "broker" / "passwd").read_text().splitlines()
    assert len(lines) == 4
    assert any(check_line(line, "table-2", users["table-2"]) for line in lines)
    assert not any(check_line(line, "table-2", users["table-1"]) for line in lines)
    # plaintext passwords live only in secrets.toml and the per-machine configs
    assert users["table-2"] not in (out / "broker" / "passwd").read_text()
    assert users["table-2"] not in (out / "broker" / "acl").read_text()


def test_rerun_keeps_credentials_and_adds_tables(tmp_path: Path,
                                                 capsys: pytest.CaptureFixture[str]) -> None:
    out = tmp_path / "room"
    make_room(out, tls=True, port=8883, tables=2)
    before = tomllib.loads((out / "secrets.toml").read_text())["users"]
    ca_before = (out / "ca" / "ca.crt").read_bytes()
    room = make_room(out, tls=True, port=8883, tables=5)
    after = tomllib.loads((out / "secrets.toml").read_text())["users"]
    assert room.added == ["table-3", "table-4", "table-5"]
    assert {k: after[k] for k in before} == before
    assert (out / "ca" / "ca.crt").read_bytes() == ca_before
    assert load_table_config(out / "tables" / "table-1.toml").broker.password == \
        before["table-1"]
    assert "user table-5" in (out / "broker" / "acl").read_text()
    # another event in the same directory is a one-line error, not a silent overwrite
    assert main(["provision", "--tables", "1", "--event", "other", "--out", str(out)]) == 2
    assert "was provisioned for event 'spring-open'" in capsys.readouterr().err


def test_password_lines_match_mosquitto_passwd_format() -> None:
    line = hash_line("table-1", "pw", salt=b"\x00" * 12)
    user, _, rest = line.partition(":")
    assert user == "table-1" and rest.startswith("$7$101$AAAAAAAAAAAAAAAA$")
    assert check_line(line, "table-1", "pw") and not check_line(line, "table-1", "px")


@pytest.mark.parametrize("room_broker", [False, True], ids=["plain", "tls"], indirect=True)
def test_broker_enforces_acl(room_broker: Broker, clients) -> None:  # type: ignore[no-untyped-def]
    b = room_broker
    director, rc = clients(b, "director", b.password("director"))
    assert rc == 0
    assert director.subscribe(T.all_reports, T.all_live, T.all_status) == [1, 1, 1]
    # the director publishes every table's plan retained, the events directory and each
    # event's schedule and seating
    for n in (3, 4):
        director.publish(T.plan(n), f"plan-{n}".encode(), retain=True)
    director.publish(T.events, b"events", retain=True)
    for ev in ("daily", "sat"):
        director.publish(T.schedule(ev), f"schedule-{ev}".encode(), retain=True)
        director.publish(T.seating(ev), f"seating-{ev}".encode(), retain=True)

    t3, rc = clients(b, "table-3", b.password("table-3"))
    assert rc == 0
    # its own plan, the directory and every event's schedule and seating arrive (the one
    # login serves whichever event the room assigns); table 4's plan does not
    sub = t3.subscribe(T.plan(3), T.events, T.schedule("daily"), T.seating("sat"), T.plan(4))
    assert sub[:4] == [1, 1, 1, 1]
    got = dict(t3.drain(1.0))
    assert got == {T.plan(3): b"plan-3", T.events: b"events",
                   T.schedule("daily"): b"schedule-daily", T.seating("sat"): b"seating-sat"}

    # table 3 may not write under table 4: sent first, on the same connection and QoS,
    # so it would reach the director before table 3's own report if it got through
    t3.publish(T.report(4), b"forged")
    t3.publish(T.report(3), b"mine")
    t3.publish(T.live(3), b"live")
    seen = director.drain(1.0)
    assert (T.report(3), b"mine") in seen and (T.live(3), b"live") in seen
    assert all(topic != T.report(4) for topic, _ in seen)
    t3.publish(T.plan(3), b"self-made plan")        # tables cannot write plans either
    t3.publish(T.schedule("daily"), b"self-made schedule")
    t3.publish(T.events, b"self-made directory")
    assert t3.drain(0.5) == []                       # nothing new reached its subscription

    t4, rc = clients(b, "table-4", b.password("table-4"))
    assert rc == 0
    t4.publish(T.report(4), b"t4")
    assert director.drain(1.0) == [(T.report(4), b"t4")]

    # a table still on version 1 reaches the director with its status and hears the
    # answer on its old plan topic, and nothing else of the old tree
    old = V1Topics("spring-open")
    assert director.subscribe(V1Topics.all_status) == [1]
    t4.publish(old.table_status(4), b"online")
    assert director.drain(1.0) == [(old.table_status(4), b"online")]
    t4.publish(old.table_status(3), b"forged")
    assert director.drain(0.5) == []
    assert t4.subscribe(old.plan(4)) == [1]
    director.publish(old.plan(4), b"update the kiosk", retain=True)
    assert t4.drain(1.0) == [(old.plan(4), b"update the kiosk")]


@pytest.mark.parametrize("room_broker", [False, True], ids=["plain", "tls"], indirect=True)
def test_broker_refuses_strangers(room_broker: Broker, clients) -> None:  # type: ignore[no-untyped-def]
    b = room_broker
    _, rc = clients(b, None)
    assert rc is not None and rc.value in (NOT_AUTHORIZED, 134)
    _, rc = clients(b, "table-3", "wrong")
    assert rc is not None and rc.value in (NOT_AUTHORIZED, 134)
    _, rc = clients(b, "table-3", b.password("table-4"))
    assert rc is not None and rc.value in (NOT_AUTHORIZED, 134)
    _, rc = clients(b, "nobody", b.password("table-4"))
    assert rc is not None and rc.value in (NOT_AUTHORIZED, 134)


@pytest.mark.parametrize("backend", ["openssl", *(["cryptography"] if tls.backend() ==
                                                  "cryptography" else [])])
def test_tls_backends_make_a_cert_tables_accept(tmp_path: Path, backend: str,
                                               clients) -> None:  # type: ignore[no-untyped-def]
    """Both certificate makers: the broker serves the cert and a table verifies it."""
    import ssl

    out, port = tmp_path / "room", free_port()
    files = tls.TlsFiles(ca_key=out / "ca" / "ca.key", ca_cert=out / "ca" / "ca.crt",
                         server_key=out / "broker" / "server.key",
                         server_cert=out / "broker" / "server.crt")
    assert tls.ensure_pki(files, EVENT, "127.0.0.1", use=backend)
    assert sorted(tls._openssl.sans(files.server_cert)) == ["127.0.0.1", "localhost"]
    room = make_room(out, tls=True, port=port)     # keeps the CA and cert made above
    assert not tls.ensure_pki(files, EVENT, "127.0.0.1", use=backend)
    broker = start_broker(room, port, tmp_path)
    try:
        _, rc = clients(broker, "table-1", broker.password("table-1"))
        assert rc == 0
        # a client with another CA must not talk to this broker
        other = tmp_path / "other"
        tls.ensure_pki(tls.TlsFiles(other / "k", other / "c", other / "sk", other / "sc"),
                       EVENT, "127.0.0.1", use=backend)
        with pytest.raises(ssl.SSLCertVerificationError):
            clients(broker, "table-1", broker.password("table-1"), ca=str(other / "c"))
        assert mode(files.server_key) == 0o600 and mode(files.ca_key) == 0o600
    finally:
        stop_broker(broker)


def test_floor_passwords_reach_the_director_only_as_hashes(tmp_path: Path) -> None:
    from kiosk.config import floor_users

    out = tmp_path / "room"
    assert main(["provision", "--tables", "2", "--event", EVENT, "--out", str(out),
                 "--tls", "--director-host", "10.0.0.2"]) == 0
    plain = tomllib.loads((out / "secrets.toml").read_text())["floor_users"]["floor"]
    for f in (out / "director").iterdir():
        assert plain.encode() not in f.read_bytes(), f
    hashes = floor_users.load(out / "director" / "floor-users.toml")
    assert floor_users.verify(hashes["floor"], plain)
    assert mode(out / "director" / "floor-users.toml") == 0o600
    assert mode(out / "director" / "https.key") == 0o600
    ev = load_event_config(out / "director" / "event.toml")
    assert ev.https and (ev.http_host, ev.http_port) == ("0.0.0.0", 8443)
    # the QR codes name the director as the tables do, not 0.0.0.0
    assert ev.public_url == "https://10.0.0.2:8443"
    assert ev.floor_users == hashes
    # a re-run keeps the hash (and so every browser session) when nothing changed
    before = (out / "director" / "floor-users.toml").read_text()
    make_room(out, tls=True, port=8883, tables=3)
    assert (out / "director" / "floor-users.toml").read_text() == before
    # without TLS the dashboard stays on the director itself
    plain_room = tmp_path / "plain"
    assert main(["provision", "--tables", "1", "--event", EVENT, "--out", str(plain_room)]) == 0
    ev = load_event_config(plain_room / "director" / "event.toml")
    assert not ev.https and ev.http_host == "127.0.0.1" and ev.public_url == ""
    assert main(["provision", "--tables", "1", "--event", EVENT, "--out", str(plain_room),
                 "--dashboard", "0.0.0.0:8080"]) == 2


def test_floor_user_command(tmp_path: Path, capsys: pytest.CaptureFixture[str],
                            monkeypatch: pytest.MonkeyPatch) -> None:
    import io

    from kiosk.config import floor_users

    cfg = tmp_path / "event.toml"
    cfg.write_text('[event]\nname = "x"\n')
    users = tmp_path / "floor-users.toml"

    def floor_user(*args: str, password: str = "") -> int:
        monkeypatch.setattr("sys.stdin", io.StringIO(password + "\n"))
        return main(["floor-user", *args, "--config", str(cfg)])

    assert floor_user("add", "anne.b", password="a-long-one-9") == 0
    assert floor_users.verify(floor_users.load(users)["anne.b"], "a-long-one-9")
    assert "a-long-one-9" not in users.read_text()
    users.chmod(0o640)
    for weak in ("floor", "anne.b", "short"):
        assert floor_user("add", "anne.b", password=weak) == 2
    assert floor_user("add", "bo", "--generate", "--role", "cashier") == 0
    generated = capsys.readouterr().out.rsplit("password: ", 1)[1].strip()
    assert floor_users.verify(floor_users.load(users)["bo"], generated)
    assert mode(users) == 0o640, "an edit keeps the file's mode (and owner)"
    assert floor_user("list") == 0
    assert capsys.readouterr().out.split() == ["anne.b", "(director)", "bo", "(cashier)"]
    assert floor_user("add", "bo", password="another-long-1") == 0    # keeps its role
    assert floor_users.load_roles(users) == {"bo": "cashier"}
    assert floor_user("remove", "bo") == 0
    assert floor_user("remove", "bo") == 2
    assert "no floor user bo" in capsys.readouterr().err
    assert load_event_config(cfg).floor_users.keys() == {"anne.b"}
