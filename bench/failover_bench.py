"""Failover benchmark: a tournament over a real Mosquitto while the leading director is
killed (SIGKILL) and frozen (SIGSTOP, woken as a zombie), and the database restarted;
then the log against the fault-free reference (harness.failover).

    python bench/failover_bench.py [--kills N] [--zombies N] [--json]
        [--backend postgresql|sqlite] [--dsn postgresql://...]
        [--private-cluster [--pg-restarts N]]

Default: PostgreSQL on the local server (its own database, created and dropped). A
database restart needs --private-cluster: a cluster of our own (initdb/pg_ctl, as the
postgres user when run as root) on a free port, never the machine's server.
"""

from __future__ import annotations

import argparse
import json
import logging

from harness.failover import Plan, rehearse


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--kills", type=int, default=3, help="leader killed with SIGKILL")
    ap.add_argument("--zombies", type=int, default=1, help="leader frozen, then woken")
    ap.add_argument("--pg-restarts", type=int, default=0,
                    help="database restarts (needs --private-cluster)")
    ap.add_argument("--backend", choices=["postgresql", "sqlite"], default="postgresql")
    ap.add_argument("--dsn", help="PostgreSQL server (default: the local one)")
    ap.add_argument("--private-cluster", action="store_true",
                    help="run a PostgreSQL cluster of our own for the run")
    ap.add_argument("--players", type=int, default=60)
    ap.add_argument("--json", action="store_true", help="one JSON object")
    args = ap.parse_args()
    if args.pg_restarts and not args.private_cluster:
        ap.error("--pg-restarts needs --private-cluster (never restart the machine's server)")
    logging.basicConfig(level=logging.WARNING)
    plan = Plan(kills=args.kills, zombies=args.zombies if args.backend != "sqlite" else 0,
                pg_restarts=args.pg_restarts, players=args.players)
    result = rehearse(plan, backend=args.backend, dsn=args.dsn, private=args.private_cluster)
    if args.json:
        print(json.dumps(result))
    else:
        for key, value in result.items():
            print(f"{key:>22}: {value}")


if __name__ == "__main__":
    main()
