// A league's standings on a phone: rank, name, points, events; a tap on a line shows
// that player's places and points per event. Every name is set as text, never as HTML;
// every word in the reader's language, numbers as the language writes them.
"use strict";
(function () {
  const name = document.body.dataset.league;
  const body = document.querySelector("#standings tbody");
  const num = n => new Intl.NumberFormat(PK_I18N.tag(PK_I18N.code === "en_XA" ? "en" : PK_I18N.code),
    {minimumFractionDigits: 2, maximumFractionDigits: 2}).format(n);
  const ord = n => PK_I18N.place(n);

  function cell(tr, text, cls) {
    const td = document.createElement("td");
    td.textContent = text;
    if (cls) td.className = cls;
    tr.appendChild(td);
    return td;
  }

  function show(data) {
    document.getElementById("formula").textContent = data.best
      ? _tn("Points: {formula} - the best result counts", "Points: {formula} - the best {n} results count",
            data.best, {formula: data.points})
      : _t("Points: {formula}", {formula: data.points});
    // the league's one tie rule (kiosk.core.season.leagues.TIE_RULE), in the reader's words
    document.getElementById("ties").textContent = _t(
      "Ties: more points; then the better finishes (best place first, then the next best, ...); then more events counted; then the name.");
    body.textContent = "";
    for (const line of data.standings) {
      const tr = document.createElement("tr");
      cell(tr, line.rank, "rank");
      const who = cell(tr, line.name);
      const detail = document.createElement("div");
      detail.className = "pp-note";
      detail.textContent = line.results.map(r => r.counted
        ? _t("{event}: {place}, {points}", {event: r.event, place: ord(r.place), points: num(r.points)})
        : _t("{event}: {place}, {points} (not counted)", {event: r.event, place: ord(r.place), points: num(r.points)})
      ).join(" - ");
      who.appendChild(detail);
      cell(tr, num(line.points), "num");
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
