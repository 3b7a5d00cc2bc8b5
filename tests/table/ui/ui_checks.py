"""What a person needs from a Kivy screen, measured on the rendered widgets.

The 7" official display is 800x480 at ~5.5 px/mm; 1280x720 is the same layout scaled
by 1.5. Sizes are in px at 800x480 and scaled with the window height. The dealer reads
from 0.5 m; the players, the shot clock's count among what they read, from 1.5 m.
"""

from __future__ import annotations

import contextlib
from collections.abc import Iterator
from functools import cache
from typing import Any

from kivy.core.text import Label as CoreLabel
from kivy.uix.label import Label
from kivy.uix.widget import Widget

PX_PER_MM = 5.5
BIG_CAP = 7 * PX_PER_MM       # clock and blinds: 38.5 px
TEXT_CAP = 3 * PX_PER_MM      # everything else the dealer reads: 16.5 px
TARGET = 9 * PX_PER_MM        # touch targets: 49.5 px
GAP = 2 * PX_PER_MM           # between touch targets: 11 px
# what the far seat reads (the shot clock's count): 1.5 m away, the signage rule of a
# letter 1 mm high for each 120 mm of distance gives 12.5 mm, 69 px (the dealer's 3 mm
# text seen from 0.5 m is the same angle as 9 mm from 1.5 m: 12.5 mm is read at a glance)
FAR_M = 1.5
FAR_CAP = FAR_M * 1000 / 120 * PX_PER_MM


@cache
def cap_height(font_size: float, bold: bool, font_name: str) -> int:
    """Rendered height of a capital H in px (rows of the glyph with any ink)."""
    core = CoreLabel(text="H", font_size=font_size, bold=bold, font_name=font_name)
    core.refresh()
    tex = core.texture
    w, h = tex.size
    px = tex.pixels
    rows = [y for y in range(h) if any(px[(y * w + x) * 4 + 3] > 40 for x in range(w))]
    return (max(rows) - min(rows) + 1) if rows else 0


def text_size(label: Label, text: str | None = None) -> tuple[int, int]:
    """Width and height the whole text needs at the label's font (no shortening)."""
    core = CoreLabel(text=text if text is not None else label.text,
                     font_size=label.font_size, bold=label.bold, font_name=label.font_name,
                     halign="left")
    core.refresh()
    return core.texture.size


def shown(w: Widget) -> bool:
    node: Any = w
    while node is not None and isinstance(node, Widget):
        if node.opacity == 0 or node.width <= 0 or node.height <= 0:
            return False
        node = node.parent
    return True


def rect(w: Widget) -> tuple[float, float, float, float]:
    x, y = w.to_window(w.x, w.y)
    return x, y, x + w.width, y + w.height


def walk(root: Widget) -> Iterator[Widget]:
    yield root
    for child in root.children:
        yield from walk(child)


def overlap(a: tuple[float, ...], b: tuple[float, ...], slack: float = 1.0) -> bool:
    return (min(a[2], b[2]) - max(a[0], b[0]) > slack
            and min(a[3], b[3]) - max(a[1], b[1]) > slack)


def gap(a: tuple[float, ...], b: tuple[float, ...]) -> float:
    dx = max(b[0] - a[2], a[0] - b[2], 0)
    dy = max(b[1] - a[3], a[1] - b[3], 0)
    return max(dx, dy)


def is_ancestor(a: Widget, b: Widget) -> bool:
    node = b.parent
    while node is not None and node is not node.parent:
        if node is a:
            return True
        node = node.parent
    return False


def layer(screen: Widget) -> Widget:
    """The top layer a person sees: the last shown overlay, else the screen itself (with
    the panels shown over part of it: the shot clock's band, the handover)."""
    top = [w for w in screen.children if getattr(w, "shown", False)
           and not getattr(w, "partial", False)]
    return top[0] if top else screen   # children[0] is drawn last (on top)


def far_cap(label: Label) -> int:
    """The cap height of a label's text as drawn (its font, bold or not)."""
    return cap_height(label.font_size, label.bold, label.font_name)


def check_screen(screen: Widget, size: tuple[int, int], big: tuple[Label, ...] = (),
                 may_shorten: frozenset[str] = frozenset()) -> dict[str, Any]:
    """Assert readability on the visible layer; returns what it measured."""
    scale = size[1] / 480
    root = layer(screen)
    overlays = [w for w in screen.children if hasattr(w, "shown")
                and not (getattr(w, "partial", False) and w.shown)]
    visible = [w for w in walk(root) if shown(w)
               and (root is not screen or not any(w is o or is_ancestor(o, w) for o in overlays))]
    labels = [w for w in visible if isinstance(w, Label) and w.text.strip()]
    problems: list[str] = []
    caps = {}
    for lab in labels:
        cap = cap_height(lab.font_size, lab.bold, lab.font_name)
        caps[lab.text] = cap
        need = BIG_CAP if lab in big else TEXT_CAP
        if cap < need * scale - 0.01:
            problems.append(f"{lab.text!r}: cap height {cap} px < {need * scale:.1f}")
        x0, y0, x1, y1 = rect(lab)
        if x0 < -0.5 or y0 < -0.5 or x1 > size[0] + 0.5 or y1 > size[1] + 0.5:
            problems.append(f"{lab.text!r} leaves the window: {rect(lab)}")
        tw, th = text_size(lab)
        key = getattr(lab, "kid", "")
        if key not in may_shorten and (tw > lab.width + 1 or th > lab.height + 1):
            problems.append(f"{lab.text!r} needs {tw}x{th} px, has {lab.width:.0f}x"
                            f"{lab.height:.0f}")
    leaves = [lab for lab in labels if not any(isinstance(c, Label) for c in lab.children)]
    for i, a in enumerate(leaves):
        for b in leaves[i + 1:]:
            if not is_ancestor(a, b) and not is_ancestor(b, a) and overlap(rect(a), rect(b)):
                problems.append(f"{a.text!r} overlaps {b.text!r}")
    targets = [w for w in visible if getattr(w, "is_target", False) or
               type(w).__name__ in ("DealerButton", "SeatBox", "MoverCell")]
    targets = [t for t in targets if not any(is_ancestor(o, t) for o in targets)]
    for t in targets:
        if min(t.size) < TARGET * scale - 0.5:
            problems.append(f"target {getattr(t, 'text', t)!r} is {t.width:.0f}x{t.height:.0f}")
    for i, a in enumerate(targets):
        for b in targets[i + 1:]:
            if gap(rect(a), rect(b)) < GAP * scale - 0.5:
                problems.append(f"targets {getattr(a, 'text', a)!r} and {getattr(b, 'text', b)!r}"
                                f" only {gap(rect(a), rect(b)):.1f} px apart")
    assert not problems, "\n".join(problems[:20])
    return {"caps": caps, "targets": len(targets), "labels": len(labels)}


def tag_ids(root: Widget) -> None:
    """Give every widget its kv id as `kid`, so checks can name what may shorten."""
    for w in walk(root):
        for name, child in getattr(w, "ids", {}).items():
            with contextlib.suppress(AttributeError, TypeError):
                child.kid = name
