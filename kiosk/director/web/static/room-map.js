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

// a player's status as the director names it, in the page's language
function playerStatus(s) {
  const words = {busted: _t("busted"), moving: _t("moving"), waiting: _t("waiting"), seated: _t("seated"),
                 registered: _t("registered"), sitting_out: _t("sitting out")};
  return words[s] || s;
}

function needsFloor(t) { return ["call", "breaking", "offline"].includes(chipState(t)); }

function chip(t) {
  const st = chipState(t);
  return `<button class="chip st-${st}${opened === t.table ? " open" : ""}" data-chip="${t.table}" title="${esc(_t("Table {table}", {table: t.table}))}${t.event ? ` · ${esc(t.title)} · ${t.players}/${t.seats}` : " · " + esc(_t("free"))}">${t.table}</button>`;
}

function bigMap(r) {
  const groups = typeof sections !== "undefined" ? sections : [];
  if (r.tables.length <= BIG && !groups.length) return r.tables.map(tableTile).join("");
  const byNo = new Map(r.tables.map(t => [t.table, t]));
  const need = r.tables.filter(needsFloor).sort((a, b) => chipState(a) === "call" ? -1 : chipState(b) === "call" ? 1 : a.table - b.table);
  const mine = typeof mySection === "function" ? mySection() : "";
  const shown = need.filter(t => !mine || sectionOf[t.table] === mine);
  const open = opened && byNo.get(opened);
  let html = `<div class="map-need" aria-label="${esc(_t("needs the floor"))}"><h3>${esc(_t("Needs the floor"))} <span class="badge">${shown.length || ""}</span></h3>
    <div class="need-tiles">${open ? tableTile(open) : ""}${shown.filter(t => t !== open).slice(0, 12).map(tableTile).join("") || (open ? "" : `<p class="muted">${esc(_t("All quiet"))}</p>`)}</div></div>`;
  const seen = new Set();
  const rows = groups.map(s => ({name: s.name, ranges: s.ranges, tables: s.tables.filter(n => byNo.has(n))}));
  rows.forEach(g => g.tables.forEach(n => seen.add(n)));
  const rest = r.tables.map(t => t.table).filter(n => !seen.has(n));
  if (rest.length) rows.push({name: groups.length ? _t("No section") : _t("Tables"), ranges: tableRanges(rest), tables: rest});
  html += rows.map(g => {
    const ts = g.tables.map(n => byNo.get(n));
    const calls = ts.filter(t => chipState(t) === "call").length, playing = ts.filter(t => t.event).length;
    return `<div class="map-section${mine && g.name !== mine ? " other" : ""}" data-map-section="${esc(g.name)}">
      <h3>${esc(g.name)} <span class="muted">${esc(_t("tables {ranges} · {playing} playing · {free} free", {ranges: g.ranges, playing, free: ts.length - playing}))}</span>${calls ? ` <span class="tag break">${esc(_t("{n} calling", {n: calls}))}</span>` : ""}</h3>
      <div class="chips">${ts.map(chip).join("")}</div></div>`;
  }).join("");
  return html;
}

// a table from a chip, the find box or a found player's button: its tile opened (at
// festival size), outlined and brought into view, and a line that says what it holds
function openTable(n) {
  opened = n;
  render(room);
  const el = document.getElementById(`tbl-${n}`);
  if (el) el.scrollIntoView({block: "center"});
}

function sayTable(n) {
  const t = room && room.tables.find(x => x.table === n), list = document.getElementById("room-found");
  list.innerHTML = t ? `<li><span class="grow"><b>${esc(_t("Table {table}", {table: n}))}</b> ${t.event ? `${esc(t.title)} · ${esc(_t("{players}/{seats} seated", {players: t.players, seats: t.seats}))}` : esc(_t("free"))}</span></li>`
    : `<li class="muted">${esc(room ? _t("No table {table} in this room (tables {ranges})", {table: n, ranges: tableRanges(room.tables.map(x => x.table))}) : _t("No table {table} in this room", {table: n}))}</li>`;
  list.hidden = false;
  if (t) openTable(n);
}

document.addEventListener("click", ev => {
  const b = ev.target.closest("[data-chip], [data-found]"); if (!b) return;
  openTable(Number(b.dataset.chip || b.dataset.found));
});

let roomFindTimer;
document.getElementById("room-find").addEventListener("input", ev => {
  clearTimeout(roomFindTimer);
  const q = ev.target.value.trim(), list = document.getElementById("room-found");
  if (/^\d+$/.test(q)) { sayTable(Number(q)); return; }
  if (!q && opened !== null) { opened = null; if (room) render(room); }
  if (q.length < 2) { list.hidden = true; return; }
  roomFindTimer = setTimeout(async () => {
    const r = await fetch("/api/room/find?q=" + encodeURIComponent(q)).then(res => res.json()).catch(() => ({players: []}));
    list.innerHTML = r.players.map(p => `<li><span class="grow"><b>${esc(p.name)}</b> ${esc(p.event_title)} · ${esc(p.table ? _t("table {table} seat {seat}", {table: p.table, seat: p.seat}) : playerStatus(p.status))}</span>${p.table ? `<button class="small" data-found="${esc(p.table)}">${esc(_t("Table {table}", {table: p.table}))}</button>` : ""}</li>`).join("") || `<li class="muted">${esc(_t("Nobody found"))}</li>`;
    list.hidden = false;
  }, 150);
});
