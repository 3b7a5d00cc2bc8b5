"""`pokerkiosk sim`: play a whole tournament through the core and summarise it."""

from __future__ import annotations

import argparse
import json
import sys

from kiosk.core.event.tournament import Tournament
from kiosk.rules.loader import DEFAULT_PROFILE, profile_ids
from kiosk.sim.engine import Simulator


def add_arguments(p: argparse.ArgumentParser) -> None:
    p.add_argument("--players", type=int, default=1000, help="entrants (default 1000)")
    p.add_argument("--seats", type=int, default=9, help="seats per table (default 9)")
    p.add_argument("--profile", default=DEFAULT_PROFILE,
                   help=f"one of {', '.join(profile_ids())} (default {DEFAULT_PROFILE})")
    p.add_argument("--structure", default="standard", help="turbo, standard, deep or a file")
    p.add_argument("--seed", type=int, default=1)
    p.add_argument("--json", action="store_true", help="print one JSON object")
    p.add_argument("--buy-in", type=int, default=100, help="prize money per entry (default 100)")
    p.add_argument("--bounty", choices=("fixed", "pko"), default=None,
                   help="bounties: fixed, or progressive knockouts")
    p.add_argument("--bounty-amount", type=int, default=50,
                   help="bounty per entry when --bounty is given (default 50)")


def _bar(done: int, total: int) -> None:
    width = 40
    filled = int(width * done / max(total, 1))
    sys.stderr.write(f"\r[{'#' * filled}{'.' * (width - filled)}] {done}/{total} out")
    if done >= total:
        sys.stderr.write("\n")
    sys.stderr.flush()


def run(args: argparse.Namespace) -> int:
    if args.players < 2:
        print("pokerkiosk sim: error: --players must be at least 2", file=sys.stderr)
        return 2
    if not 2 <= args.seats <= 10:
        print("pokerkiosk sim: error: --seats must be 2 to 10", file=sys.stderr)
        return 2
    if args.buy_in < 0 or args.bounty_amount < 0:
        print("pokerkiosk sim: error: amounts must not be negative", file=sys.stderr)
        return 2
    money = {"buy_in": args.buy_in, "bounty": args.bounty_amount if args.bounty else 0,
             "bounty_mode": args.bounty or ""}
    sim = Simulator(args.players, args.seats, args.profile, args.seed, args.structure,
                    money=money)
    sim.log = []                  # every event decided, replayed below
    res = sim.run(progress=_bar if sys.stderr.isatty() else None)
    same = replays_identically(sim)
    ok = res.invariant_violations == 0 and same
    out = {**res.to_dict(), "replay_identical": same}
    if args.json:
        out.pop("wall_seconds")
        print(json.dumps(out))
        return 0 if ok else 1
    moves = res.moves_balance + res.moves_break
    print(f"{res.players} players, profile {res.profile}, seed {res.seed}")
    print(f"winner {res.places[0]}; {res.hands} hands over {res.sim_hours} h of play, "
          f"level {res.levels_reached} reached, {res.tables_max} tables at the start")
    print(f"moves: {moves} ({moves / res.players:.3f} per entrant): {res.moves_balance} to "
          f"balance, {res.moves_break} from broken tables; unavoidable {res.moves_unavoidable}")
    print(f"halts {res.halts}, widest spread at a hand start {res.max_spread_at_hand_start}, "
          f"most moves for one player {res.max_moves_one_player}")
    print(f"moved players who skipped a big blind {res.moved_skipped_bb}, "
          f"took it twice {res.moved_bb_twice}")
    print(f"prize pool {res.prize_pool:,}, bounty pool {res.bounty_pool:,}; "
          f"{res.rebuys} rebuys, {res.addons} add-ons")
    print(f"invariant violations {res.invariant_violations}; replayed from its "
          f"{len(sim.log or ())} events: {'the same' if same else 'DIFFERENT'}; "
          f"{res.wall_seconds} s")
    for v in res.violations[:5]:
        print(f"  ! {v}")
    return 0 if ok else 1


def replays_identically(sim: Simulator) -> bool:
    """The tournament folded again from the events it decided: the same places, players
    and tables as played (what the director's restart relies on)."""
    if sim.tour is None or sim.log is None:
        return False
    again = Tournament.replay([sim.tour.config, *sim.log])
    return _seen(again) == _seen(sim.tour)


def _seen(tour: Tournament) -> tuple:
    players = sorted((p.id, p.status, p.table, p.seat, p.moves, p.chips_bought)
                     for p in tour.players.values())
    tables = sorted((t.id, tuple(sorted(t.seat_of.items())), t.hand, t.broken)
                    for t in tour.tables.values())
    return (players, tables, sorted(tour.places().items()), tour.finished_at)
