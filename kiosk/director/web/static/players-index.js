// The room's events, for a player to pick one; refreshed every 15 s.
"use strict";
(() => {
  const list = document.querySelector("#events");
  const link = document.querySelector("#link");
  let lastSeen = 0;
  function show(data) {
    document.querySelector("#title").textContent = data.room;
    const items = data.events.map(e => {
      const li = document.createElement("li");
      const a = document.createElement("a");
      a.href = e.url;
      a.textContent = e.title;
      const state = document.createElement("span");
      state.className = "pp-note";
      state.textContent = e.finished ? "finished" : !e.started ? "not started yet"
        : `${e.players_left.toLocaleString("en")} of ${e.entries.toLocaleString("en")} left`;
      li.append(a, state);
      return li;
    });
    if (!items.length) {
      const li = document.createElement("li"); li.className = "pp-note";
      li.textContent = "No events are running yet."; items.push(li);
    }
    list.replaceChildren(...items);
  }
  async function load() {
    try {
      const r = await fetch("/p/events.json");
      if (r.ok) { show(await r.json()); lastSeen = Date.now(); link.hidden = true; return; }
    } catch (e) { /* shown below */ }
    link.hidden = false;
    link.textContent = lastSeen ? `Connection lost: this list is from ${Math.round((Date.now() - lastSeen) / 1000)} s ago.` : "Cannot reach the tournament director.";
  }
  load();
  setInterval(load, 15000);
})();
