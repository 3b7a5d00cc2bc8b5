// The TV clock: one event (/clock, /clock?event=NAME) filling the screen, or two to four
// (/clock?events=a,b,c,d) tiled on it, each tile sized by its own box.
"use strict";
const ORD = n => n + (n % 100 >= 11 && n % 100 <= 13 ? "th" : ({1: "st", 2: "nd", 3: "rd"}[n % 10] || "th"));
const MAX_TILES = 4;

function banners(s) {
  const out = [];
  if (s.finished) return ["FINISHED"];
  if (!s.started) out.push("NOT STARTED");
  if (s.paused) out.push("PAUSED");
  if (s.hand_for_hand.on) out.push("HAND-FOR-HAND");
  if (s.final_pending) out.push("FINAL TABLE DRAW");
  else if (s.final_table) out.push("FINAL TABLE");
  if (PK.moneyOf(s).bubble) out.push("BUBBLE");
  return out;
}

class Tile {
  // one event's clock in `root`; the only one on the screen also keeps PK.summary and the
  // element ids the single clock always had
  constructor(root, event, single) {
    this.root = root; this.event = event; this.single = single; this.summary = null; this.at = 0;
    root.append(document.getElementById("tile").content.cloneNode(true));
    this.el = {};
    root.querySelectorAll("[data-f]").forEach(e => { this.el[e.dataset.f] = e; if (single) e.id = e.dataset.f; });
    this.paysShown = single ? 9 : 4;   // places on the wall; the rest are counted
  }
  start() {
    fetch(PK.url("/api/snapshot", this.event)).then(async r => {
      if (r.ok) { PK.connect(m => { if (m.summary) this.show(m.summary); }, null, this.event); return; }
      const body = await r.json().catch(() => ({}));
      this.el.event.textContent = body.error || `no event ${this.event}`;
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
    const el = this.el, m = PK.moneyOf(s);
    el.event.textContent = s.title || s.event;
    el.banner.innerHTML = banners(s).map(b => `<span>${b}</span>`).join("");
    this.root.classList.toggle("finished", !!s.finished);
    this.root.classList.toggle("onbreak", !s.finished && s.is_break);
    if (s.finished) {
      el.level.textContent = "Winner"; el.blinds.textContent = s.winner || "-"; el.ante.textContent = "";
    } else {
      el.level.textContent = s.is_break ? "BREAK" : `Level ${s.level}`;
      el.blinds.textContent = s.is_break ? (s.color_up || "Back soon") : `${PK.money(s.sb)}/${PK.money(s.bb)}`;
      el.ante.textContent = s.is_break ? "" : (s.ante_text || "");
    }
    el.next.textContent = (!s.finished && s.next_blinds) || "-";
    el["next-ante"].textContent = s.finished ? "" : (s.next_ante || "");
    el.left.textContent = `${s.players_left} / ${s.entries}`;
    el.avg.textContent = PK.money(s.average_stack);
    el.pool.textContent = PK.money(m.prize_pool);
    const pays = m.payouts.slice(0, this.paysShown).map((p, i) => `<span>${ORD(i + 1)} ${PK.money(p)}</span>`);
    if (m.places_paid > this.paysShown) pays.push(`<span>+${m.places_paid - this.paysShown} more paid</span>`);
    el.pay.innerHTML = pays.join("");
    this.tick();
  }
  tick() {
    const s = this.summary; if (!s) return;
    const el = this.el.time;
    if (s.finished) { el.textContent = "OVER"; el.className = "time stopped"; this.el.break.textContent = "-"; return; }
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
setInterval(() => tiles.forEach(t => t.tick()), 250);
