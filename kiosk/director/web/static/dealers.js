// The dealers' break room roadmap (/dealers) and a dealer's phone page (/dealers?dealer=NAME):
// names and tables only, from /api/dealers/public, read again every few seconds. The phone
// says where the dealer goes, when, and whom they relieve; a dealer dealing, whom they wait
// for and where they go at the push. Every word in the languages the floor shows
// (tv-langs.js), times in each language's clock.
"use strict";
(function () {
  const me = new URLSearchParams(location.search).get("dealer") || "";
  if (me) document.body.classList.add("phone");
  const $ = id => document.getElementById(id), el = PK.el, TV = PK_TV, say = TV.text, node = TV.node;
  let tz = "UTC";       // the room's time zone, as /api/dealers/public says it
  let last = null;      // the last answer, said again when the language turns
  const at = (t, c) => TV.time(t, tz, c);
  const none = () => node("li", c => _t("none", null, c), "none muted");

  function strings(data) {
    const byTable = new Map(data.tables.map(t => [t.table, t]));
    $("dt-strings").replaceChildren(...data.strings.map(s => {
      const card = el("div", undefined, "dt-string");
      card.append(node("h2", c => s.relief ? _t("String {string} · relief {name}", {string: s.string, name: s.relief}, c)
                                            : _t("String {string} · no relief", {string: s.string}, c)));
      for (const n of s.tables) {
        const t = byTable.get(n) || {};
        const row = el("div", undefined, "dt-row");
        const late = t.push_at && t.push_at < data.t;
        const push = c => !t.push_at ? _t("held", null, c) : late ? _t("push due {time}", {time: at(t.push_at, c)}, c)
                                                              : _t("push {time}", {time: at(t.push_at, c)}, c);
        row.append(node("b", c => _t("T{table}", {table: n}, c)),
                   t.dealer ? el("span", t.dealer) : node("span", c => _t("no dealer", null, c)),
                   node("i", push, late ? "late" : "muted"));
        card.append(row);
      }
      return card;
    }));
  }
  function lists(data) {
    const fill = (id, items) => $(id).replaceChildren(...(items.length ? items : [none()]));
    fill("dt-waiting", (data.waiting || []).map(x => el("li", x)));
    fill("dt-breaks", data.breaks.map(b => node("li", c => _t("{name} · back {time}", {name: b.dealer, time: at(b.until, c)}, c))));
    fill("dt-eo", data.eo.map(x => el("li", x)));
  }
  const THEN = {relief: w => c => _t("Then: table {table}, as the string's relief", {table: w.then.to}, c),
                break: w => c => _t("Then: a break until about {time}", {time: at(w.then.until, c)}, c),
                home: () => c => _t("Then: home, released early", null, c),
                waiting: () => c => _t("Then: wait for the floor", null, c)};
  const blank = () => "";
  // what the phone says: [where, when, then], each a function of the language
  function words(w, now) {
    if (w.status === "unknown") return [c => _t("No such dealer", null, c),
      c => _t("\"{name}\" is not on this room's roster: check the name, or ask the floor", {name: me}, c), blank];
    if (w.status === "out") return [c => _t("Not clocked in", null, c), c => _t("Badge in at any table, or ask the floor", null, c), blank];
    if (w.status === "break") return [c => _t("Break", null, c), c => _t("until {time}", {time: at(w.until, c)}, c),
                                      c => _t("Then: badge in at any table", null, c)];
    const where = c => _t("Table {table}", {table: w.table}, c);
    const t = w.push_at, held = t === null || t === undefined, soon = !held && t <= now;
    if (w.status === "dealing") {
      const then = w.then && THEN[w.then.next] ? THEN[w.then.next](w) : blank;
      const args = c => ({time: held ? "" : at(t, c), name: w.incoming || ""});
      const when = c => w.incoming
        ? (held ? _t("You deal. Push when the clock runs again: {name} relieves you at a hand's end", args(c), c)
           : soon ? _t("You deal. Push now: {name} relieves you at a hand's end", args(c), c)
           : _t("You deal. Push at {time}: {name} relieves you at a hand's end", args(c), c))
        : (held ? _t("You deal. Push when the clock runs again: your relief comes at a hand's end", null, c)
           : soon ? _t("You deal. Push now: your relief comes at a hand's end", null, c)
           : _t("You deal. Push at {time}: your relief comes at a hand's end", args(c), c));
      return [where, when, then];
    }
    if (w.table) {
      const args = c => ({time: held ? "" : at(t, c), name: w.relieves || ""});
      const when = c => w.relieves
        ? (held ? _t("When the clock runs again: relieve {name}", args(c), c)
           : soon ? _t("Now: relieve {name}", args(c), c) : _t("At {time}: relieve {name}", args(c), c))
        : (held ? _t("When the clock runs again: relieve the dealer", null, c)
           : soon ? _t("Now: relieve the dealer", null, c) : _t("At {time}: relieve the dealer", args(c), c));
      return [where, when, blank];
    }
    return [c => _t("Waiting", null, c), c => _t("The floor sends you to the next table that needs a dealer", null, c), blank];
  }
  function mine(data) {
    const [where, when, then] = words(data.me || {}, data.t);
    $("dt-name").textContent = me;
    say($("dt-where"), where);
    say($("dt-when"), when);
    say($("dt-then"), then);
  }
  function show(data) {
    $("dt-clock").textContent = at(data.t);
    if (me) mine(data); else { strings(data); lists(data); }
  }
  async function refresh() {
    try {
      const r = await fetch("/api/dealers/public" + (me ? "?dealer=" + encodeURIComponent(me) : ""));
      const data = await r.json();
      tz = data.tz || "UTC";
      last = data;
      show(data);
    } catch (e) {
      say($("dt-clock"), c => _t("offline", null, c));
    }
  }
  TV.onTurn(() => { if (last) show(last); });
  TV.ready.then(refresh);
  setInterval(refresh, 5000);
})();
