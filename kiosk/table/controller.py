"""The table as a pure state machine: no I/O, no threads, time passed in.

The UI, the GPIO adapter, the card reader, the headless runner and the tests all
drive this one object. It wires one small flow per dealer task (a hand, a bust and its
winners, a chip count, a colour-up and race, a clock call, a floor call, moves and
arrivals, the armed seat prompt, UNDO) to one shared `TableContext`, routes each dealer
action to the flow that owns it (`ACTIONS`), takes the table's plan (the rest the room
says, the schedule and the directories, goes to `directions`) and what the link says,
and draws the screen from the flows' state. Each action returns a `Result`: the report
to queue (if any) and a message for the dealer. Refused actions (a duplicate press, a
new hand while one is running) return `refused=True` and no report, so nothing reaches
the director twice.
"""

from __future__ import annotations

import logging
import random
from collections.abc import Callable
from typing import Any

from kiosk.lang.active import _
from kiosk.lang.active import use as speak
from kiosk.lang.catalogue import missing_counts
from kiosk.lang.codes import SOURCE
from kiosk.rules.loader import DEFAULT_PROFILE, load_profile
from kiosk.table.context import DEBOUNCE_S, TableContext
from kiosk.table.dealer_view import dealer_fields, pin_offered
from kiosk.table.flows.bust import BustFlow
from kiosk.table.flows.clock import ClockFlow
from kiosk.table.flows.colour_up import RACE_WAIT, ColourUpFlow
from kiosk.table.flows.count import CountFlow
from kiosk.table.flows.directions import DirectionsFlow, valid
from kiosk.table.flows.floor import FloorFlow
from kiosk.table.flows.hand import HandFlow
from kiosk.table.flows.handover import HandoverFlow
from kiosk.table.flows.moves import MESSAGE_S, MovesFlow
from kiosk.table.flows.pin import PinFlow
from kiosk.table.flows.prompt import FREE, PENDING_S, PromptFlow, SeatFlows
from kiosk.table.flows.shot import ShotFlow
from kiosk.table.flows.undo import UndoFlow
from kiosk.table.local import Local
from kiosk.table.moment import moment
from kiosk.table.result import Result
from kiosk.table.screen_view import (
    bust_results,
    clock_fields,
    field_text,
    orbit_state,
    seat_views,
)
from kiosk.table.view import TableView

__all__ = ["DEBOUNCE_S", "PENDING_S", "Result", "TableController"]

log = logging.getLogger(__name__)

WHEN_FREE = frozenset({"card", "mover_page_step", "hide_movers", "dealer_pin",
                       "dealer_answer", "pin_open", "pin_pick", "pin_type", "pin_key",
                       "pin_ok", "pin_cancel"})   # harmless on a free table

# Dealer actions by name (what `TableService.act` and the UI call): the flow that
# runs each, and its method there.
ACTIONS: dict[str, tuple[str, str]] = {
    "end_hand": ("hand", "end_hand"), "all_in": ("hand", "all_in"),
    "set_absent": ("hand", "set_absent"),
    "bust": ("busts", "bust"), "bust_pick": ("busts", "pick"), "bust_key": ("busts", "key"),
    "bust_confirm": ("busts", "confirm"), "winner_pick": ("busts", "winner_pick"),
    "split_pot": ("busts", "split_pot"), "side_pots": ("busts", "side_pots"),
    "bust_send": ("busts", "send"),
    "count_key": ("count", "key"), "count_seat": ("count", "seat"),
    "count_send": ("count", "send"), "chip_count": ("count", "chip_count"),
    "race_tap": ("colour", "race_tap"), "race_undo": ("colour", "race_undo"),
    "race_send": ("colour", "race_send"), "colour_up_done": ("colour", "done"),
    "call_clock": ("clock", "call_clock"), "clock_done": ("prompts", "clock_done"),
    "shot_start": ("shot", "start"), "shot_next": ("shot", "next_player"),
    "shot_stop": ("shot", "stop"), "time_bank": ("shot", "bank"), "shot_out": ("shot", "out"),
    "press_floor": ("floor", "press_floor"), "hold_floor": ("floor", "hold_floor"),
    "confirm_arrival": ("moves", "confirm_arrival"), "card": ("moves", "card"),
    "mover_page_step": ("moves", "page_step"), "hide_movers": ("moves", "hide"),
    "new_hand": ("prompts", "new_hand"), "begin": ("prompts", "begin"),
    "cancel_pending": ("prompts", "cancel_pending"), "choose_seat": ("prompts", "choose_seat"),
    "free_tap": ("prompts", "free_tap"), "press_allin": ("prompts", "press_allin"),
    "press_clock": ("prompts", "press_clock"), "hold_clock": ("prompts", "hold_clock"),
    "hold_allin": ("prompts", "hold_allin"), "undo": ("undos", "undo"),
    "dealer_pin": ("moves", "dealer_pin"), "dealer_answer": ("moves", "dealer_answer"),
    "pin_open": ("pin", "pin_open"), "pin_pick": ("pin", "pin_pick"),
    "pin_type": ("pin", "pin_type"), "pin_key": ("pin", "pin_key"),
    "pin_ok": ("pin", "pin_ok"), "pin_cancel": ("pin", "pin_cancel"),
    "hide_handover": ("handover", "put_away"),
}


class TableController:
    """One table's kiosk logic; see the module docstring."""

    def __init__(self, table: int, *, rng: random.Random | None = None, seq: int = 0,
                 boot: str | None = None, debounce_s: float = DEBOUNCE_S) -> None:
        self.ctx = TableContext(table, rng=rng, seq=seq, boot=boot, debounce_s=debounce_s)
        self._flows()

    def _flows(self) -> None:
        ctx = self.ctx
        self.hand, self.busts, self.count = HandFlow(ctx), BustFlow(ctx), CountFlow(ctx)
        self.colour, self.clock, self.floor = ColourUpFlow(ctx), ClockFlow(ctx), FloorFlow(ctx)
        self.moves, self.shot, self.handover = MovesFlow(ctx), ShotFlow(ctx), HandoverFlow(ctx)
        self.pin = PinFlow(ctx, self.moves)
        self.prompts = PromptFlow(ctx, SeatFlows(self.hand, self.busts, self.clock,
                                                 self.colour, self.count, self.moves,
                                                 self.shot))
        self.undos = UndoFlow(ctx, self.clock, self.floor)
        self.directions = DirectionsFlow(ctx)

    def act(self, name: str, t: float, *args: Any, **kw: Any) -> Result:
        """Run a dealer action by name (what the service, the screen and the buttons call);
        on a free table every press is answered with why nothing happens."""
        if self.ctx.free and name not in WHEN_FREE:
            return self.ctx.refuse(t, _(FREE))
        action: Callable[..., Result] = getattr(self, name)
        return action(t, *args, **kw)

    def __getattr__(self, name: str) -> Callable[..., Result]:
        """A dealer action from `ACTIONS`, run by the flow that owns it."""
        if name in ACTIONS:
            part, method = ACTIONS[name]
            return getattr(getattr(self, part), method)   # type: ignore[no-any-return]
        raise AttributeError(f"{type(self).__name__} has no action {name!r}")

    # ---------------------------------------------------------------- shared state, read
    @property
    def table(self) -> int:
        return self.ctx.table

    @property
    def plan(self) -> dict[str, Any]:
        """The plan held (the flows own it, through the context)."""
        return self.ctx.plan

    @property
    def local(self) -> Local:
        return self.ctx.local

    @property
    def event(self) -> str | None:
        return self.ctx.event

    @property
    def pending(self) -> str | None:
        """The armed prompt (see PromptFlow)."""
        return self.ctx.pending

    # ---------------------------------------------------------------- inputs
    def apply_plan(self, msg: dict[str, Any], t: float | None = None) -> bool:
        """Take this table's plan; a lower revision than the one held is ignored."""
        ctx = self.ctx
        if msg.get("table", ctx.table) != ctx.table or not valid(ctx.table, "plan", msg, ctx.plan):
            return False
        if ctx.plan.get("rev", -1) >= 0 and msg["event"] != ctx.event:
            self._switch(ctx.event, msg["event"])
        ctx.plan = msg
        when = float(t if t is not None else msg.get("ts", 0.0))
        ctx.local.settle(ctx.plan_seats())
        loc = ctx.local
        if msg.get("redraw_button") and [msg["epoch"], msg["rev"]] > loc.redraw_rev:
            loc.redraw_rev, loc.redraw_pending = [msg["epoch"], msg["rev"]], True
        self.clock.reconcile(msg.get("clock_calls") or {}, when)
        self.floor.reconcile(msg.get("floor_calls") or {}, when)
        self.handover.follow()
        speak(self.language())     # what is said from now on is in the reader's language
        return True

    def _switch(self, old: str | None, new: str | None) -> None:
        """The room moved this table (freed it, or gave it to another event): nothing of
        the old event's hand, clock or prompts carries over; reports already queued keep
        the event they were made for."""
        log.info("table %s: now %s (was %s)", self.ctx.table,
                 f"serving {new}" if new else "free", old or "free")
        ctx = self.ctx
        ctx.schedule = ctx.structure = ctx.clock = None
        ctx.profile = load_profile(DEFAULT_PROFILE)
        ctx.local, ctx.pending, ctx.undo_stack = Local(), None, []
        ctx.closed_calls, ctx.last_press = set(), {}
        self._flows()

    def set_link(self, online: bool, queued: int = 0, refused: str = "") -> None:
        """The link tells the controller whether it is connected, how much is queued and
        why the broker refused it, if it did."""
        self.ctx.online, self.ctx.queued = online, queued
        self.ctx.refused = "" if online else refused

    def set_storage(self, problem: str) -> None:
        """The service tells the controller whether the state folder takes writes."""
        self.ctx.storage = problem

    def export_state(self) -> dict[str, Any]:
        """Hand state and entries not sent yet, for the on-disk store: a restart keeps
        the hand count and resumes a bust the dealer was entering."""
        return {"local": self.ctx.local.to_dict(), "seq": self.ctx.seq,
                "busts": self.busts.to_dict(), **self.count.to_dict(),
                **self.colour.to_dict()}

    def import_state(self, d: dict[str, Any]) -> None:
        self.ctx.local = Local.from_dict(d.get("local", {}))
        self.ctx.seq = max(self.ctx.seq, int(d.get("seq", 0)))
        self.busts.restore(d.get("busts") or {})
        self.count.restore(d)
        self.colour.restore(d)

    def sound(self, t: float) -> str:
        """The buzzer: "on" when a clock call or a shot clock runs out, "beep" in a shot
        clock's last seconds, else ""."""
        return "on" if self.clock.buzzer_on(t) else self.shot.sound(t)

    def undo_label(self) -> str:
        """What UNDO would take back ("bust 4"), or "" when there is nothing."""
        return self.undos.label()

    # ---------------------------------------------------------------- outputs
    def live(self, t: float) -> dict[str, Any]:
        """The retained live snapshot for the floor dashboard."""
        ctx, loc = self.ctx, self.ctx.local
        pos = loc.positions
        return {
            "table": ctx.table, "hand": loc.hand, "in_hand": loc.in_hand,
            "all_in": sorted(loc.all_in),
            "button": pos.button if pos else None, "sb": pos.sb if pos else None,
            "bb": pos.bb if pos else None,
            "period": loc.period if loc.in_hand else None,
            "clock_call": self.clock.live(t), "floor_call": self.floor.live(),
            "h4h_waiting": ctx.h4h_waiting(), "plan_rev": ctx.plan.get("rev"), "ts": t,
            "untranslated": sum(missing_counts().values()),   # for the health line
        }

    def _guidance(self, t: float, prompt: str, block: str) -> str:
        """What to do now, in the middle of the table."""
        if prompt:
            return prompt
        if checkin := self.moves.checkin(t):
            return checkin
        if self.ctx.local.in_hand:
            return _("Tap END HAND when done")
        return block or (_(RACE_WAIT) if self.colour.waiting() else _("Tap NEW HAND to deal"))

    def language(self) -> str:
        """Who reads decides: the dealer dealing here, in their own language (the
        roster's), else the table's (room.toml: its own, else the room's default)."""
        plan = self.ctx.plan
        dealer = plan.get("dealer") or {}
        return str((dealer.get("dealer") and dealer.get("language")) or plan.get("language")
                   or SOURCE)

    def view(self, t: float) -> TableView:
        """Everything the screen shows at time `t`: the table, and the active flow, in the
        language of whoever reads it now."""
        speak(self.language())
        self.prompts.expire(t)
        self.floor.expire(t)
        ctx, loc = self.ctx, self.ctx.local
        state, block = moment(ctx)
        block = "" if loc.in_hand else block
        prompt = self.prompts.prompt()
        text, at, err = ctx.message
        hh = ctx.h4h()
        title, movers = self.moves.movers()
        shown, page, pages = self.moves.page_of(movers)
        cu_title, cu_rows = self.colour.walk()
        clock = clock_fields(ctx, t, self.moves.moving_out())
        hold = ctx.push_hold(t)
        seats = seat_views(ctx)
        return TableView(
            table=ctx.table, hand=loc.hand, in_hand=loc.in_hand, seats=seats,
            clock_call=self.clock.view(t),
            floor_call=self.floor.text(),
            floor_state=self.floor.call.state if self.floor.call else "",
            moves=self.moves.moves(), arrivals=self.moves.arrivals(),
            hand_for_hand=(_("Hand-for-hand - round {round}").format(round=hh.get("round", ""))
                           if hh.get("on") else ""),
            h4h_waiting=ctx.h4h_waiting(), halt=bool(ctx.plan.get("halt")),
            breaking=bool(ctx.plan.get("breaking")), offline=not ctx.online,
            queued=ctx.queued, refused=ctx.refused, storage=ctx.storage, prompt=prompt,
            pending=ctx.pending or "",
            message=text if t - at < MESSAGE_S else "", message_is_error=err,
            checkin=self.moves.checkin(t), profile=ctx.profile.name,
            field_text=field_text(ctx), state=state,
            final=state in (_("FINAL TABLE"), _("FINAL TABLE DRAW")),
            guidance=self._guidance(t, prompt, block), can_deal=not loc.in_hand and not block,
            undo=self.undos.label(), movers_title=title, movers=shown, movers_page=page,
            movers_pages=pages,
            bust_panel=self.busts.panel() or self.colour.panel() or self.count.panel(),
            bust_results=bust_results(ctx.plan), colour_up_title=cu_title,
            colour_up=cu_rows, free=ctx.free, room_title=ctx.room_title(),
            section=str(ctx.plan.get("section") or ""),
            event_title=ctx.event_title(ctx.event) if ctx.event else "",
            director_offline=ctx.director_online is False,
            pin_button=pin_offered(ctx.plan, t, ctx.free, hold), pin_panel=self.pin.panel(),
            handover=self.handover.view(t, clock, seats, hold),
            shot_clock=self.shot.view(t), shot_clock_on=self.shot.applies(t),
            orbit=orbit_state(ctx),
            **dealer_fields(ctx.plan, t, loc.in_hand, hold), **clock)

