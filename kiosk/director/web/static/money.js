// Results, deal calculator and audit pages: fetch JSON, render tables. No build step.
"use strict";
const $ = (s) => document.querySelector(s);
// the room's currency and time zone (each JSON reply names them); money and times in
// the page's language (English as a card room writes it: en-GB, a 24-hour clock)
const fmt = { currency: "", timezone: "" };
const tag = () => (["en", "en_XA"].includes(PK_I18N.code) ? "en-GB" : PK_I18N.tag(PK_I18N.code));
function formats(d) { fmt.currency = d.currency || ""; fmt.timezone = d.timezone || ""; return d; }
const money = (n) => (n == null ? "" : fmt.currency
  ? new Intl.NumberFormat(tag(), { style: "currency", currency: fmt.currency, maximumFractionDigits: 0, minimumFractionDigits: 0 }).format(n)
  : PK_I18N.num(Number(n)));
const esc = (s) => String(s == null ? "" : s).replace(/[&<>"]/g,
  (c) => ({ "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;" })[c]);   // no live.js here
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
  return formats(body);
}
function cell(v, cls) { return `<td${cls ? ` class="${cls}"` : ""}>${esc(v)}</td>`; }
// what the login may do (none before login): Record and the payout slips show only to a
// role that may; the event's title for the page's heading
let may = [], title = "";
async function whoAmI() {
  const s = await getJSON("/api/snapshot").catch(() => ({}));
  may = s.may || [];
  title = (s.summary && s.summary.title) || s.event || "";
}

async function results() {
  const d = await getJSON("/api/results");
  $("#event").textContent = _t("{title} results", { title: d.title || d.event });
  document.title = _t("{title} results - poker-kiosk", { title: d.title || d.event });
  const t = d.totals;
  const boxes = [[_t("Prize pool"), money(t.prize_pool)], [_t("Places paid"), PK_I18N.num(t.payouts.length)],
                 [_t("Entries"), PK_I18N.num(t.entries)]];
  if (d.bounty_mode) boxes.push([_t("Bounty pool"), money(t.bounty_pool)], [_t("Bounties won"), money(t.bounties_won)]);
  $("#totals").innerHTML = boxes.map(([k, v]) => `<div>${esc(k)}<b>${esc(v)}</b></div>`).join("");
  const names = Object.fromEntries(d.rows.map((r) => [r.player, r.name]));
  $("#results tbody").innerHTML = d.rows.map((r) =>
    `<tr class="${r.prize ? "paid" : "out"}" data-player="${esc(r.player)}">` +
    cell(r.place == null ? _t("in play") : r.place, "num") + cell(r.name) + cell(r.prize ? money(r.prize) : "—", "num") +
    cell(money(r.bounty), "num b") +
    cell((r.eliminated_by || "").split("+").filter(Boolean).map((p) => names[p] || p).join(" + ")) +
    cell(r.entries + r.rebuys, "num n") + "</tr>").join("");
  // the bounties column only where the event pays bounties
  document.querySelectorAll("#results .b").forEach((el) => { el.hidden = !d.bounty_mode; });
  const slip = (r) => {
    const place = _t("Place {place}: {name}", { place: String(r.place ?? "-"), name: r.name });
    const prize = r.bounty ? _t("Prize {prize} + bounties {bounty}", { prize: money(r.prize), bounty: money(r.bounty) })
      : _t("Prize {prize}", { prize: money(r.prize) });
    const sign = _t("Signature");
    return `<div class="slip"><h2>${esc(d.event)}</h2><p>${esc(place)}</p><p>${esc(prize)}</p>` +
      `<p>${esc(sign)} ______________________</p></div>`;
  };
  $("#slips").innerHTML = d.rows.filter((r) => r.prize || r.bounty).map(slip).join("");
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
  if (title) $("h1").textContent = _t("Deal calculator: {title}", { title });
  // more players than a deal is made for: say so, as the way things are, and ask for no chips
  const tooMany = d.players.length > d.max_players;
  for (const el of [$("#deal"), $("#calc"), $("#total"), $("#method").closest("label")]) el.hidden = tooMany;
  $("#record").hidden = tooMany || !may.includes("deal");
  const chips = d.players.reduce((a, r) => a + (r.stack || 0), 0);
  const chipsOf = (r) => _t("chips of {name}", { name: r.name });
  $("#deal tbody").innerHTML = d.players.map((r) =>
    `<tr><td>${esc(r.name)}</td><td><input data-player="${esc(r.player)}" inputmode="numeric" ` +
    `aria-label="${esc(chipsOf(r))}" value="${r.stack || ""}"></td>` +
    cell(chips ? new Intl.NumberFormat(tag(), { style: "percent", minimumFractionDigits: 1, maximumFractionDigits: 1 }).format((r.stack || 0) / chips) : "", "num") +
    `<td class="num amount">${money(r.amount)}</td></tr>`).join("");
  $("#total").textContent = _t("places left pay {prizes} = {total}", { prizes: d.prizes.map(money).join(" / "), total: money(d.total) });
  const msg = $("#message");
  const far = { most: d.max_players, left: d.players.length, title };
  msg.textContent = tooMany ? (title ? _t("{title}: a deal is calculated for {most} players or fewer, and {left} are left. Come back at the final table.", far)
                                     : _t("A deal is calculated for {most} players or fewer, and {left} are left. Come back at the final table.", far))
    : d.error ? PK_I18N.say(d.error_msg, d.error) : d.agreed ? _t("A deal is recorded.") : "";
  msg.className = tooMany ? "info" : d.error ? "error" : "ok";
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
    msg.textContent = _t("Deal recorded."); msg.className = "ok";
  } catch (e) { msg.textContent = e.message; msg.className = "error"; }
}

// an audited action in the reader's words; a kind not named here reads as it is sent
function actionName(kind) {
  const names = {
    clock_pause: _t("clock paused"), clock_resume: _t("clock resumed"), clock_add: _t("time added"),
    clock_set: _t("time set"), clock_jump: _t("level changed"), break_order_set: _t("break order set"),
    floor_acked: _t("floor call answered"), floor_resolved: _t("floor call resolved"),
    clock_approved: _t("clock call approved"), penalty: _t("penalty"), table_noted: _t("table note"),
    payouts_locked: _t("payouts locked"), prize_rules_set: _t("prize rules set"), deal_agreed: _t("deal agreed"),
    set_eliminator: _t("eliminator set"), stack_left_play: _t("stack left play"), audited: _t("change recorded"),
    count_opened: _t("chip count opened"), chips_counted: _t("chips counted"), day_ended: _t("day ended"),
    bagged: _t("chips bagged"), redrawn: _t("seats redrawn"), shot_clock_set: _t("shot clock set"),
    orbit: _t("orbit for orbit")};
  return names[kind] || kind.replaceAll("_", " ");
}

async function audit() {
  const d = await getJSON("/api/audit");
  const show = (v) => (v == null ? "" : typeof v === "object" ? JSON.stringify(v) : v);
  $("#audit-empty").hidden = d.audit.length > 0;
  $("#audit tbody").innerHTML = d.audit.map((a) => "<tr>" +
    cell(new Date(a.t * 1000).toLocaleTimeString(tag(), { timeZone: fmt.timezone || undefined })) + cell(a.by) + cell(actionName(a.action)) +
    cell(show(a.before)) + cell(show(a.after)) + cell(show(a.details)) + "</tr>").join("");
}

const page = document.body.dataset.page;
if (page === "results") {
  $("#print").hidden = true;      // payout slips are the desk's: shown to a login
  whoAmI().then(() => { $("#print").hidden = !may.includes("print"); });
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
