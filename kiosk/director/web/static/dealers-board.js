// The dealers' board on the room page: each table's dealer, minutes into the down, the next
// push, each string's relief, the break queue, the EO list and the alerts (floor login), with
// the floor's controls: clock a dealer in or out, sign the EO list, release the dealer
// offered, clear a PIN lockout.
"use strict";
(function () {
  const box = document.getElementById("dealers-board");
  if (!box) return;
  let tz = "UTC";       // the room's time zone, as /api/dealers says it
  const hhmm = (t) => {
    if (t === null || t === undefined) return "held";
    return new Date(t * 1000).toLocaleTimeString("en-GB", {hour: "2-digit", minute: "2-digit", timeZone: tz});
  };
  const el = (tag, text, cls) => {
    const e = document.createElement(tag);
    if (text !== undefined) e.textContent = text;
    if (cls) e.className = cls;
    return e;
  };
  async function act(body) {
    const snap = await (await fetch("/api/room")).json();
    const r = await fetch("/api/dealers/act", {method: "POST", headers: {
      "Content-Type": "application/json", "X-CSRF-Token": snap.csrf || ""}, body: JSON.stringify(body)});
    const out = await r.json();
    const toast = document.getElementById("toast");
    if (toast) toast.textContent = out.ok ? "Dealers: done" : "Dealers: " + out.error;
    refresh();
  }
  async function roster(body) {
    const snap = await (await fetch("/api/room")).json();
    const r = await fetch("/api/dealers/roster", {method: "POST", headers: {
      "Content-Type": "application/json", "X-CSRF-Token": snap.csrf || ""}, body: JSON.stringify(body)});
    const out = await r.json();
    const toast = document.getElementById("toast");
    if (toast) toast.textContent = out.ok ? "Dealers: " + out.done : "Dealers: " + out.error;
    refresh();
  }
  function rosterForm() {
    const form = el("form", undefined, "inline dealer-control");
    const name = el("input");
    name.placeholder = "new dealer";
    name.setAttribute("aria-label", "new dealer's name");
    const badge = el("input");
    badge.placeholder = "badge (optional)";
    badge.setAttribute("aria-label", "new dealer's badge");
    form.append(name, badge, el("button", "Add dealer", "small"));
    form.addEventListener("submit", (e) => {
      e.preventDefault();
      roster({action: "add", name: name.value, badge: badge.value || null});
    });
    return form;
  }
  function control(label, options, kind) {
    const form = el("form", undefined, "inline dealer-control");
    const pick = el("select");
    pick.setAttribute("aria-label", label);
    for (const name of options) pick.append(el("option", name));
    const go = el("button", label, "small");
    form.append(pick, go);
    form.addEventListener("submit", (e) => {
      e.preventDefault();
      if (kind === "remove") roster({action: "remove", name: pick.value});
      else act({kind: kind, dealer: pick.value});
    });
    if (!options.length) { pick.disabled = true; go.disabled = true; }
    return form;
  }
  function controls(d) {
    const row = el("div", undefined, "dealer-controls");
    Object.assign(row.style, {display: "flex", flexWrap: "wrap", gap: "12px"});
    const status = d.dealers || {};
    const out = d.roster.filter((n) => !status[n] || status[n] === "out");
    const inn = Object.keys(status).filter((n) => status[n] !== "out");
    const off = inn.filter((n) => status[n] !== "dealing");
    row.append(control("Clock in", out, "dealer_clock_in"),
               control("Clock out", off, "dealer_clock_out"),
               control("Sign EO", inn.filter((n) => !d.eo.includes(n)), "dealer_sign_early_out"));
    if (d.offer) row.append(control("Release", [d.offer], "dealer_release"));
    row.append(rosterForm(), control("Remove", d.roster, "remove"));
    if (d.locked.length) row.append(control("Clear PIN", d.locked, "dealer_pin_clear"));
    return row;
  }
  function render(d) {
    const parts = [];
    if (d.alerts.length) {
      const ul = el("ul", undefined, "list dealer-alerts");
      ul.setAttribute("role", "alert");
      for (const a of d.alerts) ul.append(el("li", a.text, "alert"));
      parts.push(ul);
    }
    const link = el("a", "The break room's roadmap (/dealers)");
    link.href = "/dealers";
    parts.push(el("p")), parts[parts.length - 1].append(link);
    const table = el("table", undefined, "dealer-table");
    const head = el("tr");
    for (const h of ["Table", "Dealer", "Min", "Push", "Next in"]) head.append(el("th", h));
    table.style.borderSpacing = "16px 2px";
    table.append(head);
    for (const t of d.tables) {
      const tr = el("tr");
      tr.append(el("td", String(t.table)), el("td", t.dealer || "—"),
                el("td", t.minutes === null ? "" : String(t.minutes)),
                el("td", hhmm(t.push_at)), el("td", t.incoming || ""));
      table.append(tr);
    }
    parts.push(table);
    parts.push(el("p", "Reliefs: " + (d.strings.map((s) => "S" + s.string + " " + (s.relief || "none")).join(" · ") || "none")));
    parts.push(el("p", "Breaks: " + (d.breaks.map((b) => b.dealer + " back " + hhmm(b.until)).join(" · ") || "none")));
    parts.push(el("p", "EO list: " + (d.eo.join(", ") || "empty") + (d.offer ? " — offer: " + d.offer : "")));
    parts.push(controls(d));
    box.replaceChildren(...parts);
  }
  async function refresh() {
    try {
      const r = await fetch("/api/dealers");
      if (r.status === 401) { box.replaceChildren(el("p", "Log in to see the dealers.", "muted")); return; }
      const d = await r.json();
      tz = d.tz || "UTC";
      render(d);
    } catch (e) { /* the room page shows the connection already */ }
  }
  document.addEventListener("submit", (e) => {
    if (e.target && e.target.id === "login") setTimeout(refresh, 500);
  });
  refresh();
  setInterval(refresh, 5000);
})();
