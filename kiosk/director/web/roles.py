"""Who on the floor team may do what: a role per floor login, a group per command kind.

The director may do everything. The floor runs the play (calls, moves, tables, the clock,
penalties) and registers players; the cashier registers players and handles the money and
the tickets. Starting, finishing and archiving events, opening new ones and the end of a
day stay with the director. A command kind no group names is the director's alone, so a
new command is never open to everyone by accident.
"""

from __future__ import annotations

from kiosk.base.texts import M_, Msg

GROUPS: dict[str, frozenset[str]] = {
    "calls": frozenset({"floor_ack", "floor_resolve", "clock_approve", "clock_cancel",
                        "table_note"}),
    "moves": frozenset({"move", "arrived", "seat_waiting", "break_table", "bust", "unbust",
                        "set_eliminator", "set_break_order"}),
    "tables": frozenset({"assign_table", "free_table", "grant_tables", "release_table"}),
    "clock": frozenset({"clock", "h4h", "count_chips", "orbit", "shot_clock"}),
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
# what a refusal says a role may not do, for the person refused (each a whole sentence,
# so each language says it its own way); "{role}" is the login's role
MAY_NOT = {
    "add_event": M_("role.add_event", "your role ({role}) may not open events: ask a "
                    "director"),
    "set_event_state": M_("role.set_event_state", "your role ({role}) may not open, finish "
                          "or archive events: ask a director"),
    "start": M_("role.start", "your role ({role}) may not start events: ask a director"),
    "import": M_("role.import", "your role ({role}) may not import players: ask a director"),
    "clock": M_("role.clock", "your role ({role}) may not run the clock: ask a director"),
    "h4h": M_("role.h4h", "your role ({role}) may not run hand-for-hand: ask a director"),
    "orbit": M_("role.orbit", "your role ({role}) may not run orbit for orbit: ask a "
                "director"),
    "shot_clock": M_("role.shot_clock", "your role ({role}) may not set where the shot "
                     "clock runs: ask a director"),
    "assign_table": M_("role.assign_table", "your role ({role}) may not assign tables: ask "
                       "a director"),
    "free_table": M_("role.free_table", "your role ({role}) may not free tables: ask a "
                     "director"),
    "refund_ticket": M_("role.refund_ticket", "your role ({role}) may not refund tickets: "
                        "ask a director"),
    "return_ticket": M_("role.return_ticket", "your role ({role}) may not give tickets "
                        "back: ask a director"),
    "rebuy": M_("role.rebuy", "your role ({role}) may not sell rebuys: ask a director"),
    "reenter": M_("role.reenter", "your role ({role}) may not sell re-entries: ask a "
                  "director"),
    "addon": M_("role.addon", "your role ({role}) may not sell add-ons: ask a director"),
    "penalty": M_("role.penalty", "your role ({role}) may not give penalties: ask a "
                  "director"),
    "register": M_("role.register", "your role ({role}) may not register players: ask a "
                   "director"),
    "deal": M_("role.deal", "your role ({role}) may not record deals: ask a director"),
    "release": M_("role.release", "your role ({role}) may not steer the tables' updates: "
                  "ask a director"),
    "dealer_roster": M_("role.dealer_roster", "your role ({role}) may not add or remove "
                        "dealers of the roster: ask a director"),
    "set_sections": M_("role.set_sections", "your role ({role}) may not set the sections: "
                       "ask a director"),
    "table_note": M_("role.table_note", "your role ({role}) may not write the tables' "
                     "notes: ask a director"),
}
# what a refusal says to a reader with no floor login, by what the login would let them do
LOGIN = {
    "act": M_("login.act", "log in as floor staff to act"),
    "choose your section": M_("login.section", "log in as floor staff to choose your "
                              "section"),
    "import players": M_("login.import", "log in as floor staff to import players"),
    "print": M_("login.print", "log in as floor staff to print"),
    "steer updates": M_("login.updates", "log in as floor staff to steer updates"),
    "see the dealers": M_("login.dealers", "log in as floor staff to see the dealers"),
    "see the codes": M_("login.codes", "log in as floor staff to see the codes"),
}


# every action the dashboard's pages offer a control for: a page shows a control only to a
# login whose role may take it (none before login), and the server checks each again
OFFERED = ("start", "clock", "h4h", "orbit", "shot_clock", "set_event_state", "add_event",
           "assign_table", "free_table", "floor_ack", "floor_resolve", "clock_approve",
           "clock_cancel", "return_ticket", "refund_ticket", "release", "register", "import",
           "bust", "unbust", "move", "arrived", "penalty", "rebuy", "reenter", "break_table",
           "confirm_reservation", "deal", "print", "set_sections", "set_break_order")
# what any floor login may do whatever its role (no group names it: it is not a command):
# print or reprint a slip, end its own session, choose the section it works in
ANY_ROLE = frozenset({"print", "logout", "choose_section"})


def may(role: str, kind: str) -> bool:
    """Whether a login of `role` may give a command of `kind`."""
    return role == "director" or kind in ANY_ROLE or kind in ALLOWED.get(role, frozenset())


def offered(role: str | None) -> list[str]:
    """The actions of OFFERED a login of `role` may take; none before login (None)."""
    return [] if role is None else [kind for kind in OFFERED if may(role, kind)]


def refusal(role: str, kind: str) -> Msg | None:
    """None when allowed, else the sentence the dashboard and the CLI show (a command
    kind no sentence names is named as it is: "may not give the command rebuy_all")."""
    if may(role, kind):
        return None
    found = MAY_NOT.get(kind)
    if found is not None:
        return _with_role(found, role)
    return M_("role.command", "your role ({role}) may not give the command {kind}: ask a "
              "director", role=role, kind=kind)


def _with_role(sentence: Msg, role: str) -> Msg:
    return Msg(key=sentence.key, args={**sentence.args, "role": role})


def login_needed(what: str) -> Msg:
    """The refusal of a reader with no floor login who wanted to `what`."""
    found = LOGIN.get(what)
    if found is not None:
        return found
    return M_("login.to", "log in as floor staff to {what}", what=what)
