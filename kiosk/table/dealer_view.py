"""The dealers' rotation on the dealer's screen, read off the plan's `dealer` part: the
header's "Ann · push 4:30", the push prompt once it is due ("finish this hand", never a
cut hand, nor one in the hold before a level change: RP-7), where the dealer just pushed
off goes ("Ann: Table 14"), and what the outgoing dealer tells the incoming one (TDA 2024
RP-15A)."""

from __future__ import annotations

from typing import Any

from kiosk.lang.active import _, render

NEXT_SHOWN_S = 120.0     # the outgoing dealer's next table (and the handover) stays up

Hold = tuple[float, float] | None   # (start, until): no push then, before a level change


def push_time(d: dict[str, Any], t: float, hold: Hold = None) -> float | None:
    """When the push may be done: its time, or the end of the hold before the event's
    level change when the push falls in it (RP-7: `hold`, read off the table's clock);
    None while the event's break holds it."""
    push_at = d.get("push_at")
    if push_at is None or hold is None:
        return push_at
    start, until = hold
    return until if start <= max(t, push_at) < until else push_at


def pin_offered(plan: dict[str, Any], t: float, free: bool, hold: Hold = None) -> bool:
    """Where a dealer without a badge may type a PIN: a free table (to clock in), and
    a table of the rotation with no dealer or whose push is due."""
    d = plan.get("dealer")
    if free or not isinstance(d, dict):
        return free
    push_at = push_time(d, t, hold)
    return not d.get("dealer") or (push_at is not None and t >= push_at)


def dealer_fields(plan: dict[str, Any], t: float, in_hand: bool,
                  hold: Hold = None) -> dict[str, Any]:
    d = plan.get("dealer") or {}
    name = d.get("dealer") or ""
    if not d or not name:
        return {}
    push_at = push_time(d, t, hold)
    if push_at is None:
        line = name + " · " + _("push held")
    elif push_at > t:
        minutes, seconds = divmod(int(push_at - t), 60)
        line = name + " · " + _("push {clock}").format(clock=f"{minutes}:{seconds:02d}")
    else:
        line = name + " · " + _("push due")
    prompt = ""
    if push_at is not None and t >= push_at:
        who = d.get("incoming") or _("the relief")
        prompt = (_("PUSH after this hand: {dealer}") if in_hand
                  else _("PUSH: {dealer} badges in")).format(dealer=who)
    nxt = ""
    pushed = d.get("pushed_at")
    if d.get("outgoing") and pushed is not None and t - pushed < NEXT_SHOWN_S:
        where = render(d.get("outgoing_to_msg"), str(d.get("outgoing_to") or ""))
        nxt = f"{d['outgoing']}: {where or _('see the floor')}"
    return {"dealer_line": line, "push_prompt": prompt, "dealer_next": nxt}


def _due(d: dict[str, Any], t: float, hold: Hold) -> bool:
    push_at = push_time(d, t, hold)
    return push_at is not None and t >= push_at


def _just_pushed(d: dict[str, Any], t: float) -> bool:
    pushed = d.get("pushed_at")
    return bool(d.get("outgoing")) and pushed is not None and t - pushed < NEXT_SHOWN_S


def handover_due(plan: dict[str, Any], t: float, hold: Hold = None) -> bool:
    """RP-15A's moment: the push is due, or was done less than NEXT_SHOWN_S ago, at a
    table whose profile has the handover (the plan carries it)."""
    d = plan.get("dealer") or {}
    if not isinstance(d.get("handover"), dict) or not d.get("dealer"):
        return False
    return _due(d, t, hold) or _just_pushed(d, t)


def handover_pushed(plan: dict[str, Any], t: float, hold: Hold = None) -> bool:
    """The handover due is the one of a push just done (the incoming dealer deals)."""
    d = plan.get("dealer") or {}
    return _just_pushed(d, t) and not _due(d, t, hold)


def handover_names(plan: dict[str, Any], t: float, hold: Hold = None) -> tuple[str, str]:
    """(outgoing, incoming) of the handover due: before the push the dealer dealing and the
    relief; once pushed, the dealer pushed off and the one dealing now."""
    d = plan.get("dealer") or {}
    if handover_pushed(plan, t, hold):
        return str(d["outgoing"]), str(d.get("dealer") or "")
    return str(d.get("dealer") or ""), str(d.get("incoming") or _("the relief"))


def handover_key(plan: dict[str, Any]) -> str:
    """Which handover: the dealer dealing and their push (a new one at each push)."""
    d = plan.get("dealer") or {}
    return f"{d.get('dealer') or ''}@{d.get('pushed_at')}"


def warned_seats(plan: dict[str, Any]) -> frozenset[int]:
    """The seats the handover names as warned (TDA 2024 RP-15A): marked on the seats."""
    told = (plan.get("dealer") or {}).get("handover")
    return frozenset(told.get("warnings") or ()) if isinstance(told, dict) else frozenset()
