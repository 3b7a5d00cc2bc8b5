// The printer page: the queue, a preview of any job, reprint and results. Without a
// printer it says so and offers nothing; its buttons show to a floor login only (the
// director checks each again). No build step.
"use strict";
const $ = (s) => document.querySelector(s);
const esc = (s) => String(s == null ? "" : s).replace(/[&<>"]/g,
  (c) => ({ "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;" })[c]);
let csrf = null, may = [];
const canPrint = () => may.includes("print");

async function whoAmI() {
  const s = await fetch("/api/snapshot").then((r) => r.json()).catch(() => ({}));
  csrf = s.csrf || null;
  may = s.may || [];
}

async function post(what, body) {
  const headers = { "Content-Type": "application/json" };
  if (csrf) headers["X-CSRF-Token"] = csrf;
  const r = await fetch(`/api/printer/${what}`, { method: "POST", headers, body: JSON.stringify(body || {}) });
  const res = await r.json();
  $("#msg").textContent = res.ok ? (res.job ? _t("job {job} queued", {job: res.job}) : _t("trying")) : res.error;
  $("#msg").className = res.ok ? "" : "error";
  refresh();
}

function show(id, title) {
  $("#preview").src = `/api/printer/jobs/${id}.png`;
  $("#preview").alt = title;
  $("#preview").hidden = false;
  $("#caption").textContent = title;
}

async function refresh() {
  const s = await (await fetch("/api/printer")).json();
  const state = $("#state");
  $("#jobs").hidden = !s.configured;
  $("#controls").hidden = !(s.configured && canPrint());
  $("#login-hint").hidden = !s.configured || canPrint();
  if (!s.configured) {
    state.textContent = _t("No printer: start the demo with --printer PORT, or set [printer] port in room.toml.");
    return;
  }
  const away = s.online === false;
  state.className = away ? "away" : "";
  state.textContent = `${s.port}: ${away ? _t("not printing ({error})", {error: s.error}) : _t("ready")}; ` +
    _tn("{n} slip waiting", "{n} slips waiting", s.waiting);
  const ev = $("#event");
  if (ev.options.length !== s.events.length)
    ev.innerHTML = s.events.map((e) => `<option>${esc(e)}</option>`).join("");
  $("#jobs tbody").innerHTML = s.jobs.map((j) =>
    `<tr class="${j.state}"><td>${j.id}</td><td><a href="#" data-show="${j.id}">${esc(j.title)}</a></td>` +
    `<td>${j.state === "queued" ? esc(_t("waiting")) + (j.error ? ": " + esc(j.error) : "") : esc(_t("printed"))}</td>` +
    `<td>${j.tries}</td><td>${canPrint() ? `<button type="button" data-reprint="${j.id}">${esc(_t("Reprint"))}</button>` : ""}</td></tr>`).join("");
}

document.addEventListener("click", (e) => {
  const t = e.target;
  if (t.dataset.show) { e.preventDefault(); show(t.dataset.show, t.textContent); }
  if (t.dataset.reprint) post("reprint", { job: Number(t.dataset.reprint) });
});
$("#results").addEventListener("click", () => post("results", { event: $("#event").value }));
$("#retry").addEventListener("click", () => post("retry"));
whoAmI().then(refresh);
setInterval(refresh, 2000);
