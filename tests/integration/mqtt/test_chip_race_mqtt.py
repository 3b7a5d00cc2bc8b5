"""The dealer's chip race over a real Mosquitto and a real director process: the
colour-up's count, the pending race in the table's plan, a wrong entry refused with
its reason, the dealer's entry taken, and the outcome still there after a restart."""

from __future__ import annotations

import threading

from floor_client import FloorClient
from race_table import BREAK_25_OFF, CHIPS, RaceTable, odd_turbo
from waiting import wait_for

from kiosk.director.log.store import EventLog
from kiosk.sim.engine import Simulator
from kiosk.sim.mqtt_field import MqttField


def test_dealer_race_over_mqtt(mosquitto, director_factory) -> None:
    director = director_factory(players=18, web=True, floor_users={"td": "pw"},
                                extra_toml=CHIPS).start()
    table = RaceTable(mosquitto, director.name)
    wait_for(lambda: table.plan.get("seats"), 15)
    td = FloorClient(f"http://127.0.0.1:{director.http_port}", "td", "pw")
    assert td.post("api/act", {"kind": "clock", "action": "jump",
                               "period": BREAK_25_OFF})["ok"]
    a, b = sorted(int(s) for s in table.plan["seats"])[:2]
    table.count({a: 75, b: 50})                         # 125 in 25s: one chip of 100
    rnd = table.plan["chip_count"]["round"]
    wait_for(lambda: (table.plan.get("colour_up") or {}).get("pending"), 15)
    cu = table.plan["colour_up"]
    assert (cu["race"], cu["deal_cards"], cu["to_give"], cu["max_each"]) == \
        ("dealer", {a: 3, b: 2}, 1, 1)

    before = EventLog(director.db).last_seq
    wrong = table.send("chip_race", round=rnd, winners=[a, b])
    assert "enter 1 winning card, not 2" in table.rejected[wrong]
    assert EventLog(director.db).last_seq == before and table.plan["colour_up"]["pending"]

    table.send("chip_race", round=rnd, winners=[b])     # seat b's card is the highest
    wait_for(lambda: not table.plan["colour_up"]["pending"], 15)
    cu = table.plan["colour_up"]
    assert cu["winners"] == [b] and cu["won"] == {b: 1}
    assert cu["after"][a] == 20000 and cu["after"][b] == 20100
    director.stop()

    epoch = table.plan["epoch"]
    director.start(start_event=False)                    # the outcome is in the log
    wait_for(lambda: table.plan.get("epoch") != epoch, 30)   # the restarted director's plan
    assert table.plan["colour_up"] == cu
    ev = next(e for e in EventLog(director.db).read() if e["kind"] == "coloured_up"
              and e["table"] == 1)
    assert (ev["race"], ev["winners"]) == ("dealer", [b])
    table.close()


def test_the_simulated_tables_answer_the_dealers_race_over_mqtt(
        mosquitto, director_factory) -> None:
    """The simulator's tables over a real broker and director: at the colour-up every
    table that owes the race deals it and enters the winners, as a dealer does; none is
    left owing, and the stacks they play on are the director's outcome."""
    players, seed = 30, 5
    director = director_factory(players=players, web=True, floor_users={"td": "pw"},
                                extra_toml=CHIPS, start_stack=10025).start()
    field = MqttField(mosquitto.config, director.name, resend_every=1.0, ack_timeout=40)
    field.wait_ready()
    wait_for(lambda: len(field.tables()) == 4, 10)
    sim = Simulator(players, seed=seed, structure=odd_turbo(), field=field)
    td = FloorClient(f"http://127.0.0.1:{director.http_port}", "td", "pw")

    def break_after_some_hands() -> None:
        wait_for(lambda: sim.res.hands >= 12, 60)
        td.post("api/act", {"kind": "clock", "action": "jump", "period": BREAK_25_OFF})

    floor = threading.Thread(target=break_after_some_hands, daemon=True)
    floor.start()
    res = sim.run()
    floor.join(5)
    field.close()
    director.stop()
    assert res.invariant_violations == 0, res.violations
    events = list(EventLog(director.db).read())
    counted = {(e["table"], e["round"]) for e in events if e["kind"] == "chips_counted"}
    races = [e for e in events if e["kind"] == "coloured_up"]
    assert counted and counted == {(e["table"], e["round"]) for e in races}   # none owed
    entered = [e for e in races if e["winners"] and not e["cards"]]   # the dealers' entries
    assert entered and all(e["race"] == "dealer" for e in races)
    assert res.chips_removed == sum(e["removed"] for e in races)
    assert not field.rejected, field.rejected
