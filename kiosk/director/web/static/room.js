// The room page: every event, the table map of the pool, all calls, the tickets. Read-only
// before login; a control shows once the login's role may take its action (r.may, from
// the director, which checks every action again).
"use strict";
const $ = s => document.querySelector(s);
let room = null, user = null, csrf = null, role = null, may = new Set();
const can = kind => may.has(kind);
const WARN_S = 120, LATE_S = 300;

function esc(s) { return String(s ?? "").replace(/[&<>"']/g, c => ({"&":"&amp;","<":"&lt;",">":"&gt;",'"':"&quot;","'":"&#39;"}[c])); }
function toast(text, ok) {
  const el = $("#toast"); el.textContent = text; el.className = ok ? "ok" : "error";
  clearTimeout(toast.t); toast.t = setTimeout(() => { el.textContent = ""; }, 6000);
}
async function post(url, body) {
  const headers = {"Content-Type": "application/json"};
  if (csrf) headers["X-CSRF-Token"] = csrf;
  const r = await fetch(url, {method: "POST", headers, body: JSON.stringify(body)});
  let data = {};
  try { data = await r.json(); } catch (e) { data = {ok: false, error: `HTTP ${r.status}`}; }
  return {status: r.status, ...data};
}
async function run(url, body, done) {
  const res = await post(url, body);
  toast(res.ok ? done : (res.error || "refused"), res.ok);
  load();
  return res;
}
const eventAct = (event, cmd, done) => run(PK.url("/api/act", event), cmd, done);
const roomAct = (cmd, done) => run("/api/room/act", cmd, done);

// what the floor may do with an event: the director sends only the actions its state
// allows (e.actions); those that end something ask first, in the card itself
const LABELS = {open: "Open", start: "Start", pause: "Pause", resume: "Resume",
                finished: "Finish", archived: "Archive"};
const ASK = {
  finished: e => `Finish ${e.title}? Play stops for good and its tables go back to the pool.`,
  archived: e => `Archive ${e.title}? It leaves this page.`,
};
let asking = null;   // {event, what}: the confirm step open in one card

// the action an event card's button takes, for the role check
const NEEDS = {open: "set_event_state", start: "start", pause: "clock", resume: "clock",
               finished: "set_event_state", archived: "set_event_state"};

function eventActs(e) {
  const acts = (e.actions || []).filter(a => can(NEEDS[a]));
  if (asking && asking.event === e.event) {
    return `<div class="acts ask" role="group" aria-label="confirm">
      <span class="question">${esc(ASK[asking.what](e))}</span>
      <button class="small danger" data-event="${esc(e.event)}" data-confirm="${asking.what}">Yes, ${LABELS[asking.what].toLowerCase()}</button>
      <button class="small" data-keep="${esc(e.event)}">Cancel</button></div>`;
  }
  if (!acts.length) return "";
  return `<div class="acts">${acts.map(a => `<button class="small${ASK[a] ? " warn" : ""}" data-event="${esc(e.event)}" data-do="${a}">${LABELS[a]}</button>`).join("")}</div>`;
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

function eventCard(e) {
  const level = e.finished ? `Winner: ${e.winner || "-"}` : e.started
    ? `${e.is_break ? "Break" : `Level ${e.level}`} · ${e.blinds || ""}` : "not started";
  return `<div class="ev" id="ev-${esc(e.event)}">
    <h3><a href="/event/${encodeURIComponent(e.event)}">${esc(e.title)}</a>
      <span class="tag">${esc(e.kind)}</span><span class="tag st-${esc(e.state)}">${esc(e.state)}</span></h3>
    <div class="facts"><span>${e.started ? `${e.players_left} left of ${e.entries}` : `${e.entries ?? 0} registered`}</span>
      <span>${esc(level)}</span><span class="clock">${e.started && !e.finished ? esc(e.clock) + (e.paused ? " ⏸" : "") : ""}</span></div>
    ${PK.countLines(e.chip_count).map(c => `<div class="count">${esc(c)}</div>`).join("")}
    <div class="muted">${e.tables.length ? `${e.tables.length > 1 ? "tables" : "table"} ${esc(tableRanges(e.tables))}` : "no tables"}${e.target ? ` · seats to ${esc(titleOf(e.target))}` : ""}${e.flights.length ? ` · from ${e.flights.map(esc).join(", ")}` : ""}</div>
    ${eventActs(e)}</div>`;
}

function tableTile(t) {
  const live = room.events.filter(e => !["finished", "archived"].includes(e.state));
  const calls = (t.floor_calls ? `<span class="tag break">floor ${t.floor_calls}</span>` : "") +
                (t.clock_calls ? `<span class="tag final">clock ${t.clock_calls}</span>` : "");
  const body = t.event
    ? `<div class="what">${esc(t.title)}</div><div class="muted">${t.players}/${t.seats} seated</div>
       ${t.players === 0 && room.pool && can("free_table") ? `<button class="small" data-free="${t.table}">Free</button>` : ""}`
    : `<div class="what muted">free</div>${room.pool && live.length && can("assign_table") ? `<span class="row"><select data-for="${t.table}" aria-label="event for table ${t.table}">
         ${live.map(e => `<option value="${esc(e.event)}">${esc(e.title)}</option>`).join("")}</select>
         <button class="small" data-assign="${t.table}">Assign</button></span>` : ""}`;
  return `<div class="tile tbl${t.event ? "" : " free"}${t.floor_calls ? " call" : ""}" id="tbl-${t.table}">
    <h3><span class="dot${t.online ? " on" : ""}" title="${t.online ? "online" : "offline"}"></span>Table ${t.table}
      ${t.breaking ? '<span class="tag break">BREAKING</span>' : ""}${t.race_pending ? '<span class="tag race">race pending</span>' : ""}${calls}</h3>${body}</div>`;
}

function callItem(c) {
  const title = (room.events.find(e => e.event === c.event) || {}).title || c.event;
  const btn = c.type === "floor"
    ? (c.state === "open" && can("floor_ack") ? `<button class="small ok" data-event="${esc(c.event)}" data-ack="${esc(c.call)}">On my way</button>` : "")
    : (c.state === "requested" && can("clock_approve") ? `<button class="small ok" data-event="${esc(c.event)}" data-approve="${esc(c.call)}">Approve</button>` : "");
  return `<li data-since="${esc(c.since)}" data-table="${esc(c.table)}" data-to="${esc(c.to)}" data-call="${esc(c.call)}"><span class="grow"><b>${c.type === "floor" ? "Floor" : "Clock"}</b>
    ${esc(title)} · table ${esc(c.table)}${c.seat ? ` seat ${esc(c.seat)}` : ""}${c.section ? ` · ${esc(c.section)}` : ""} · <span class="wait"></span> · ${esc(c.state)}${c.by ? ` · <span class="taken">${c.type === "floor" ? "on my way" : "by"}: ${esc(c.by)}</span>` : ""}${c.late ? ' <span class="tag late-call">LATE</span>' : ""}</span>${btn}</li>`;
}

function ticketItem(t) {
  const acts = t.state !== "held" ? "" :
    (can("return_ticket") ? `<button class="small" data-return="${esc(t.ticket)}">Return</button>` : "") +
    (can("refund_ticket") ? `<button class="small warn" data-refund="${esc(t.ticket)}">Refund</button>` : "");
  return `<li><span class="grow"><b>${esc(t.name)}</b> → ${esc(titleOf(t.target))} · ${PK.money(t.value)}
    <span class="tag tk-${esc(t.state)}">${esc(t.state)}</span>${t.note ? ` <span class="muted">${esc(t.note)}</span>` : ""}</span>${acts}</li>`;
}

function render(r) {
  room = r;
  $("#new-event-box").hidden = !can("add_event");
  // a confirm step the event no longer allows (changed meanwhile) is dropped, not kept
  if (asking && !r.events.some(e => e.event === asking.event && (e.actions || []).includes(asking.what))) asking = null;
  document.title = `${r.title} - poker-kiosk`;
  $("#room").textContent = r.title;
  const running = r.events.filter(e => e.state === "running").length;
  $("#counts").textContent = `${r.events.filter(e => e.state !== "archived").length} events · ${running} running · ` +
    `${r.free_tables.length} of ${r.tables.length} tables free`;
  const shown = r.events.filter(e => e.state !== "archived");
  $("#events").innerHTML = shown.map(eventCard).join("") || '<p class="muted">No event yet: create one.</p>';
  $("#tv-link").href = "/clock?events=" + shown.filter(e => e.state === "running").slice(0, 4).map(e => e.event).join(",");
  // keep an open select's choice across a refresh
  const chosen = {}; document.querySelectorAll("#map select").forEach(s => { chosen[s.dataset.for] = s.value; });
  $("#map").innerHTML = typeof bigMap === "function" ? bigMap(r) : r.tables.map(tableTile).join("");
  document.querySelectorAll("#map select").forEach(s => { if (chosen[s.dataset.for]) s.value = chosen[s.dataset.for]; });
  $("#calls").innerHTML = r.calls.map(callItem).join("") || '<li class="muted">No calls</li>';
  $("#ncalls").textContent = r.calls.length || "";
  $("#tickets").innerHTML = r.tickets.map(ticketItem).join("") || '<li class="muted">No tickets</li>';
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
  user = u; csrf = u ? token : null; role = u ? r : null; may = new Set(u ? allowed || [] : []);
  $("#login").hidden = !!u; $("#me").hidden = !u;
  $("#user").textContent = u || ""; $("#role").textContent = role || "";
}

async function load() {
  let r;
  try { r = await fetch("/api/room").then(res => res.json()); }
  catch (e) { toast("Cannot reach the director, retrying…", false); return; }
  if (r.user !== undefined && (user === null) !== (r.user === null)) setUser(r.user, r.csrf, r.role, r.may);
  else if (r.user) may = new Set(r.may || []);    // a role changed in floor-users.toml
  render(r);
  if (typeof showUpdates === "function") showUpdates();
}

async function doEvent(event, what) {
  if (what === "start") return eventAct(event, {kind: "start"}, `Started ${event}`);
  if (what === "pause" || what === "resume") return eventAct(event, {kind: "clock", action: what}, `Clock ${what}d: ${event}`);
  return roomAct({kind: "set_event_state", event, state: what}, `${event}: ${what}`);
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
    roomAct({kind: "assign_table", table: Number(d.assign), event}, `Table ${d.assign} → ${event}`);
  } else if (d.free) roomAct({kind: "free_table", table: Number(d.free)}, `Table ${d.free} is free`);
  else if (d.ack) eventAct(d.event, {kind: "floor_ack", call: d.ack}, "Acknowledged");
  else if (d.approve) eventAct(d.event, {kind: "clock_approve", call: d.approve}, "Clock approved");
  else if (d.return) {
    const note = prompt("Why is the ticket given back?", ""); if (note === null) return;
    roomAct({kind: "return_ticket", ticket: d.return, note}, "Ticket returned");
  } else if (d.refund) {
    const note = prompt("Refund note (paid in cash to the player)", ""); if (note === null) return;
    roomAct({kind: "refund_ticket", ticket: d.refund, note}, "Ticket refunded");
  } else if (b.id === "logout") { await post("/api/logout", {}); setUser(null); load(); }
});

document.addEventListener("keydown", ev => { if (ev.key === "Escape" && asking) ask(null); });

$("#login").addEventListener("submit", async ev => {
  ev.preventDefault();
  const f = ev.target, res = await post("/api/login", {user: f.user.value, password: f.password.value});
  if (res.ok) { setUser(res.user, res.csrf, res.role, res.may); load(); toast(`Logged in as ${res.user} (${res.role})`, true); }
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
  const res = await run("/api/room/events", spec, `Event ${spec.name} created`);
  if (res.ok) f.reset();
});

load();
setInterval(load, 2000);
setInterval(tickWaits, 1000);

// the health line: a background task of the director (or the demo's tables) that failed,
// the broker, internal errors
async function checkHealth() {
  try {
    const h = await fetch("/api/health").then(r => r.json());
    const problems = PK.problems(h);
    $("#health").hidden = !problems.length;
    $("#health").textContent = problems.join(" · ");
  } catch (e) { /* the toast says so already */ }
}
checkHealth();
setInterval(checkHealth, 5000);
