"""What the dealer screen's text says: the lines in the middle of the table and the
panel's seat buttons. Pure, so it is read without a window."""

from __future__ import annotations

from typing import Any

from kiosk.table.view import BustPanel, MoverView, TableView

CENTRE_LINES = 3
PANEL_TINT = {"bust": (0.7, 0.12, 0.14, 1), "winner": (0.1, 0.45, 0.22, 1),
              "count": (0.16, 0.2, 0.26, 1), "race": (0.1, 0.35, 0.8, 1)}
OK_TINT = (0.1, 0.45, 0.22, 1)
NAME_CHARS = 12    # a name on the bust panel's two-line seat buttons
TITLE_CHARS = 24   # the event's title in the middle of the table
LINE_BG = {"state": (0.45, 0.2, 0.6, 1), "final": (0.1, 0.35, 0.8, 1),
           "warn": (0.8, 0.4, 0.05, 1), "error": (0.7, 0.1, 0.1, 1), "info": (0.2, 0.2, 0.2, 1),
           "guide": (0, 0, 0, 0), "floor_open": (0.85, 0.1, 0.1, 1),
           "floor_acked": (0.8, 0.55, 0.05, 1), "floor_resolved": (0.15, 0.5, 0.2, 1),
           "move": (0.85, 0.42, 0.05, 1), "arrive": (0.1, 0.35, 0.8, 1),
           "result": (0.25, 0.25, 0.3, 1), "title": (0.1, 0.2, 0.3, 1)}


def centre_lines(v: TableView) -> list[tuple[str, str]]:
    """What the middle of the table says, most urgent first; at most CENTRE_LINES."""
    lines: list[tuple[str, str]] = []
    if v.storage:
        lines.append((v.storage, "error"))
    if v.offline:
        lines.append((offline_text(v), "error"))
    if v.state:
        lines.append((v.state, "final" if v.state.startswith("FINAL") else "state"))
    if v.floor_call:
        lines.append((v.floor_call, f"floor_{v.floor_state or 'open'}"))
    if v.push_prompt:                 # the dealers' push (kiosk.table.dealer_view)
        lines.append((v.push_prompt, "warn"))
    if v.dealer_next:
        lines.append((v.dealer_next, "arrive"))
    lines += [(m, "move") for m in v.moves]
    lines += [(a, "arrive") for a in v.arrivals]
    lines += [(r, "result") for r in v.bust_results]
    if v.message and v.message != v.guidance:
        lines.append((v.message, "error" if v.message_is_error else "info"))
    if v.event_title:                 # the least urgent: the first to give way
        title = v.event_title
        lines.append((title if len(title) <= TITLE_CHARS else title[:TITLE_CHARS - 1] + "…",
                       "title"))
    lines.append((v.guidance, "guide"))
    if len(lines) > CENTRE_LINES:   # keep the guidance; drop the least urgent above it
        lines = lines[:CENTRE_LINES - 1] + lines[-1:]
    return lines


def offline_text(v: TableView) -> str:
    """The offline line: why the broker refused, if it did (the operator's to fix; the
    cause alone fills the line), else what waits to be sent."""
    if v.refused:
        return v.refused[0].upper() + v.refused[1:]
    return f"OFFLINE: {v.queued} queued" if v.queued else "OFFLINE"


def show_mover(cell: Any, m: MoverView | None) -> None:
    """One cell of the mover list: who, from where, to where (blank when unused)."""
    cell.opacity = 1 if m else 0
    cell.seat = m.seat if m else 0
    cell.ids.who.text = m.name if m else ""
    cell.ids.origin.text = f"from {m.from_text}" if m else ""
    cell.ids.dest.text = ("ARRIVED " if m and m.arrived else "") + (m.to_text if m else "")
    cell.arrived = bool(m and m.arrived)


def seat_label(panel: BustPanel, n: int, name: str, typed: str | None) -> tuple[str, bool]:
    """A seat button's text on the panel, and whether it stands out as picked."""
    short = name if len(name) <= NAME_CHARS else name[:NAME_CHARS - 1] + "…"
    if panel.mode == "count":
        return f"{n}  {short}\n{int(typed):,}" if typed else f"{n}  {short}\n-", bool(typed)
    if panel.mode == "race":
        cards = dict(panel.cards).get(n, 0)
        if typed:
            return f"{n}  {short}\nchip {typed}", True
        return f"{n}  {short}\n{cards} card{'s' if cards != 1 else ''}", False
    if typed is None:
        won = [b for b, ws in panel.done if n in ws]
        return (f"{n}  {short}\nwon seat {', '.join(map(str, won))}", False) if won \
            else (f"{n}  {short}", False)
    if panel.mode == "winner":
        return f"{n} WON\n{short}", True
    shown = f"{int(typed):,}" if typed else ("stack?" if panel.stacks_needed else "")
    return f"{n} OUT  {shown}".rstrip() + "\n" + short, True
