// The room page's Updates panel: what each table runs and the rollout. Small while there
// is nothing to roll out: one line with the tables' versions and how to add a release.
// Its controls show to a login that may steer updates (room.js's `can`, `post`, `toast`).
"use strict";
let updates = null, updatesBusy = false;
const QUIET = ["current", "unknown"];     // a table that has nothing to tell the floor

function updatesSkeleton(el) {
  el.innerHTML = `<p id="upd-line"><span id="upd-versions"></span> <span id="upd-rollout"></span></p>
    <form id="upd-form" class="row" hidden>
      <label class="check">Release <select name="version" aria-label="release"></select></label>
      <input name="tables" placeholder="tables (blank: all)" aria-label="tables">
      <button data-a="rollout">Roll out</button><button data-a="hold">Hold</button>
      <button data-a="resume">Resume</button><button data-a="now">Switch now</button></form>
    <details id="upd-detail"><summary>Each table</summary>
      <table class="list"><thead><tr><th>Table</th><th>Version</th><th>Wanted</th><th>State</th>
      <th>Why</th></tr></thead><tbody id="upd-tables"></tbody></table></details>`;
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

// "Tables: 8 run 0.1.0." or "Tables: 6 run 0.1.0 · 2 run 0.2.0 · 1 not reporting."
function versionsText(tables) {
  if (!tables.length) return "No table yet.";
  const count = new Map();
  for (const t of tables) count.set(t.version || "", (count.get(t.version || "") || 0) + 1);
  const parts = [...count.entries()].sort((a, b) => b[1] - a[1])
    .map(([v, n]) => v ? `${n} run ${v}` : `${n} not reporting`);
  return `Tables: ${parts.join(" · ")}.`;
}

function rolloutHtml(u) {
  const r = u.rollout, problem = u.problem ? ` <b class="bad">${esc(u.problem)}</b>` : "";
  if (!u.releases.length)
    return `No release to roll out: add one with <code>pokerkiosk release add</code>.${problem}`;
  if (!r.version) {
    const names = u.releases.map(x => esc(x.version)).join(", ");
    return `No rollout; release${u.releases.length === 1 ? "" : "s"} ${names} ready.${problem}`;
  }
  const where = r.tables ? `tables ${r.tables.join(", ")}` : "every table";
  return `Rolling out <b>${esc(r.version)}</b> to ${where}${r.hold ? " <b>(held)</b>" : ""}.${problem}`;
}

function showUpdates() {
  const el = document.querySelector("#updates"), u = updates;
  if (!el || !u) return;
  if (!el.querySelector("#upd-form")) updatesSkeleton(el);
  const r = u.rollout;
  el.querySelector("#upd-versions").textContent = versionsText(u.tables);
  el.querySelector("#upd-rollout").innerHTML = rolloutHtml(u);
  const form = el.querySelector("#upd-form");
  form.hidden = !(u.releases.length && can("release"));
  const select = form.querySelector("select[name=version]");
  const versions = u.releases.map(x => x.version).join(" ");
  if (select.dataset.versions !== versions) {
    select.dataset.versions = versions;
    select.innerHTML = u.releases.map(x => `<option${x.version === r.version ? " selected" : ""}>${esc(x.version)}</option>`).join("");
  }
  form.querySelector("[data-a=hold]").hidden = !r.version || r.hold;
  form.querySelector("[data-a=resume]").hidden = !r.version || !r.hold;
  form.querySelector("[data-a=now]").hidden = !r.version;
  // the tables' list opens by itself when there is something to follow, once
  const busy = !!r.version || !!u.problem || u.tables.some(t => !QUIET.includes(t.state));
  if (busy && !updatesBusy) el.querySelector("#upd-detail").open = true;
  updatesBusy = busy;
  el.querySelector("#upd-tables").innerHTML = u.tables.map(t => `<tr>
    <td>${t.table}</td><td>${esc(t.version || "?")}</td><td>${esc(t.wanted || "-")}</td>
    <td>${esc(t.state)}${t.online ? "" : " (offline)"}</td><td>${esc(t.reason)}</td></tr>`).join("");
}

async function loadUpdates() {
  try { updates = await (await fetch("/api/releases")).json(); } catch (e) { return; }
  showUpdates();
}
loadUpdates();
setInterval(loadUpdates, 3000);
