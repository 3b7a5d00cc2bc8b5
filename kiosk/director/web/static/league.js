// A league's standings on a phone: rank, name, points, events; a tap on a line shows
// that player's places and points per event. Every name is set as text, never as HTML.
"use strict";
(function () {
  const name = document.body.dataset.league;
  const body = document.querySelector("#standings tbody");

  function cell(tr, text, cls) {
    const td = document.createElement("td");
    td.textContent = text;
    if (cls) td.className = cls;
    tr.appendChild(td);
    return td;
  }

  function show(data) {
    document.getElementById("formula").textContent =
      "Points: " + data.points + (data.best ? " - best " + data.best + " results count" : "");
    document.getElementById("ties").textContent = "Ties: " + data.tie_rule + ".";
    body.textContent = "";
    for (const line of data.standings) {
      const tr = document.createElement("tr");
      cell(tr, line.rank, "rank");
      const who = cell(tr, line.name);
      const detail = document.createElement("div");
      detail.className = "pp-note";
      detail.textContent = line.results.map(r =>
        r.event + ": " + r.place + (r.place === 1 ? "st" : r.place === 2 ? "nd" :
        r.place === 3 ? "rd" : "th") + ", " + r.points + (r.counted ? "" : " (not counted)")
      ).join(" - ");
      who.appendChild(detail);
      cell(tr, line.points.toFixed(2), "num");
      cell(tr, line.counted + "/" + line.events, "num");
      body.appendChild(tr);
    }
    const empty = document.getElementById("empty");
    empty.hidden = data.standings.length > 0;
    document.getElementById("standings").hidden = !empty.hidden;
  }

  function load() {
    fetch("/p/league/" + encodeURIComponent(name) + ".json", {cache: "no-store"})
      .then(r => r.ok ? r.json() : null).then(d => { if (d) show(d); })
      .catch(() => {});
  }
  load();
  setInterval(load, 30000);
})();
