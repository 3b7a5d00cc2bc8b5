// The room's table map at festival size: past BIG tables (or once the room has
// sections) the map is what needs the floor first, as full tiles, then each section as a
// row of small numbered chips (free, playing, a call, breaking, offline) under its
// name and ranges; a chip opens its table's tile. The find box takes a table number or
// a few letters of a player's name. Loaded before room.js, whose render calls bigMap.
"use strict";
const BIG = 60;
let opened = null;   // the table whose tile is open from a chip or the find box

function chipState(t) {
  if (t.floor_calls || t.clock_calls) return "call";
  if (t.breaking || t.race_pending) return "breaking";
  if (t.event && !t.online) return "offline";
  return t.event ? "play" : "free";
}

function needsFloor(t) { return ["call", "breaking", "offline"].includes(chipState(t)); }

function chip(t) {
  const st = chipState(t);
  return `<button class="chip st-${st}${opened === t.table ? " open" : ""}" data-chip="${t.table}" title="Table ${t.table}${t.event ? ` · ${esc(t.title)} · ${t.players}/${t.seats}` : " · free"}">${t.table}</button>`;
}

function bigMap(r) {
  const groups = typeof sections !== "undefined" ? sections : [];
  if (r.tables.length <= BIG && !groups.length) return r.tables.map(tableTile).join("");
  const byNo = new Map(r.tables.map(t => [t.table, t]));
  const need = r.tables.filter(needsFloor).sort((a, b) => chipState(a) === "call" ? -1 : chipState(b) === "call" ? 1 : a.table - b.table);
  const mine = typeof mySection === "function" ? mySection() : "";
  const shown = need.filter(t => !mine || sectionOf[t.table] === mine);
  const open = opened && byNo.get(opened);
  let html = `<div class="map-need" aria-label="needs the floor"><h3>Needs the floor <span class="badge">${shown.length || ""}</span></h3>
    <div class="need-tiles">${open ? tableTile(open) : ""}${shown.filter(t => t !== open).slice(0, 12).map(tableTile).join("") || (open ? "" : '<p class="muted">All quiet</p>')}</div></div>`;
  const seen = new Set();
  const rows = groups.map(s => ({name: s.name, ranges: s.ranges, tables: s.tables.filter(n => byNo.has(n))}));
  rows.forEach(g => g.tables.forEach(n => seen.add(n)));
  const rest = r.tables.map(t => t.table).filter(n => !seen.has(n));
  if (rest.length) rows.push({name: groups.length ? "No section" : "Tables", ranges: tableRanges(rest), tables: rest});
  html += rows.map(g => {
    const ts = g.tables.map(n => byNo.get(n));
    const calls = ts.filter(t => chipState(t) === "call").length, playing = ts.filter(t => t.event).length;
    return `<div class="map-section${mine && g.name !== mine ? " other" : ""}" data-map-section="${esc(g.name)}">
      <h3>${esc(g.name)} <span class="muted">tables ${esc(g.ranges)} · ${playing} playing · ${ts.length - playing} free</span>${calls ? ` <span class="tag break">${calls} calling</span>` : ""}</h3>
      <div class="chips">${ts.map(chip).join("")}</div></div>`;
  }).join("");
  return html;
}

function openTable(n) {
  opened = n;
  render(room);
  const el = document.getElementById(`tbl-${n}`);
  if (el) el.scrollIntoView({block: "nearest"});
}

document.addEventListener("click", ev => {
  const b = ev.target.closest("[data-chip], [data-found]"); if (!b) return;
  openTable(Number(b.dataset.chip || b.dataset.found));
});

let roomFindTimer;
document.getElementById("room-find").addEventListener("input", ev => {
  clearTimeout(roomFindTimer);
  const q = ev.target.value.trim(), list = document.getElementById("room-found");
  if (/^\d+$/.test(q)) {
    list.hidden = true;
    if (room && room.tables.some(t => t.table === Number(q))) openTable(Number(q));
    return;
  }
  if (q.length < 2) { list.hidden = true; return; }
  roomFindTimer = setTimeout(async () => {
    const r = await fetch("/api/room/find?q=" + encodeURIComponent(q)).then(res => res.json()).catch(() => ({players: []}));
    list.innerHTML = r.players.map(p => `<li><span class="grow"><b>${esc(p.name)}</b> ${esc(p.event_title)} · ${p.table ? `table ${esc(p.table)} seat ${esc(p.seat)}` : esc(p.status)}</span>${p.table ? `<button class="small" data-found="${esc(p.table)}">Table ${esc(p.table)}</button>` : ""}</li>`).join("") || '<li class="muted">Nobody found</li>';
    list.hidden = false;
  }, 150);
});
