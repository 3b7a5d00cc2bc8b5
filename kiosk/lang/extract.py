"""What the template is made of: every marked text in kiosk/, by Babel's extractors.

How each kind of file marks a text for the catalogue:

- Python: `_("...")`, `ngettext("one", "many", n)` and `N_("...")` (marked where defined,
  translated where shown) for a screen's own texts; `M_("key.name", "English {x}")` and
  `Mn_("key.name", "one", "many", n)` (kiosk.base.texts) for a sentence that travels as a
  message key: the key is the entry's context.
- Kivy rules (`*.kv`): `tr._("...")`, which the screen re-evaluates when the language
  changes (kiosk.table.ui.tr).
- The pages' HTML: an element with `data-i18n` has its own text translated
  (`<h2 data-i18n>Players left</h2>`); `data-i18n-attr="title placeholder"` translates
  those attributes too.
- The pages' JavaScript: `_t("...")`, `_t("{n} left", {n: 5})` and
  `_tn("one player", "{n} players", n)`.
"""

from __future__ import annotations

import json
import re
from collections.abc import Iterator
from html.parser import HTMLParser
from pathlib import Path
from typing import IO, Any

from babel.messages.extract import DEFAULT_KEYWORDS, extract_from_dir

ROOT = Path(__file__).resolve().parent.parent        # kiosk/
KEYWORDS: dict[str, Any] = {
    **DEFAULT_KEYWORDS,
    "N_": None,
    "M_": ((1, "c"), 2),
    "Mn_": ((1, "c"), 2, 3),
    "_t": None,
    "_tn": (1, 2),
}
METHODS = [
    ("lang/**.py", "ignore"),             # the machinery itself names no text
    ("**.py", "python"),
    ("**.kv", "kiosk.lang.extract:extract_kv"),
    ("director/web/static/**.html", "kiosk.lang.extract:extract_html"),
    ("director/web/static/**.js", "kiosk.lang.extract:extract_js"),
]
COMMENT_TAGS = ["i18n:", "Translators:"]

_KV_CALL = re.compile(r"""\btr\._\(\s*("(?:[^"\\\n]|\\.)*"|'(?:[^'\\\n]|\\.)*')\s*\)""")


def extract_kv(fileobj: IO[bytes], keywords: Any, comment_tags: Any,
               options: Any) -> Iterator[tuple[int, str, str, list[str]]]:
    """Babel extractor for Kivy rules: each `tr._("...")` on a line of a `.kv` file."""
    for lineno, line in enumerate(fileobj.read().decode("utf-8").splitlines(), 1):
        for found in _KV_CALL.finditer(line):
            yield lineno, "_", _unquote(found.group(1)), []


def _unquote(literal: str) -> str:
    body = literal[1:-1]
    return re.sub(r"\\(.)", lambda m: {"n": "\n", "t": "\t"}.get(m.group(1), m.group(1)), body)


class _Marked(HTMLParser):
    """Collects the texts of `data-i18n` elements and `data-i18n-attr` attributes."""

    VOID = {"area", "base", "br", "col", "embed", "hr", "img", "input", "link", "meta",
            "source", "track", "wbr"}

    def __init__(self) -> None:
        super().__init__(convert_charrefs=True)
        self.found: list[tuple[int, str]] = []
        self.stack: list[tuple[str, bool, int, list[str]]] = []

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        a = dict(attrs)
        line = self.getpos()[0]
        for name in (a.get("data-i18n-attr") or "").replace(",", " ").split():
            if a.get(name):
                self.found.append((line, " ".join(str(a[name]).split())))
        if tag not in self.VOID:
            self.stack.append((tag, "data-i18n" in a, line, []))

    def handle_endtag(self, tag: str) -> None:
        while self.stack:
            name, marked, line, text = self.stack.pop()
            if marked and " ".join("".join(text).split()):
                self.found.append((line, " ".join("".join(text).split())))
            if name == tag:
                return

    def handle_data(self, data: str) -> None:
        if self.stack:
            self.stack[-1][3].append(data)


_JS_STR = r"""("(?:[^"\\\n]|\\.)*"|'(?:[^'\\\n]|\\.)*')"""
_JS_CALL = re.compile(r"\b(_tn?)\(\s*" + _JS_STR + r"(?:\s*,\s*" + _JS_STR + ")?")


def _js_text(literal: str) -> str:
    """A JS string literal's text (its quotes off, its escapes read)."""
    body = literal[1:-1]
    if literal[0] == "'":
        body = body.replace("\\'", "'").replace('"', '\\"')
    return str(json.loads('"' + body + '"'))


def extract_js(fileobj: IO[bytes], keywords: Any, comment_tags: Any,
               options: Any) -> Iterator[tuple[int, str, Any, list[str]]]:
    """Babel extractor for the pages' scripts: `_t("...")` and `_tn("one", "many", n)`
    with literal texts, wherever they stand, inside a template literal too (Babel's own
    lexer loses a call that follows a quote within one)."""
    source = fileobj.read().decode("utf-8")
    for m in _JS_CALL.finditer(source):
        start = source.rfind("\n", 0, m.start()) + 1
        if source[start:m.start()].lstrip().startswith(("//", "*", "/*")):
            continue      # a comment's example, not a text of the page
        line = source.count("\n", 0, m.start()) + 1
        name, one, many = m.groups()
        if name == "_tn" and many:
            yield line, "_tn", (_js_text(one), _js_text(many)), []
        elif name == "_t":
            yield line, "_t", _js_text(one), []


def extract_html(fileobj: IO[bytes], keywords: Any, comment_tags: Any,
                 options: Any) -> Iterator[tuple[int, str, str, list[str]]]:
    """Babel extractor for the pages: `data-i18n` elements and attributes."""
    parser = _Marked()
    parser.feed(fileobj.read().decode("utf-8"))
    parser.close()
    for line, text in parser.found:
        yield line, "_", text, []


def messages(root: Path = ROOT) -> Iterator[tuple[str, int, Any, list[str], str | None]]:
    """Every marked text under `root`: (file, line, message, comments, context)."""
    def skip(path: str) -> bool:
        return "/tests/" in path or "/locale/" in path

    for filename, lineno, message, comments, context in extract_from_dir(
            str(root), METHODS, {}, KEYWORDS, COMMENT_TAGS, strip_comment_tags=True):
        if not skip(f"/{filename}"):
            yield filename, lineno, message, comments, context
