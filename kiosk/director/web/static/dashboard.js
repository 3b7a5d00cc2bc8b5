// Floor dashboard: tiles for every table, the call queue, and floor actions. Read-only
// before login; a control shows once the login's role may take its action (`may`, from
// the director, which checks every action again) and the event's state allows it.
"use strict";
const $ = s => document.querySelector(s);
const tiles = new Map();   // table -> view
let calls = {floor: [], clock: []}, moves = [], user = null, csrf = null, h4hOn = false;
let may = new Set(), reservations = false, eventName = null;
const can = kind => may.has(kind);
const heard = new Set();   // call ids already announced by the sound
const WARN_S = 120, LATE_S = 300;   // a call turns amber after 2 minutes, red after 5

function esc(s) { return String(s ?? "").replace(/[&<>"']/g, c => ({"&":"&amp;","<":"&lt;",">":"&gt;",'"':"&quot;","'":"&#39;"}[c])); }
function since(t) { return PK.fmt(Date.now() / 1000 - t); }

function toast(text, ok) {
  const el = $("#toast"); el.textContent = text; el.className = ok ? "ok" : "error";
  clearTimeout(toast.t); toast.t = setTimeout(() => { el.textContent = ""; }, 6000);
}

async function post(url, body, raw) {
  const headers = {"Content-Type": raw ? "text/csv" : "application/json"};
  if (csrf) headers["X-CSRF-Token"] = csrf;
  const r = await fetch(url, {method: "POST", headers, body: raw ? body : JSON.stringify(body)});
  let data = {};
  try { data = await r.json(); } catch (e) { data = {ok: false, error: `HTTP ${r.status}`}; }
  return {status: r.status, ...data};
}

async function act(cmd) {
  const res = await post(PK.url("/api/act"), cmd);
  if (res.ok) toast(`Done: ${cmd.kind.replace("_", " ")}`, true);
  else toast(res.error || "refused", false);
  return res;
}

function renderSummary(s) {
  PK.setSummary(s);
  $("#event").textContent = s.title || s.event; $("#profile").textContent = s.profile;
  document.title = `${s.title || s.event} - poker-kiosk`;
  $("#level").textContent = s.is_break ? "Break" : `Level ${s.level ?? "-"}`;
  $("#blinds").textContent = s.is_break ? "" : s.blinds;
  $("#ante").textContent = [s.is_break ? "" : s.ante_text, s.next_blinds ? `next ${s.next_blinds}` : ""].filter(Boolean).join(" · ");
  $("#left").textContent = s.players_left; $("#entries").textContent = s.entries;
  $("#avg").textContent = PK.money(s.average_stack);
  const m = PK.moneyOf(s);
  $("#pool").textContent = PK.money(m.prize_pool); $("#paid").textContent = m.places_paid;
  const prizes = m.payouts.slice(0, 3).map((p, i) => `${i + 1}. ${PK.money(p)}`).join("  ");
  $("#prizes").textContent = prizes ? ` · ${prizes}` : "";
  const order = s.break_order || [];
  $("#nextbreak").textContent = [s.next_break_in == null ? "" : `break in ${PK.fmt(s.next_break_in)}`,
                                 order.length ? `next to break: T${order[0]}` : ""].filter(Boolean).join(" · ");
  h4hOn = s.hand_for_hand.on;
  $("#h4h-btn").textContent = h4hOn ? "Stop hand-for-hand" : "Start hand-for-hand";
  // what the clock and the event allow now, as the room page's cards do
  const live = s.started && !s.finished;
  $("#start-btn").hidden = !(s.can_start && can("start"));
  $("#pause-btn").hidden = !(live && !s.paused && can("clock"));
  $("#resume-btn").hidden = !(live && s.paused && can("clock"));
  document.querySelectorAll(".clock-btn").forEach(b => { b.hidden = s.finished || !can("clock"); });
  $("#h4h-btn").hidden = !(live && can("h4h"));
  const flags = [];
  if (!s.started) flags.push("Not started");
  else if (s.paused && !s.finished) flags.push("Clock paused");
  if (h4hOn) flags.push(`Hand-for-hand round ${s.hand_for_hand.round}`);
  if (s.final_pending) flags.push("Final table draw");
  else if (s.final_table) flags.push(`Final table: T${s.final_table}`);
  if (s.finished) flags.push(`Winner: ${s.winner}`);
  $("#flags").innerHTML = flags.map(f => `<span>${esc(f)}</span>`).join("") +
    (m.bubble ? '<span class="bubble">BUBBLE</span>' : "");
  const count = PK.countLines(m.chip_count);
  $("#count").hidden = !count.length;
  $("#count").innerHTML = count.map(c => `<span>${esc(c)}</span>`).join("");
}

function tileHtml(v) {
  const fc = v.floor_calls[0], cc = v.clock_calls[0];
  const seats = v.seats.map(s => s.player
    ? `<div class="seat${s.all_in ? " allin" : ""}${s.absent ? " absent" : ""}${s.moving ? " moving" : ""}" title="${esc(s.player)}">
         <span class="n">${esc(s.seat)}</span>${esc(s.name)}${s.all_in ? " ●" : ""}${s.moving ? ` ←T${esc(s.from_table)}` : ""}${s.penalty ? " ⏸" : ""}</div>`
    : `<div class="seat empty"><span class="n">${esc(s.seat)}</span>—</div>`).join("");
  const tags = [v.halted ? '<span class="tag halt">HALT</span>' : "", v.breaking ? '<span class="tag break">BREAKING</span>' : "",
                v.final ? '<span class="tag final">FINAL</span>' : "",
                v.race_pending ? '<span class="tag race">RACE PENDING</span>' : "",
                v.h4h ? `<span class="tag h4h-${esc(v.h4h)}">H4H ${v.h4h === "done" ? "done" : "playing"}</span>` : ""].join("");
  const moves = v.moves_out.map(m => `<div class="alert clock">${esc(m.player)} → table ${esc(m.to_table)} seat ${esc(m.to_seat)}</div>`).join("");
  return `<h3><span class="dot${v.online ? " on" : ""}" title="${v.online ? "online" : "offline"}"></span>Table ${esc(v.table)}
      <span class="muted">hand ${esc(v.hand)}${v.in_hand ? " ▶" : ""} · ${esc(v.players)}/${esc(v.max_seats)}</span>${tags}</h3>
    <div class="seats">${seats}</div>
    ${fc ? `<div class="alert ${esc(fc.state)}" data-since="${esc(fc.since)}">Floor ${fc.state === "acked" ? "on the way" : "called"}${fc.seat ? ` (seat ${esc(fc.seat)})` : ""} · <span class="wait"></span></div>` : ""}
    ${cc ? `<div class="alert clock">Clock on seat ${esc(cc.seat)}: ${esc(cc.state)}</div>` : ""}
    ${moves}
    ${v.can_break && can("break_table") ? `<div class="tile-actions"><button class="small" data-break="${esc(v.table)}">Break table</button></div>` : ""}`;
}

// an event with no table in play says so, instead of an empty half of the page
function noTables() {
  const s = PK.summary, none = !tiles.size;
  $("#no-tables").hidden = !none;
  if (none) $("#no-tables").textContent = s && !s.started
    ? "No table yet: the draw seats the players when the event starts." : "No table in play.";
}

function renderTable(v) {
  let el = document.getElementById(`t${v.table}`);
  if (v.broken) { if (el) el.remove(); tiles.delete(v.table); noTables(); return; }
  tiles.set(v.table, v);
  if (!el) {
    el = document.createElement("div"); el.id = `t${v.table}`; el.className = "tile";
    const after = [...tiles.keys()].filter(n => n > v.table && document.getElementById(`t${n}`)).sort((a, b) => a - b)[0];
    $("#tables").insertBefore(el, after ? document.getElementById(`t${after}`) : null);
  }
  el.className = "tile" + (v.floor_calls.length ? " call" : "") + (v.halted ? " halted" : "");
  el.innerHTML = tileHtml(v);
  noTables();
}

function renderCalls() {
  const items = [];
  for (const c of calls.floor) items.push(`<li data-since="${esc(c.since)}"><span class="grow"><b>Floor</b> table ${esc(c.table)}${c.seat ? ` seat ${esc(c.seat)}` : ""} · <span class="wait"></span> · ${esc(c.state)}${c.by ? ` · <span class="taken">on my way: ${esc(c.by)}</span>` : ""}</span>
      ${c.state === "open" && can("floor_ack") ? `<button class="small ok" data-ack="${esc(c.call)}">On my way</button>` : ""}
      ${can("floor_resolve") ? `<button class="small" data-resolve="${esc(c.call)}">Resolve…</button>` : ""}</li>`);
  for (const c of calls.clock) items.push(`<li data-since="${esc(c.since)}"><span class="grow"><b>Clock</b> table ${esc(c.table)} seat ${esc(c.seat)} · <span class="wait"></span> · ${esc(c.state)}${c.by ? ` · <span class="taken">by ${esc(c.by)}</span>` : ""}</span>
      ${c.state === "requested" && can("clock_approve") ? `<button class="small ok" data-approve="${esc(c.call)}">Approve</button>` : ""}
      ${can("clock_cancel") ? `<button class="small" data-cancel="${esc(c.call)}">Cancel</button>` : ""}</li>`);
  $("#calls").innerHTML = items.join("") || '<li class="muted">No calls</li>';
  $("#ncalls").textContent = calls.floor.length + calls.clock.length || "";
  const fresh = [...calls.floor, ...calls.clock].filter(c => !heard.has(c.call));
  fresh.forEach(c => heard.add(c.call));
  if (fresh.length && $("#sound").checked) beep();
  tickWaits();
}

function renderMoves(list) {
  moves = list;
  $("#moves").innerHTML = moves.map(m => `<li><span class="grow">${esc(m.name)}: T${esc(m.from_table)} s${esc(m.from_seat)} → <b>T${esc(m.to_table)} s${esc(m.to_seat)}</b></span>
    ${can("arrived") ? `<button class="small" data-arrived="${esc(m.player)}">Arrived</button>` : ""}</li>`).join("") || '<li class="muted">None</li>';
}

function beep() {
  try {
    const ctx = beep.ctx = beep.ctx || new AudioContext(), o = ctx.createOscillator(), g = ctx.createGain();
    o.frequency.value = 880; g.gain.setValueAtTime(0.2, ctx.currentTime);
    g.gain.exponentialRampToValueAtTime(0.001, ctx.currentTime + 0.4);
    o.connect(g).connect(ctx.destination); o.start(); o.stop(ctx.currentTime + 0.4);
  } catch (e) { /* no audio device: the colours still escalate */ }
}

function tickWaits() {
  document.querySelectorAll("[data-since]").forEach(el => {
    const age = Date.now() / 1000 - Number(el.dataset.since);
    const w = el.querySelector(".wait"); if (w) w.textContent = since(Number(el.dataset.since));
    if (el.tagName === "LI") { el.classList.toggle("warn", age >= WARN_S && age < LATE_S); el.classList.toggle("late", age >= LATE_S); }
  });
  const c = $("#clock"); c.textContent = PK.fmt(PK.remaining());
  c.className = "clock" + (PK.summary && PK.summary.paused ? " paused" : "");
}

function onMessage(m) {
  if (m.type === "snapshot") {
    document.querySelectorAll("#tables > .tile").forEach(el => el.remove()); tiles.clear();
    renderSummary(m.summary); m.tables.forEach(renderTable); noTables();
    calls = m.calls; renderCalls(); renderMoves(m.moves);
    $("#waiting").innerHTML = m.waiting.map(p => `<li>${esc(p.name)} <span class="muted">${esc(p.player)}</span></li>`).join("") || '<li class="muted">Nobody</li>';
    $("#nwaiting").textContent = m.waiting.length || "";
  } else if (m.type === "tables") {
    m.tables.forEach(renderTable); calls = m.calls; renderCalls(); renderMoves(m.moves);
  } else if (m.type === "summary") {
    renderSummary(m.summary); calls = m.calls; renderCalls();
  }
}

function setUser(u, token, allowed) {
  user = u; csrf = u ? token : null; $("#login").hidden = !!u; $("#me").hidden = !u; $("#user").textContent = u || "";
  may = new Set(u ? allowed || [] : []);
  showControls();
}

// the controls of the login's role, again at once after a log-in or a log-out
function showControls() {
  const action = $("#player-act").action, options = [...action.options];
  options.forEach(o => { o.hidden = o.disabled = !can(o.value); });
  const first = options.find(o => !o.disabled);
  if (first && action.selectedOptions[0].disabled) action.value = first.value;
  $("#player-act-box").hidden = !first;
  actionFields();
  $("#register-box").hidden = !can("register");
  $("#import").hidden = $("#register").csv.hidden = !can("import");
  $("#confirm-box").hidden = !(reservations && can("confirm_reservation"));
  if (PK.summary) renderSummary(PK.summary);
  tiles.forEach(v => renderTable(v));
  renderCalls(); renderMoves(moves);
}

// whether this event takes reservations (its terms can change while the page is open)
async function checkReservations() {
  if (!eventName) return;
  const r = await fetch(`/p/${encodeURIComponent(eventName)}/reservations.json`).then(res => res.ok ? res.json() : null).catch(() => null);
  if (!r || reservations === !!r.reservations) return;
  reservations = !!r.reservations;
  showControls();
}

document.addEventListener("click", async ev => {
  const b = ev.target.closest("button"); if (!b) return;
  const d = b.dataset;
  if (d.cmd) act(JSON.parse(d.cmd));
  else if (d.ack) act({kind: "floor_ack", call: d.ack});
  else if (d.resolve) { const note = prompt("How was it resolved?", ""); if (note !== null) act({kind: "floor_resolve", call: d.resolve, note}); }
  else if (d.approve) act({kind: "clock_approve", call: d.approve});
  else if (d.cancel) act({kind: "clock_cancel", call: d.cancel});
  else if (d.arrived) act({kind: "arrived", player: d.arrived});
  else if (d.break) { if (confirm(`Break table ${d.break}?`)) act({kind: "break_table", table: Number(d.break)}); }
  else if (b.id === "h4h-btn") act({kind: "h4h", on: !h4hOn});
  else if (b.id === "level-prev" || b.id === "level-next") {
    const s = PK.summary; if (!s) return;
    const period = s.period + (b.id === "level-next" ? 1 : -1);
    if (period >= 0 && period < s.periods) act({kind: "clock", action: "jump", period});
  } else if (b.id === "set-time") {
    const v = prompt("Time left in this level (mm:ss)", PK.fmt(PK.remaining()));
    const m = v && /^(\d{1,3}):([0-5]\d)$/.exec(v.trim());
    if (v !== null && !m) toast("Type the time as mm:ss", false);
    else if (m) act({kind: "clock", action: "set", seconds: Number(m[1]) * 60 + Number(m[2])});
  } else if (d.pick) pick(JSON.parse(d.pick));
  else if (d.quick) {
    const {name, label, ...cmd} = JSON.parse(d.quick);
    if (confirm(`${label}: ${name}?`)) act(cmd).then(() => $("#find").dispatchEvent(new Event("input")));
  }
  else if (b.id === "logout") { await post("/api/logout", {}); setUser(null); }
  else if (b.id === "import") {
    const res = await post(PK.url("/api/import"), $("#register").csv.value, true);
    toast(res.ok ? `Imported ${res.added} players` : (res.error || (res.errors || []).join("; ")), res.ok);
  }
});

$("#login").addEventListener("submit", async ev => {
  ev.preventDefault();
  const f = ev.target, res = await post("/api/login", {user: f.user.value, password: f.password.value});
  if (res.ok) { setUser(res.user, res.csrf, res.may); toast(`Logged in as ${res.user}`, true); } else toast(res.error, false);
});

$("#confirm-form").addEventListener("submit", async ev => {
  ev.preventDefault();
  const input = $("#confirm-code"), out = $("#confirm-result");
  const res = await post(PK.url("/api/act"), {kind: "confirm_reservation", code: input.value});
  out.textContent = res.ok ? res.name + (res.seat ? `: table ${res.table}, seat ${res.seat}` : ": " + (res.note || "registered"))
    : res.error || "refused";
  out.className = res.ok ? "ok" : "error";
  if (res.ok) input.value = "";
});

function pick(p) {
  const f = $("#player-act");
  f.player.value = p.player;
  $("#acting").innerHTML = `Acting on <b>${esc(p.name)}</b> ${p.table ? `(table ${esc(p.table)} seat ${esc(p.seat)})` : `(${esc(p.status)})`}`;
}

// the form asks only what the chosen action needs: a table and seat to move to, a penalty
function actionFields() {
  const a = $("#player-act").action.value;
  $("#act-where").hidden = a !== "move";
  $("#act-penalty").hidden = a !== "penalty";
}
$("#player-act").action.addEventListener("change", actionFields);

$("#player-act").addEventListener("submit", ev => {
  ev.preventDefault();
  const f = ev.target, a = f.action.value, player = f.player.value.trim();
  if (!player) { toast("Find the player first, then tap Act", false); return; }
  const num = v => v === "" ? undefined : Number(v);
  if (a === "move") act({kind: "move", player, table: num(f.table.value), seat: num(f.seat.value)});
  else if (a === "penalty") act({kind: "penalty", player, type: f.ptype.value, amount: num(f.amount.value) || 1});
  else act({kind: a, player});
});

$("#register").addEventListener("submit", ev => {
  ev.preventDefault();
  const f = ev.target;
  act({kind: "register", name: f.name.value, card: f.card.value || null}).then(r => { if (r.ok) f.reset(); });
});

let findTimer;
$("#find").addEventListener("input", ev => {
  clearTimeout(findTimer);
  findTimer = setTimeout(async () => {
    const r = await fetch(PK.url("/api/players?q=" + encodeURIComponent(ev.target.value))).then(r => r.json());
    $("#found").innerHTML = r.players.map(p => {
      const quick = p.status === "moving" ? ["arrived", "Arrived"] : p.status === "busted" ? ["unbust", "Un-bust"]
        : p.table ? ["bust", "Bust"] : null;
      return `<li><span class="grow"><b>${esc(p.name)}</b><br>
      ${p.table ? `table ${esc(p.table)} seat ${esc(p.seat)}` : esc(p.status)}${p.place ? ` · place ${esc(p.place)}` : ""}${p.penalty ? ` · ${esc(p.penalty)}` : ""}</span>
      ${quick && can(quick[0]) ? `<button class="small warn" data-quick='${esc(JSON.stringify({kind: quick[0], player: p.player, name: p.name, label: quick[1]}))}'>${quick[1]}</button>` : ""}
      ${$("#player-act-box").hidden ? "" : `<button class="small" data-pick='${esc(JSON.stringify({player: p.player, name: p.name, table: p.table, seat: p.seat, status: p.status}))}'>Act…</button>`}</li>`;
    }).join("");
  }, 150);
});

fetch(PK.url("/api/snapshot")).then(r => r.json()).then(s => {
  eventName = s.event; setUser(s.user, s.csrf, s.may); checkReservations();
  document.querySelectorAll("#event-links [data-to]").forEach(a => { a.href = a.dataset.to + encodeURIComponent(s.event); });
});
setInterval(checkReservations, 10000);
PK.connect(onMessage, ok => { if (!ok) toast("Connection lost, reconnecting…", false); });
setInterval(tickWaits, 1000);

// the health line: a background task of the director (or the demo's tables) that failed,
// the broker, internal errors
async function checkHealth() {
  try {
    const h = await fetch("/api/health").then(r => r.json());
    const problems = PK.problems(h);
    $("#health").hidden = !problems.length;
    $("#health").textContent = problems.join(" · ");
    showLeadership(h.leadership);
  } catch (e) { /* the connection line says so already */ }
}
// two directors on one PostgreSQL log: which machine leads, how far behind the standby is
function showLeadership(ha) {
  $("#leadership").hidden = !ha;
  if (!ha) return;
  const lead = ha.leader ? `led by ${ha.leader.holder} (term ${ha.leader.term})`
                         : "no leader right now";
  const behind = n => `${n} event${n === 1 ? "" : "s"} behind`;
  const standbys = (ha.standbys || []).map(s => `standby ${s.holder}: ${behind(s.behind)}`);
  if (ha.role === "standby") standbys.push(`this standby: ${behind(ha.behind)}`);
  $("#leadership").textContent = [lead, ...(standbys.length ? standbys : ["no standby"])]
    .join(" · ");
}
checkHealth();
setInterval(checkHealth, 2000);
