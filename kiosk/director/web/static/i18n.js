// The pages' words in their reader's language. The head loads the language's texts
// (/lang/CODE.js adds them to PK_LANGS) before this script; the page names its language
// on <html data-lang> and the room's languages on data-langs ("de:Deutsch,en:English").
//   _t("Players left"), _t("{n} left", {n: 5})       a text, its {names} filled
//   _tn("{n} player", "{n} players", n)                 a plural, by CLDR's category
//   PK_I18N.say(msg, english)                           a message key {key, args}
//   PK_I18N.place(18), PK_I18N.blinds(500, 1000)        18. · 500/1.000 (German)
//   <h2 data-i18n>Players left</h2>                     swapped when the page loads
//   <input data-i18n-attr="placeholder" placeholder="Your name">
// A text the catalogue lacks is shown in English. Numbers in {names} are grouped as the
// language groups them; chips and blinds never take decimals.
"use strict";
const PK_I18N = (() => {
  const root = document.documentElement;
  const state = {code: root.dataset.lang || "en"};
  const cat = code => (window.PK_LANGS || {})[code] || {messages: {}, keys: {}};
  const tag = code => String(code).replace("_", "-");
  // one formatter and one plural rule per language, made once: a page of 600 tables asks
  const made = {};
  const once = (kind, code, make) => made[kind + code] || (made[kind + code] = make(tag(code)));
  const num = (n, code) => once("n", code || state.code,
    t => new Intl.NumberFormat(t, {maximumFractionDigits: 2})).format(n);
  const show = (v, code) => typeof v === "number" ? num(v, code) : String(v ?? "");
  function fill(text, args, code) {
    if (!args) return text;
    return text.replace(/\{(\w+)\}/g, (m, name) => name in args ? show(args[name], code) : m);
  }
  function form(entry, n, code) {
    if (typeof entry === "string") return entry;
    return entry[once("p", code, t => new Intl.PluralRules(t)).select(n)] ?? entry.other;
  }
  function t(src, args, code) {
    const c = code || state.code, m = cat(c).messages[src];
    return fill(m === undefined ? src : form(m, 1, c), args, c);
  }
  function tn(one, many, n, args, code) {
    const c = code || state.code, m = cat(c).messages[one];
    return fill(m === undefined ? (n === 1 ? one : many) : form(m, n, c), {n, ...(args || {})}, c);
  }
  // a message key and its arguments (a refusal's error_msg, a plan's reason): its words
  // from the catalogue, else `english` (the reply's own text), else the key
  function say(msg, english, code) {
    if (!msg || !msg.key) return english ?? "";
    const c = code || state.code, e = cat(c).keys[msg.key], args = msg.args || {};
    if (e === undefined) return english ?? msg.key;
    return fill(form(e, Number(args.n ?? 1), c), args, c);
  }
  // every marked text under `top` in `code`; the English source is kept on the element,
  // so a page can say itself again in another language (the TV's "in turn")
  function apply(top = document, code) {
    const c = code || state.code;
    top.querySelectorAll("[data-i18n]").forEach(el => {
      if (el.dataset.i18nSrc === undefined) el.dataset.i18nSrc = el.textContent.trim().replace(/\s+/g, " ");
      if (el.dataset.i18nSrc) el.textContent = t(el.dataset.i18nSrc, null, c);
    });
    top.querySelectorAll("[data-i18n-attr]").forEach(el => {
      for (const name of el.dataset.i18nAttr.split(/[\s,]+/).filter(Boolean)) {
        const keep = "i18n-src-" + name;
        if (!el.hasAttribute(keep)) el.setAttribute(keep, (el.getAttribute(name) || "").trim().replace(/\s+/g, " "));
        if (el.getAttribute(keep)) el.setAttribute(name, t(el.getAttribute(keep), null, c));
      }
    });
  }
  // the room's languages, as (code, name), the page's own first
  function offered() {
    return (root.dataset.langs || "").split(",").filter(Boolean).map(s => s.split(":"));
  }
  // a chooser in `box` (when the room has more than one language): the choice is kept in
  // the pk_lang cookie for a year and the page is loaded again in it
  function chooser(box) {
    if (!box || offered().length < 2) return;
    const sel = document.createElement("select");
    sel.setAttribute("aria-label", _t("Language"));
    for (const [code, name] of offered()) {
      const o = new Option(name, code, false, code === state.code);
      o.lang = tag(code);
      sel.add(o);
    }
    sel.onchange = () => {
      document.cookie = `pk_lang=${sel.value}; path=/; max-age=31536000; SameSite=Lax`;
      const u = new URL(location.href); u.searchParams.delete("lang");
      location.replace(u.toString());
    };
    box.replaceChildren(sel);
  }
  // load another language's texts (the TV's second language); resolves when it is there
  function load(code, which = "floor") {
    if ((window.PK_LANGS || {})[code]) return Promise.resolve();
    return new Promise((ok, fail) => {
      const s = document.createElement("script");
      s.src = `/lang/${encodeURIComponent(code)}.js?for=${which}`;
      s.onload = ok; s.onerror = fail;
      document.head.appendChild(s);
    });
  }
  document.addEventListener("DOMContentLoaded", () => {
    apply(document);
    chooser(document.getElementById("lang-choice"));
  });
  // a place as the language writes it: 18th · 18. · 18e · 18.º · 18º · 第18
  const PLACES = {de: "{n}.", cs: "{n}.", fr: "{n}e", es: "{n}.º", pt: "{n}º", zh: "第{n}"};
  function place(n, code) {
    const lang = String(code || state.code).split("_")[0];
    if (lang === "fr" && n === 1) return "1er";
    if (PLACES[lang]) return PLACES[lang].replace("{n}", n);
    return n + (n % 100 >= 11 && n % 100 <= 13 ? "th" : ({1: "st", 2: "nd", 3: "rd"}[n % 10] || "th"));
  }
  // a level's blinds in the language's numbers: 1.000/2.000; where it groups digits with a
  // space, the slash takes a space each side (1 000 / 2 000), never three numbers in a row
  function blinds(sb, bb, code) {
    const a = num(Math.round(Number(sb)), code), b = num(Math.round(Number(bb)), code);
    return /\s/.test(a + b) ? `${a} / ${b}` : `${a}/${b}`;
  }
  return {get code() { return state.code; }, tag, num, t, tn, say, apply, offered, chooser, load,
          place, blinds};
})();
const _t = PK_I18N.t, _tn = PK_I18N.tn;
