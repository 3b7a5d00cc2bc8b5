"""`python -m kiosk.lang extract|update|compile|check|stats`: the catalogues' one command.

extract   the template (locale/pokerkiosk.pot) from every marked text of kiosk/
update    each language's .po merged with the template: new entries empty, changed ones
          fuzzy, translations kept
compile   each .po to its .mo (the build does this too; kiosk.lang.build)
check     what CI checks: the template up to date, every language complete, no fuzzy
          entry, placeholders as in the source; exits 1 naming each problem
stats     entries, translated and fuzzy, by language
"""

from __future__ import annotations

import argparse
import io
import sys
from collections.abc import Sequence
from pathlib import Path

from babel.messages.catalog import Catalog
from babel.messages.mofile import write_mo
from babel.messages.pofile import write_po

from kiosk.lang import checks
from kiosk.lang.catalogue import reload
from kiosk.lang.codes import SHIPPED, SOURCE
from kiosk.lang.extract import ROOT, messages
from kiosk.lang.files import DOMAIN, LOCALE_DIR, TEMPLATE, po_path, read_catalog

PROJECT = "poker-kiosk"
WIDTH = 100


def fresh_template(root: Path = ROOT) -> Catalog:
    """The template as the code marks its texts now (locations by file, no line numbers:
    moving a line changes nothing)."""
    cat = Catalog(project=PROJECT, domain=DOMAIN, charset="utf-8", fuzzy=False)
    for filename, lineno, message, comments, context in messages(root):
        where = f"kiosk/{filename}"
        cat.add(message, None, [(where, lineno)], auto_comments=comments, context=context)
    return cat


def _write_po(cat: Catalog, path: Path, **kw: object) -> None:
    buf = io.BytesIO()
    write_po(buf, cat, width=WIDTH, include_lineno=False, omit_header=False,
             sort_output=True, **kw)  # type: ignore[arg-type]
    text = buf.getvalue()
    # the creation date changes on every run; keep the file as it was when nothing else did
    if path.is_file() and _without_dates(path.read_bytes()) == _without_dates(text):
        return
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_bytes(text)


def _without_dates(text: bytes) -> bytes:
    return b"\n".join(line for line in text.splitlines()
                      if not line.startswith((b'"POT-Creation-Date', b'"PO-Revision-Date')))


def extract() -> int:
    cat = fresh_template()
    _write_po(cat, TEMPLATE)
    print(f"{TEMPLATE.relative_to(ROOT.parent)}: {sum(1 for m in cat if m.id)} entries")
    return 0


def update(languages: Sequence[str] = SHIPPED) -> int:
    template = read_catalog(TEMPLATE)
    for code in languages:
        if code == SOURCE:
            continue
        path = po_path(code)
        if path.is_file():
            cat = read_catalog(path, code)
        else:
            cat = Catalog(locale=code, domain=DOMAIN, project=PROJECT)
        cat.update(template, no_fuzzy_matching=False)
        cat.obsolete.clear()          # a text the code dropped is gone, not kept
        _write_po(cat, path, ignore_obsolete=True)
        print(f"{code}: {_stats(cat)}")
    return 0


def compile_all(languages: Sequence[str] = SHIPPED, root: Path = LOCALE_DIR) -> int:
    """Each language's .mo from its .po (fuzzy entries left out, as gettext does)."""
    for code in languages:
        if code == SOURCE:
            continue
        path = po_path(code, root)
        if not path.is_file():
            continue
        cat = read_catalog(path, code)
        with path.with_suffix(".mo").open("wb") as f:
            write_mo(f, cat, use_fuzzy=False)
    reload()
    return 0


def _stats(cat: Catalog) -> str:
    entries = [m for m in cat if m.id]
    done = sum(1 for m in entries if (all(m.string) if isinstance(m.string, (list, tuple))
                                      else m.string) and not m.fuzzy)
    fuzzy = sum(1 for m in entries if m.fuzzy)
    return f"{len(entries)} entries, {done} translated, {fuzzy} fuzzy"


def check() -> int:
    problems = checks.all_problems(fresh_template())
    for line in problems:
        print(line)
    if problems:
        print(f"{len(problems)} problem(s): docs/languages.md says how to fix each")
        return 1
    print(f"catalogues complete: {', '.join(SHIPPED)}")
    return 0


def stats() -> int:
    print(f"template: {sum(1 for m in read_catalog(TEMPLATE) if m.id)} entries")
    for code in SHIPPED:
        if code != SOURCE and po_path(code).is_file():
            print(f"{code}: {_stats(read_catalog(po_path(code), code))}")
    return 0


def main(argv: Sequence[str] | None = None) -> int:
    p = argparse.ArgumentParser(prog="python -m kiosk.lang", description=__doc__,
                                formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("action", choices=("extract", "update", "compile", "check", "stats"))
    p.add_argument("languages", nargs="*", help="update or compile only these")
    a = p.parse_args(argv)
    langs = tuple(a.languages) or SHIPPED
    if a.action == "extract":
        return extract()
    if a.action == "update":
        return update(langs)
    if a.action == "compile":
        return compile_all(langs)
    if a.action == "stats":
        return stats()
    return check()


if __name__ == "__main__":
    sys.exit(main())
