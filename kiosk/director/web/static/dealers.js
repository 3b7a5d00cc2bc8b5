// The dealers' break room roadmap (/dealers) and a dealer's phone page (/dealers?dealer=NAME):
// names and tables only, from /api/dealers/public, refreshed every few seconds.
"use strict";
(function () {
  const me = new URLSearchParams(location.search).get("dealer") || "";
  if (me) document.body.classList.add("phone");
  const $ = (id) => document.getElementById(id);
  let tz = "UTC";       // the room's time zone, as /api/dealers/public says it
  const hhmm = (t) => {
    if (t === null || t === undefined) return "";
    return new Date(t * 1000).toLocaleTimeString("en-GB", {hour: "2-digit", minute: "2-digit", timeZone: tz});
  };
  const el = (tag, text, cls) => {
    const e = document.createElement(tag);
    if (text !== undefined) e.textContent = text;
    if (cls) e.className = cls;
    return e;
  };
  function strings(data) {
    const box = $("dt-strings");
    box.replaceChildren();
    const byTable = new Map(data.tables.map((t) => [t.table, t]));
    for (const s of data.strings) {
      const card = el("div", undefined, "dt-string");
      card.append(el("h2", "String " + s.string + " · relief " + (s.relief || "none")));
      for (const n of s.tables) {
        const t = byTable.get(n) || {};
        const row = el("div", undefined, "dt-row");
        row.append(el("b", "T" + n), el("span", t.dealer || "no dealer"),
                   el("i", t.push_at ? "push " + hhmm(t.push_at) : "held", "muted"));
        card.append(row);
      }
      box.append(card);
    }
  }
  function lists(data) {
    $("dt-breaks").replaceChildren(...data.breaks.map((b) => el("li", b.dealer + " · back " + hhmm(b.until))));
    $("dt-eo").replaceChildren(...data.eo.map((n) => el("li", n)));
  }
  function mine(data) {
    const w = data.me || {};
    $("dt-name").textContent = me;
    $("dt-where").textContent = w.status === "break" ? "Break until " + hhmm(w.until) : (w.text || "-");
    $("dt-when").textContent = w.push_at ? "push at " + hhmm(w.push_at) : "";
  }
  async function refresh() {
    try {
      const r = await fetch("/api/dealers/public" + (me ? "?dealer=" + encodeURIComponent(me) : ""));
      const data = await r.json();
      tz = data.tz || "UTC";
      $("dt-clock").textContent = hhmm(data.t);
      if (me) mine(data); else { strings(data); lists(data); }
    } catch (e) {
      $("dt-clock").textContent = "offline";
    }
  }
  refresh();
  setInterval(refresh, 5000);
})();
