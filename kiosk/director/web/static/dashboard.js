// Floor dashboard: tiles for every table, the call queue, and floor actions. Read-only
// before login; a control shows once the login's role may take its action (`may`, from
// the director, which checks every action again) and the event's state allows it.
"use strict";
const $ = s => document.querySelector(s);
const tiles = new Map();   // table -> view
let calls = {floor: [], clock: []}, moves = [], user = null, h4hOn = false, orbitOn = false;
let may = new Set(), reservations = false, eventName = null;
const can = kind => may.has(kind);
const heard = new Set();   // call ids already announced by the sound
const WARN_S = 120, LATE_S = 300;   // a call turns amber after 2 minutes, red after 5

const {esc, toast, post} = PK;
function since(t) { return PK.fmt(Date.now() / 1000 - t); }

// what the toast names once a command went through
const DONE = {start: _t("start"), clock: _t("tournament clock"), h4h: _t("hand-for-hand"), orbit: _t("orbit for orbit"),
              shot_clock: _t("shot clock"), floor_ack: _t("on my way"), floor_resolve: _t("call resolved"),
              clock_approve: _t("clock approved"), clock_cancel: _t("clock cancelled"), arrived: _t("arrived"),
              break_table: _t("table broken"), bust: _t("bust"), unbust: _t("un-bust"), move: _t("move"),
              penalty: _t("penalty"), rebuy: _t("rebuy"), reenter: _t("re-enter"), register: _t("registered")};
// a call's state as the director sends it, in the page's language (its key)
const stateWord = s => PK_I18N.say({key: `call_state.${s}`}, s);

async function act(cmd) {
  const res = await post(PK.url("/api/act"), cmd);
  if (res.ok) toast(_t("Done: {what}", {what: DONE[cmd.kind] || cmd.kind.replace("_", " ")}), true);
  else toast(res.error || _t("refused"), false);
  return res;
}

// the blinds in the page's numbers (live.js)
function blindsOf(s) { return PK.blinds(s.sb, s.bb, s.blinds); }
// the next level's blinds in the page's numbers (next_amounts), else the server's words
function nextBlinds(s) { const n = s.next_amounts; return n ? PK.blinds(n.sb, n.bb, s.next_blinds) : s.next_blinds; }

// the level's ante: a big-blind ante, or one from every player
function anteOf(s) {
  if (!s.ante) return "";
  return (s.ante_text || "").startsWith("BB") ? _t("BB ante {n}", {n: s.ante}) : _t("Ante {n}", {n: s.ante});
}

function renderSummary(s) {
  PK.setSummary(s);
  $("#event").textContent = s.title || s.event; $("#profile").textContent = s.profile;
  document.title = `${s.title || s.event} - poker-kiosk`;
  $("#level").textContent = s.is_break ? _t("Break") : _t("Level {level}", {level: s.level ?? "-"});
  $("#blinds").textContent = s.is_break ? "" : blindsOf(s);
  $("#ante").textContent = [s.is_break ? "" : anteOf(s), s.next_blinds ? _t("next {blinds}", {blinds: nextBlinds(s)}) : ""].filter(Boolean).join(" · ");
  $("#left").textContent = s.players_left; $("#entries").textContent = s.entries;
  $("#avg").textContent = PK.money(s.average_stack);
  const m = PK.moneyOf(s);
  $("#pool").textContent = PK.money(m.prize_pool); $("#paid").textContent = m.places_paid;
  const prizes = m.payouts.slice(0, 3).map((p, i) => `${i + 1}. ${PK.money(p)}`).join("  ");
  $("#prizes").textContent = prizes ? ` · ${prizes}` : "";
  const order = s.break_order || [];
  $("#nextbreak").textContent = [s.next_break_in == null ? "" : _t("break in {time}", {time: PK.fmt(s.next_break_in)}),
                                 order.length ? _t("next to break: T{table}", {table: order[0]}) : ""].filter(Boolean).join(" · ");
  h4hOn = s.hand_for_hand.on;
  $("#h4h-btn").textContent = h4hOn ? _t("Stop hand-for-hand") : _t("Start hand-for-hand");
  // what the clock and the event allow now, as the room page's cards do
  const live = s.started && !s.finished;
  $("#start-btn").hidden = !(s.can_start && can("start"));
  $("#pause-btn").hidden = !(live && !s.paused && can("clock"));
  $("#resume-btn").hidden = !(live && s.paused && can("clock"));
  document.querySelectorAll(".clock-btn").forEach(b => { b.hidden = s.finished || !can("clock"); });
  $("#h4h-btn").hidden = !(live && can("h4h"));
  orbitOn = !!(s.orbit && s.orbit.on);
  $("#orbit-btn").textContent = orbitOn ? _t("Stop orbit for orbit") : _t("Start orbit for orbit");
  $("#orbit-btn").hidden = !(live && can("orbit"));
  const sc = s.shot_clock;
  $("#shot-btn").hidden = !(sc && !s.finished && can("shot_clock"));
  const applies = {event: _t("event"), final: _t("final"), off: _t("off")};
  if (sc) $("#shot-btn").textContent = _t("Shot clock: {where}…", {where: sc.applies === "level" ? _t("from level {level}", {level: sc.from_level}) : applies[sc.applies] || sc.applies});
  const flags = [];
  if (!s.started) flags.push(_t("Not started"));
  else if (s.paused && !s.finished) flags.push(_t("Clock paused"));
  if (h4hOn) flags.push(_t("Hand-for-hand round {round}", {round: s.hand_for_hand.round}));
  if (orbitOn) flags.push(_t("Orbit for orbit round {round}", {round: s.orbit.round}) + (s.orbit.playing.length ? " · " + _t("playing: {tables}", {tables: "T" + s.orbit.playing.join(", T")}) : ""));
  if (s.final_pending) flags.push(_t("Final table draw"));
  else if (s.final_table) flags.push(_t("Final table: T{table}", {table: s.final_table}));
  if (s.finished) flags.push(_t("Winner: {name}", {name: s.winner}));
  $("#flags").innerHTML = flags.map(f => `<span>${esc(f)}</span>`).join("") +
    (m.bubble ? `<span class="bubble">${esc(_t("BUBBLE"))}</span>` : "");
  const count = PK.countLines(m.chip_count);
  $("#count").hidden = !count.length;
  $("#count").innerHTML = count.map(c => `<span>${esc(c)}</span>`).join("");
}

function tileHtml(v) {
  const fc = v.floor_calls[0], cc = v.clock_calls[0];
  const seats = v.seats.map(s => s.player
    ? `<div class="seat${s.all_in ? " allin" : ""}${s.absent ? " absent" : ""}${s.moving ? " moving" : ""}" title="${esc(s.player)}">
         <span class="n">${esc(s.seat)}</span>${esc(s.name)}${s.all_in ? " ●" : ""}${s.moving ? ` ←T${esc(s.from_table)}` : ""}${s.penalty ? " " + esc(_t("penalty")) : ""}</div>`
    : `<div class="seat empty"><span class="n">${esc(s.seat)}</span>—</div>`).join("");
  const tag = (cls, text) => `<span class="tag ${cls}">${esc(text)}</span>`;
  const tags = [v.halted ? tag("halt", _t("HALT")) : "", v.breaking ? tag("break", _t("BREAKING")) : "",
                v.final ? tag("final", _t("FINAL")) : "",
                v.race_pending ? tag("race", _t("RACE PENDING")) : "",
                v.h4h ? tag(`h4h-${v.h4h}`, v.h4h === "done" ? _t("H4H done") : _t("H4H playing")) : "",
                v.orbit ? tag(`h4h-${v.orbit}`, v.orbit === "done" ? _t("ORBIT done") : _t("ORBIT playing")) : "",
                v.hand_level ? tag("", _t("L{level} · {n} left", {level: v.hand_level.level, n: v.hand_level.hands_left})) : ""].join("");
  const moves = v.moves_out.map(m => `<div class="alert clock">${esc(m.player)} → ${esc(_t("table {table} seat {seat}", {table: m.to_table, seat: m.to_seat}))}</div>`).join("");
  const floorLine = !fc ? "" : (fc.state === "acked" ? _t("Floor on the way") : _t("Floor called")) +
    (fc.seat ? " " + _t("(seat {seat})", {seat: fc.seat}) : "");
  return `<h3><span class="dot${v.online ? " on" : ""}" title="${esc(v.online ? _t("online") : _t("offline"))}"></span>${esc(_t("Table {table}", {table: v.table}))}
      <span class="muted">${esc(_t("hand {hand}", {hand: v.hand}))}${v.in_hand ? " ▶" : ""} · ${esc(v.players)}/${esc(v.max_seats)}</span>${tags}</h3>
    <div class="seats">${seats}</div>
    ${fc ? `<div class="alert ${esc(fc.state)}" data-since="${esc(fc.since)}">${esc(floorLine)} · <span class="wait"></span></div>` : ""}
    ${cc ? `<div class="alert clock">${esc(_t("Clock on seat {seat}: {state}", {seat: cc.seat, state: stateWord(cc.state)}))}</div>` : ""}
    ${moves}
    ${v.can_break && can("break_table") ? `<div class="tile-actions"><button class="small" data-break="${esc(v.table)}">${esc(_t("Break table"))}</button></div>` : ""}`;
}

// an event with no table in play says so, instead of an empty half of the page
function noTables() {
  const s = PK.summary, none = !tiles.size;
  $("#no-tables").hidden = !none;
  if (none) $("#no-tables").textContent = s && !s.started
    ? _t("No table yet: the draw seats the players when the event starts.") : _t("No table in play.");
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
  const where = c => c.seat ? _t("table {table} seat {seat}", {table: c.table, seat: c.seat}) : _t("table {table}", {table: c.table});
  for (const c of calls.floor) items.push(`<li data-since="${esc(c.since)}"><span class="grow"><b>${esc(_t("Floor"))}</b> ${esc(where(c))} · <span class="wait"></span> · ${esc(stateWord(c.state))}${c.by ? ` · <span class="taken">${esc(_t("on my way: {name}", {name: c.by}))}</span>` : ""}</span>
      ${c.state === "open" && can("floor_ack") ? `<button class="small ok" data-ack="${esc(c.call)}">${esc(_t("On my way"))}</button>` : ""}
      ${can("floor_resolve") ? `<button class="small" data-resolve="${esc(c.call)}">${esc(_t("Resolve…"))}</button>` : ""}</li>`);
  for (const c of calls.clock) items.push(`<li data-since="${esc(c.since)}"><span class="grow"><b>${esc(_t("Clock"))}</b> ${esc(where(c))} · <span class="wait"></span> · ${esc(stateWord(c.state))}${c.by ? ` · <span class="taken">${esc(_t("by: {name}", {name: c.by}))}</span>` : ""}</span>
      ${c.state === "requested" && can("clock_approve") ? `<button class="small ok" data-approve="${esc(c.call)}">${esc(_t("Approve"))}</button>` : ""}
      ${can("clock_cancel") ? `<button class="small" data-cancel="${esc(c.call)}">${esc(_t("Cancel"))}</button>` : ""}</li>`);
  $("#calls").innerHTML = items.join("") || `<li class="muted">${esc(_t("No calls"))}</li>`;
  $("#ncalls").textContent = calls.floor.length + calls.clock.length || "";
  const fresh = [...calls.floor, ...calls.clock].filter(c => !heard.has(c.call));
  fresh.forEach(c => heard.add(c.call));
  if (fresh.length && $("#sound").checked) PK.ding();
  tickWaits();
}

function renderMoves(list) {
  moves = list;
  $("#moves").innerHTML = moves.map(m => `<li><span class="grow">${esc(m.name)}: T${esc(m.from_table)}/${esc(m.from_seat)} → <b>T${esc(m.to_table)}/${esc(m.to_seat)}</b></span>
    ${can("arrived") ? `<button class="small" data-arrived="${esc(m.player)}">${esc(_t("Arrived"))}</button>` : ""}</li>`).join("") || `<li class="muted">${esc(_t("None"))}</li>`;
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
    $("#waiting").innerHTML = m.waiting.map(p => `<li>${esc(p.name)} <span class="muted">${esc(p.player)}</span></li>`).join("") || `<li class="muted">${esc(_t("Nobody"))}</li>`;
    $("#nwaiting").textContent = m.waiting.length || "";
  } else if (m.type === "tables") {
    m.tables.forEach(renderTable); calls = m.calls; renderCalls(); renderMoves(m.moves);
  } else if (m.type === "summary") {
    renderSummary(m.summary); calls = m.calls; renderCalls();
  }
}

function setUser(u, token, allowed, role) {
  user = u; PK.csrf = u ? token : null; $("#login").hidden = !!u; $("#me").hidden = !u; $("#user").textContent = u || "";
  $("#role").textContent = u ? PK.roleName(role) : "";
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
  else if (d.resolve) { const note = prompt(_t("How was it resolved?"), ""); if (note !== null) act({kind: "floor_resolve", call: d.resolve, note}); }
  else if (d.approve) act({kind: "clock_approve", call: d.approve});
  else if (d.cancel) act({kind: "clock_cancel", call: d.cancel});
  else if (d.arrived) act({kind: "arrived", player: d.arrived});
  else if (d.break) { if (confirm(_t("Break table {table}?", {table: d.break}))) act({kind: "break_table", table: Number(d.break)}); }
  else if (b.id === "h4h-btn") act({kind: "h4h", on: !h4hOn});
  else if (b.id === "orbit-btn") act({kind: "orbit", on: !orbitOn});
  else if (b.id === "shot-btn") {
    const v = prompt(_t("Where does the shot clock run: event, final, off, or a level number to run from"), "event");
    const w = v && v.trim().toLowerCase();
    if (w && /^\d{1,3}$/.test(w)) act({kind: "shot_clock", applies: "level", from_level: Number(w)});
    else if (w && ["event", "final", "off"].includes(w)) act({kind: "shot_clock", applies: w});
    else if (v !== null) toast(_t("Type event, final, off or a level number"), false);
  }
  else if (b.id === "level-prev" || b.id === "level-next") {
    const s = PK.summary; if (!s) return;
    const period = s.period + (b.id === "level-next" ? 1 : -1);
    if (period >= 0 && period < s.periods) act({kind: "clock", action: "jump", period});
  } else if (b.id === "set-time") {
    const v = prompt(_t("Time left in this level (mm:ss)"), PK.fmt(PK.remaining()));
    const m = v && /^(\d{1,3}):([0-5]\d)$/.exec(v.trim());
    if (v !== null && !m) toast(_t("Type the time as mm:ss"), false);
    else if (m) act({kind: "clock", action: "set", seconds: Number(m[1]) * 60 + Number(m[2])});
  } else if (d.pick) pick(JSON.parse(d.pick));
  else if (d.quick) {
    const {name, label, ...cmd} = JSON.parse(d.quick);
    if (confirm(_t("{action}: {name}?", {action: label, name}))) act(cmd).then(() => $("#find").dispatchEvent(new Event("input")));
  }
  else if (b.id === "logout") { await post("/api/logout", {}); setUser(null); }
  else if (b.id === "import") {
    const res = await post(PK.url("/api/import"), $("#register").csv.value, true);
    toast(res.ok ? _tn("Imported {n} player", "Imported {n} players", res.added) : (res.error || (res.errors || []).join("; ")), res.ok);
  }
});

$("#login").addEventListener("submit", async ev => {
  ev.preventDefault();
  const f = ev.target, res = await post("/api/login", {user: f.user.value, password: f.password.value});
  if (res.ok) {
    if (PK.relang(res)) return;
    setUser(res.user, res.csrf, res.may, res.role); toast(_t("Logged in as {user}", {user: res.user}), true);
  } else toast(res.error, false);
});

$("#confirm-form").addEventListener("submit", async ev => {
  ev.preventDefault();
  const input = $("#confirm-code"), out = $("#confirm-result");
  const res = await post(PK.url("/api/act"), {kind: "confirm_reservation", code: input.value});
  out.textContent = res.ok ? res.name + ": " + (res.seat ? _t("table {table} seat {seat}", {table: res.table, seat: res.seat}) : (res.note || _t("registered")))
    : res.error || _t("refused");
  out.className = res.ok ? "ok" : "error";
  if (res.ok) input.value = "";
});

// a player's status as the director names it
function statusWord(s) {
  const words = {busted: _t("busted"), moving: _t("moving"), waiting: _t("waiting"), seated: _t("seated"),
                 registered: _t("registered"), sitting_out: _t("sitting out")};
  return words[s] || s;
}

function pick(p) {
  const f = $("#player-act");
  f.player.value = p.player;
  $("#acting").textContent = _t("Acting on {name} ({where})", {name: p.name, where: p.table ? _t("table {table} seat {seat}", {table: p.table, seat: p.seat}) : statusWord(p.status)});
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
  if (!player) { toast(_t("Find the player first, then tap Act"), false); return; }
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
      const quick = p.status === "moving" ? ["arrived", _t("Arrived")] : p.status === "busted" ? ["unbust", _t("Un-bust")]
        : p.table ? ["bust", _t("Bust")] : null;
      const penalty = p.penalty_msg ? PK_I18N.say(p.penalty_msg, p.penalty) : p.penalty;
      return `<li><span class="grow"><b>${esc(p.name)}</b><br>
      ${esc(p.table ? _t("table {table} seat {seat}", {table: p.table, seat: p.seat}) : statusWord(p.status))}${p.place ? ` · ${esc(_t("place {place}", {place: p.place}))}` : ""}${penalty ? ` · ${esc(penalty)}` : ""}</span>
      ${quick && can(quick[0]) ? `<button class="small warn" data-quick='${esc(JSON.stringify({kind: quick[0], player: p.player, name: p.name, label: quick[1]}))}'>${esc(quick[1])}</button>` : ""}
      ${$("#player-act-box").hidden ? "" : `<button class="small" data-pick='${esc(JSON.stringify({player: p.player, name: p.name, table: p.table, seat: p.seat, status: p.status}))}'>${esc(_t("Act…"))}</button>`}</li>`;
    }).join("");
  }, 150);
});

fetch(PK.url("/api/snapshot")).then(r => r.json()).then(s => {
  eventName = s.event; setUser(s.user, s.csrf, s.may, s.role); checkReservations();
  document.querySelectorAll("#event-links [data-to]").forEach(a => { a.href = a.dataset.to + encodeURIComponent(s.event); });
});
setInterval(checkReservations, 10000);
PK.connect(onMessage, ok => { if (!ok) toast(_t("Connection lost, reconnecting…"), false); });
setInterval(tickWaits, 1000);

// two directors on one PostgreSQL log: which machine leads, how far behind the standby is
function showLeadership(ha) {
  $("#leadership").hidden = !ha;
  if (!ha) return;
  const lead = ha.leader ? _t("led by {holder} (term {term})", {holder: ha.leader.holder, term: ha.leader.term})
                         : _t("no leader right now");
  const behind = n => _tn("{n} event behind", "{n} events behind", n);
  const standbys = (ha.standbys || []).map(s => _t("standby {holder}: {behind}", {holder: s.holder, behind: behind(s.behind)}));
  if (ha.role === "standby") standbys.push(_t("this standby: {behind}", {behind: behind(ha.behind)}));
  $("#leadership").textContent = [lead, ...(standbys.length ? standbys : [_t("no standby")])]
    .join(" · ");
}
PK.watchHealth(2000, h => showLeadership(h.leadership));
