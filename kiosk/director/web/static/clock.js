// The TV clock: one event (/clock, /clock?event=NAME) filling the screen, or two to four
// (/clock?events=a,b,c,d) tiled on it, each tile sized by its own box. Every word in the
// languages the floor shows (tv-langs.js: one, side by side, or in turn), numbers and
// times as each language writes them.
"use strict";
const MAX_TILES = 4;
const TV = PK_TV, say = TV.text;
const ord = PK_I18N.place, blinds = PK_I18N.blinds;
function antes(x, c) {
  if (!x) return "";
  if (x.bb_ante) return _t("BB ante {amount}", {amount: TV.num(x.bb_ante, c)}, c);
  return x.ante ? _t("Ante {amount}", {amount: TV.num(x.ante, c)}, c) : "";
}

// the room's word on each event (/api/room, public): its kind, its state, a satellite's
// target; read once, and again every minute
const ROOM = {events: new Map()};
async function readRoom() {
  const r = await fetch("/api/room").then(res => res.ok ? res.json() : null).catch(() => null);
  if (r) ROOM.events = new Map(r.events.map(e => [e.event, e]));
  tiles.forEach(t => t.summary && t.show(t.summary));
}

// the event's state in a few words, each a function of the language
function banners(s) {
  const out = [];
  if (s.finished) return [c => _t("FINISHED", null, c)];
  if (!s.started) out.push(s.state === "scheduled" ? c => _t("ANNOUNCED", null, c) : c => _t("NOT STARTED", null, c));
  else if (s.paused) out.push(c => _t("PAUSED", null, c));
  if (s.hand_for_hand.on) out.push(c => _t("HAND-FOR-HAND", null, c));
  else if (s.orbit && s.orbit.on) out.push(c => _t("ORBIT FOR ORBIT", null, c));
  if (s.final_pending) out.push(c => _t("FINAL TABLE DRAW", null, c));
  else if (s.final_table) out.push(c => _t("FINAL TABLE", null, c));
  if (PK.moneyOf(s).bubble) out.push(c => _t("BUBBLE", null, c));
  return out;
}

class Tile {
  // one event's clock in `root`; the only one on the screen also keeps PK.summary and the
  // element ids the single clock always had
  constructor(root, event, single) {
    this.root = root; this.event = event; this.single = single; this.summary = null; this.at = 0;
    this.missing = null;     // an event the room does not know: what the tile says of it
    root.append(document.getElementById("tile").content.cloneNode(true));
    this.el = {};
    root.querySelectorAll("[data-f]").forEach(e => { this.el[e.dataset.f] = e; if (single) e.id = e.dataset.f; });
    this.paysShown = single ? 9 : 4;   // places on the wall; the rest are counted
  }
  start() {
    fetch(PK.url("/api/snapshot", this.event)).then(async r => {
      if (r.ok) { PK.connect(m => { if (m.summary) this.show(m.summary); }, null, this.event); return; }
      const body = await r.json().catch(() => ({}));
      // the refusal in each language shown, from its key (else as the director said it)
      this.missing = body.error ? c => PK_I18N.say(body.error_msg, body.error, c)
                                : c => _t("no event {event}", {event: this.event}, c);
      say(this.el.event, this.missing);
      this.el.event.classList.add("missing");
    });
  }
  remaining() {
    const s = this.summary; if (!s) return 0;
    return s.paused ? s.remaining : s.remaining - (Date.now() / 1000 - this.at);
  }
  show(s) {
    this.summary = s; this.at = Date.now() / 1000;
    if (this.single) PK.setSummary(s);
    const el = this.el, m = PK.moneyOf(s), room = ROOM.events.get(s.event) || {};
    el.event.textContent = s.title || s.event;
    el.banner.replaceChildren(...banners({...s, state: room.state}).map(b => TV.node("span", b)));
    this.root.classList.toggle("finished", !!s.finished);
    this.root.classList.toggle("onbreak", !s.finished && s.is_break);
    const announced = !s.started && room.state === "scheduled";
    this.root.classList.toggle("announced", announced);
    // a level's amounts, from the numbers (the older director's texts as they are)
    const amounts = s.antes ? c => antes(s.antes, c) : () => s.ante_text || "";
    const next = s.next_amounts;
    if (s.finished) {
      say(el.level, c => _t("Winner", null, c)); el.blinds.textContent = s.winner || "-"; el.ante.textContent = "";
    } else if (announced) {        // when it starts, not a level nobody plays yet
      say(el.level, c => _t("Starts", null, c));
      if (room.starts) el.blinds.textContent = room.starts;
      else say(el.blinds, c => _t("time to be announced", null, c));
      el.ante.textContent = "";
    } else if (s.is_break) {
      say(el.level, c => _t("BREAK", null, c));
      if (s.color_up) el.blinds.textContent = s.color_up;    // the room's own words
      else say(el.blinds, c => _t("Back soon", null, c));
      el.ante.textContent = "";
    } else {
      say(el.level, c => _t("Level {n}", {n: s.level}, c));
      el.blinds.textContent = blinds(s.sb, s.bb, TV.code);   // numbers: once, in the first language
      say(el.ante, amounts);
    }
    if (s.finished || !(next || s.next_blinds)) el.next.textContent = "-";
    else el.next.textContent = next ? blinds(next.sb, next.bb, TV.code) : s.next_blinds;
    if (s.finished || !(next || s.next_ante)) el["next-ante"].textContent = "";
    else say(el["next-ante"], c => next ? antes(next, c) : s.next_ante);
    // before the start: the entries so far and the buy-in, not a field of zeros
    say(el.leftName, c => s.started ? _t("Players", null, c) : _t("Entries", null, c));
    el.left.textContent = s.started ? `${TV.num(s.players_left)} / ${TV.num(s.entries)}` : TV.num(s.entries);
    say(el.avgName, c => s.started ? _t("Average stack", null, c) : _t("Buy-in", null, c));
    el.avg.textContent = TV.num(s.started ? s.average_stack : s.buy_in);
    el["pool-box"].hidden = !m.prize_pool;
    el.pool.textContent = TV.num(m.prize_pool);
    el.pay.replaceChildren(...this.pays(s, m, room).map(p => TV.node("span", p)));
    this.banks(s);
    this.tick();
  }
  // the places paid (each a function of the language); a satellite's are seats in its
  // target event (and what is left, cash)
  pays(s, m, room) {
    if (s.seat_value) {
      const seats = m.payouts.filter(p => p === s.seat_value).length, cash = m.payouts.find(p => p !== s.seat_value);
      const target = (ROOM.events.get(room.target) || {}).title || room.target;
      const to = c => target || _t("the main event", null, c);
      return seats ? [c => _tn("{n} seat to {event}", "{n} seats to {event}", seats, {event: to(c)}, c),
                      ...(cash ? [c => _t("then {amount} in cash", {amount: TV.num(cash, c)}, c)] : [])] : [];
    }
    const pays = m.payouts.slice(0, this.paysShown).map((p, i) =>
      c => _t("{place} {amount}", {place: ord(i + 1, c), amount: TV.num(p, c)}, c));
    const more = m.places_paid - this.paysShown;
    if (more > 0) pays.push(c => _tn("+{n} more paid", "+{n} more paid", more, null, c));
    return pays;
  }
  banks(s) {
    // the final table's time banks, while its shot clock runs: each player's cards left
    // (built as nodes: a player's name is never markup)
    const sc = s.shot_clock, el = this.el.banks, rows = (sc && sc.final_table && sc.banks) || [];
    el.hidden = s.finished || !rows.length;
    const node = (tag, cls, text) => { const n = document.createElement(tag); if (cls) n.className = cls; n.textContent = text; return n; };
    el.replaceChildren(...(rows.length ? [TV.node("span", c => _t("Time bank · {s} s a card", {s: sc.bank_seconds}, c), "banks-title")] : []),
      ...rows.map(b => {
        const span = node("span", "bank" + (b.cards ? "" : " spent"), "");
        span.append(node("b", "", String(b.seat)), ` ${b.name} `, node("i", "", String(b.cards)));
        return span;
      }));
  }
  tick() {
    const s = this.summary; if (!s) return;
    const el = this.el.time;
    if (s.finished) { el.className = "time stopped"; say(el, c => _t("OVER", null, c)); this.el.break.textContent = "-"; return; }
    if (s.hands) {   // levels counted in hands at each table: hands left in place of time
      el.className = "time hands"; say(el, c => _tn("{n} HAND", "{n} HANDS", s.hands_left, null, c));
      this.el.break.textContent = "-"; return;
    }
    const left = this.remaining();
    el.textContent = PK.fmt(left);
    el.className = "time" + (s.paused ? " paused" : left < 60 ? " low" : "");
    const nb = s.next_break_in == null ? null : s.next_break_in - (s.remaining - left);
    this.el.break.textContent = nb == null ? "-" : PK.fmt(nb);
  }
}

const q = new URLSearchParams(location.search);
const named = (q.get("events") || "").split(",").map(e => e.trim()).filter(Boolean).slice(0, MAX_TILES);
const events = named.length ? named : [q.get("event")];   // null: the room's first event
document.body.className = `tv n${events.length}${events.length > 1 ? " tiles" : ""}`;
const tiles = events.map(ev => {
  const root = document.createElement("section");
  root.className = "tvclock";
  if (ev) root.dataset.event = ev;
  document.body.append(root);
  return new Tile(root, ev, events.length === 1);
});
tiles.forEach(t => t.start());
readRoom();
setInterval(readRoom, 60000);
setInterval(() => tiles.forEach(t => t.tick()), 250);
TV.onTurn(() => tiles.forEach(t => t.summary ? t.show(t.summary) : t.missing && say(t.el.event, t.missing)));
