// Alternates called to the desk, on the floor dashboard and the TV clock: "Alternate 1:
// NAME, to the desk" for each event shown (the dashboard's own box confirms a
// reservation: dashboard.js). Names are set as text only.
"use strict";
(function () {
  const q = new URLSearchParams(location.search);
  const path = location.pathname.match(/^\/event\/([^/]+)/);
  const named = q.get("event") || (path && decodeURIComponent(path[1])) || "";
  const several = (q.get("events") || "").split(",").filter(Boolean);
  const floor = document.body.classList.contains("floor");
  const box = document.createElement("div");
  box.id = "desk-calls";
  box.setAttribute("aria-live", "assertive");
  box.style.cssText = "position:fixed;left:0;right:0;bottom:0;z-index:50;text-align:center;" +
    "font-weight:800;background:#f5b942;color:#111;font-size:" + (floor ? "20px" : "4vh") +
    ";padding:.3em .5em;display:none";
  document.body.appendChild(box);
  let events = several.length ? several : named ? [named] : null;

  function show(calls) {
    box.textContent = "";
    for (const c of calls) {
      const line = document.createElement("div");
      line.className = "desk-call";
      line.textContent = _t("Alternate {position}: {name}, to the desk", {position: c.position, name: c.name});
      box.appendChild(line);
    }
    box.style.display = calls.length ? "block" : "none";
  }

  async function poll() {
    if (!events) {
      const idx = await fetch("/p/events.json").then(r => r.json()).catch(() => null);
      events = idx ? idx.events.map(e => e.name) : [];
    }
    const calls = [];
    for (const ev of events) {
      const r = await fetch("/p/" + encodeURIComponent(ev) + "/reservations.json",
                            {cache: "no-store"}).catch(() => null);
      if (r && r.ok) calls.push(...(await r.json()).called);
    }
    show(calls);
  }
  poll();
  setInterval(poll, 3000);
})();
