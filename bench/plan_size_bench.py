"""Plan sizes with message keys: the same states, as today's plans carried them (the
English words alone, every empty penalty sent) and as the director publishes them now
(keys beside the room's default-language words, empty penalties left out), for a room
speaking English and one speaking Czech with German and Chinese tables.

A seeded tournament is played through the core; every `--every` events each open
table's plan is built and encoded. Prints figures, asserts nothing.

    python bench/plan_size_bench.py [--players 300] [--seed 7] [--every 200]
"""

from __future__ import annotations

import argparse
import statistics
from types import SimpleNamespace
from typing import Any

from kiosk.core.event import plans
from kiosk.core.event.tournament import Tournament
from kiosk.director.mqtt.speech import Speech
from kiosk.protocol.messages import encode
from kiosk.sim.engine import Simulator

CHIPS = [25, 100, 500, 1000, 5000]


def today(body: dict[str, Any]) -> dict[str, Any]:
    """The same plan as the previous release sent it: no keys, every penalty field."""
    out = {k: v for k, v in body.items() if k not in ("hold_msg", "language")}
    out["seats"] = {n: {"penalty": "", **{k: v for k, v in s.items() if k != "penalty_msg"}}
                    for n, s in body["seats"].items()}
    return out


def room(default: str) -> SimpleNamespace:
    tables = {3: "de", 5: "zh_Hans"} if default != "en" else {}
    return SimpleNamespace(language=default, timezone="Europe/Prague", currency="CZK",
                           table_language=lambda t: tables.get(t, default), dealers=None)


def main() -> None:
    a = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    a.add_argument("--players", type=int, default=300)
    a.add_argument("--seed", type=int, default=7)
    a.add_argument("--every", type=int, default=200)
    args = a.parse_args()
    sim = Simulator(args.players, seed=args.seed, chip_set=CHIPS)
    sim.log = []
    sim.run()
    tour = Tournament.create(event="sim", profile=sim.profile, structure=sim.structure,
                             seats=9, seed=args.seed, t=0.0, chip_set=CHIPS)
    speeches = {"en": Speech(room("en")), "cs": Speech(room("cs"))}
    sizes: dict[str, list[int]] = {"before": [], "en": [], "cs": []}
    held = 0
    for i, ev in enumerate(sim.log):
        tour.apply(ev)
        if i % args.every:
            continue
        for n, tab in tour.tables.items():
            if tab.broken:
                continue
            body = {"rev": i, "epoch": 1.0, "ts": 1.0,
                    **plans.plan(tour, n, event="sim", title="Sunday", room="Main")}
            held += bool(body.get("hold_msg"))
            sizes["before"].append(len(encode(today(body))))
            for code, speech in speeches.items():
                sizes[code].append(len(encode(speech.plan(n, dict(body)))))
    print(f"{len(sizes['before'])} plans of {args.players} players (seed {args.seed}), "
          f"{held} with a reason to hold")
    for name, xs in sizes.items():
        label = {"before": "previous release", "en": "keys, English room",
                 "cs": "keys, Czech room (de, zh tables)"}[name]
        print(f"{label:34} mean {statistics.mean(xs):7.1f} B  max {max(xs):5d} B  "
              f"total {sum(xs):9,d} B")


if __name__ == "__main__":
    main()
