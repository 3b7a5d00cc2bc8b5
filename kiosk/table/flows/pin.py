"""The on-screen PIN pad for a dealer without a badge: the name picked from those the
plan names (the relief due here, the dealer dealing) or typed on a letter pad, then
the PIN on a digit pad. OK sends the name and PIN once on the dealer request path
(kiosk.table.flows.moves.MovesFlow.dealer_pin) and forgets them; CANCEL forgets them.
The PIN is never shown (one star a digit), queued or written anywhere."""

from __future__ import annotations

from kiosk.lang.active import _
from kiosk.table.context import TableContext
from kiosk.table.flows.moves import MovesFlow
from kiosk.table.result import Result
from kiosk.table.view import PinPanel

PIN_MAX = 8
NAME_MAX = 24
LETTERS = tuple("ABCDEFGHIJKLMNOPQRSTUVWXYZ")


class PinFlow:
    """The pad's state while open; everything typed is dropped at OK or CANCEL."""

    def __init__(self, ctx: TableContext, moves: MovesFlow) -> None:
        self.ctx, self.moves = ctx, moves
        self.open = False
        self.names: tuple[str, ...] = ()
        self.name = ""
        self._pin = ""
        self.typing = False

    def pin_open(self, t: float) -> Result:
        """The pad opens with the names the plan knows, the relief due here first."""
        d = self.ctx.plan.get("dealer") or {}
        names = [str(d[k]) for k in ("incoming", "dealer") if d.get(k)]
        self.names = tuple(dict.fromkeys(names))
        self.open, self._pin = True, ""
        self.name = self.names[0] if self.names else ""
        self.typing = not self.names
        return Result()

    def pin_pick(self, t: float, name: str) -> Result:
        self.name, self.typing = name, False
        return Result()

    def pin_type(self, t: float) -> Result:
        """The letter pad, for a name the plan does not hold: typed afresh."""
        self.name, self.typing = "", True
        return Result()

    def pin_key(self, t: float, key: str) -> Result:
        """A key of the pad up: letters (and space) to the name, digits to the PIN; DEL
        takes one back; on the letter pad NEXT goes on to the digits."""
        if self.typing:
            if key == "<":
                self.name = self.name[:-1]
            elif key == "NEXT":
                self.typing = not self.name.strip()
            elif (key in LETTERS or key == " ") and len(self.name) < NAME_MAX:
                self.name += key if not self.name or self.name.endswith(" ") \
                    else key.lower()
        elif key == "<":
            self._pin = self._pin[:-1]
        elif key.isdigit() and len(key) == 1 and len(self._pin) < PIN_MAX:
            self._pin += key
        return Result()

    def pin_ok(self, t: float) -> Result:
        """Send the name and the PIN once; the pad closes and forgets both."""
        name, pin = self.name.strip(), self._pin
        if not name or not (4 <= len(pin) <= PIN_MAX):
            return self.ctx.refuse(t, _("A dealer's name and a PIN of 4 to 8 digits"))
        self.pin_cancel(t)
        return self.moves.dealer_pin(t, name, pin)

    def pin_cancel(self, t: float) -> Result:
        self.open, self.names, self.name, self._pin, self.typing = False, (), "", "", False
        return Result()

    def panel(self) -> PinPanel | None:
        if not self.open:
            return None
        return PinPanel(self.names, self.name, "*" * len(self._pin), self.typing,
                        bool(self.name.strip()) and 4 <= len(self._pin) <= PIN_MAX)
