// A player's page of one event: live over server-sent events, text only through
// textContent (names are never markup), the clock counted down on the phone.
"use strict";
(() => {
  const $ = s => document.querySelector(s);
  const EVENT = document.body.dataset.event;
  const BASE = "/p/" + encodeURIComponent(EVENT);
  const STALE = 25;           // seconds without a word from the director: say so
  const parts = {};
  let offset = 0, lastSeen = 0, source = null, backoff = 1000;

  const num = n => n == null ? "-" : Number(n).toLocaleString("en");
  const ord = n => n + (n % 100 >= 11 && n % 100 <= 13 ? "th" : ({1: "st", 2: "nd", 3: "rd"}[n % 10] || "th"));
  const fmt = sec => {
    sec = Math.max(0, Math.ceil(sec));
    const h = Math.floor(sec / 3600), m = Math.floor(sec % 3600 / 60), s = sec % 60;
    const mm = String(m).padStart(2, "0"), ss = String(s).padStart(2, "0");
    return h ? `${h}:${mm}:${ss}` : `${mm}:${ss}`;
  };
  const serverNow = () => Date.now() / 1000 + offset;
  const text = (sel, value) => { $(sel).textContent = value; };

  function cell(tr, value, cls) {
    const td = document.createElement("td");
    td.textContent = value;
    if (cls) td.className = cls;
    tr.appendChild(td);
  }
  function fill(sel, rows, render) {
    const body = $(sel + " tbody");
    const out = document.createDocumentFragment();
    rows.forEach((r, i) => { const tr = document.createElement("tr"); render(tr, r, i); out.appendChild(tr); });
    body.replaceChildren(out);
  }

  function showClock(c) {
    const flags = [];
    if (c.finished) flags.push("FINISHED");
    else {
      if (!c.started) flags.push("NOT STARTED");
      else if (c.paused) flags.push("PAUSED");
      if (c.hand_for_hand) flags.push("HAND-FOR-HAND");
      if (c.final_table) flags.push("FINAL TABLE");
      if (c.bubble) flags.push("BUBBLE");
      else if (c.in_the_money) flags.push("IN THE MONEY");
    }
    $("#flags").replaceChildren(...flags.map(f => { const b = document.createElement("span"); b.textContent = f; return b; }));
    if (c.finished) {
      text("#level", "Winner");
      text("#blinds", c.winner || "-");
      text("#ante", "");
    } else {
      text("#level", c.is_break ? "Break" : `Level ${c.level}`);
      text("#blinds", c.is_break ? (c.color_up || "Back soon") : c.blinds);
      text("#ante", c.is_break ? "" : c.ante);
    }
    document.body.classList.toggle("pp-finished", !!c.finished);
    text("#next", (!c.finished && c.next_blinds) || "-");
    text("#left", `${num(c.players_left)} of ${num(c.entries)}`);
    text("#avg", num(c.average_stack));
    text("#pool", num(c.prize_pool));
    text("#paid", num(c.places_paid));
    tick();
  }

  function showPayouts(p) {
    const c = parts.clock || {};
    fill("#payouts", p.payouts.map((prize, i) => ({place: i + 1, prize})), (tr, r) => {
      cell(tr, ord(r.place)); cell(tr, num(r.prize), "num");
      if (r.place === c.players_left && !c.finished) tr.className = "pp-here";
    });
    const left = c.players_left || 0;
    let note = `${num(p.places_paid)} places paid`;
    if (c.bubble) note = `Bubble: ${left} left, ${num(p.places_paid)} paid. The next one out wins nothing.`;
    else if (c.in_the_money && !c.finished) note = `In the money: everyone left wins at least ${num(c.prize_now ?? p.payouts[left - 1])}.`;
    else if (c.started && !c.finished && left > p.places_paid) note = `${num(p.places_paid)} places paid; ${num(left - p.places_paid)} more to go before the money.`;
    text("#bubble", note);
  }

  const byName = (a, b) => a.localeCompare(b, "en", {numeric: true});
  const rowsOf = part => Object.values(part.rows || {});

  function showCounts(k) {
    $("#counts-card").hidden = !k.shown;
    if (!k.shown) return;
    // [name, chips, table], biggest stack first
    const rows = rowsOf(k).sort((a, b) => b[1] - a[1] || byName(a[0], b[0]));
    const left = (parts.clock || {}).players_left || 0;
    text("#counts-note", rows.length ? `${rows.length < left ? `The ${rows.length} biggest of ${num(left)} stacks, as` : "As"} last counted at the tables${k.label ? " (" + k.label + ")" : ""}.` : "No chip count entered yet.");
    fill("#counts", rows, (tr, r, i) => {
      cell(tr, i + 1, "rank");
      cell(tr, r[0], "name"); cell(tr, num(r[1]), "num"); cell(tr, r[2] == null ? "-" : r[2], "num");
    });
  }

  function showBounties(b) {
    $("#bounties-card").hidden = !b.mode;
    if (!b.mode) return;
    // [name, on the head, won], the biggest head first
    const rows = rowsOf(b).sort((x, y) => y[1] - x[1] || y[2] - x[2] || byName(x[0], y[0]));
    fill("#bounties", rows, (tr, r) => { cell(tr, r[0], "name"); cell(tr, num(r[1]), "num"); cell(tr, num(r[2]), "num"); });
  }

  function showResults(r) {
    const bounty = !!(parts.bounties && parts.bounties.mode);
    // [place, name, prize, bounty cash], best place first
    const rows = rowsOf(r).sort((a, b) => a[0] - b[0] || byName(a[1], b[1]));
    text("#results-note", rows.length ? "" : "Nobody is out yet.");
    fill("#results", rows, (tr, x) => {
      cell(tr, ord(x[0]), "rank"); cell(tr, x[1], "name");
      cell(tr, num(x[2]) + (bounty && x[3] ? ` + ${num(x[3])} bounty` : ""), "num");
    });
  }

  function apply(msg) {
    if (msg.full) for (const k of Object.keys(parts)) delete parts[k];
    Object.assign(parts, msg.parts);
    const touched = new Set(Object.keys(msg.parts));
    for (const [name, d] of Object.entries(msg.rows || {})) {
      const part = parts[name];
      if (!part) continue;
      Object.assign(part.rows, d.set);
      for (const k of d.del) delete part.rows[k];
      touched.add(name);
    }
    const p = msg.parts;
    if (p.event) { text("#title", p.event.title); document.title = p.event.title + " - live"; }
    if (p.clock) showClock(p.clock);
    if ((touched.has("clock") || touched.has("payouts")) && parts.payouts) showPayouts(parts.payouts);
    if (touched.has("counts")) showCounts(parts.counts);
    if (touched.has("bounties")) showBounties(parts.bounties);
    if ((touched.has("results") || touched.has("bounties")) && parts.results) showResults(parts.results);
  }

  function heard(t) { offset = t - Date.now() / 1000; lastSeen = Date.now() / 1000; backoff = 1000; }

  function connect() {
    source = new EventSource(BASE + "/events");
    source.onmessage = ev => { const msg = JSON.parse(ev.data); heard(msg.t); apply(msg); linkState(); };
    source.addEventListener("ping", ev => { heard(JSON.parse(ev.data).t); linkState(); });
    source.onerror = () => {
      linkState();
      if (source.readyState === EventSource.CLOSED) {   // refused (busy, gone): retry ourselves
        setTimeout(connect, backoff);
        backoff = Math.min(backoff * 2, 30000);
      }
    };
  }

  function linkState() {
    const el = $("#link");
    const age = lastSeen ? Date.now() / 1000 - lastSeen : null;
    const down = !source || source.readyState !== EventSource.OPEN || (age != null && age > STALE);
    el.hidden = !down;
    document.body.classList.toggle("pp-stale", down);
    if (!down) return;
    if (age == null) { el.textContent = "Connecting to the tournament director..."; return; }
    const at = new Date(lastSeen * 1000).toLocaleTimeString("en-GB", {hour: "2-digit", minute: "2-digit"});
    const ago = age < 90 ? `${Math.round(age)} s` : `${Math.round(age / 60)} min`;
    el.textContent = `Connection lost: last update ${ago} ago (${at}). Reconnecting...`;
  }

  function tick() {
    const c = parts.clock;
    if (!c) return;
    const el = $("#time");
    if (c.finished) { el.textContent = "Over"; el.className = "pp-time stopped"; text("#break", "-"); return; }
    const left = c.ends_at != null ? c.ends_at - serverNow() : c.remaining;
    el.textContent = fmt(left);
    el.className = "pp-time" + (c.paused ? " paused" : left < 60 ? " low" : "");
    const br = c.break_at != null ? c.break_at - serverNow() : c.break_in;
    text("#break", br == null ? "-" : fmt(br));
  }

  function showSeat(status, body) {
    const out = $("#seat-result");
    out.replaceChildren();
    const p = document.createElement("p");
    out.appendChild(p);
    if (status === 429) { p.textContent = body.error || "Too many lookups: wait a moment."; out.className = "pp-result bad"; return; }
    if (body.matches && body.matches.length) {
      p.textContent = body.message;
      const ul = document.createElement("ul");
      for (const m of body.matches) {
        const li = document.createElement("li");
        const b = document.createElement("b"); b.textContent = m.name;
        li.append(b, document.createTextNode(": " + m.message));
        ul.appendChild(li);
      }
      out.appendChild(ul);
      out.className = "pp-result";
      return;
    }
    if (status !== 200) { p.textContent = body.error || "No answer: try again."; out.className = "pp-result bad"; return; }
    if (body.table != null) {
      p.className = "pp-seat-big";
      p.textContent = `Table ${body.table} \u00b7 Seat ${body.seat}`;
      const who = document.createElement("p");
      who.textContent = body.name + (body.status === "moving" ? " (moving there now)" : "");
      out.appendChild(who);
    } else {
      p.textContent = `${body.name}: ${body.message}`;
    }
    out.className = "pp-result good";
  }

  $("#seat-form").addEventListener("submit", async ev => {
    ev.preventDefault();
    const name = $("#seat-name").value;
    try {
      const r = await fetch(BASE + "/seat?name=" + encodeURIComponent(name), {headers: {Accept: "application/json"}});
      showSeat(r.status, await r.json());
    } catch (e) {
      showSeat(0, {error: "No connection: try again in a moment."});
    }
  });

  connect();
  setInterval(() => { tick(); linkState(); }, 500);
})();
