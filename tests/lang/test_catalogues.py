"""The catalogues as CI holds them: complete in every shipped language, the template up to
date with the code, and the check naming what is wrong when they are not."""

from __future__ import annotations

import shutil
from pathlib import Path

from babel.messages.catalog import Catalog

from kiosk.lang import checks
from kiosk.lang.catalogue import Catalogue, Entries, catalogue
from kiosk.lang.codes import SHIPPED
from kiosk.lang.files import LOCALE_DIR, TEMPLATE, po_path, read_catalog
from kiosk.lang.tool import _write_po, compile_all, fresh_template


def test_every_shipped_catalogue_is_complete_and_the_template_current() -> None:
    problems = checks.all_problems(fresh_template())
    assert problems == [], "\n".join(problems[:20])
    template = [m for m in read_catalog(TEMPLATE) if m.id]
    assert len(template) > 100          # the kiosk's screens and the table's refusals
    for code in SHIPPED[1:]:
        cat = read_catalog(po_path(code), code)
        assert sum(1 for m in cat if m.id) == len(template), code


def test_a_new_string_not_extracted_is_named_with_its_file(tmp_path: Path) -> None:
    code = tmp_path / "kiosk" / "table"
    code.mkdir(parents=True)
    (code / "banner.py").write_text('from kiosk.lang.active import _\n\n'
                                    'TEXT = _("SHOT CLOCK RUNNING")\n')
    problems = checks.template_problems(fresh_template(tmp_path / "kiosk"))
    new = [p for p in problems if "SHOT CLOCK RUNNING" in p]
    assert len(new) == 1 and "not extracted" in new[0] and "table/banner.py" in new[0], new
    assert "python -m kiosk.lang extract" in new[0]


def test_untranslated_fuzzy_and_wrong_placeholders_are_each_named(tmp_path: Path) -> None:
    template = Catalog(domain="pokerkiosk")
    template.add("Seat {seat}: bounties {amount}")
    template.add("TABLE CLOSED")
    template.add("Level {n}")
    template.add(("{n} card", "{n} cards"))
    de = Catalog(locale="de", domain="pokerkiosk")
    de.add("Seat {seat}: bounties {amount}", "Platz {platz}: Bounties {amount}")
    de.add("TABLE CLOSED", "")
    de.add("Level {n}", "Level {n}", flags=["fuzzy"])
    de.add(("{n} card", "{n} cards"), ("{n} Karte", "{n} Karten"))
    _write_po(de, po_path("de", tmp_path))
    problems = checks.catalogue_problems("de", template, tmp_path)
    assert any("'Seat {seat}: bounties {amount}'" in p and "{platz} not in the source" in p
               and "{seat} missing" in p for p in problems), problems
    assert any("'TABLE CLOSED'" in p and "not translated" in p for p in problems)
    assert any("'Level {n}'" in p and "fuzzy" in p for p in problems)
    assert len(problems) == 3, problems


def test_a_missing_entry_shows_english_and_is_counted() -> None:
    de = catalogue("de")
    full = Entries(text=dict(de.entries.text), keyed=dict(de.entries.keyed),
                   plural=de.entries.plural)
    del full.text["TABLE CLOSED"]
    cat = Catalogue("de", full, de.english)
    assert cat.gettext("TABLE CLOSED") == "TABLE CLOSED"          # English, not a gap
    assert cat.gettext("TABLE BREAKING") == "TISCH WIRD AUFGELÖST"
    assert cat.gettext("TABLE CLOSED") == "TABLE CLOSED"
    assert cat.missing() == 1                                       # counted once
    del full.keyed["hold.breaking"]
    assert cat.render({"key": "hold.breaking"}) == "the table is breaking"
    assert cat.missing() == 2


def test_a_plural_in_a_language_of_one_form_is_said_in_it() -> None:
    """Chinese has one plural form: its entry is the whole answer, not a gap."""
    zh = catalogue("zh_Hans")
    missed = zh.missing()
    assert zh.ngettext("{n} hand", "{n} hands", 12).format(n=12) == "12 手"
    assert zh.ngettext("Playing: table {tables}", "Playing: tables {tables}", 1) \
        == "进行中:牌桌 {tables}"
    assert zh.missing() == missed
    # a language with two forms still takes a one-form entry for a gap
    de = catalogue("de")
    one = Entries(text={"{n} hand": ("{n} Hand",)}, forms=2)
    assert Catalogue("de", one, de.english).ngettext("{n} hand", "{n} hands", 3) == "{n} hands"


def test_compiled_catalogues_read_as_the_po_files(tmp_path: Path) -> None:
    root = tmp_path / "locale"
    shutil.copytree(LOCALE_DIR, root)
    compile_all(root=root)
    for code in SHIPPED[1:]:
        assert po_path(code, root).with_suffix(".mo").stat().st_size > 1000, code
    from babel.messages.mofile import read_mo
    with po_path("cs", root).with_suffix(".mo").open("rb") as f:
        mo = read_mo(f)
    got = {m.id: m.string for m in mo if m.id == "TABLE CLOSED"}
    assert got == {"TABLE CLOSED": "STŮL UZAVŘEN"}
