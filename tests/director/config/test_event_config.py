"""event.toml and table.toml: one schema, clear errors, and an event's settings that
cannot silently change under it."""

from __future__ import annotations

from pathlib import Path

import pytest
from race_table import BREAK_25_OFF
from room_kit import Dealer, register

from kiosk.base.errors import ConfigError
from kiosk.commands.main import main
from kiosk.config import doc as configdoc
from kiosk.config.files import load_event_config, load_table_config
from kiosk.core.model import commands
from kiosk.core.model import room_commands as rc
from kiosk.director.log.store import EventLog
from kiosk.director.service import Director

DOCS = Path(__file__).resolve().parents[3] / "docs" / "config.md"


def event_toml(folder: Path, event: str = "", director: str = "") -> Path:
    path = folder / "event.toml"
    path.write_text(f'[event]\nname = "cfg-test"\n{event}\n[director]\ndb = "event.db"\n'
                    f"{director}\n")
    return path


@pytest.mark.parametrize(("text", "key", "problem"), [
    ('[event]\nname = "x"\nseats = "9"\n', "event.seats", "expected an integer, got a string"),
    ('[event]\nname = "x"\nsets = 9\n', "event.sets", "unknown key (known: name, profile,"),
    ('[event]\nname = "x"\nseats = 11\n', "event.seats", "expected an integer <= 10"),
    ('[event]\nname = "x"\nseed = true\n', "event.seed", "expected an integer, got true/false"),
    ('[event]\nname = "x"\nprofile = "tda-2071"\n', "event.profile", "no such rule profile"),
    ('[event]\nseats = 9\n', "event.name", "missing (required)"),
    ('[event]\nname = "x"\n[director]\nhttp = "127.0.0.1:99999"\n', "director.http",
     "port up to 65535"),
    ('[event]\nname = "x"\n[director]\nhttp = "0.0.0.0:8080"\n', "director.http",
     "floor passwords across the room in clear"),
    ('[event]\nname = "x"\n[director]\nfloor_users = { floor = "floor" }\n',
     "director.floor_users", "pokerkiosk floor-user add NAME"),
    ('[event]\nname = "x"\n[broker]\nurl = "mqtt://h:99999"\n', "broker.url",
     "must look like mqtt://host:port"),
])
def test_event_file_errors_name_file_key_and_type(tmp_path: Path, text: str, key: str,
                                                  problem: str) -> None:
    path = tmp_path / "event.toml"
    path.write_text(text)
    with pytest.raises(ConfigError) as err:
        load_event_config(path)
    assert str(err.value).startswith(f"{path}: {key}: "), err.value
    assert problem in str(err.value)


def test_table_file_errors_name_file_key_and_type(tmp_path: Path) -> None:
    path = tmp_path / "table.toml"
    path.write_text('[table]\nnumber = 3\nevent = "x"\n[gpio]\nbounce = "fast"\n')
    with pytest.raises(ConfigError, match=r"table.toml: gpio.bounce: expected a number, "
                                          "got a string"):
        load_table_config(path)
    path.write_text('[table]\nnumber = 3\nevent = "x"\n[ui]\nsize = "big"\n')
    with pytest.raises(ConfigError, match=r"ui.size: expected a string matching"):
        load_table_config(path)
    path.write_text('[table]\nnumber = 3\nevent = "x"\nstate_dir = "s"\n')
    assert load_table_config(path).state_dir == str(tmp_path / "s")


def test_a_table_belongs_to_a_room_and_the_old_event_key_still_reads(
        tmp_path: Path, caplog: pytest.LogCaptureFixture) -> None:
    path = tmp_path / "table.toml"
    path.write_text('[table]\nnumber = 3\nroom = "main-room"\n')
    assert load_table_config(path).room == "main-room"
    assert not caplog.records
    path.write_text('[table]\nnumber = 3\nevent = "spring-open"\n')
    assert load_table_config(path).room == "spring-open"
    notice = [r.getMessage() for r in caplog.records]
    assert len(notice) == 1 and "read as room = 'spring-open'" in notice[0]
    for text, problem in (('room = "a"\nevent = "b"', "give only `room`"),
                          ("", "table.room: missing"),
                          ('room = "Main Room"', "room name 'Main Room' must be")):
        path.write_text(f"[table]\nnumber = 3\n{text}\n")
        with pytest.raises(ConfigError, match=problem):
            load_table_config(path)


def test_the_reference_is_generated_from_the_schema() -> None:
    assert DOCS.read_text() == configdoc.render(), \
        "docs/config.md is stale: python -m kiosk.config.doc > docs/config.md"


@pytest.mark.parametrize(("structure", "stack"), [("turbo", 10_000), ("standard", 20_000),
                                                  ("deep", 40_000)])
def test_the_start_stack_follows_the_structure(tmp_path: Path, structure: str,
                                               stack: int) -> None:
    d = Director(load_event_config(event_toml(tmp_path, f'structure = "{structure}"')))
    assert d.tour.config["start_stack"] == stack
    d.log.close()


def test_changed_settings_are_refused_until_a_new_event(tmp_path: Path,
                                                       capsys: pytest.CaptureFixture[str]
                                                       ) -> None:
    path = event_toml(tmp_path, 'structure = "turbo"\nseed = 4')
    Director(load_event_config(path)).log.close()
    for change, key in (('structure = "deep"\nseed = 4', "event.structure"),
                        ('structure = "turbo"\nseed = 4\nprofile = "irish-open"',
                         "event.profile"),
                        ('structure = "turbo"\nseed = 4\nseats = 8', "event.seats"),
                        ('structure = "turbo"\nseed = 4\nstart_stack = 30000',
                         "event.start_stack")):
        event_toml(tmp_path, change)
        with pytest.raises(ConfigError) as err:
            Director(load_event_config(path))
        assert f"{path}: {key}: " in str(err.value)
        assert f"pokerkiosk new-event --config {path}" in str(err.value)
    # a typo in the profile is named too, before the log is even opened
    event_toml(tmp_path, 'structure = "turbo"\nseed = 4\nprofile = "tda2017"')
    with pytest.raises(ConfigError, match=r"event\.profile: tda2017: no such rule profile"):
        load_event_config(path)
    # the command the message names starts a new event and keeps the old log
    event_toml(tmp_path, 'structure = "deep"')
    assert main(["new-event", "--config", str(path)]) == 0
    assert "is kept as" in capsys.readouterr().out
    assert len(list(tmp_path.glob("event-*.db"))) == 1
    d = Director(load_event_config(path))
    assert d.tour.config["start_stack"] == 40_000
    d.log.close()


def race_toml(folder: Path, chip_race: str) -> Path:
    return event_toml(folder, 'structure = "turbo"\nseed = 4',
                      f'[money]\nchip_set = [25, 100, 500, 1000, 5000]\n'
                      f'chip_race = "{chip_race}"\n')


def colour_up(d: Director, dealer: Dealer, tables: tuple[int, ...]) -> None:
    """The break that takes the 25s off; `tables` count, each with 100 in odd 25s."""
    d.act(commands.ClockAction(action="jump", period=BREAK_25_OFF))
    d.act(commands.Tick())
    rnd = d.tour.count_round["round"]
    for n in tables:
        seats = sorted(d.tour.tables[n].seat_of)
        stacks = {str(s): 10000 for s in seats}
        stacks[str(seats[0])], stacks[str(seats[1])], stacks[str(seats[2])] = \
            10075, 10025, 9900
        dealer.send(n, "chip_count", round=rnd, stacks=stacks)


def test_a_new_chip_race_method_applies_between_races_and_is_refused_during_one(
        tmp_path: Path) -> None:
    """The house may change who runs the races between days: applied as a logged event
    when no race is owed, refused with the reason (and nothing written) while one is."""
    path = race_toml(tmp_path, "dealer")
    d = Director(load_event_config(path), clock=lambda: 1000.0)
    register(d, "cfg-test", 18)
    d.act(commands.Start())
    dealer = Dealer(d, "cfg-test")
    colour_up(d, dealer, (1,))                  # table 1 owes its race, table 2 counts
    d.log.close()

    race_toml(tmp_path, "draw")
    rows = EventLog(tmp_path / "event.db").last_seq
    with pytest.raises(ConfigError) as err:
        Director(load_event_config(path), clock=lambda: 1000.0)
    assert str(err.value).startswith(f"{path}: money.chip_race: event cfg-test: 'draw' "
                                     "differs from 'dealer' in its log and cannot apply now")
    assert "still has races to run at tables 1, 2" in str(err.value)
    assert EventLog(tmp_path / "event.db").last_seq == rows

    race_toml(tmp_path, "dealer")               # put back: the races are run
    d = Director(load_event_config(path), clock=lambda: 1000.0)
    dealer = Dealer(d, "cfg-test")
    rnd = d.tour.count_round["round"]
    dealer.send(1, "chip_race", round=rnd, winners=[min(d.tour.tables[1].seat_of)])
    colour_up(d, dealer, (2,))
    dealer.send(2, "chip_race", round=rnd, winners=[min(d.tour.tables[2].seat_of)])
    assert not d.tour.chipcount.unraced()
    d.log.close()

    race_toml(tmp_path, "draw")                 # between races: applied, and logged
    d = Director(load_event_config(path), clock=lambda: 1000.0)
    assert d.tour.chipcount.chip_race_mode == "draw"
    last = list(EventLog(tmp_path / "event.db").read())[-1]
    assert (last["kind"], last["chip_race"], last["before"], last["source"]) == \
        ("chip_race_set", "draw", "dealer", "event.toml")
    rows = d.store.last_seq
    d.log.close()
    d = Director(load_event_config(path), clock=lambda: 1000.0)   # once, not every start
    assert d.store.last_seq == rows and d.tour.chipcount.chip_race_mode == "draw"
    d.log.close()


def test_an_event_that_is_over_keeps_its_chip_race_method(tmp_path: Path) -> None:
    """Finished with a race still owed: a later change of the house setting neither
    applies to it nor keeps the director from starting."""
    path = race_toml(tmp_path, "dealer")
    d = Director(load_event_config(path), clock=lambda: 1000.0)
    register(d, "cfg-test", 18)
    d.act(commands.Start())
    colour_up(d, Dealer(d, "cfg-test"), (1,))
    d.room_act(rc.SetEventState(event="cfg-test", state="finished"))
    rows = d.store.last_seq
    d.log.close()
    race_toml(tmp_path, "draw")
    d = Director(load_event_config(path), clock=lambda: 1000.0)
    assert d.store.last_seq == rows and d.tour.chipcount.chip_race_mode == "dealer"
    d.log.close()


def money_toml(folder: Path, money: str) -> Path:
    return event_toml(folder, 'structure = "turbo"\nseed = 4', f"[money]\n{money}\n")


def restarted(path: Path) -> Director:
    return Director(load_event_config(path), clock=lambda: 1000.0)


def refused(path: Path, key: str) -> str:
    """The director does not start on `path`, says why in one line, and writes nothing."""
    db = path.parent / "event.db"
    rows = EventLog(db).last_seq
    with pytest.raises(ConfigError) as err:
        restarted(path)
    assert str(err.value).startswith(f"{path}: money.{key}: event cfg-test: ")
    assert "\n" not in str(err.value) and EventLog(db).last_seq == rows
    return str(err.value)


def last_event(path: Path) -> dict:
    return list(EventLog(path.parent / "event.db").read())[-1]


def test_a_new_chip_set_applies_when_the_chips_on_the_tables_stay_valid(
        tmp_path: Path) -> None:
    """A bigger denomination added: applied, logged, and the next colour-up reads it. A
    set that would change the smallest chip on the tables (a chip that never left by a
    race, or one raced off coming back) is refused with the reason, as during a race."""
    path = race_toml(tmp_path, "dealer")
    d = restarted(path)
    register(d, "cfg-test", 18)
    d.act(commands.Start())
    d.log.close()
    five = "[25, 100, 500, 1000, 5000]"
    money_toml(tmp_path, 'chip_set = [100, 500, 1000, 5000]\nchip_race = "dealer"')
    said = refused(path, "chip_set")
    assert f"[100, 500, 1000, 5000] differs from {five} in its log and cannot apply now: " \
           "the smallest chip on the tables is 25; with [100, 500, 1000, 5000] it would be " \
           "100, and chips change only in a colour-up at a break" in said

    money_toml(tmp_path, 'chip_set = [5000, 25, 100, 500, 1000, 25000]\nchip_race = "dealer"')
    d = restarted(path)
    assert d.tour.chipcount.chip_set == (25, 100, 500, 1000, 5000, 25000)
    last = last_event(path)
    assert (last["kind"], last["chip_set"], last["before"], last["source"]) == \
        ("chip_set_set", [25, 100, 500, 1000, 5000, 25000], [25, 100, 500, 1000, 5000],
         "event.toml")
    dealer = Dealer(d, "cfg-test")
    colour_up(d, dealer, (1,))                      # the 25s leave: table 1 owes its race
    assert d.tour.count_round["removed"] == [25]
    d.log.close()

    money_toml(tmp_path, 'chip_set = [25, 100, 500, 1000, 5000]\nchip_race = "dealer"')
    assert "still has races to run at tables 1, 2" in refused(path, "chip_set")
    money_toml(tmp_path, 'chip_set = [25, 100, 500, 1000, 5000, 25000]\n'
                         'chip_race = "dealer"')
    d = restarted(path)
    dealer = Dealer(d, "cfg-test")
    rnd = d.tour.count_round["round"]
    dealer.send(1, "chip_race", round=rnd, winners=[min(d.tour.tables[1].seat_of)])
    colour_up(d, dealer, (2,))
    dealer.send(2, "chip_race", round=rnd, winners=[min(d.tour.tables[2].seat_of)])
    d.log.close()
    # the 25s are gone: bringing them back, or dropping the 100s, is refused
    money_toml(tmp_path, 'chip_set = [5, 25, 500, 1000, 5000, 25000]\nchip_race = "dealer"')
    assert "the smallest chip on the tables is 100; with [5, 25, 500, 1000, 5000, 25000] " \
           "it would be 25" in refused(path, "chip_set")
    money_toml(tmp_path, 'chip_set = [100, 500, 1000, 5000]\nchip_race = "dealer"')
    d = restarted(path)                             # the 25000 taken out again: fine
    assert d.tour.chipcount.chip_set == (100, 500, 1000, 5000)
    d.log.close()


def test_hand_for_hand_at_the_bubble_changes_while_hand_for_hand_is_off(
        tmp_path: Path) -> None:
    path = money_toml(tmp_path, "h4h_at_bubble = false")
    d = restarted(path)
    register(d, "cfg-test", 18)
    d.act(commands.Start())
    d.act(commands.HandForHand(on=True))            # the floor's own hand-for-hand
    d.log.close()
    money_toml(tmp_path, "h4h_at_bubble = true")
    said = refused(path, "h4h_at_bubble")
    assert "true differs from false in its log and cannot apply now: hand-for-hand is " \
           "running; change it once hand-for-hand is over" in said
    money_toml(tmp_path, "h4h_at_bubble = false")
    d = restarted(path)
    d.act(commands.HandForHand(on=False))
    d.log.close()
    money_toml(tmp_path, "h4h_at_bubble = true")
    d = restarted(path)
    assert d.tour.money.h4h_at_bubble
    last = last_event(path)
    assert (last["kind"], last["on"], last["source"]) == ("h4h_at_bubble_set", True,
                                                          "event.toml")
    d.log.close()


def test_a_satellites_leftover_changes_until_its_payouts_are_locked(tmp_path: Path) -> None:
    path = money_toml(tmp_path, "seat_value = 500")
    d = restarted(path)
    register(d, "cfg-test", 18)
    d.log.close()
    money_toml(tmp_path, 'seat_value = 500\nsatellite_leftover = "split"')
    d = restarted(path)
    assert d.tour.satellites.leftover == "split"
    last = last_event(path)
    assert (last["kind"], last["leftover"], last["before"]) == \
        ("satellite_leftover_set", "split", "next")
    d.act(commands.LockPayouts())
    d.log.close()
    money_toml(tmp_path, 'seat_value = 500\nsatellite_leftover = "next"')
    assert "'next' differs from 'split' in its log and cannot apply now: the payouts are " \
           "locked" in refused(path, "satellite_leftover")
