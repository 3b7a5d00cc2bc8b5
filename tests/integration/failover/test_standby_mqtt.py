"""Two director processes on one PostgreSQL log over a real Mosquitto: the standby takes
over from a killed leader mid-tournament, with the same places and no report applied
twice; both serve /api/health, the standby sends the dashboard to the leader; a second
leader on the same lease is refused in one line."""

from __future__ import annotations

import json
import subprocess
import sys
import time
import urllib.error
import urllib.request
from pathlib import Path

from mqtt_kit import PLAYERS, director_places, play_over_mqtt, reference_places, wait_for_hands
from waiting import PROMPT_S, wait_for

from kiosk.director.log.store import EventLog


def health(port: int) -> dict:
    """/api/health, or {} while the dashboard is not listening yet."""
    try:
        with urllib.request.urlopen(f"http://127.0.0.1:{port}/api/health", timeout=5) as r:
            return json.load(r)
    except urllib.error.URLError:
        return {}


def test_the_standby_takes_over_from_a_killed_leader_mid_tournament(
        tmp_path: Path, mosquitto, pg_dsn: str, director_factory) -> None:
    leader = director_factory(players=PLAYERS, db=pg_dsn)
    leader.start()
    standby = director_factory(workdir=tmp_path / "standby", players=PLAYERS, db=pg_dsn,
                               standby=True).start()
    took: list[float] = []

    def chaos(sim) -> None:
        wait_for_hands(sim, 80)
        leader.kill9()
        t0 = time.monotonic()
        standby.wait_log("took over room")
        standby.wait_log("connected to")
        took.append(time.monotonic() - t0)

    try:
        play_over_mqtt(mosquitto, leader, during=chaos)
    finally:
        standby.stop()
    assert took and took[0] < PROMPT_S, took
    places, _ = director_places(pg_dsn)
    assert places == reference_places()
    ids = [e["report"] for e in EventLog(pg_dsn).read() if e.get("report")
           and e["kind"] in ("hand_started", "hand_ended", "busted", "all_in")]
    assert len(ids) == len(set(ids))
    assert "took over room test-event as leader (term 2)" in standby.log_text()


def test_both_serve_health_the_standby_redirects_and_a_second_leader_is_refused(
        tmp_path: Path, mosquitto, pg_dsn: str, director_factory) -> None:
    leader = director_factory(players=12, db=pg_dsn, web=True).start()
    standby = director_factory(workdir=tmp_path / "standby", players=12, db=pg_dsn,
                               web=True, standby=True).start()
    try:
        wait_for(lambda: health(standby.http_port).get("leadership", {}).get("behind") == 0
                 and health(leader.http_port)["leadership"]["standbys"], timeout=10)
        lead, follow = health(leader.http_port)["leadership"], \
            health(standby.http_port)["leadership"]
        assert lead["role"] == "leader" and lead["leader"]["term"] == 1
        assert lead["standbys"][0]["behind"] == 0
        assert follow["role"] == "standby" and follow["leader"]["holder"] == lead["me"]
        # the dashboard and the TV clock: sent to the leader
        opener = urllib.request.build_opener(NoRedirect)
        try:
            opener.open(f"http://127.0.0.1:{standby.http_port}/clock", timeout=5)
            raise AssertionError("the standby served the clock itself")
        except urllib.error.HTTPError as exc:
            assert exc.code == 307
            assert exc.headers["Location"] == f"http://127.0.0.1:{leader.http_port}/clock"
        # a second leader on the same lease: one line, nothing written
        end = len(list(EventLog(pg_dsn).read()))
        second = subprocess.run(
            [sys.executable, "-m", "kiosk", "director", "--config",
             str(leader.config), "--no-web"], capture_output=True, text=True, timeout=30)
        assert second.returncode == 2
        error = second.stderr.splitlines()[-1]
        assert error.startswith("pokerkiosk director: error: room test-event is already led")
        assert "two leaders on one lease" in error and "Traceback" not in second.stderr
        assert len(list(EventLog(pg_dsn).read())) == end
    finally:
        standby.stop()


class NoRedirect(urllib.request.HTTPRedirectHandler):
    def redirect_request(self, *args, **kwargs):
        return None

