// A section for its floor staff on a phone: its calls oldest first ("On my way", "Done"),
// running clock calls with their countdown, moves to and from its tables, and the tables
// that need the floor. A login's section is kept on the director, like the room page's
// (every browser and phone of it opens there), a visitor's in this browser; "Whole room"
// shows everything.
"use strict";
const $ = s => document.querySelector(s);
let user = null, csrf = null, view = null, offset = 0;
const heard = new Set();
let heardOnce = false, audio = null;
const SEC_KEY = () => "pk-section:visitor";
let mine = "";   // a login's section, as the director keeps it

function esc(s) { return String(s ?? "").replace(/[&<>"']/g, c => ({"&":"&amp;","<":"&lt;",">":"&gt;",'"':"&quot;","'":"&#39;"}[c])); }
function toast(text, ok) {
  const el = $("#toast"); el.textContent = text; el.className = ok ? "ok" : "error";
  clearTimeout(toast.t); toast.t = setTimeout(() => { el.textContent = ""; }, 6000);
}
async function post(url, body) {
  const headers = {"Content-Type": "application/json"};
  if (csrf) headers["X-CSRF-Token"] = csrf;
  const r = await fetch(url, {method: "POST", headers, body: JSON.stringify(body)});
  let data = {}; try { data = await r.json(); } catch (e) { data = {ok: false, error: `HTTP ${r.status}`}; }
  return {status: r.status, ...data};
}
function ding() {
  try {
    audio = audio || new AudioContext();
    const o = audio.createOscillator(), g = audio.createGain();
    o.frequency.value = 880; g.gain.value = 0.2; o.connect(g); g.connect(audio.destination);
    o.start(); o.stop(audio.currentTime + 0.25);
  } catch (e) { /* no sound here: the list still shows the call */ }
  document.body.dataset.dings = String(Number(document.body.dataset.dings || 0) + 1);
}

function callItem(c) {
  const acts = !user ? "" : c.type === "floor"
    ? (c.state === "open" ? `<button class="small ok" data-event="${esc(c.event)}" data-ack="${esc(c.call)}">On my way</button>` : "") +
      `<button class="small" data-event="${esc(c.event)}" data-done="${esc(c.call)}">Done</button>`
    : (c.state === "requested" ? `<button class="small ok" data-event="${esc(c.event)}" data-approve="${esc(c.call)}">Approve</button>` : "");
  const who = c.by ? `<span class="taken">${c.type === "floor" ? "on my way" : "approved"}: ${esc(c.by)}</span>` : "";
  return `<li data-since="${esc(c.since)}" data-call="${esc(c.call)}" class="${c.late ? "late" : ""}"><span class="grow">
    <b>${c.type === "floor" ? "Floor" : "Clock"}</b> table ${esc(c.table)}${c.seat ? ` seat ${esc(c.seat)}` : ""}
    · <span class="wait"></span>${c.late ? ' <span class="tag late-call">LATE</span>' : ""}${c.section && c.section !== view.section ? ` · ${esc(c.section)}` : ""} ${who}</span>${acts}</li>`;
}

function render() {
  const v = view;
  const pick = $("#pick"), chosen = v.section || "";
  if (pick.options.length !== v.sections.length + 1) {
    pick.innerHTML = '<option value="">Whole room</option>' + v.sections.map(n => `<option>${esc(n)}</option>`).join("");
  }
  pick.value = chosen;
  $("#calls").innerHTML = v.calls.map(callItem).join("") || '<li class="muted">No calls</li>';
  $("#ncalls").textContent = v.calls.length || "";
  $("#clocks").innerHTML = v.clocks.map(c => `<li data-ends="${c.approved_at + c.countdown}"><span class="grow"><b>Table ${esc(c.table)}</b> seat ${esc(c.seat)}</span><b class="countdown"></b></li>`).join("") || '<li class="muted">None</li>';
  $("#moves").innerHTML = v.moves.map(m => `<li><span class="grow">${m.way === "in" ? "→" : "←"} <b>${esc(m.name)}</b> ${esc(m.from_table)}/${esc(m.from_seat)} → table ${esc(m.to_table)} seat ${esc(m.to_seat)}</span></li>`).join("") || '<li class="muted">None</li>';
  $("#need").innerHTML = v.need.map(n => `<li><span class="grow"><b>Table ${esc(n.table)}</b> ${n.why.map(esc).join(", ")}</span></li>`).join("") || '<li class="muted">All quiet</li>';
  const fresh = v.calls.filter(c => !heard.has(`${c.call}:${c.to}`));
  fresh.forEach(c => heard.add(`${c.call}:${c.to}`));
  if (fresh.length && heardOnce) ding();
  heardOnce = true;
  tick();
}

function tick() {
  const now = Date.now() / 1000 + offset;
  document.querySelectorAll("[data-since]").forEach(el => { const w = el.querySelector(".wait"); if (w) w.textContent = PK.fmt(now - Number(el.dataset.since)); });
  document.querySelectorAll("[data-ends]").forEach(el => { el.querySelector(".countdown").textContent = PK.fmt(Number(el.dataset.ends) - now); });
}

async function load() {
  const name = user ? mine : localStorage.getItem(SEC_KEY()) || "";
  const r = await fetch("/api/room/section" + (name ? "?name=" + encodeURIComponent(name) : ""));
  if (r.status === 404) { if (user) mine = ""; else localStorage.removeItem(SEC_KEY()); return load(); }
  view = await r.json();
  offset = view.server_time - Date.now() / 1000;
  render();
}

async function who() {
  const r = await fetch("/api/room").then(res => res.json()).catch(() => ({}));
  user = r.user || null; csrf = r.csrf || null;
  if (user) {
    const m = await fetch("/api/room/my-section").then(res => res.json()).catch(() => ({}));
    mine = m.user === user ? m.section || "" : mine;
  }
  $("#login").hidden = !!user; $("#me").hidden = !user; $("#user").textContent = user || "";
}

document.addEventListener("click", async ev => {
  const b = ev.target.closest("button"); if (!b) return;
  const d = b.dataset, url = d.event ? PK.url("/api/act", d.event) : null;
  let res = null;
  if (d.ack) res = await post(url, {kind: "floor_ack", call: d.ack});
  else if (d.done) res = await post(url, {kind: "floor_resolve", call: d.done});
  else if (d.approve) res = await post(url, {kind: "clock_approve", call: d.approve});
  else if (b.id === "logout") { await post("/api/logout", {}); await who(); }
  if (res) toast(res.ok ? "Done" : (res.error || "refused"), res.ok);
  load();
});

$("#pick").addEventListener("change", async ev => {
  const name = ev.target.value;
  if (user) {
    const res = await post("/api/room/my-section", {section: name});
    if (res.ok) mine = name; else toast(res.error || "refused", false);
  } else if (name) localStorage.setItem(SEC_KEY(), name);
  else localStorage.removeItem(SEC_KEY());
  load();
});

$("#login").addEventListener("submit", async ev => {
  ev.preventDefault();
  const f = ev.target, res = await post("/api/login", {user: f.user.value, password: f.password.value});
  if (res.ok) { await who(); load(); } else toast(res.error, false);
});

who().then(load);
setInterval(load, 2000);
setInterval(tick, 1000);
