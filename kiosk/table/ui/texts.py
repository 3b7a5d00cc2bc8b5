"""What the dealer screen's text says: the lines in the middle of the table and the
panel's seat buttons. Pure, so it is read without a window."""

from __future__ import annotations

from typing import Any

from kiosk.lang.active import _, fmt, ngettext
from kiosk.table.view import (
    REFUSED,
    BustPanel,
    HandoverView,
    MoverView,
    ShotClockView,
    TableView,
)

CENTRE_LINES = 3
PANEL_TINT = {"bust": (0.7, 0.12, 0.14, 1), "winner": (0.1, 0.45, 0.22, 1),
              "count": (0.16, 0.2, 0.26, 1), "race": (0.1, 0.35, 0.8, 1)}
OK_TINT = (0.1, 0.45, 0.22, 1)
NAME_CHARS = 12    # a name on the bust panel's two-line seat buttons
TITLE_CHARS = 24   # the event's title in the middle of the table
NOTE_CHARS = 90    # the floor's note on the handover panel: two lines at 800x480
HANDOVER_ROWS = 3  # players named on the handover panel; more are counted on the last row
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
        lines.append((v.state, "final" if v.final else "state"))
    if v.floor_call:
        lines.append((v.floor_call, f"floor_{v.floor_state or 'open'}"))
    if v.prepare_decks:               # TDA 2024 RP-20: play starts or resumes in a moment
        lines.append((_("DEALERS, PREPARE YOUR DECKS"), "warn"))
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
        prefix = REFUSED.split("{")[0]
        said = _(REFUSED).format(reason=v.refused[len(prefix):]) \
            if v.refused.startswith(prefix) else _(v.refused)     # REFUSED_LOGIN
        return said[0].upper() + said[1:]
    return _("OFFLINE: {n} queued").format(n=v.queued) if v.queued else _("OFFLINE")


def show_mover(cell: Any, m: MoverView | None) -> None:
    """One cell of the mover list: who, from where, to where (blank when unused)."""
    cell.opacity = 1 if m else 0
    cell.seat = m.seat if m else 0
    cell.ids.who.text = m.name if m else ""
    cell.ids.origin.text = _("from {place}").format(place=m.from_text) if m else ""
    cell.ids.dest.text = (_("ARRIVED") + " " if m and m.arrived else "") + \
        (m.to_text if m else "")
    cell.arrived = bool(m and m.arrived)


def seat_label(panel: BustPanel, n: int, name: str, typed: str | None) -> tuple[str, bool]:
    """A seat button's text on the panel, and whether it stands out as picked."""
    short = name if len(name) <= NAME_CHARS else name[:NAME_CHARS - 1] + "…"
    if panel.mode == "count":
        return (f"{n}  {short}\n{fmt().chips(int(typed))}" if typed else f"{n}  {short}\n-",
                bool(typed))
    if panel.mode == "race":
        cards = dict(panel.cards).get(n, 0)
        if typed:
            return f"{n}  {short}\n" + _("chip {chip}").format(chip=typed), True
        return f"{n}  {short}\n" + ngettext("{n} card", "{n} cards", cards).format(
            n=cards), False
    if typed is None:
        won = [b for b, ws in panel.done if n in ws]
        return (f"{n}  {short}\n" + _("won seat {seats}").format(
            seats=", ".join(map(str, won))), False) if won else (f"{n}  {short}", False)
    if panel.mode == "winner":
        return _("{seat} WON").format(seat=n) + f"\n{short}", True
    shown = fmt().chips(int(typed)) if typed else (_("stack?") if panel.stacks_needed else "")
    return (_("{seat} OUT").format(seat=n) + f"  {shown}").rstrip() + "\n" + short, True


def shot_texts(s: ShotClockView) -> dict[str, str]:
    """The shot clock's band and keys: the count (0 once time is up), whose decision, the
    cards left (or the rule at time up) and what the cards taken added."""
    ruling = s.ruling
    if ruling:
        line, more = _("Facing a bet: HAND DEAD"), _("No bet to face: CHECKED")
    else:
        line = (_("No time bank") if not s.card_seconds else
                ngettext("Time bank: {n} card of {seconds} s",
                         "Time bank: {n} cards of {seconds} s", s.cards).format(
                    n=s.cards, seconds=s.card_seconds) if s.cards else
                _("Time bank: no card left"))
        more = ngettext("+{seconds} s: {n} card taken", "+{seconds} s: {n} cards taken",
                        s.cards_taken).format(n=s.cards_taken,
                                              seconds=s.cards_taken * s.card_seconds) \
            if s.cards_taken else ""
    return {"count": str(s.seconds),
            "title": (_("TIME · SEAT {seat}") if ruling else
                      _("SHOT CLOCK · SEAT {seat}")).format(seat=s.seat),
            "name": s.name, "line": line, "more": more,
            "key_a": _("HAND\nDEAD") if ruling else _("TIME\nBANK"),
            "key_b": _("CHECKED") if ruling else _("ACTED")}


def handover_texts(h: HandoverView) -> dict[str, Any]:
    """The handover panel: who hands over to whom, the next hand's blinds, level and ante
    (and r.23's one hand at the prior level), the players warned or on a penalty, by seat
    and name (the first HANDOVER_ROWS, then how many more), and the floor's note."""
    rows: list[tuple[str, str, str]] = []
    for p in h.players[:HANDOVER_ROWS if len(h.players) <= HANDOVER_ROWS
                       else HANDOVER_ROWS - 1]:
        what = [_("warned")] if p.warned else []
        rows.append((str(p.seat), p.name, "  ".join([*what, p.penalty] if p.penalty
                                                     else what)))
    rest = h.players[len(rows):]
    if rest:
        rows.append(("", ngettext("and {n} more: seat {seats}", "and {n} more: seats {seats}",
                                  len(rest)).format(
            n=len(rest), seats=", ".join(str(p.seat) for p in rest)), ""))
    if not rows:
        rows.append(("", _("Nobody"), ""))
    note = h.note if len(h.note) <= NOTE_CHARS else h.note[:NOTE_CHARS - 1] + "…"
    return {"title": _("HANDOVER: {outgoing} to {incoming}").format(
                outgoing=h.outgoing, incoming=h.incoming),
            "blinds": h.blinds, "level": " · ".join(x for x in (h.level, h.ante) if x),
            "first": h.first_hand, "rows": rows,
            "note": _("Floor: {note}").format(note=note) if note else
            _("No note from the floor")}


def status_line(v: TableView) -> tuple[str, str]:
    """The first line of the middle of the table that the dealer must not miss (a link or
    disk problem, the banner, a floor call, the push, a move): shown on a panel that
    covers the table."""
    for text, kind in centre_lines(v):
        if kind not in ("guide", "title", "result", "info") and text:
            return text, kind
    return "", "guide"
