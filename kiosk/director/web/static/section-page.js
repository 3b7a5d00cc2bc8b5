// A section for its floor staff on a phone: its calls oldest first ("On my way", "Done"),
// running clock calls with their countdown, moves to and from its tables, and the tables
// that need the floor. A login's section is kept on the director, like the room page's
// (every browser and phone of it opens there), a visitor's in this browser; "Whole room"
// shows everything.
"use strict";
const $ = s => document.querySelector(s);
const {esc, toast, post} = PK;
let user = null, view = null, offset = 0;
const heard = new Set();
let heardOnce = false;
const SEC_KEY = () => "pk-section:visitor";
let mine = "";   // a login's section, as the director keeps it

const titleOf = name => (view && view.titles && view.titles[name]) || name;
// what the toast says once an answer went through
const SAID = {ack: _t("On my way"), done: _t("Call closed"), approve: _t("Clock approved")};
// why a table needs the floor, as the director names it
const WHY = {"floor call": _t("floor call"), "clock call": _t("clock call"), breaking: _t("breaking"),
             "chip race": _t("chip race"), offline: _t("offline")};

function callItem(c) {
  const acts = !user ? "" : c.type === "floor"
    ? (c.state === "open" ? `<button class="small ok" data-event="${esc(c.event)}" data-ack="${esc(c.call)}">${esc(_t("On my way"))}</button>` : "") +
      `<button class="small" data-event="${esc(c.event)}" data-done="${esc(c.call)}">${esc(_t("Done"))}</button>`
    : (c.state === "requested" ? `<button class="small ok" data-event="${esc(c.event)}" data-approve="${esc(c.call)}">${esc(_t("Approve"))}</button>` : "");
  const who = c.by ? `<span class="taken">${esc(c.type === "floor" ? _t("on my way: {name}", {name: c.by}) : _t("approved: {name}", {name: c.by}))}</span>` : "";
  return `<li data-since="${esc(c.since)}" data-call="${esc(c.call)}" data-table="${esc(c.table)}" class="${c.late ? "late" : ""}"><span class="grow">
    <b>${esc(c.type === "floor" ? _t("Floor") : _t("Clock"))}</b> ${esc(titleOf(c.event))} · ${esc(c.seat ? _t("table {table} seat {seat}", {table: c.table, seat: c.seat}) : _t("table {table}", {table: c.table}))}
    · <span class="wait"></span>${c.late ? ` <span class="tag late-call">${esc(_t("LATE"))}</span>` : ""}${c.section && c.section !== view.section ? ` · ${esc(c.section)}` : ""} ${who}</span>${acts}</li>`;
}

function render() {
  const v = view;
  const pick = $("#pick"), chosen = v.section || "";
  if (pick.options.length !== v.sections.length + 1) {
    pick.innerHTML = `<option value="">${esc(_t("Whole room"))}</option>` + v.sections.map(n => `<option>${esc(n)}</option>`).join("");
  }
  pick.value = chosen;
  $("#calls").innerHTML = v.calls.map(callItem).join("") || `<li class="muted">${esc(_t("No calls"))}</li>`;
  $("#ncalls").textContent = v.calls.length || "";
  $("#clocks").innerHTML = v.clocks.map(c => `<li data-ends="${c.approved_at + c.countdown}"><span class="grow"><b>${esc(_t("Table {table}", {table: c.table}))}</b> ${esc(_t("seat {seat}", {seat: c.seat}))}</span><b class="countdown"></b></li>`).join("") || `<li class="muted">${esc(_t("None"))}</li>`;
  $("#moves").innerHTML = v.moves.map(m => `<li><span class="grow">${m.way === "in" ? "→" : "←"} <b>${esc(m.name)}</b> ${esc(m.from_table)}/${esc(m.from_seat)} → ${esc(_t("table {table} seat {seat}", {table: m.to_table, seat: m.to_seat}))}</span></li>`).join("") || `<li class="muted">${esc(_t("None"))}</li>`;
  $("#need").innerHTML = v.need.map(n => `<li><span class="grow"><b>${esc(_t("Table {table}", {table: n.table}))}</b> ${n.why.map(w => esc(WHY[w] || w)).join(", ")}</span></li>`).join("") || `<li class="muted">${esc(_t("All quiet"))}</li>`;
  const fresh = v.calls.filter(c => !heard.has(`${c.call}:${c.to}`));
  fresh.forEach(c => heard.add(`${c.call}:${c.to}`));
  if (fresh.length && heardOnce) PK.ding();
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
  user = r.user || null; PK.csrf = r.csrf || null;
  if (user) {
    const m = await fetch("/api/room/my-section").then(res => res.json()).catch(() => ({}));
    mine = m.user === user ? m.section || "" : mine;
  }
  $("#login").hidden = !!user; $("#me").hidden = !user; $("#user").textContent = user || "";
  $("#role").textContent = user ? PK.roleName(r.role) : "";
}

document.addEventListener("click", async ev => {
  const b = ev.target.closest("button"); if (!b) return;
  const d = b.dataset, url = d.event ? PK.url("/api/act", d.event) : null;
  let res = null;
  if (d.ack) res = await post(url, {kind: "floor_ack", call: d.ack});
  else if (d.done) res = await post(url, {kind: "floor_resolve", call: d.done});
  else if (d.approve) res = await post(url, {kind: "clock_approve", call: d.approve});
  else if (b.id === "logout") { await post("/api/logout", {}); await who(); }
  const what = d.ack ? "ack" : d.done ? "done" : "approve";
  if (res) toast(res.ok ? _t("{what}: {event}, table {table}", {what: SAID[what], event: titleOf(d.event), table: b.closest("li").dataset.table}) : (res.error || _t("refused")), res.ok);
  load();
});

$("#pick").addEventListener("change", async ev => {
  const name = ev.target.value;
  if (user) {
    const res = await post("/api/room/my-section", {section: name});
    if (res.ok) mine = name; else toast(res.error || _t("refused"), false);
  } else if (name) localStorage.setItem(SEC_KEY(), name);
  else localStorage.removeItem(SEC_KEY());
  load();
});

$("#login").addEventListener("submit", async ev => {
  ev.preventDefault();
  const f = ev.target, res = await post("/api/login", {user: f.user.value, password: f.password.value});
  if (res.ok) { if (PK.relang(res)) return; await who(); load(); } else toast(res.error, false);
});

who().then(load);
setInterval(load, 2000);
setInterval(tick, 1000);
