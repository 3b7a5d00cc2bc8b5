// What the pages' scripts share, loaded first on each: escaping, a new element, a time of
// day in the room's zone, the toast, a POST with the login's CSRF token, a short tone,
// the login form in the header, the health line; then the live feed and a local clock.
"use strict";
const PK = {
  summary: null, offset: 0, at: 0, csrf: null,
  esc(s) { return String(s ?? "").replace(/[&<>"']/g, c => ({"&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;", "'": "&#39;"}[c])); },
  // a new element with its text (set as text only) and class
  el(tag, text, cls) {
    const e = document.createElement(tag);
    if (text !== undefined) e.textContent = text;
    if (cls) e.className = cls;
    return e;
  },
  // a time of day in the room's zone (`tz`, an IANA name), or `none` when there is none
  hhmm(t, tz, none = "") {
    if (t === null || t === undefined) return none;
    const code = PK_I18N.code === "en" ? "en-GB" : PK_I18N.tag(PK_I18N.code);   // English: a 24-hour clock
    return new Date(t * 1000).toLocaleTimeString(code, {hour: "2-digit", minute: "2-digit", timeZone: tz || "UTC"});
  },
  toast(text, ok) {
    const el = document.getElementById("toast"); if (!el) return;
    el.textContent = text; el.className = ok ? "ok" : "error";
    clearTimeout(PK.toast.t); PK.toast.t = setTimeout(() => { el.textContent = ""; }, 6000);
  },
  // a POST as the login (PK.csrf, set at login); the answer's body, with its status
  async post(url, body, raw) {
    const headers = {"Content-Type": raw ? "text/csv" : "application/json"};
    if (PK.csrf) headers["X-CSRF-Token"] = PK.csrf;
    const r = await fetch(url, {method: "POST", headers, body: raw ? body : JSON.stringify(body)});
    let data = {};
    try { data = await r.json(); } catch (e) { data = {ok: false, error: _t("The director answered {status}", {status: r.status})}; }
    return {status: r.status, ...data};
  },
  // a short tone for a new call; the page counts them (body data-dings) for its tests
  ding() {
    try {
      const ctx = PK.ding.ctx = PK.ding.ctx || new AudioContext(), o = ctx.createOscillator(), g = ctx.createGain();
      o.frequency.value = 880; g.gain.setValueAtTime(0.2, ctx.currentTime);
      g.gain.exponentialRampToValueAtTime(0.001, ctx.currentTime + 0.4);
      o.connect(g).connect(ctx.destination); o.start(); o.stop(ctx.currentTime + 0.4);
    } catch (e) { /* no sound on this device: the list still shows the call */ }
    document.body.dataset.dings = String(Number(document.body.dataset.dings || 0) + 1);
  },
  // the header's login form and the login's name, role and Log out (#who); the page's
  // script handles the form's submit and the button
  who() {
    const box = document.getElementById("who"); if (!box || box.children.length) return;
    box.innerHTML = `<form id="login" class="inline" aria-label="${PK.esc(_t("floor login"))}">
      <input name="user" placeholder="${PK.esc(_t("floor user"))}" aria-label="${PK.esc(_t("floor user"))}" autocomplete="username" size="9">
      <input name="password" type="password" placeholder="${PK.esc(_t("password"))}" aria-label="${PK.esc(_t("password"))}" autocomplete="current-password" size="9">
      <button>${PK.esc(_t("Log in"))}</button></form>
      <span id="me" hidden><span id="user"></span> <span id="role" class="tag" title="${PK.esc(_t("this login's role"))}"></span> <button id="logout" class="small">${PK.esc(_t("Log out"))}</button></span>
      <span id="lang-choice"></span>`;
  },
  // the health line (#health): a background task of the director (or the demo's tables)
  // that failed, the broker, internal errors; `more(h)` reads the rest of the answer
  watchHealth(every, more) {
    const line = document.getElementById("health");
    const check = async () => {
      try {
        const h = await fetch("/api/health").then(r => r.json());
        const problems = PK.problems(h);
        line.hidden = !problems.length;
        line.textContent = problems.join(" · ");
        if (more) more(h);
      } catch (e) { /* the connection line says so already */ }
    };
    check();
    setInterval(check, every);
  },
  // the event this page shows: /event/NAME or ?event=NAME; none: the room's first
  event: (() => {
    const m = location.pathname.match(/^\/event\/([^/]+)/);
    return m ? decodeURIComponent(m[1]) : new URLSearchParams(location.search).get("event");
  })(),
  // an API address for this page's event
  url(path, event) {
    const e = event === undefined ? PK.event : event;
    return e ? path + (path.includes("?") ? "&" : "?") + "event=" + encodeURIComponent(e) : path;
  },
  fmt(sec) {
    sec = Math.max(0, Math.ceil(sec));
    const h = Math.floor(sec / 3600), m = Math.floor(sec % 3600 / 60), s = sec % 60;
    const mm = String(m).padStart(2, "0"), ss = String(s).padStart(2, "0");
    return h ? `${h}:${mm}:${ss}` : `${mm}:${ss}`;
  },
  money(n) { return n == null ? "-" : PK_I18N.num(Math.round(Number(n))); },
  // a level's blinds in the page's numbers: 1.000/2.000; where a locale groups with a
  // space, the slash takes a space each side (1 000 / 2 000), never three numbers in a row
  blinds(sb, bb, text) {
    return sb == null || bb == null ? text || "" : PK_I18N.blinds(sb, bb);
  },
  // a role's name (director, floor, cashier...) in the page's language
  roleName(r) {
    const names = {director: _t("director"), floor: _t("floor"), cashier: _t("cashier"), dealer: _t("dealer")};
    return names[r] || r || "";
  },
  // after a log-in: a login with its own language reads the page again in it
  relang(res) {
    if (res && res.language && res.language !== PK_I18N.code) { location.reload(); return true; }
    return false;
  },
  // the money block: summary.money when the director sends one, else today's keys
  moneyOf(s) {
    if (s.money) return s.money;
    return {prize_pool: s.prize_pool, payouts: s.payouts || [], bubble: !!s.bubble,
            places_paid: s.places_paid ?? (s.payouts || []).length, bounty_pool: 0};
  },
  // seconds left in the current period, counted down locally between summaries
  remaining() {
    const s = PK.summary;
    if (!s) return 0;
    return s.paused ? s.remaining : s.remaining - (Date.now() / 1000 - PK.at);
  },
  setSummary(s) { PK.summary = s; PK.at = Date.now() / 1000; },
  // the health line's items from /api/health: a background task that failed, the broker,
  // commands a bug refused (each in the director's log with its traceback)
  // (`problems`, said in the reader's language; `failed`, English, from an older director)
  problems(h) {
    const failed = h.problems || Object.entries(h.failed || {}).map(([task, why]) => `${task}: ${why}`);
    if (!h.broker_connected) failed.unshift(_t("{task}: {why}", {task: _t("broker"), why: _t("not connected")}));
    if (h.internal_errors) {
      failed.push(_t("{task}: {why}", {task: _t("internal errors"), why: _tn("{n} command refused (see the director's log)", "{n} commands refused (see the director's log)", h.internal_errors)}));
    }
    return failed;
  },
  // an open chip count (summary.money.chip_count) in words, while something is left to
  // do or is off: how many tables counted, the races the dealers still owe, what is wrong
  countLines(c) {
    if (!c || c.ok) return [];
    const flags = Object.entries(c.flags || {});
    const waiting = flags.filter(([, f]) => f.includes("no count yet")).length;
    const owed = c.races_pending || [];
    const label = c.label_msg ? PK_I18N.say(c.label_msg, c.label) : c.label;
    const out = [_t("{label}: {counted} of {all} tables counted", {label, counted: c.tables_counted, all: c.tables_counted + waiting})];
    if (owed.length) out.push(_tn("race pending at table {tables}", "race pending at tables {tables}", owed.length, {tables: owed.join(", ")}));
    for (const [t, f] of flags) {
      const wrong = f.filter(w => w !== "no count yet");
      if (wrong.length) out.push(_t("table {table}: {wrong}", {table: t, wrong: wrong.join("; ")}));
    }
    if (!waiting && !owed.length && c.difference)
      out.push(c.difference > 0 ? _t("{chips} chips over", {chips: PK.money(Math.abs(c.difference))})
                                : _t("{chips} chips short", {chips: PK.money(Math.abs(c.difference))}));
    return out;
  },
  connect(onMessage, onState, event) {
    let ws, backoff = 500;
    const open = () => {
      ws = new WebSocket((location.protocol === "https:" ? "wss://" : "ws://") + location.host + PK.url("/ws", event));
      ws.onopen = () => { backoff = 500; onState && onState(true); };
      ws.onmessage = ev => onMessage(JSON.parse(ev.data));
      ws.onclose = () => { onState && onState(false); setTimeout(open, backoff); backoff = Math.min(backoff * 2, 8000); };
    };
    open();
  },
};
PK.who();
