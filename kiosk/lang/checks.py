"""What CI holds every catalogue to: the template has every marked text of the code, and
each shipped language translates every entry, none fuzzy, with the source's placeholders.
Each problem is one English line naming the language, the entry and what to do."""

from __future__ import annotations

import string
from collections.abc import Iterable
from pathlib import Path

from babel.messages.catalog import Catalog, Message

from kiosk.lang.codes import SHIPPED, SOURCE
from kiosk.lang.files import TEMPLATE, po_path, read_catalog

Entry = tuple[str | None, str]       # (context, msgid)


def placeholders(text: str) -> set[str]:
    """The `{name:spec}` fields of a sentence ("{{" is a literal brace)."""
    try:
        return {f"{name}:{spec}" if spec else name
                for _lit, name, spec, _conv in string.Formatter().parse(text)
                if name is not None}
    except ValueError:
        return {"<unbalanced braces>"}


def entry_of(m: Message) -> Entry:
    return (m.context, m.id[0] if isinstance(m.id, (list, tuple)) else m.id)


def _label(e: Entry) -> str:
    return f"{e[1]!r}" + (f" (key {e[0]})" if e[0] else "")


def template_problems(fresh: Catalog, template: Path = TEMPLATE) -> list[str]:
    """How the committed template differs from what the code marks now."""
    if not template.is_file():
        return [f"{template.name} is missing: run `python -m kiosk.lang extract`"]
    old = {entry_of(m): m for m in read_catalog(template) if m.id}
    new = {entry_of(m): m for m in fresh if m.id}
    out = []
    for e in sorted(set(new) - set(old), key=str):
        where = ", ".join(sorted({f for f, _ in new[e].locations})) or "?"
        out.append(f"template: {_label(e)} in {where} is not extracted: run `python -m "
                   "kiosk.lang extract` then `update`, and translate it")
    for e in sorted(set(old) - set(new), key=str):
        out.append(f"template: {_label(e)} is no longer in the code: run `python -m "
                   "kiosk.lang extract` then `update`")
    for e in sorted(set(old) & set(new), key=str):
        if old[e].id != new[e].id:
            out.append(f"template: the plural of {_label(e)} changed: run `python -m "
                       "kiosk.lang extract` then `update`")
    return out


def catalogue_problems(code: str, template: Catalog, root: Path | None = None) -> list[str]:
    """Untranslated, fuzzy, misplaced-placeholder and missing entries of one language."""
    path = po_path(code) if root is None else po_path(code, root)
    if not path.is_file():
        return [f"{code}: {path.name} is missing: run `python -m kiosk.lang update`"]
    cat = read_catalog(path, code)
    have = {entry_of(m): m for m in cat if m.id}
    out = []
    for m in template:
        if not m.id:
            continue
        e = entry_of(m)
        t = have.get(e)
        if t is None:
            out.append(f"{code}: {_label(e)} is missing: run `python -m kiosk.lang update`")
            continue
        out += _entry_problems(code, e, m, t, cat.num_plurals)
    return out


def _entry_problems(code: str, e: Entry, source: Message, t: Message,
                    num_plurals: int) -> list[str]:
    forms = list(t.string) if isinstance(t.string, (list, tuple)) else [t.string]
    if t.fuzzy:
        return [f"{code}: {_label(e)} is fuzzy: check the translation, then remove the "
                "fuzzy flag"]
    if not all(forms):
        return [f"{code}: {_label(e)} is not translated"]
    sources = list(source.id) if isinstance(source.id, (list, tuple)) else [source.id]
    want = set().union(*(placeholders(s or "") for s in sources))
    got = [placeholders(f or "") for f in forms]
    out = []
    if len(sources) > 1 and len(forms) != num_plurals:
        out.append(f"{code}: {_label(e)} has {len(forms)} plural forms, the language "
                   f"has {num_plurals}")
    extra = set().union(*got) - want
    lost = want - set().union(*got) if len(sources) > 1 else want - got[0]
    if extra or lost:
        out.append(f"{code}: {_label(e)} placeholders differ from the source: "
                   f"{_names(extra, 'not in the source')}{_names(lost, 'missing')}".rstrip("; "))
    return out


def _names(found: Iterable[str], what: str) -> str:
    names = sorted(found)
    return f"{', '.join('{' + n + '}' for n in names)} {what}; " if names else ""


def all_problems(fresh: Catalog, languages: Iterable[str] = SHIPPED) -> list[str]:
    template = read_catalog(TEMPLATE) if TEMPLATE.is_file() else fresh
    out = template_problems(fresh)
    for code in languages:
        if code != SOURCE:
            out += catalogue_problems(code, template)
    return out
