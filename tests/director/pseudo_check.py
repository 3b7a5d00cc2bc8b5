"""The pseudo-locale's check of a page in Chromium: every text a person meets is marked «…».

A page opened with `?lang=en_XA` says each of its texts in the pseudo-locale
(kiosk/lang/pseudo.py), so a text left once its marked parts are taken out is one that
never went through the catalogue. `unmarked_texts(page)` walks the shown text nodes of a
Playwright page, the chosen option of each shown select and the attributes a reader
meets (placeholder, title, aria-label, alt), and returns those with such a text; what is
data, not words, is left out: numbers, amounts, times, blinds and other
digits-and-punctuation, the names (players, dealers, events) a test gives as `allow`
(exactly, or one of them with digits and punctuation around), whatever the test's `data`
pattern finds (names, codes, dates inside a text), and the parts of the page under a
`skip` selector (another page's texts, the log's own records).
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from typing import Any

from waiting import eventually

# the text of each shown text node (the whole of its element's when a mark opens in one
# node and closes in another), each chosen option and each reader's attribute, and what
# is left of it once the marked parts are taken out
_WALK = r"""([within, skip]) => {
  const top = document.querySelector(within);
  if (!top) return [[`nothing at ${within}`, `nothing at ${within}`]];
  const skipped = el => skip.some(sel => el.closest(sel));
  const shown = el => el.checkVisibility({visibilityProperty: true}) && !skipped(el);
  const strip = s => {
    let t = s, was;
    do { was = t; t = t.replace(/«[^«»]*»/g, " "); } while (t !== was);
    return t;
  };
  const texts = [];
  const walk = document.createTreeWalker(top, NodeFilter.SHOW_TEXT);
  for (let n = walk.nextNode(); n; n = walk.nextNode()) {
    const el = n.parentElement, t = n.textContent;
    if (!el || !t.trim() || ["SCRIPT", "STYLE", "OPTION"].includes(el.tagName)) continue;
    if (!shown(el)) continue;
    texts.push(t.split("«").length === t.split("»").length ? t : el.textContent);
  }
  for (const el of top.querySelectorAll("select")) {
    if (shown(el) && el.selectedOptions[0]) texts.push(el.selectedOptions[0].textContent);
  }
  for (const el of top.querySelectorAll("[placeholder], [title], [aria-label], [alt]")) {
    if (skipped(el)) continue;
    for (const a of ["placeholder", "title", "aria-label", "alt"])
      if (el.getAttribute(a)) texts.push(el.getAttribute(a));
  }
  return texts.map(t => [t.trim(), strip(t).trim()]);
}"""
_PUNCT = r"\s\d.,:;/+\-\u2013\u2014\u00b7\u00d7%#()\[\]'\"\u2019"
# digits and punctuation alone (numbers, amounts, blinds), and a time of day, any clock
_DATA = re.compile(rf"[{_PUNCT}\u00b0\u00ba\u00aa\u20ac$\u00a3\u00a5|]*")
_TIME = re.compile(r"\d{1,2}[:.]\d\d(?:[:.]\d\d)?(?:\s?[AaPp]\.?[Mm]\.?)?")


def _plain(text: str) -> str:
    return re.sub(rf"[{_PUNCT}]+", " ", text).strip()


def unmarked_texts(page: Any, allow: Iterable[str] = (), within: str = "body",
                   skip: Iterable[str] = (), data: str | re.Pattern[str] = "") -> list[str]:
    """The texts `page` (opened with ?lang=en_XA) shows that are not all marked «…», less
    data: digits and punctuation alone, the names in `allow`, and what `data` finds in a
    text; `within`: only under the first element that selector finds (a part of a page
    another part of which is not yet swept); `skip`: not under these selectors."""
    names = set(allow)
    found = re.compile(data) if data else None
    out: list[str] = []
    for text, left in page.evaluate(_WALK, [within, list(skip)]):
        if left in names or _plain(left) in names:
            continue
        rest = found.sub(" ", left).strip() if found else left
        if _DATA.fullmatch(rest) or _TIME.fullmatch(rest) or text in out:
            continue
        out.append(text)
    return out


def settled_unmarked(page: Any, allow: Iterable[str] = (), timeout: float = 30.0,
                     **kw: Any) -> list[str]:
    """`unmarked_texts` once the page's scripts have said everything: asked again until
    none is left or `timeout` passes (a page still drawing its first answers shows its
    English placeholders for a moment); what is left then."""
    return list(eventually(lambda: unmarked_texts(page, allow, **kw), [], timeout, step=0.1))
