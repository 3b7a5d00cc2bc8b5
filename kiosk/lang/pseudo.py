"""The pseudo-locale `en_XA`, made from the template: each text marked «…», its letters
accented and its length grown by about 40 %, placeholders left as they are.

A screen rendered in it shows at a glance (and to a test) every text that never went
through the catalogue: it is the one without the marks. A layout that holds its texts
in `en_XA` holds German's and French's longer sentences too.
"""

from __future__ import annotations

import math
import re

from babel.messages.catalog import Catalog

from kiosk.lang.files import TEMPLATE, read_catalog

OPEN, CLOSE = "«", "»"
GROWTH = 0.4
_ACCENTS = str.maketrans("aeiouycnszAEIOUYCNSZ", "áéíóúýçñšžÁÉÍÓÚÝÇÑŠŽ")
_PLACEHOLDER = re.compile(r"(\{[^{}]*\})")


def pseudo(text: str) -> str:
    """`text` marked, accented and lengthened; `{placeholders}` kept."""
    if not text:
        return text
    parts = _PLACEHOLDER.split(text)
    body = "".join(p if i % 2 else p.translate(_ACCENTS) for i, p in enumerate(parts))
    grow = math.ceil(len(text) * GROWTH)
    return f"{OPEN}{body}{'~' * grow}{CLOSE}"


def is_marked(text: str) -> bool:
    """Whether a shown text went through the pseudo catalogue (each line of it does)."""
    return OPEN in text and CLOSE in text


def pseudo_catalog() -> Catalog:
    """The pseudo-locale's catalogue, made from the template."""
    template = read_catalog(TEMPLATE)
    out = Catalog(locale="en", domain=template.domain)
    for m in template:
        if not m.id:
            continue
        string: str | tuple[str, ...] = tuple(pseudo(x) for x in m.id) \
            if isinstance(m.id, (list, tuple)) else pseudo(m.id)
        out.add(m.id, string, context=m.context)
    return out
