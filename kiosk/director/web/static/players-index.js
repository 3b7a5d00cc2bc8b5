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
      state.textContent = e.finished ? _t("finished") : e.started
        ? _t("{left} of {entries} left", {left: e.players_left, entries: e.entries})
        : e.starts_at ? _t("starts {when}", {when: PP.when(e.starts_at, data.timezone)}) : _t("not started yet");
      li.append(a, state);
      if (!e.started && !e.finished && e.buy_in) {    // announced: what it costs
        const cost = document.createElement("span");
        cost.className = "pp-note pp-cost";
        cost.textContent = _t("Buy-in {amount}", {amount: PP.money(e.buy_in, data.currency)});
        li.append(cost);
      }
      return li;
    });
    if (!items.length) {
      const li = document.createElement("li"); li.className = "pp-note";
      li.textContent = _t("No events are running yet."); items.push(li);
    }
    list.replaceChildren(...items);
  }
  async function load() {
    try {
      const r = await fetch("/p/events.json");
      if (r.ok) { show(await r.json()); lastSeen = Date.now(); link.hidden = true; return; }
    } catch (e) { /* shown below */ }
    link.hidden = false;
    link.textContent = lastSeen ? _t("Connection lost: this list is from {n} s ago.", {n: Math.round((Date.now() - lastSeen) / 1000)})
      : _t("Cannot reach the tournament director.");
  }
  load();
  setInterval(load, 15000);
})();
