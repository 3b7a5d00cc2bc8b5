"""The dealers' rotation on the dealer's screen, read off the plan's `dealer` part: the
header's "Ann · push 4:30", the push prompt once it is due ("finish this hand", never a
cut hand), and where the dealer just pushed off goes ("Ann: Table 14")."""

from __future__ import annotations

from typing import Any

NEXT_SHOWN_S = 120.0     # the outgoing dealer's next table stays up this long


def pin_offered(plan: dict[str, Any], t: float, free: bool) -> bool:
    """Where a dealer without a badge may type a PIN: a free table (to clock in), and
    a table of the rotation with no dealer or whose push is due."""
    d = plan.get("dealer")
    if free or not isinstance(d, dict):
        return free
    push_at = d.get("push_at")
    return not d.get("dealer") or (push_at is not None and t >= push_at)


def dealer_fields(plan: dict[str, Any], t: float, in_hand: bool) -> dict[str, Any]:
    d = plan.get("dealer") or {}
    name = d.get("dealer") or ""
    if not d or not name:
        return {}
    push_at = d.get("push_at")
    if push_at is None:
        line = f"{name} · push held"
    elif push_at > t:
        minutes, seconds = divmod(int(push_at - t), 60)
        line = f"{name} · push {minutes}:{seconds:02d}"
    else:
        line = f"{name} · push due"
    prompt = ""
    if push_at is not None and t >= push_at:
        who = d.get("incoming") or "the relief"
        prompt = f"PUSH after this hand: {who}" if in_hand else f"PUSH: {who} badges in"
    nxt = ""
    pushed = d.get("pushed_at")
    if d.get("outgoing") and pushed is not None and t - pushed < NEXT_SHOWN_S:
        nxt = f"{d['outgoing']}: {d.get('outgoing_to') or 'see the floor'}"
    return {"dealer_line": line, "push_prompt": prompt, "dealer_next": nxt}
