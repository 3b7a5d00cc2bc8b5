// Floor dashboard: tiles for every table, the call queue, and floor actions.
"use strict";
const $ = s => document.querySelector(s);
const tiles = new Map();   // table -> view
let calls = {floor: [], clock: []}, user = null, csrf = null, h4hOn = false;

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
  const res = await post("/api/act", cmd);
  if (res.ok) toast(`Done: ${cmd.kind.replace("_", " ")}`, true);
  else toast(res.error || "refused", false);
  return res;
}

function renderSummary(s) {
  PK.setSummary(s);
  $("#event").textContent = s.event; $("#profile").textContent = s.profile;
  $("#level").textContent = s.is_break ? "Break" : `Level ${s.level ?? "-"}`;
  $("#blinds").textContent = s.is_break ? "" : s.blinds;
  $("#ante").textContent = s.next_level ? `next ${s.next_level}` : "";
  $("#left").textContent = s.players_left; $("#entries").textContent = s.entries;
  $("#avg").textContent = PK.money(s.average_stack); $("#pool").textContent = PK.money(s.prize_pool);
  h4hOn = s.hand_for_hand.on;
  $("#h4h-btn").textContent = h4hOn ? "Stop hand-for-hand" : "Start hand-for-hand";
  $("#start-btn").hidden = s.started;
  const flags = [];
  if (!s.started) flags.push("Not started");
  if (s.paused) flags.push("Clock paused");
  if (h4hOn) flags.push(`Hand-for-hand round ${s.hand_for_hand.round}`);
  if (s.final_pending) flags.push("Final table draw");
  if (s.finished) flags.push(`Winner: ${s.winner}`);
  $("#flags").innerHTML = flags.map(f => `<span>${esc(f)}</span>`).join("");
}

function tileHtml(v) {
  const fc = v.floor_calls[0], cc = v.clock_calls[0];
  const seats = v.seats.map(s => s.player
    ? `<div class="seat${s.all_in ? " allin" : ""}${s.absent ? " absent" : ""}${s.moving ? " moving" : ""}" title="${esc(s.player)}">
         <span class="n">${esc(s.seat)}</span>${esc(s.name)}${s.all_in ? " ●" : ""}${s.moving ? ` ←T${esc(s.from_table)}` : ""}${s.penalty ? " ⏸" : ""}</div>`
    : `<div class="seat empty"><span class="n">${esc(s.seat)}</span>—</div>`).join("");
  const tags = [v.halted ? '<span class="tag halt">HALT</span>' : "", v.breaking ? '<span class="tag break">BREAKING</span>' : "",
                v.final ? '<span class="tag final">FINAL</span>' : ""].join("");
  const moves = v.moves_out.map(m => `<div class="alert clock">${esc(m.player)} → table ${esc(m.to_table)} seat ${esc(m.to_seat)}</div>`).join("");
  return `<h3><span class="dot${v.online ? " on" : ""}" title="${v.online ? "online" : "offline"}"></span>Table ${esc(v.table)}
      <span class="muted">hand ${esc(v.hand)}${v.in_hand ? " ▶" : ""} · ${esc(v.players)}/${esc(v.max_seats)}</span>${tags}</h3>
    <div class="seats">${seats}</div>
    ${fc ? `<div class="alert ${esc(fc.state)}" data-since="${esc(fc.since)}">Floor ${fc.state === "acked" ? "on the way" : "called"}${fc.seat ? ` (seat ${esc(fc.seat)})` : ""} · <span class="wait"></span></div>` : ""}
    ${cc ? `<div class="alert clock">Clock on seat ${esc(cc.seat)}: ${esc(cc.state)}</div>` : ""}
    ${moves}
    <div class="tile-actions"><button class="small" data-break="${esc(v.table)}">Break table</button></div>`;
}

function renderTable(v) {
  let el = document.getElementById(`t${v.table}`);
  if (v.broken) { if (el) el.remove(); tiles.delete(v.table); return; }
  tiles.set(v.table, v);
  if (!el) {
    el = document.createElement("div"); el.id = `t${v.table}`; el.className = "tile";
    const after = [...tiles.keys()].filter(n => n > v.table && document.getElementById(`t${n}`)).sort((a, b) => a - b)[0];
    $("#tables").insertBefore(el, after ? document.getElementById(`t${after}`) : null);
  }
  el.className = "tile" + (v.floor_calls.length ? " call" : "") + (v.halted ? " halted" : "");
  el.innerHTML = tileHtml(v);
}

function renderCalls() {
  const items = [];
  for (const c of calls.floor) items.push(`<li data-since="${esc(c.since)}"><span class="grow"><b>Floor</b> table ${esc(c.table)}${c.seat ? ` seat ${esc(c.seat)}` : ""} · <span class="wait"></span> · ${esc(c.state)}</span>
      ${c.state === "open" ? `<button class="small ok" data-ack="${esc(c.call)}">Acknowledge</button>` : ""}
      <button class="small" data-resolve="${esc(c.call)}">Resolve…</button></li>`);
  for (const c of calls.clock) items.push(`<li data-since="${esc(c.since)}"><span class="grow"><b>Clock</b> table ${esc(c.table)} seat ${esc(c.seat)} · <span class="wait"></span> · ${esc(c.state)}</span>
      ${c.state === "requested" ? `<button class="small ok" data-approve="${esc(c.call)}">Approve</button>` : ""}
      <button class="small" data-cancel="${esc(c.call)}">Cancel</button></li>`);
  $("#calls").innerHTML = items.join("") || '<li class="muted">No calls</li>';
  $("#ncalls").textContent = calls.floor.length + calls.clock.length || "";
  tickWaits();
}

function renderMoves(moves) {
  $("#moves").innerHTML = moves.map(m => `<li><span class="grow">${esc(m.name)}: T${esc(m.from_table)} s${esc(m.from_seat)} → <b>T${esc(m.to_table)} s${esc(m.to_seat)}</b></span>
    <button class="small" data-arrived="${esc(m.player)}">Arrived</button></li>`).join("") || '<li class="muted">None</li>';
}

function tickWaits() {
  document.querySelectorAll("[data-since]").forEach(el => {
    const w = el.querySelector(".wait"); if (w) w.textContent = since(Number(el.dataset.since));
  });
  const c = $("#clock"); c.textContent = PK.fmt(PK.remaining());
  c.className = "clock" + (PK.summary && PK.summary.paused ? " paused" : "");
}

function onMessage(m) {
  if (m.type === "snapshot") {
    $("#tables").innerHTML = ""; tiles.clear();
    renderSummary(m.summary); m.tables.forEach(renderTable);
    calls = m.calls; renderCalls(); renderMoves(m.moves);
    $("#waiting").innerHTML = m.waiting.map(p => `<li>${esc(p.name)} <span class="muted">${esc(p.player)}</span></li>`).join("");
    $("#nwaiting").textContent = m.waiting.length || "";
  } else if (m.type === "tables") {
    m.tables.forEach(renderTable); calls = m.calls; renderCalls(); renderMoves(m.moves);
  } else if (m.type === "summary") {
    renderSummary(m.summary); calls = m.calls; renderCalls();
  }
}

function setUser(u, token) {
  user = u; csrf = u ? token : null; $("#login").hidden = !!u; $("#me").hidden = !u; $("#user").textContent = u || "";
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
  else if (b.id === "logout") { await post("/api/logout", {}); setUser(null); }
  else if (b.id === "import") {
    const res = await post("/api/import", $("#register").csv.value, true);
    toast(res.ok ? `Imported ${res.added} players` : (res.error || (res.errors || []).join("; ")), res.ok);
  }
});

$("#login").addEventListener("submit", async ev => {
  ev.preventDefault();
  const f = ev.target, res = await post("/api/login", {user: f.user.value, password: f.password.value});
  if (res.ok) { setUser(res.user, res.csrf); toast(`Logged in as ${res.user}`, true); } else toast(res.error, false);
});

$("#player-act").addEventListener("submit", ev => {
  ev.preventDefault();
  const f = ev.target, a = f.action.value, player = f.player.value.trim();
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
    const r = await fetch("/api/players?q=" + encodeURIComponent(ev.target.value)).then(r => r.json());
    $("#found").innerHTML = r.players.map(p => `<li><span class="grow"><b>${esc(p.name)}</b> <span class="muted">${esc(p.player)}</span><br>
      ${p.table ? `table ${esc(p.table)} seat ${esc(p.seat)}` : esc(p.status)}${p.place ? ` · place ${esc(p.place)}` : ""}${p.penalty ? ` · ${esc(p.penalty)}` : ""}</span></li>`).join("");
  }, 150);
});

fetch("/api/snapshot").then(r => r.json()).then(s => setUser(s.user, s.csrf));
PK.connect(onMessage, ok => { if (!ok) toast("Connection lost, reconnecting…", false); });
setInterval(tickWaits, 1000);
