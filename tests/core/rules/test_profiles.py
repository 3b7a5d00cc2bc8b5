"""Rule profiles: the six shipped rule sets (the seeds' five and TDA 2024) load with the
facts the rule texts state, another is data only, and a broken profile file gives one
line naming file and key."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from kiosk.base.errors import ConfigError
from kiosk.rules.loader import PROFILE_DIR, load_profile, load_profile_file, profile_ids

PROFILES = ("home-roberts", "irish-open", "sheridans", "tda-2015", "tda-2017", "tda-2024")


def test_all_six_profiles_ship_and_load() -> None:
    assert tuple(profile_ids()) == PROFILES
    for pid in PROFILES:
        prof = load_profile(pid)
        assert prof.id == pid and prof.name and prof.source


@pytest.mark.parametrize(("pid", "seconds", "countdown", "min_wait", "approval", "by"), [
    ("tda-2017", 25, 5, 0, True, "player"),        # TDA 2017 r.29
    ("tda-2015", 50, 10, 0, True, "player"),       # TDA 2015 r.27
    ("irish-open", 50, 10, 120, True, "player"),   # Irish r.27: not before two minutes
    ("sheridans", 30, 0, 0, False, "dealer"),      # Sheridan's r.32: dealer/TD, 30 s more
    ("home-roberts", 60, 10, 0, True, "player"),   # one more minute, ten-second warning
])
def test_clock_call_durations(pid: str, seconds: int, countdown: int, min_wait: int,
                              approval: bool, by: str) -> None:
    c = load_profile(pid).clock_call
    assert (c.seconds, c.countdown, c.min_wait, c.needs_approval, c.called_by) == (
        seconds, countdown, min_wait, approval, by)


def test_button_rules_per_profile() -> None:
    assert all(load_profile(p).button.dead_button for p in PROFILES if p != "home-roberts")
    home = load_profile("home-roberts").button
    assert not home.dead_button and home.start == "seat1"
    sher = load_profile("sheridans").button
    assert sher.start == "high_card" and sher.redraw_new_fraction == 0.5
    assert sher.high_card_final_tables == 2
    assert load_profile("tda-2017").button.start == "random"


def test_balancing_and_final_table_rules_per_profile() -> None:
    for pid in ("tda-2017", "tda-2015", "irish-open"):
        b = load_profile(pid).balance
        assert (b.mode, b.halt_short, b.final_table_size(9)) == ("tda", 3, 10)
    assert load_profile("irish-open").balance.added_tables_break_first
    assert not load_profile("tda-2017").balance.added_tables_break_first
    sher = load_profile("sheridans").balance
    assert (sher.mode, sher.min_players, sher.halt_short) == ("minimum", 4, None)


def test_bust_tie_rules_per_profile() -> None:
    tda = load_profile("tda-2017").busts
    assert tda.hand_for_hand_same_table == "tie" and tda.across_tables == "tie"
    irish = load_profile("irish-open").busts
    assert irish.hand_for_hand_same_table == "stack" and irish.across_tables == "tie"
    for pid in ("sheridans", "home-roberts"):
        b = load_profile(pid).busts
        assert (b.same_table, b.across_tables) == ("stack", "stack")


def test_hand_for_hand_and_penalty_rules_per_profile() -> None:
    assert load_profile("tda-2017").hand_for_hand.runoff_seconds == 120
    assert load_profile("tda-2015").hand_for_hand.runoff_seconds is None
    assert load_profile("irish-open").hand_for_hand.players_stay_seated
    assert load_profile("sheridans").hand_for_hand is None
    home = load_profile("home-roberts").penalties
    assert home.minutes_ladder == (10, 20, 40) and home.strikes_out == 4
    assert load_profile("irish-open").penalties.leaving_live_hand_hands == 2


def test_late_registration_and_entries_per_profile() -> None:
    irish = load_profile("irish-open").late_reg
    assert (irish.until_level, irish.through_break, irish.stack) == (4, True, "full")
    sher = load_profile("sheridans").late_reg
    assert (sher.until_raises, sher.stack, sher.dock_big_blinds) == (2, "docked", 5)
    home = load_profile("home-roberts").entries
    assert home.rebuy and not home.reentry and home.rebuy_levels == 4
    assert load_profile("irish-open").end_of_day.hands == (3, 7)


# ---------------------------------------------------------------- a sixth profile


def _shipped_text(pid: str = "tda-2017") -> str:
    return (PROFILE_DIR / f"{pid}.toml").read_text()


def test_a_sixth_profile_is_data_only(tmp_path: Path) -> None:
    from kiosk.core.event.tournament import Tournament
    from kiosk.rules.structure_files import load_structure

    text = _shipped_text().replace('id = "tda-2017"', 'id = "casino-x"')
    text = text.replace("seconds = 25", "seconds = 40").replace("countdown = 5",
                                                                 "countdown = 15")
    path = tmp_path / "casino-x.toml"
    path.write_text(text)
    prof = load_profile(str(path))
    assert prof.id == "casino-x"
    assert (prof.clock_call.seconds, prof.clock_call.countdown) == (40, 15)
    # the core runs it without knowing its name: a clock call gets the new durations
    tour = Tournament.create(event="x", profile=prof, structure=load_structure("turbo"))
    for i in range(4):
        tour.execute({"kind": "register", "name": f"P{i}"}, 0.0)
    tour.execute({"kind": "start"}, 0.0)
    seat = next(iter(tour.tables[1].seat_of))
    rep = {"id": "c1", "table": 1, "kind": "clock_call", "data": {"seat": seat}}
    evs = tour.execute({"kind": "report", "table": 1, "report": rep}, 1.0)
    assert (evs[0]["seconds"], evs[0]["countdown"]) == (40, 15)


# ---------------------------------------------------------------- bad files


def _bad(tmp_path: Path, text: str) -> ConfigError:
    path = tmp_path / "bad.toml"
    path.write_text(text)
    with pytest.raises(ConfigError) as info:
        load_profile_file(path)
    msg = str(info.value)
    assert "\n" not in msg and msg.startswith(str(path))
    return info.value


def test_missing_key_names_file_and_key(tmp_path: Path) -> None:
    err = _bad(tmp_path, re.sub(r"(?m)^seconds = 25\n", "", _shipped_text()))
    assert err.key == "clock_call.seconds" and "missing" in err.problem


def test_wrong_type_names_key(tmp_path: Path) -> None:
    err = _bad(tmp_path, _shipped_text().replace("seconds = 25", 'seconds = "25"'))
    assert err.key == "clock_call.seconds" and "integer" in err.problem


def test_boolean_is_not_a_number(tmp_path: Path) -> None:
    err = _bad(tmp_path, _shipped_text().replace("halt_short = 3", "halt_short = true"))
    assert err.key == "balance.halt_short" and "boolean" in err.problem


def test_unknown_key_is_rejected(tmp_path: Path) -> None:
    err = _bad(tmp_path, _shipped_text().replace("countdown = 5", "countdown = 5\ncountdwn = 5"))
    assert err.key == "clock_call.countdwn" and "unknown key" in err.problem


def test_bad_choice_lists_the_options(tmp_path: Path) -> None:
    err = _bad(tmp_path, _shipped_text().replace('start = "random"', 'start = "dealer"'))
    assert err.key == "button.start" and "random" in err.problem and "seat1" in err.problem


def test_a_choice_of_another_section_is_refused(tmp_path: Path) -> None:
    """balance.mode and chip_race.mode share a key name, not their options."""
    err = _bad(tmp_path, _shipped_text().replace('mode = "tda"', 'mode = "race"'))
    assert err.key == "balance.mode" and "tda" in err.problem and "minimum" in err.problem
    assert "round_up" not in err.problem
    err = _bad(tmp_path, _shipped_text().replace('mode = "race"', 'mode = "tda"'))
    assert err.key == "chip_race.mode" and "race_by_card" in err.problem


def test_bad_toml_is_one_line(tmp_path: Path) -> None:
    err = _bad(tmp_path, _shipped_text() + "\n[clock_call\n")
    assert "not valid TOML" in err.problem


def test_bad_tolerance_entry_names_index(tmp_path: Path) -> None:
    text = _shipped_text().replace("{ tables_at_least = 1, spread = 1 }",
                                   "{ tables_at_least = 1, spred = 1 }")
    err = _bad(tmp_path, text)
    assert err.key.startswith("balance.tolerance[1]")


def test_unknown_profile_name_lists_known_ones() -> None:
    with pytest.raises(ConfigError) as info:
        load_profile("no-such-house")
    assert "tda-2017" in str(info.value)


def test_missing_file_is_a_config_error(tmp_path: Path) -> None:
    with pytest.raises(ConfigError, match="file not found"):
        load_profile_file(tmp_path / "gone.toml")
