// Shared by the dashboard, the room page and the TV clock: the live feed, a local clock
// and the health line's items.
"use strict";
const PK = {
  summary: null, offset: 0, at: 0,
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
  money(n) { return n == null ? "-" : Number(n).toLocaleString("en"); },
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
  problems(h) {
    const failed = Object.entries(h.failed || {});
    if (!h.broker_connected) failed.unshift(["broker", "not connected"]);
    if (h.internal_errors) {
      failed.push(["internal errors", `${h.internal_errors} command${h.internal_errors === 1 ? "" : "s"} refused (see the director's log)`]);
    }
    return failed.map(([task, why]) => `${task}: ${why}`);
  },
  // an open chip count (summary.money.chip_count) in words, while something is left to
  // do or is off: how many tables counted, the races the dealers still owe, what is wrong
  countLines(c) {
    if (!c || c.ok) return [];
    const flags = Object.entries(c.flags || {});
    const waiting = flags.filter(([, f]) => f.includes("no count yet")).length;
    const owed = c.races_pending || [];
    const out = [`${c.label}: ${c.tables_counted} of ${c.tables_counted + waiting} tables counted`];
    if (owed.length) out.push(`race pending at table${owed.length > 1 ? "s" : ""} ${owed.join(", ")}`);
    for (const [t, f] of flags) {
      const wrong = f.filter(w => w !== "no count yet");
      if (wrong.length) out.push(`table ${t}: ${wrong.join("; ")}`);
    }
    if (!waiting && !owed.length && c.difference)
      out.push(`${PK.money(Math.abs(c.difference))} chips ${c.difference > 0 ? "over" : "short"}`);
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
