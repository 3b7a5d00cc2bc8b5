// The dealers' board on the room page (floor login): a line that counts the room's
// dealers, the alerts, each table's dealer with how long they have dealt there, the push
// time and who comes next, the reliefs of the strings, who waits, who is on break and until
// when, the early-out list; then the floor's controls, each with its label: clock a dealer
// in or out, sign the EO list, release the dealer offered, clear a PIN lockout, and (a
// director's) add or remove a dealer of the roster. Loaded after room.js (`user`, `role`).
"use strict";
(function () {
  const box = document.getElementById("dealers-board");
  if (!box) return;
  const el = PK.el;
  let tz = "UTC";       // the room's time zone, as /api/dealers says it
  const locale = () => ["en", "en_XA"].includes(PK_I18N.code) ? "en-GB" : PK_I18N.tag(PK_I18N.code);
  // a time of day in the room's zone and the reader's clock
  const at = t => t === null || t === undefined ? _t("held") : new Date(t * 1000).toLocaleTimeString(locale(),
    {hour: "2-digit", minute: "2-digit", timeZone: tz || "UTC"});

  async function send(url, body, said) {
    const out = await PK.post(url, body);
    PK.toast(out.ok ? said(out) : _t("Dealers: {error}", {error: out.error}), out.ok);
    refresh(true);
  }
  const DONE = {dealer_clock_in: () => _t("clock in"), dealer_clock_out: () => _t("clock out"),
                dealer_sign_early_out: () => _t("sign early out"), dealer_release: () => _t("release"),
                dealer_pin_clear: () => _t("PIN clear")};
  const act = body => send("/api/dealers/act", body, () =>
    _t("Dealers: {what} {name}: done", {what: (DONE[body.kind] || (() => body.kind))(), name: body.dealer}));
  const roster = body => send("/api/dealers/roster", body, out => _t("Dealers: {error}", {error: out.done}));

  // one control: a visible label on a list of names and its button; none to pick: says so
  function control(label, options, kind, none) {
    const form = el("form", undefined, "inline dealer-control");
    const id = "dc-" + kind;
    const name = el("label", _t("{label}:", {label}), "muted");
    name.htmlFor = id;
    const pick = el("select");
    pick.id = id;
    for (const n of options) pick.append(el("option", n));
    if (!options.length) pick.append(el("option", none));
    const go = el("button", label, "small");
    pick.disabled = go.disabled = !options.length;
    form.append(name, pick, go);
    form.addEventListener("submit", e => {
      e.preventDefault();
      if (kind === "remove") roster({action: "remove", name: pick.value});
      else act({kind, dealer: pick.value});
    });
    return form;
  }
  function rosterForm() {
    const form = el("form", undefined, "inline dealer-control");
    const name = el("input"), badge = el("input");
    name.placeholder = _t("name"); name.setAttribute("aria-label", _t("new dealer's name"));
    badge.placeholder = _t("badge (optional)"); badge.setAttribute("aria-label", _t("new dealer's badge"));
    form.append(el("span", _t("Add to the roster:"), "muted"), name, badge, el("button", _t("Add dealer"), "small"));
    form.addEventListener("submit", e => {
      e.preventDefault();
      roster({action: "add", name: name.value, badge: badge.value || null});
    });
    return form;
  }
  function controls(d) {
    const row = el("div", undefined, "dealer-controls");
    const status = d.dealers || {};
    const out = d.roster.filter(n => !status[n] || status[n] === "out");
    const inn = Object.keys(status).filter(n => status[n] !== "out");
    row.append(control(_t("Clock in"), out, "dealer_clock_in", _t("everyone is in")),
               control(_t("Clock out"), inn.filter(n => status[n] !== "dealing"), "dealer_clock_out", _t("nobody free")),
               control(_t("Sign EO"), inn.filter(n => !d.eo.includes(n)), "dealer_sign_early_out", _t("nobody")));
    if (d.offer) row.append(control(_t("Release"), [d.offer], "dealer_release", ""));
    if (d.locked.length) row.append(control(_t("Clear PIN"), d.locked, "dealer_pin_clear", ""));
    if (typeof role !== "undefined" && role === "director") {
      row.append(rosterForm(), control(_t("Remove"), d.roster, "remove", _t("nobody")));
    }
    return row;
  }
  function table(d) {
    const t = el("table", undefined, "dealer-table");
    const head = el("tr");
    for (const h of [_t("Table"), _t("Dealer"), _t("Dealing for"), _t("Push at"), _t("Comes next")]) {
      const th = el("th", h); th.scope = "col"; head.append(th);
    }
    t.append(head);
    for (const r of d.tables) {
      const tr = el("tr", undefined, r.late > 150 ? "late" : "");
      const push = el("td", at(r.push_at));
      if (r.late > 150) push.append(" ", el("span", _t("{n} min late", {n: Math.floor(r.late / 60)}), "late-note"));
      tr.append(el("td", String(r.table)), el("td", r.dealer || _t("no dealer")),
                el("td", r.dealer ? _t("{n} min", {n: r.minutes}) : "—"), push,
                el("td", r.incoming || (r.dealer ? _t("the relief, in turn") : "—")));
      t.append(tr);
    }
    return t;
  }
  function lists(d) {
    const dl = el("dl", undefined, "dealer-lists");
    const row = (term, text) => { const div = el("div"); div.append(el("dt", term), el("dd", text)); dl.append(div); };
    row(_t("Reliefs"), d.strings.map(s => _t("string {string} (tables {tables}): {name}",
      {string: s.string, tables: s.tables.join(", "), name: s.relief || _t("none")})).join(" · ") || _t("none"));
    row(_t("Waiting"), d.waiting.join(", ") || _t("none"));
    row(_t("On break"), d.breaks.map(b => _t("{name} back at {time}", {name: b.dealer, time: at(b.until)})).join(" · ") || _t("none"));
    row(_t("Early-out list"), (d.eo.join(", ") || _t("empty")) + (d.offer ? " · " + _t("offered to go home: {name}", {name: d.offer}) : ""));
    return dl;
  }
  // an alert in the reader's words, from its kind and numbers (else its English text)
  function alert(a) {
    const args = {table: a.table, string: a.string, name: a.dealer, n: a.minutes};
    if (a.kind === "no_dealer") return _t("Table {table} has no dealer", args);
    if (a.kind === "no_relief") return _t("String {string} has no relief", args);
    if (a.kind === "push_late" && a.minutes !== undefined) return a.held
      ? _t("Table {table}: push {n} min late on a held clock ({name} still deals)", args)
      : _t("Table {table}: push {n} min late ({name} still deals)", args);
    if (a.kind === "late_back" && a.minutes !== undefined) return _t("{name} is {n} min late back from break", args);
    return a.text;
  }
  function render(d) {
    const parts = [];
    const dealing = d.tables.filter(t => t.dealer).length;
    const line = el("p", [_tn("{n} of {total} table dealt", "{n} of {total} tables dealt", d.tables.length, {n: dealing, total: d.tables.length}),
                          _tn("{n} relief", "{n} reliefs", d.strings.filter(s => s.relief).length),
                          _tn("{n} waiting", "{n} waiting", d.waiting.length),
                          _tn("{n} on break", "{n} on break", d.breaks.length), ""].join(" · "), "dealer-summary");
    const link = el("a", _t("the break room's roadmap"));
    link.href = "/dealers";
    line.append(link);
    parts.push(line);
    if (d.alerts.length) {
      const said = el("div");
      said.setAttribute("role", "alert");
      const ul = el("ul", undefined, "list dealer-alerts");
      for (const a of d.alerts) ul.append(el("li", alert(a), "alert"));
      said.append(ul);
      parts.push(said);
    }
    parts.push(table(d), lists(d), controls(d));
    box.replaceChildren(...parts);
  }
  // every few seconds, but never under a list the floor is choosing from
  async function refresh(force) {
    if (typeof user !== "undefined" && !user) {        // a visitor: no floor's board to ask for
      box.replaceChildren(el("p", _t("Log in to see the dealers."), "muted"));
      return;
    }
    try {
      const r = await fetch("/api/dealers");
      if (r.status === 401) { box.replaceChildren(el("p", _t("Log in to see the dealers."), "muted")); return; }
      const d = await r.json();
      tz = d.tz || "UTC";
      const f = document.activeElement;
      if (force === true || !box.contains(f) || !["SELECT", "INPUT"].includes(f.tagName)) render(d);
    } catch (e) { /* the room page shows the connection already */ }
  }
  document.addEventListener("pk-login", () => refresh(true));
  refresh();
  setInterval(refresh, 5000);
})();
