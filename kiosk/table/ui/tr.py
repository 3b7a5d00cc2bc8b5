"""The screen's language at run time: `tr._("...")` in table.kv re-evaluates whenever the
kiosk switches language (the table's own, or the badged-in dealer's), and every label
takes the font the language's script needs (WenQuanYi Micro Hei for Chinese).

Kivy's rules bind to `tr._` through `fbind`: each rule that used it is called again on a
switch (the observable pattern Kivy's own i18n examples use).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from kivy.core.text import LabelBase
from kivy.event import EventDispatcher
from kivy.properties import StringProperty

from kiosk.lang import active
from kiosk.lang.fonts import font_for

DEFAULT_FONT = "Roboto"       # Kivy's own: Latin, Czech's diacritics included
CJK = "KioskCJK"


class Translator(EventDispatcher):
    """`_` for kv rules, and the font of the language spoken."""

    font = StringProperty(DEFAULT_FONT)

    def __init__(self, **kw: Any) -> None:
        super().__init__(**kw)
        self.observers: list[tuple[Callable[..., Any], tuple[Any, ...], dict[str, Any]]] = []
        self.code = active.language()
        active.on_change(self.switched)

    def _(self, text: str) -> str:
        return active._(text)

    def fbind(self, name: str, func: Callable[..., Any], *args: Any, **kwargs: Any) -> Any:
        if name == "_":
            self.observers.append((func, args, kwargs))
            return 0
        return super().fbind(name, func, *args, **kwargs)

    def funbind(self, name: str, func: Callable[..., Any], *args: Any, **kwargs: Any) -> None:
        if name == "_":
            self.observers = [o for o in self.observers if o[0] is not func]
            return
        super().funbind(name, func, *args, **kwargs)

    def switched(self, code: str) -> None:
        """The kiosk speaks `code` now: every rule's text again, and the script's font."""
        self.code = code
        self.font = font_name(code)
        alive = []
        for entry in self.observers:
            func, args, _kwargs = entry
            try:   # Kivy's rules bind with one argument: the rule's (element, key...) tuple
                func(args[0] if len(args) == 1 else args, None, None)
            except ReferenceError:   # a screen that is gone: forget its rules
                continue
            alive.append(entry)
        self.observers = alive


def font_name(code: str) -> str:
    """The registered Kivy font for `code` (registered on first use)."""
    path = font_for(code)
    if path is None:
        return DEFAULT_FONT
    if CJK not in LabelBase._fonts:
        LabelBase.register(CJK, path)
    return CJK


tr = Translator()
