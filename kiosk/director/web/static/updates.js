// The room page's Updates panel: what each table runs and the rollout. Small while there
// is nothing to roll out: one line with the tables' versions and how to add a release.
// Its controls show to a login that may steer updates (room.js's `can`, `post`, `toast`).
"use strict";
let updates = null, updatesBusy = false;
const QUIET = ["current", "unknown"];     // a table that has nothing to tell the floor

function updatesSkeleton(el) {
  el.innerHTML = `<p id="upd-line"><span id="upd-versions"></span> <span id="upd-rollout"></span></p>
    <form id="upd-form" class="row" hidden>
      <label class="check">${esc(_t("Release"))} <select name="version" aria-label="${esc(_t("release"))}"></select></label>
      <input name="tables" placeholder="${esc(_t("tables (blank: all)"))}" aria-label="${esc(_t("tables"))}">
      <button data-a="rollout">${esc(_t("Roll out"))}</button><button data-a="hold">${esc(_t("Hold"))}</button>
      <button data-a="resume">${esc(_t("Resume"))}</button><button data-a="now">${esc(_t("Switch now"))}</button></form>
    <details id="upd-detail"><summary>${esc(_t("Each table"))}</summary>
      <table class="list"><thead><tr><th>${esc(_t("Table"))}</th><th>${esc(_t("Version"))}</th><th>${esc(_t("Wanted"))}</th><th>${esc(_t("State"))}</th>
      <th>${esc(_t("Why"))}</th></tr></thead><tbody id="upd-tables"></tbody></table></details>`;
  el.querySelectorAll("#upd-form button").forEach(b => b.addEventListener("click", async ev => {
    ev.preventDefault();
    const f = document.querySelector("#upd-form"), a = b.dataset.a;
    const tables = f.tables.value.split(",").map(s => parseInt(s, 10)).filter(n => n > 0);
    const all = updates ? updates.tables.map(t => t.table) : [];
    const body = {action: a, version: f.version.value || null,
                  tables: tables.length ? tables : (a === "now" ? all : null)};
    const res = await post("/api/releases", body);
    toast(res.ok ? _t("Updates: {action}", {action: b.textContent}) : (res.error || _t("refused")), res.ok);
    loadUpdates();
  }));
}

// "Tables: 8 run 0.1.0." or "Tables: 6 run 0.1.0 · 2 run 0.2.0 · 1 not reporting."
function versionsText(tables) {
  if (!tables.length) return _t("No table yet.");
  const count = new Map();
  for (const t of tables) count.set(t.version || "", (count.get(t.version || "") || 0) + 1);
  const parts = [...count.entries()].sort((a, b) => b[1] - a[1])
    .map(([v, n]) => v ? _tn("{n} runs {version}", "{n} run {version}", n, {version: v}) : _tn("{n} not reporting", "{n} not reporting", n));
  return _t("Tables: {list}.", {list: parts.join(" · ")});
}

function rolloutHtml(u) {
  const r = u.rollout, problem = u.problem ? ` <b class="bad">${esc(u.problem)}</b>` : "";
  if (!u.releases.length)
    return esc(_t("No release to roll out: add one with {command}.", {command: "\u0001"})).replace("\u0001", "<code>pokerkiosk release add</code>") + problem;
  if (!r.version) {
    const names = u.releases.map(x => x.version).join(", ");
    return esc(_tn("No rollout; release {names} ready.", "No rollout; releases {names} ready.", u.releases.length, {names})) + problem;
  }
  const where = r.tables ? _t("tables {tables}", {tables: r.tables.join(", ")}) : _t("every table");
  return esc(_t("Rolling out {version} to {where}.", {version: r.version, where})) + (r.hold ? ` <b>${esc(_t("(held)"))}</b>` : "") + problem;
}

// a table's update state as the director names it
function updState(s) {
  const words = {current: _t("current"), unknown: _t("unknown"), waiting: _t("waiting"), downloading: _t("downloading"),
                 ready: _t("ready"), held: _t("held"), switching: _t("switching"), switched: _t("switched"),
                 "rolled back": _t("rolled back"), refused: _t("refused")};
  return words[s] || s;
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
    <td>${esc(updState(t.state))}${t.online ? "" : " " + esc(_t("(offline)"))}</td><td>${esc(t.reason_msg ? PK_I18N.say(t.reason_msg, t.reason) : t.reason)}</td></tr>`).join("");
}

async function loadUpdates() {
  try { updates = await (await fetch("/api/releases")).json(); } catch (e) { return; }
  showUpdates();
}
loadUpdates();
setInterval(loadUpdates, 3000);
