"""The money's outside interfaces: `pokerkiosk sim --bounty ... --json`, `pokerkiosk
results`, the [money] section of event.toml and the new table reports' validation."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

from kiosk.base.errors import ConfigError
from kiosk.config.files import load_event_config
from kiosk.protocol.messages import ProtocolError, decode, encode


def _run(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", "kiosk", *args], capture_output=True,
                          text=True, timeout=120, check=False)


@pytest.mark.parametrize("mode", ["fixed", "pko"])
def test_sim_json_has_pool_bounties_and_one_row_per_entrant(mode: str) -> None:
    proc = _run("sim", "--players", "200", "--seed", "4", "--bounty", mode, "--json")
    assert proc.returncode == 0, proc.stderr
    out = json.loads(proc.stdout)
    rows = out["results"]
    assert out["prize_pool"] == 200 * 100 and out["bounty_pool"] == 200 * 50
    assert len(rows) == 200
    assert set(rows[0]) >= {"place", "player", "name", "prize", "bounty", "eliminated_by"}
    assert sum(r["prize"] for r in rows) == out["prize_pool"]
    assert sum(r["bounty"] for r in rows) + out["winner_keeps"] == out["bounty_pool"]
    assert rows[0]["place"] == 1 and rows[0]["eliminated_by"] is None
    assert all(r["eliminated_by"] and r["eliminated_by"] != r["player"] for r in rows[1:])
    if mode == "fixed":
        assert out["winner_keeps"] == 50 and all(r["bounty"] % 50 == 0 for r in rows)
    assert _run("sim", "--players", "200", "--seed", "4", "--bounty", mode,
                "--json").stdout == proc.stdout


def test_results_cli_refuses_a_missing_log(tmp_path: Path) -> None:
    proc = _run("results", "--db", str(tmp_path / "nope.db"), "--csv")
    assert proc.returncode == 2 and "no event log" in proc.stderr
    assert not (tmp_path / "nope.db").exists()


def _event(tmp_path: Path, money: str) -> Path:
    path = tmp_path / "event.toml"
    path.write_text(f'[event]\nname = "e1"\nbuy_in = 200\n\n[money]\n{money}')
    return path


def test_money_section_of_the_event_config(tmp_path: Path) -> None:
    (tmp_path / "pay.csv").write_text("place,percent\n1,60\n2,40\n")
    cfg = load_event_config(_event(tmp_path, 'fee = 20\nbounty = 100\nbounty_mode = "pko"\n'
                                             'shares_csv = "pay.csv"\nrounding = 5\n'
                                             'chip_set = [100, 25, 500]\n'))
    assert cfg.money["shares"] == [6000, 4000] and cfg.money["table"] == "shares"
    assert (cfg.money["buy_in"], cfg.money["fee"], cfg.money["bounty"]) == (200, 20, 100)
    assert cfg.chip_set == (25, 100, 500)
    for bad, why in [('bounty_mode = "pko"\n', "bounty"), ('table = "best"\n', "table"),
                     ('shares_csv = "missing.csv"\n', "shares_csv"), ("fees = 3\n", "fees")]:
        with pytest.raises(ConfigError, match=why):
            load_event_config(_event(tmp_path, bad))


def _bust(**extra: object) -> bytes:
    return encode({"table": 1, "id": "r1", "seq": 1, "ts": 0, "kind": "bust",
                   "data": {"seat": 3, "player": "p1", **extra}})


def _count(stacks: object, **extra: object) -> bytes:
    return encode({"table": 1, "id": "r1", "seq": 1, "ts": 0, "kind": "chip_count",
                   "data": {"stacks": stacks, **extra}})


def test_new_report_fields_are_bounded() -> None:
    assert decode("report", _bust(eliminator=5, rebuy=True))["data"]["eliminator"] == 5
    assert decode("report", _bust(eliminator=[5, 7]))["data"]["eliminator"] == [5, 7]
    for data, why in [({"eliminator": 11}, "<= 10"), ({"eliminator": 3}, "other seats"),
                      ({"eliminator": [5, 5]}, "other seats"), ({"eliminator": True}, "bool"),
                      ({"rebuy": "yes"}, "rebuy"), ({"stack": -1}, ">= 0")]:
        with pytest.raises(ProtocolError, match=why):
            decode("report", _bust(**data))
    assert decode("report", _count({"1": 0, "10": 999_999}, round=2))["data"]["stacks"] == \
        {1: 0, 10: 999_999}
    for stacks, extra, why in [({}, {}, "length >= 1"), ({"11": 5}, {}, "<= 10"),
                               ({"x": 5}, {}, "got .str."), ({"1": 10 ** 14}, {}, "<= 1"),
                               ({"1": 2.5}, {}, "got .float."),
                               ({"1": 5}, {"round": 0}, "round")]:
        with pytest.raises(ProtocolError, match=why):
            decode("report", _count(stacks, **extra))
    with pytest.raises(ProtocolError, match="player"):
        decode("report", encode({"table": 1, "id": "r", "seq": 1, "ts": 0, "kind": "addon",
                                 "data": {"seat": 2}}))
