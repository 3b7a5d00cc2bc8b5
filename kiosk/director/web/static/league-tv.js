// The TV clock as a league's table: /clock?league=NAME shows the top of the standings,
// read again every 15 seconds, in place of the clock, in the room's languages the address
// names as the clock does (static/tv-langs.js: `langs`, `show=side|turn`).
"use strict";
(function () {
  const name = new URLSearchParams(location.search).get("league");
  if (!name) return;
  const TOP = 12;
  const main = document.createElement("main");
  main.id = "league-tv";
  // a block of its own over the whole screen (not the dashboard's two-column main)
  main.style.cssText = "position:fixed;inset:0;z-index:40;background:#0d1117;color:#eee;" +
    "display:block;padding:3vh 4vw;font-size:3.6vh;overflow:hidden";
  const h = document.createElement("h1");
  h.style.cssText = "margin:0 0 2vh;font-size:6vh";
  const table = document.createElement("table");
  table.style.cssText = "width:100%;border-collapse:collapse";
  const empty = document.createElement("p");
  empty.id = "league-empty";
  empty.style.cssText = "color:#999;margin:4vh 0";
  PK_TV.text(empty, c => _t("No results yet: the points come as the league's events finish.", null, c));
  const num = n => new Intl.NumberFormat(PK_I18N.tag(PK_TV.code === "en_XA" ? "en" : PK_TV.code),
    {minimumFractionDigits: 2, maximumFractionDigits: 2}).format(n);
  let last = null;
  empty.hidden = true;
  main.append(h, table, empty);
  document.body.appendChild(main);

  // a row of texts; a heading's cell may be said in the languages shown (a function)
  function row(cells, head) {
    const tr = document.createElement("tr");
    cells.forEach((text, i) => {
      const td = document.createElement(head ? "th" : "td");
      if (typeof text === "function") PK_TV.text(td, text); else td.textContent = text;
      td.style.cssText = "padding:.5vh 1vw;border-bottom:1px solid #333;text-align:" +
        (i === 1 ? "left" : "right") + (head ? ";color:#999" : "");
      tr.appendChild(td);
    });
    return tr;
  }

  function show(d) {
    last = d;
    h.textContent = d.title;
    table.textContent = "";
    table.appendChild(row(["#", c => _t("Player", null, c), c => _t("Points", null, c),
                           c => _t("Events", null, c)], true));
    for (const l of d.standings)
      table.appendChild(row([l.rank, l.name, num(l.points), l.counted + "/" + l.events]));
    empty.hidden = d.standings.length > 0;
    table.hidden = !empty.hidden;
  }

  function load() {
    fetch("/p/league/" + encodeURIComponent(name) + ".json?top=" + TOP, {cache: "no-store"})
      .then(r => r.ok ? r.json() : r.json().then(b => { h.textContent = b.error; }))
      .then(d => { if (d && d.standings) show(d); }).catch(() => {});
  }
  PK_TV.onTurn(() => {
    PK_TV.text(empty, c => _t("No results yet: the points come as the league's events finish.", null, c));
    if (last) show(last);
  });
  load();
  setInterval(load, 15000);
})();
