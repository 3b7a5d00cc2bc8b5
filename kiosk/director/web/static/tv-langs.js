// The room's languages on a wall screen (the TV clock, the dealers' roadmap), as the floor
// chooses them by address: `?langs=de,en` names them (the room's only; any other code is
// left out), `&show=side` sets every label in each of them, stacked, the later ones
// smaller; `&show=turn` says the whole page in one after the other, every TURN_MS.
// Without `langs` the page speaks its own language only.
//   PK_TV.text(el, c => _t("Level {n}", {n}, c))   a text said in the languages shown
//   PK_TV.node("h2", c => ..., "cls")                a new element holding such a text
//   PK_TV.time(t, tz, c)  PK_TV.num(n, c)            a time of day, a number, in language c
//   PK_TV.onTurn(fn)                                  run again when the language turns
"use strict";
const PK_TV = (() => {
  const TURN_MS = 10000;
  const q = new URLSearchParams(location.search);
  const own = PK_I18N.code;
  const room = PK_I18N.offered().map(([code]) => code);
  const asked = (q.get("langs") || "").split(",").map(s => s.trim().replace("-", "_")).filter(Boolean);
  // the pseudo-locale is the translator's check: it stays alone
  let langs = own === "en_XA" ? [own] : [...new Set(asked.filter(c => room.includes(c)))];
  if (!langs.length) langs = [own];
  const mode = langs.length < 2 ? "one" : q.get("show") === "turn" ? "turn" : "side";
  const state = {at: 0, hooks: []};
  const current = () => mode === "side" ? langs[0] : langs[state.at];
  const locale = c => c === "en" || c === "en_XA" ? "en-GB" : PK_I18N.tag(c);

  const num = (n, c) => n == null ? "-" : PK_I18N.num(Math.round(Number(n)), c || current());
  function time(t, tz, c) {
    if (t === null || t === undefined) return "";
    return new Date(t * 1000).toLocaleTimeString(locale(c || current()),
      {hour: "2-digit", minute: "2-digit", timeZone: tz || "UTC"});
  }
  function text(el, say) {
    if (mode !== "side") { el.textContent = say(current()); el.lang = PK_I18N.tag(current()); return el; }
    const seen = new Set(), parts = [];
    langs.forEach((c, i) => {
      const words = say(c);
      if (seen.has(words)) return;
      seen.add(words);
      const span = document.createElement("span");
      span.className = i ? "tv-l2" : "tv-l1";
      span.lang = PK_I18N.tag(c);
      span.textContent = words;
      parts.push(span);
    });
    el.replaceChildren(...parts);
    el.classList.toggle("tv-both", parts.length > 1);
    return el;
  }
  function node(tag, say, cls) {
    const el = document.createElement(tag);
    if (cls) el.className = cls;
    return text(el, say);
  }
  // the page's own marked texts (data-i18n) in the languages shown
  function marked() {
    if (mode !== "side") { PK_I18N.apply(document, current()); return; }
    document.querySelectorAll("[data-i18n]").forEach(el => {
      if (el.dataset.i18nSrc === undefined) el.dataset.i18nSrc = el.textContent.trim().replace(/\s+/g, " ");
      const src = el.dataset.i18nSrc;
      if (src) text(el, c => _t(src, null, c));
    });
    document.querySelectorAll("[data-i18n-attr]").forEach(el => {
      for (const name of el.dataset.i18nAttr.split(/[\s,]+/).filter(Boolean)) {
        const keep = "i18n-src-" + name;
        if (!el.hasAttribute(keep)) el.setAttribute(keep, (el.getAttribute(name) || "").trim());
        const src = el.getAttribute(keep);
        if (src) el.setAttribute(name, [...new Set(langs.map(c => _t(src, null, c)))].join(" / "));
      }
    });
  }
  function turn() {
    state.at = (state.at + 1) % langs.length;
    document.documentElement.lang = PK_I18N.tag(current());
    document.documentElement.dataset.shown = current();
    marked();
    state.hooks.forEach(fn => fn());
  }
  function onTurn(fn) { state.hooks.push(fn); }

  const style = document.createElement("style");
  // stacked: the second language under the first, smaller; a banner's side by side
  style.textContent = ".tv-both>span{display:block;line-height:1.1}.tv-both>.tv-l2{font-size:.6em;opacity:.85}" +
    ".banners .tv-both>span{display:inline}.banners .tv-both>.tv-l2::before{content:' · '}" +
    "#qr .tv-both>.tv-l2{font-size:.85em}";   // the corner's caption: still 1/60 of the height
  document.head.appendChild(style);
  const ready = Promise.all(langs.filter(c => c !== own).map(c => PK_I18N.load(c, "floor").catch(() => {})));
  document.documentElement.dataset.shown = current();
  document.addEventListener("DOMContentLoaded", () => ready.then(() => {
    marked();
    state.hooks.forEach(fn => fn());
    if (mode === "turn") setInterval(turn, TURN_MS);
  }));
  return {langs, mode, get code() { return current(); }, text, node, time, num, onTurn, ready};
})();
