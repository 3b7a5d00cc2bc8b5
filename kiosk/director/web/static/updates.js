// The room page's Updates panel: each table's version, the wanted one and what its
// updater does; the floor rolls a release out, holds it, or says "now" (room.js's post).
"use strict";
let updates = null;
function updatesSkeleton(el) {
  el.innerHTML = `<p id="upd-rollout"></p>
    <form id="upd-form" class="row"><select name="version"></select>
      <input name="tables" placeholder="tables (blank: all)">
      <button data-a="rollout">Roll out</button><button data-a="hold">Hold</button>
      <button data-a="resume">Resume</button><button data-a="now">Switch now</button></form>
    <table class="list"><thead><tr><th>Table</th><th>Version</th><th>Wanted</th><th>State</th>
      <th>Why</th></tr></thead><tbody id="upd-tables"></tbody></table>`;
  el.querySelectorAll("#upd-form button").forEach(b => b.addEventListener("click", async ev => {
    ev.preventDefault();
    const f = document.querySelector("#upd-form"), a = b.dataset.a;
    const tables = f.tables.value.split(",").map(s => parseInt(s, 10)).filter(n => n > 0);
    const all = updates ? updates.tables.map(t => t.table) : [];
    const body = {action: a, version: f.version.value || null,
                  tables: tables.length ? tables : (a === "now" ? all : null)};
    const res = await post("/api/releases", body);
    toast(res.ok ? `updates: ${a}` : (res.error || "refused"), res.ok);
    loadUpdates();
  }));
}
async function loadUpdates() {
  try { updates = await (await fetch("/api/releases")).json(); } catch (e) { return; }
  const el = document.querySelector("#updates"), r = updates.rollout;
  if (!el.querySelector("#upd-form")) updatesSkeleton(el);
  const select = el.querySelector("select[name=version]");
  const versions = updates.releases.map(x => x.version).join(" ");
  if (select.dataset.versions !== versions) {
    select.dataset.versions = versions;
    select.innerHTML = updates.releases.map(x => `<option${x.version === r.version ? " selected" : ""}>${esc(x.version)}</option>`).join("");
  }
  el.querySelector("#upd-rollout").innerHTML = `Rollout: <b>${esc(r.version || "none")}</b>
    ${r.tables ? `to tables ${r.tables.join(", ")}` : r.version ? "to every table" : ""}
    ${r.hold ? "<b>(held)</b>" : ""} ${esc(updates.problem)}`;
  el.querySelector("#upd-tables").innerHTML = updates.tables.map(t => `<tr>
    <td>${t.table}</td><td>${esc(t.version || "?")}</td><td>${esc(t.wanted || "-")}</td>
    <td>${esc(t.state)}${t.online ? "" : " (offline)"}</td><td>${esc(t.reason)}</td></tr>`).join("");
}
loadUpdates();
setInterval(loadUpdates, 3000);
