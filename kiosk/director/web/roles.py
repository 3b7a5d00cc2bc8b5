"""Who on the floor team may do what: a role per floor login, a group per command kind.

The director may do everything. The floor runs the play (calls, moves, tables, the clock,
penalties) and registers players; the cashier registers players and handles the money and
the tickets. Starting, finishing and archiving events, opening new ones and the end of a
day stay with the director. A command kind no group names is the director's alone, so a
new command is never open to everyone by accident.
"""

from __future__ import annotations

GROUPS: dict[str, frozenset[str]] = {
    "calls": frozenset({"floor_ack", "floor_resolve", "clock_approve", "clock_cancel"}),
    "moves": frozenset({"move", "arrived", "seat_waiting", "break_table", "bust", "unbust",
                        "set_eliminator", "set_break_order"}),
    "tables": frozenset({"assign_table", "free_table", "grant_tables", "release_table"}),
    "clock": frozenset({"clock", "h4h", "count_chips"}),
    "penalties": frozenset({"penalty"}),
    "register": frozenset({"register", "import", "add_player", "update_player",
                           "confirm_reservation", "cancel_reservation"}),
    "money": frozenset({"rebuy", "reenter", "addon", "lock_payouts", "payout_rules",
                        "deal"}),
    "tickets": frozenset({"issue_ticket", "use_ticket", "return_ticket", "refund_ticket"}),
    "dealers": frozenset({"dealer_clock_in", "dealer_clock_out", "dealer_sign_early_out",
                          "dealer_release", "dealer_back", "dealer_push",
                          "dealer_pin_clear"}),
}
ALLOWED: dict[str, frozenset[str]] = {
    "floor": frozenset().union(*(GROUPS[g] for g in ("calls", "moves", "tables", "clock",
                                                     "penalties", "register", "dealers"))),
    "cashier": frozenset().union(*(GROUPS[g] for g in ("register", "money", "tickets"))),
}
# what a refusal calls an action, for the person refused
WORDS = {"add_event": "open events", "set_event_state": "open, finish or archive events",
         "start": "start events", "import": "import players", "clock": "run the clock",
         "h4h": "run hand-for-hand", "assign_table": "assign tables",
         "free_table": "free tables", "refund_ticket": "refund tickets",
         "return_ticket": "give tickets back", "rebuy": "sell rebuys",
         "reenter": "sell re-entries", "addon": "sell add-ons", "penalty": "give penalties",
         "register": "register players", "deal": "record deals",
         "release": "steer the tables' updates",
         "dealer_roster": "add or remove dealers of the roster",
         "set_sections": "set the sections"}


# every action the dashboard's pages offer a control for: a page shows a control only to a
# login whose role may take it (none before login), and the server checks each again
OFFERED = ("start", "clock", "h4h", "set_event_state", "add_event", "assign_table",
           "free_table", "floor_ack", "floor_resolve", "clock_approve", "clock_cancel",
           "return_ticket", "refund_ticket", "release", "register", "import", "bust",
           "unbust", "move", "arrived", "penalty", "rebuy", "reenter", "break_table",
           "confirm_reservation", "deal", "print", "set_sections", "set_break_order")
# what any floor login may do whatever its role (no group names it: it is not a command)
ANY_ROLE = frozenset({"print"})


def may(role: str, kind: str) -> bool:
    """Whether a login of `role` may give a command of `kind`."""
    return role == "director" or kind in ANY_ROLE or kind in ALLOWED.get(role, frozenset())


def offered(role: str | None) -> list[str]:
    """The actions of OFFERED a login of `role` may take; none before login (None)."""
    return [] if role is None else [kind for kind in OFFERED if may(role, kind)]


def refusal(role: str, kind: str) -> str | None:
    """None when allowed, else the sentence the dashboard and the CLI show."""
    if may(role, kind):
        return None
    what = WORDS.get(kind, kind.replace("_", " "))
    return f"your role ({role}) may not {what}: ask a director"
