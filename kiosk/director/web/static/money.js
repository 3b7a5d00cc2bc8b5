// Results, deal calculator and audit pages: fetch JSON, render tables. No build step.
"use strict";
const $ = (s) => document.querySelector(s);
const money = (n) => (n == null ? "" : Number(n).toLocaleString("en"));
const esc = (s) => String(s == null ? "" : s).replace(/[&<>"]/g,
  (c) => ({ "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;" })[c]);
// the event this page is about (?event=NAME; none: the room's first), kept in its links
const EVENT = new URLSearchParams(location.search).get("event");
const withEvent = (url) => (EVENT ? url + (url.includes("?") ? "&" : "?") + "event=" + encodeURIComponent(EVENT) : url);
document.querySelectorAll("nav a").forEach((a) => {
  if (a.getAttribute("href") !== "/") a.setAttribute("href", withEvent(a.getAttribute("href")));
});
async function getJSON(url, opts) {
  const r = await fetch(withEvent(url), opts);
  const body = await r.json();
  if (!r.ok) throw new Error(body.error || r.statusText);
  return body;
}
function cell(v, cls) { return `<td${cls ? ` class="${cls}"` : ""}>${esc(v)}</td>`; }
// what the login may do (none before login): Record shows only to a role that may
let may = [];
async function whoAmI() {
  may = (await getJSON("/api/snapshot").catch(() => ({}))).may || [];
}

async function results() {
  const d = await getJSON("/api/results");
  $("#event").textContent = d.title || d.event;
  document.title = `${d.title || d.event} results - poker-kiosk`;
  const t = d.totals;
  const boxes = [["Prize pool", t.prize_pool], ["Places paid", t.payouts.length],
                 ["Entries", t.entries]];
  if (d.bounty_mode) boxes.push(["Bounty pool", t.bounty_pool], ["Bounties won", t.bounties_won]);
  $("#totals").innerHTML = boxes.map(([k, v]) => `<div>${esc(k)}<b>${money(v)}</b></div>`).join("");
  const names = Object.fromEntries(d.rows.map((r) => [r.player, r.name]));
  $("#results tbody").innerHTML = d.rows.map((r) =>
    `<tr class="${r.prize ? "paid" : "out"}" data-player="${esc(r.player)}">` +
    cell(r.place == null ? "in play" : r.place, "num") + cell(r.name) + cell(money(r.prize), "num") +
    cell(money(r.bounty), "num b") +
    cell((r.eliminated_by || "").split("+").filter(Boolean).map((p) => names[p] || p).join(" + ")) +
    cell(r.entries + r.rebuys, "num n") + "</tr>").join("");
  // the bounties column only where the event pays bounties
  document.querySelectorAll("#results .b").forEach((el) => { el.hidden = !d.bounty_mode; });
  $("#slips").innerHTML = d.rows.filter((r) => r.prize || r.bounty).map((r) =>
    `<div class="slip"><h2>${esc(d.event)}</h2><p>Place ${esc(r.place ?? "-")}: <b>${esc(r.name)}</b></p>` +
    `<p>Prize ${money(r.prize)}${r.bounty ? ` + bounties ${money(r.bounty)}` : ""}</p>` +
    `<p>Signature ______________________</p></div>`).join("");
}

let dealRows = [];
function dealStacks() {
  const out = {};
  document.querySelectorAll("#deal input[data-player]").forEach((i) => {
    out[i.dataset.player] = i.value.trim() === "" ? null : Number(i.value);
  });
  return out;
}
function renderDeal(d) {
  dealRows = d.players;
  // more players than a deal is made for: say so, and ask for no chips
  const tooMany = d.players.length > d.max_players;
  for (const el of [$("#deal"), $("#calc"), $("#total"), $("#method").closest("label")]) el.hidden = tooMany;
  $("#record").hidden = tooMany || !may.includes("deal");
  const chips = d.players.reduce((a, r) => a + (r.stack || 0), 0);
  $("#deal tbody").innerHTML = d.players.map((r) =>
    `<tr><td>${esc(r.name)}</td><td><input data-player="${esc(r.player)}" inputmode="numeric" ` +
    `aria-label="chips of ${esc(r.name)}" value="${r.stack || ""}"></td>` +
    cell(chips ? (100 * (r.stack || 0) / chips).toFixed(1) + " %" : "", "num") +
    `<td class="num amount">${money(r.amount)}</td></tr>`).join("");
  $("#total").textContent = `places left pay ${d.prizes.map(money).join(" / ")} = ${money(d.total)}`;
  const msg = $("#message");
  msg.textContent = d.error || (d.agreed ? "A deal is recorded." : "");
  msg.className = d.error ? "error" : "ok";
  $("#record").disabled = Boolean(d.error) || d.players.some((r) => r.amount == null);
}
async function calcDeal(useInputs) {
  const method = $("#method").value;
  const d = useInputs
    ? await getJSON("/api/deal", { method: "POST", headers: { "Content-Type": "application/json" },
                                   body: JSON.stringify({ method, stacks: dealStacks() }) })
    : await getJSON("/api/deal?method=" + method);
  renderDeal(d);
}
async function recordDeal() {
  const amounts = Object.fromEntries(dealRows.map((r) => [r.player, r.amount]));
  const msg = $("#message");
  try {
    // the session's CSRF token (a login on the dashboard, in this browser, is enough)
    const { csrf } = await getJSON("/api/snapshot");
    const headers = { "Content-Type": "application/json" };
    if (csrf) headers["X-CSRF-Token"] = csrf;
    await getJSON("/api/act", { method: "POST", headers,
      body: JSON.stringify({ kind: "deal", method: $("#method").value, amounts }) });
    msg.textContent = "Deal recorded."; msg.className = "ok";
  } catch (e) { msg.textContent = e.message; msg.className = "error"; }
}

async function audit() {
  const d = await getJSON("/api/audit");
  const show = (v) => (v == null ? "" : typeof v === "object" ? JSON.stringify(v) : v);
  $("#audit-empty").hidden = d.audit.length > 0;
  $("#audit tbody").innerHTML = d.audit.map((a) => "<tr>" +
    cell(new Date(a.t * 1000).toLocaleTimeString()) + cell(a.by) + cell(a.action.replaceAll("_", " ")) +
    cell(show(a.before)) + cell(show(a.after)) + cell(show(a.details)) + "</tr>").join("");
}

const page = document.body.dataset.page;
if (page === "results") {
  results();
  $("#print").addEventListener("click", () => window.print());
} else if (page === "deal") {
  whoAmI().then(() => calcDeal(false)).catch((e) => { $("#message").textContent = e.message; });
  $("#deal-form").addEventListener("submit", (ev) => {
    ev.preventDefault();
    calcDeal(true).catch((e) => { $("#message").textContent = e.message; $("#message").className = "error"; });
  });
  $("#record").addEventListener("click", recordDeal);
} else if (page === "audit") {
  audit();
}
