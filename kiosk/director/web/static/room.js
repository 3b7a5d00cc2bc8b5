// The room page: every event, the table map of the pool, all calls, the tickets. Read-only
// before login; a control shows once the login's role may take its action (r.may, from
// the director, which checks every action again).
"use strict";
const $ = s => document.querySelector(s);
const {esc, toast, post} = PK;     // live.js: shared by the room page's other scripts
let room = null, user = null, role = null, may = new Set();
const can = kind => may.has(kind);
const WARN_S = 120, LATE_S = 300;

async function run(url, body, done) {
  const res = await post(url, body);
  toast(res.ok ? done : (res.error || _t("refused")), res.ok);
  load();
  return res;
}
const eventAct = (event, cmd, done) => run(PK.url("/api/act", event), cmd, done);
const roomAct = (cmd, done) => run("/api/room/act", cmd, done);

// what the floor may do with an event: the director sends only the actions its state
// allows (e.actions); those that end something ask first, in the card itself
const LABELS = {open: _t("Open"), start: _t("Start"), pause: _t("Pause"), resume: _t("Resume"),
                finished: _t("Finish"), archived: _t("Archive")};
const YES = {finished: _t("Yes, finish"), archived: _t("Yes, archive")};
const ASK = {
  finished: e => _t("Finish {title}? Play stops for good and its tables go back to the pool.", {title: e.title}),
  archived: e => _t("Archive {title}? It leaves this page.", {title: e.title}),
};
// the words the director sends as kinds and states, in the page's language: an event's
// state and a call's or a ticket's from the director's keys (event_state.open...)
const KINDS = {event: _t("event"), satellite: _t("satellite"), flight: _t("flight"), day2: _t("day 2")};
const kindWord = k => KINDS[k] || k;
const word = (group, w) => PK_I18N.say({key: `${group}.${w}`}, w === "paused" ? _t("paused") : w);
let asking = null;   // {event, what}: the confirm step open in one card

// the action an event card's button takes, for the role check
const NEEDS = {open: "set_event_state", start: "start", pause: "clock", resume: "clock",
               finished: "set_event_state", archived: "set_event_state"};

function eventActs(e) {
  const acts = (e.actions || []).filter(a => can(NEEDS[a]));
  if (asking && asking.event === e.event) {
    return `<div class="acts ask" role="group" aria-label="${esc(_t("confirm"))}">
      <span class="question">${esc(ASK[asking.what](e))}</span>
      <button class="small danger" data-event="${esc(e.event)}" data-confirm="${asking.what}">${esc(YES[asking.what])}</button>
      <button class="small" data-keep="${esc(e.event)}">${esc(_t("Cancel"))}</button></div>`;
  }
  if (!acts.length) return "";
  return `<div class="acts">${acts.map(a => `<button class="small${ASK[a] ? " warn" : ""}" data-event="${esc(e.event)}" data-do="${a}">${esc(LABELS[a])}</button>`).join("")}</div>`;
}

// table numbers as runs: "1-60, 75"
function tableRanges(nums) {
  const runs = [];
  for (const n of [...nums].sort((a, b) => a - b)) {
    const last = runs[runs.length - 1];
    if (last && n === last[1] + 1) last[1] = n; else runs.push([n, n]);
  }
  return runs.map(([a, b]) => a === b ? String(a) : `${a}-${b}`).join(", ");
}

const titleOf = name => (room.events.find(e => e.event === name) || {}).title || name;

// an event's state as the floor reads it: a running event whose clock is stopped is paused
const stateOf = e => e.state === "running" && e.paused && !e.finished ? "paused" : e.state;

function eventCard(e) {
  const level = e.finished ? _t("Winner: {name}", {name: e.winner || "-"}) : e.started
    ? `${e.is_break ? _t("Break") : _t("Level {level}", {level: e.level})} · ${PK.blinds(e.sb, e.bb, e.blinds)}` : _t("not started");
  const st = stateOf(e);
  return `<div class="ev" id="ev-${esc(e.event)}">
    <h3><a href="/event/${encodeURIComponent(e.event)}">${esc(e.title)}</a>
      <span class="tag">${esc(kindWord(e.kind))}</span><span class="tag st-${esc(st)}">${esc(word("event_state", st))}</span></h3>
    <div class="facts"><span>${esc(e.started ? _t("{left} left of {entries}", {left: e.players_left, entries: e.entries}) : _t("{n} registered", {n: e.entries ?? 0}))}</span>
      <span>${esc(level)}</span><span class="clock">${e.started && !e.finished ? esc(e.clock) + (e.paused ? " " + esc(_t("(clock stopped)")) : "") : ""}</span>
      ${e.started ? `<a href="/results?event=${encodeURIComponent(e.event)}">${esc(_t("Results"))}</a>` : ""}</div>
    ${PK.countLines(e.chip_count).map(c => `<div class="count">${esc(c)}</div>`).join("")}
    <div class="muted">${esc(e.tables.length ? _tn("table {tables}", "tables {tables}", e.tables.length, {tables: tableRanges(e.tables)}) : _t("no tables"))}${e.target ? " · " + esc(_t("seats to {event}", {event: titleOf(e.target)})) : ""}${e.flights.length ? " · " + esc(_t("from {flights}", {flights: e.flights.join(", ")})) : ""}</div>
    ${eventActs(e)}</div>`;
}

function tableTile(t) {
  const live = room.events.filter(e => !["finished", "archived"].includes(e.state));
  const calls = (t.floor_calls ? `<span class="tag break">${esc(_t("floor {n}", {n: t.floor_calls}))}</span>` : "") +
                (t.clock_calls ? `<span class="tag final">${esc(_t("clock {n}", {n: t.clock_calls}))}</span>` : "");
  const body = t.event
    ? `<div class="what">${esc(t.title)}</div><div class="muted">${esc(_t("{players}/{seats} seated", {players: t.players, seats: t.seats}))}</div>
       ${t.players === 0 && room.pool && can("free_table") ? `<button class="small" data-free="${t.table}">${esc(_t("Free"))}</button>` : ""}`
    : `<div class="what muted">${esc(_t("free"))}</div>${room.pool && live.length && can("assign_table") ? `<span class="row"><select data-for="${t.table}" aria-label="${esc(_t("event for table {table}", {table: t.table}))}">
         ${live.map(e => `<option value="${esc(e.event)}">${esc(e.title)}</option>`).join("")}</select>
         <button class="small" data-assign="${t.table}">${esc(_t("Assign"))}</button></span>` : ""}`;
  return `<div class="tile tbl${t.event ? "" : " free"}${t.floor_calls ? " call" : ""}${opened === t.table ? " found" : ""}" id="tbl-${t.table}">
    <h3><span class="dot${t.online ? " on" : ""}" title="${esc(t.online ? _t("online") : _t("offline"))}"></span>${esc(_t("Table {table}", {table: t.table}))}
      ${t.breaking ? `<span class="tag break">${esc(_t("BREAKING"))}</span>` : ""}${t.race_pending ? `<span class="tag race">${esc(_t("race pending"))}</span>` : ""}${calls}</h3>${body}</div>`;
}

function callItem(c) {
  const title = (room.events.find(e => e.event === c.event) || {}).title || c.event;
  const btn = c.type === "floor"
    ? (c.state === "open" && can("floor_ack") ? `<button class="small ok" data-event="${esc(c.event)}" data-ack="${esc(c.call)}">${esc(_t("On my way"))}</button>` : "")
    : (c.state === "requested" && can("clock_approve") ? `<button class="small ok" data-event="${esc(c.event)}" data-approve="${esc(c.call)}">${esc(_t("Approve"))}</button>` : "");
  return `<li data-since="${esc(c.since)}" data-table="${esc(c.table)}" data-to="${esc(c.to)}" data-call="${esc(c.call)}"><span class="grow"><b>${esc(c.type === "floor" ? _t("Floor") : _t("Clock"))}</b>
    ${esc(title)} · ${esc(c.seat ? _t("table {table} seat {seat}", {table: c.table, seat: c.seat}) : _t("table {table}", {table: c.table}))}${c.section ? ` · ${esc(c.section)}` : ""} · <span class="wait"></span> · ${esc(word("call_state", c.state))}${c.by ? ` · <span class="taken">${esc(c.type === "floor" ? _t("on my way: {name}", {name: c.by}) : _t("by: {name}", {name: c.by}))}</span>` : ""}${c.late ? ` <span class="tag late-call">${esc(_t("LATE"))}</span>` : ""}</span>${btn}</li>`;
}

function ticketItem(t) {
  const acts = t.state !== "held" ? "" :
    (can("return_ticket") ? `<button class="small" data-return="${esc(t.ticket)}">${esc(_t("Return"))}</button>` : "") +
    (can("refund_ticket") ? `<button class="small warn" data-refund="${esc(t.ticket)}">${esc(_t("Refund"))}</button>` : "");
  return `<li><span class="grow"><b>${esc(t.name)}</b> → ${esc(titleOf(t.target))} · ${PK.money(t.value)}
    <span class="tag tk-${esc(t.state)}">${esc(word("ticket_state", t.state))}</span>${t.note ? ` <span class="muted">${esc(t.note)}</span>` : ""}</span>${acts}</li>`;
}

function render(r) {
  room = r;
  $("#new-event-box").hidden = !can("add_event");
  // a confirm step the event no longer allows (changed meanwhile) is dropped, not kept
  if (asking && !r.events.some(e => e.event === asking.event && (e.actions || []).includes(asking.what))) asking = null;
  document.title = `${r.title} - poker-kiosk`;
  $("#room").textContent = r.title;
  const running = r.events.filter(e => stateOf(e) === "running").length;
  $("#counts").textContent = [_tn("{n} event", "{n} events", r.events.filter(e => e.state !== "archived").length),
    _t("{n} running", {n: running}), _t("{free} of {all} tables free", {free: r.free_tables.length, all: r.tables.length})].join(" · ");
  const shown = r.events.filter(e => e.state !== "archived");
  $("#events").innerHTML = shown.map(eventCard).join("") || `<p class="muted">${esc(_t("No event yet: create one."))}</p>`;
  // the room's languages on the TV, one after the other (docs/floor.md: ?langs=&show=turn)
  const langs = room.languages || [];
  $("#tv-link").href = "/clock?events=" + shown.filter(e => e.state === "running").slice(0, 4).map(e => e.event).join(",") +
    (langs.length > 1 ? "&langs=" + langs.join(",") + "&show=turn" : "");
  // keep an open select's choice across a refresh
  const chosen = {}; document.querySelectorAll("#map select").forEach(s => { chosen[s.dataset.for] = s.value; });
  $("#map").innerHTML = typeof bigMap === "function" ? bigMap(r) : r.tables.map(tableTile).join("");
  document.querySelectorAll("#map select").forEach(s => { if (chosen[s.dataset.for]) s.value = chosen[s.dataset.for]; });
  $("#calls").innerHTML = r.calls.map(callItem).join("") || `<li class="muted">${esc(_t("No calls"))}</li>`;
  $("#ncalls").textContent = r.calls.length || "";
  $("#tickets").innerHTML = r.tickets.map(ticketItem).join("") || `<li class="muted">${esc(_t("No tickets"))}</li>`;
  $("#nheld").textContent = r.tickets.filter(t => t.state === "held").length || "";
  tickWaits();
}

function tickWaits() {
  document.querySelectorAll("[data-since]").forEach(el => {
    const age = Date.now() / 1000 - Number(el.dataset.since);
    const w = el.querySelector(".wait"); if (w) w.textContent = PK.fmt(age);
    el.classList.toggle("warn", age >= WARN_S && age < LATE_S); el.classList.toggle("late", age >= LATE_S);
  });
}

function setUser(u, token, r, allowed) {
  user = u; PK.csrf = u ? token : null; role = u ? r : null; may = new Set(u ? allowed || [] : []);
  $("#login").hidden = !!u; $("#me").hidden = !u;
  $("#user").textContent = u || ""; $("#role").textContent = PK.roleName(role);
  document.dispatchEvent(new Event("pk-login"));     // the dealers' board, and others
}

async function load() {
  let r;
  try { r = await fetch("/api/room").then(res => res.json()); }
  catch (e) { toast(_t("Cannot reach the director, retrying…"), false); return; }
  if (r.user !== undefined && (user === null) !== (r.user === null)) setUser(r.user, r.csrf, r.role, r.may);
  else if (r.user) may = new Set(r.may || []);    // a role changed in floor-users.toml
  render(r);
  if (typeof showUpdates === "function") showUpdates();
}

const DONE = {open: "open", finished: "finished", archived: "archived"};
async function doEvent(event, what) {
  const title = titleOf(event);
  if (what === "start") return eventAct(event, {kind: "start"}, _t("Started {title}", {title}));
  if (what === "pause") return eventAct(event, {kind: "clock", action: what}, _t("Clock paused: {title}", {title}));
  if (what === "resume") return eventAct(event, {kind: "clock", action: what}, _t("Clock resumed: {title}", {title}));
  return roomAct({kind: "set_event_state", event, state: what}, _t("{title} is {state}", {title, state: word("event_state", DONE[what] || what)}));
}

function ask(step) {
  asking = step;
  render(room);
  if (step) { const b = document.querySelector(`#ev-${CSS.escape(step.event)} [data-confirm]`); if (b) b.focus(); }
}

document.addEventListener("click", async ev => {
  const b = ev.target.closest("button"); if (!b) return;
  const d = b.dataset;
  if (d.do) { if (ASK[d.do]) ask({event: d.event, what: d.do}); else doEvent(d.event, d.do); }
  else if (d.confirm) { ask(null); doEvent(d.event, d.confirm); }
  else if (d.keep) ask(null);
  else if (d.assign) {
    const event = document.querySelector(`select[data-for="${d.assign}"]`).value;
    roomAct({kind: "assign_table", table: Number(d.assign), event}, _t("Table {table} → {event}", {table: d.assign, event: titleOf(event)}));
  } else if (d.free) roomAct({kind: "free_table", table: Number(d.free)}, _t("Table {table} is free", {table: d.free}));
  else if (d.ack) eventAct(d.event, {kind: "floor_ack", call: d.ack}, _t("On my way: {name}", {name: titleOf(d.event)}));
  else if (d.approve) eventAct(d.event, {kind: "clock_approve", call: d.approve}, _t("Clock approved: {event}", {event: titleOf(d.event)}));
  else if (d.return) {
    const note = prompt(_t("Why is the ticket given back?"), ""); if (note === null) return;
    roomAct({kind: "return_ticket", ticket: d.return, note}, _t("Ticket returned"));
  } else if (d.refund) {
    const note = prompt(_t("Refund note (paid in cash to the player)"), ""); if (note === null) return;
    roomAct({kind: "refund_ticket", ticket: d.refund, note}, _t("Ticket refunded"));
  } else if (b.id === "logout") { await post("/api/logout", {}); setUser(null); load(); }
});

document.addEventListener("keydown", ev => { if (ev.key === "Escape" && asking) ask(null); });

$("#login").addEventListener("submit", async ev => {
  ev.preventDefault();
  const f = ev.target, res = await post("/api/login", {user: f.user.value, password: f.password.value});
  if (res.ok) {
    if (PK.relang(res)) return;
    setUser(res.user, res.csrf, res.role, res.may); load();
    toast(_t("Logged in as {user} ({role})", {user: res.user, role: PK.roleName(res.role)}), true);
  }
  else toast(res.error, false);
});

$("#new-event").addEventListener("submit", async ev => {
  ev.preventDefault();
  const f = ev.target, spec = {name: f.name.value.trim(), kind: f.kind.value, structure: f.structure.value.trim() || "turbo"};
  if (f.title.value.trim()) spec.title = f.title.value.trim();
  const link = f.target.value.trim();
  if (link && spec.kind === "day2") spec.flights = link.split(/[\s,]+/).filter(Boolean);
  else if (link) spec.target = link;
  if (f.buy_in.value) spec.buy_in = Number(f.buy_in.value);
  if (f.tables.value) spec.tables = Number(f.tables.value);
  if (f.scheduled.checked) spec.scheduled = true;
  const res = await run("/api/room/events", spec, _t("Event {name} created", {name: spec.name}));
  if (res.ok) f.reset();
});

load();
setInterval(load, 2000);
setInterval(tickWaits, 1000);

PK.watchHealth(5000);
