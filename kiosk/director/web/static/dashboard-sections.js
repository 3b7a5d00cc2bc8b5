// The event dashboard at festival size: past BIG tables, the tiles give way to a map of
// the event's tables by section (numbered chips under each section's name and ranges),
// and only the tiles that need the floor (a call, a halt) stay open, first; a chip, or a
// table number typed in the find box, opens that table's tile. Reads dashboard.js's
// tiles; changes none of its state.
"use strict";
(function () {
  const BIG = 60;
  let sections = [], opened = null;
  const tablesBox = document.getElementById("tables");
  const map = document.createElement("section");
  map.id = "dash-map"; map.setAttribute("aria-label", _t("tables by section")); map.hidden = true;
  tablesBox.insertBefore(map, tablesBox.firstChild);   // a full row of the tiles' grid

  const runs = nums => {
    const out = [];
    for (const n of [...nums].sort((a, b) => a - b)) {
      const last = out[out.length - 1];
      if (last && n === last[1] + 1) last[1] = n; else out.push([n, n]);
    }
    return out.map(([a, b]) => a === b ? String(a) : `${a}-${b}`).join(", ");
  };
  const state = v => v.floor_calls.length || v.clock_calls.length ? "call" : v.halted ? "breaking" : !v.online ? "offline" : "play";

  function draw() {
    const big = tiles.size > BIG;
    map.hidden = !big;
    tablesBox.classList.toggle("compact", big);
    if (!big) return;
    const nums = [...tiles.keys()], inSection = new Set();
    const rows = sections.map(s => ({name: s.name, tables: s.tables.filter(n => tiles.has(n))}))
      .filter(g => g.tables.length);
    rows.forEach(g => g.tables.forEach(n => inSection.add(n)));
    const rest = nums.filter(n => !inSection.has(n));
    if (rest.length) rows.push({name: rows.length ? _t("No section") : _t("Tables"), tables: rest});
    const need = nums.filter(n => state(tiles.get(n)) === "call").length;
    map.innerHTML = `<p class="muted">${esc(_t("{n} tables · {calling} calling · type a table number in the find box to open it", {n: nums.length, calling: need}))}</p>` +
      rows.map(g => `<div class="map-section"><h3>${esc(g.name)} <span class="muted">${esc(_t("tables {ranges}", {ranges: runs(g.tables)}))}</span></h3>
        <div class="chips">${g.tables.sort((a, b) => a - b).map(n => { const v = tiles.get(n);
          return `<button class="chip st-${state(v)}${opened === n ? " open" : ""}" data-dash-chip="${n}" title="${esc(_t("Table {table}", {table: n}))} · ${v.players}/${v.max_seats}">${n}</button>`; }).join("")}</div></div>`).join("");
    document.querySelectorAll("#tables > .tile").forEach(el => el.classList.toggle("shown", el.id === `t${opened}`));
  }

  function open(n) {
    if (!tiles.has(n)) return;
    opened = n; draw();
    const el = document.getElementById(`t${n}`);
    if (el) el.scrollIntoView({block: "nearest"});
  }

  document.addEventListener("click", ev => {
    const b = ev.target.closest("[data-dash-chip]"); if (b) open(Number(b.dataset.dashChip));
  });
  document.getElementById("find").addEventListener("input", ev => {
    const q = ev.target.value.trim();
    if (/^\d+$/.test(q)) open(Number(q));
  });

  async function loadSections() {
    const r = await fetch("/api/room/sections").then(res => res.json()).catch(() => null);
    if (r) sections = r.sections || [];
    draw();
  }
  loadSections();
  setInterval(loadSections, 10000);
  setInterval(draw, 1000);
})();
