// The floor's sections on the room page: each with its tables as ranges, a director's form
// to set them all ("Pavilion: 1-60", one a line), and the section this login works in,
// kept on the director for a login (every browser and phone of it opens there), in this
// browser for a visitor; choosing one filters the tables and calls to it, "Whole room"
// brings everything back. Loaded after room.js, whose render it follows.
"use strict";
let sections = [], sectionOf = {}, chosen = {user: null, section: ""};
const SEC_KEY = () => "pk-section:visitor";
const mySection = () => user ? (chosen.user === user ? chosen.section : "")
  : localStorage.getItem(SEC_KEY()) || "";

// the login's section as the director keeps it
async function loadMine() {
  if (!user) return;
  try {
    const r = await fetch("/api/room/my-section").then(res => res.json());
    if (r.user === user) chosen = {user, section: r.section || ""};
  } catch (e) { /* kept as it was until the next look */ }
}

function sectionLines() { return sections.map(s => `${s.name}: ${s.ranges}`).join("\n"); }

function parseSectionLines(text) {
  return text.split("\n").map(l => l.trim()).filter(Boolean).map(l => {
    const at = l.lastIndexOf(":");
    return at < 0 ? {name: l, tables: ""} : {name: l.slice(0, at).trim(), tables: l.slice(at + 1).trim()};
  });
}

function showSections() {
  const box = $("#sections-box"); if (!box) return;
  const mine = mySection();
  $("#sections").innerHTML = sections.map(s => `<li data-section="${esc(s.name)}"${s.name === mine ? ' class="mine"' : ""}>
    <span class="grow"><b>${esc(s.name)}</b> <span class="muted">${esc(_t("tables {ranges}", {ranges: s.ranges}))} · ${s.count}</span></span>
    <button class="small" data-work="${esc(s.name)}" aria-pressed="${s.name === mine}">${esc(s.name === mine ? _t("Mine") : _t("Work here"))}</button></li>`).join("")
    || `<li class="muted">${esc(_t("One room: no sections"))}</li>`;
  $("#whole-room").hidden = !mine;
  $("#my-section").textContent = mine ? _t("Section: {name}", {name: mine}) : "";
  const form = $("#sections-form");
  form.hidden = !can("set_sections");
  if (!form.hidden && document.activeElement !== form.lines) form.lines.value = sectionLines();
  const order = $("#break-order-form");
  order.hidden = !can("set_break_order") || !sections.length || !room;
  if (!order.hidden && document.activeElement !== order.event) {
    const live = room.events.filter(e => e.state === "running" || e.state === "open");
    const was = order.event.value;
    order.event.innerHTML = live.map(e => `<option value="${esc(e.event)}">${esc(e.title)}</option>`).join("");
    if (was) order.event.value = was;
  }
  filterToSection();
}

// only the chosen section's tables and calls; everything with "Whole room"
function filterToSection() {
  const mine = mySection();
  document.querySelectorAll("#map .tbl").forEach(el => {
    el.hidden = !!mine && sectionOf[Number(el.id.slice(4))] !== mine;
  });
  // a call reaches its section first; late (or from a table of no section), the room
  const fresh = [];
  document.querySelectorAll("#calls li[data-table]").forEach(el => {
    const ours = sectionOf[Number(el.dataset.table)] === mine || el.dataset.to === "room";
    el.hidden = !!mine && !ours;
    const key = `${el.dataset.call}:${el.dataset.to}`;
    if (!el.hidden && !heardCalls.has(key)) { heardCalls.add(key); fresh.push(el); }
  });
  if (fresh.length && heardOnce) PK.ding();
  heardOnce = true;
}

// a new call for this login (its section's, or one gone to the room): a short tone
const heardCalls = new Set();
let heardOnce = false;

async function loadSections() {
  try {
    const r = await fetch("/api/room/sections").then(res => res.json());
    sections = r.sections || [];
    sectionOf = {};
    sections.forEach(s => s.tables.forEach(n => { sectionOf[n] = s.name; }));
  } catch (e) { return; }
  await loadMine();
  if (room) render(room);
  showSections();
}

async function workIn(name) {
  if (user) {
    const res = await post("/api/room/my-section", {section: name});
    if (!res.ok) { toast(res.error || _t("refused"), false); return; }
    chosen = {user, section: name};
  } else if (name) localStorage.setItem(SEC_KEY(), name);
  else localStorage.removeItem(SEC_KEY());
  showSections();
}

if (typeof render === "function") {
  const roomRender = render;
  render = r => {   // eslint-disable-line no-global-assign
    roomRender(r);
    if (user && chosen.user !== user) { chosen = {user, section: ""}; loadMine().then(showSections); }
    filterToSection();
  };
}

document.addEventListener("click", ev => {
  const b = ev.target.closest("button"); if (!b) return;
  if (b.dataset.work !== undefined) workIn(b.dataset.work === mySection() ? "" : b.dataset.work);
  else if (b.id === "whole-room") workIn("");
});

$("#sections-form").addEventListener("submit", async ev => {
  ev.preventDefault();
  const res = await post("/api/room/sections", {sections: parseSectionLines(ev.target.lines.value)});
  toast(res.ok ? _t("Sections saved") : (res.error || _t("refused")), res.ok);
  if (res.ok) { ev.target.lines.blur(); loadSections(); }
});

$("#break-order-form").addEventListener("submit", async ev => {
  ev.preventDefault();
  const f = ev.target;
  const res = await post("/api/room/break-order", {event: f.event.value, sections: f.sections.value});
  toast(res.ok ? _t("Breaks {sections} first", {sections: res.sections.join(_t(", then "))}) : (res.error || _t("refused")), res.ok);
});

loadSections();
setInterval(loadSections, 5000);
