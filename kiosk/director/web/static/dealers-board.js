// The dealers' board on the room page: each table's dealer, minutes into the down, the next
// push, each string's relief, the break queue, the EO list and the alerts (floor login).
"use strict";
(function () {
  const box = document.getElementById("dealers-board");
  if (!box) return;
  const hhmm = (t) => {
    if (t === null || t === undefined) return "held";
    const d = new Date(t * 1000);
    return String(d.getUTCHours()).padStart(2, "0") + ":" + String(d.getUTCMinutes()).padStart(2, "0");
  };
  const el = (tag, text, cls) => {
    const e = document.createElement(tag);
    if (text !== undefined) e.textContent = text;
    if (cls) e.className = cls;
    return e;
  };
  function render(d) {
    const parts = [];
    if (d.alerts.length) {
      const ul = el("ul", undefined, "list dealer-alerts");
      ul.setAttribute("role", "alert");
      for (const a of d.alerts) ul.append(el("li", a.text, "alert"));
      parts.push(ul);
    }
    const table = el("table", undefined, "dealer-table");
    const head = el("tr");
    for (const h of ["Table", "Dealer", "Min", "Push", "Next in"]) head.append(el("th", h));
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
    box.replaceChildren(...parts);
  }
  async function refresh() {
    try {
      const r = await fetch("/api/dealers");
      if (r.status === 401) { box.replaceChildren(el("p", "Log in to see the dealers.", "muted")); return; }
      render(await r.json());
    } catch (e) { /* the room page shows the connection already */ }
  }
  refresh();
  setInterval(refresh, 5000);
})();
