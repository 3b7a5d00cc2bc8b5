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

  const num = n => n == null ? "-" : PK_I18N.num(Number(n));
  const ord = n => PP.ordinal(n);
  const money = n => n == null ? "-" : PP.money(n, (parts.event || {}).currency);
  // blinds as the language groups digits: a space-grouped language puts spaces round "/"
  const blinds = (sb, bb) => [sb, bb].map(num).join(/\s/.test(num(1000)) ? " / " : "/");
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
    if (c.finished) flags.push(_t("Finished"));
    else {
      if (!c.started) flags.push(_t("Not started"));
      else if (c.paused) flags.push(_t("Paused"));
      if (c.hand_for_hand) flags.push(_t("Hand-for-hand"));
      if (c.final_table) flags.push(_t("Final table"));
      if (c.bubble) flags.push(_t("Bubble"));
      else if (c.in_the_money) flags.push(_t("In the money"));
    }
    $("#flags").replaceChildren(...flags.map(f => { const b = document.createElement("span"); b.textContent = f; return b; }));
    if (c.finished) {
      text("#level", _t("Winner"));
      text("#blinds", c.winner || "-");
      text("#ante", "");
    } else if (!c.started) {        // announced: when it starts and what it costs
      const e = parts.event || {};
      text("#level", _t("Starts"));
      text("#blinds", e.starts_at ? PP.when(e.starts_at, e.timezone) : _t("time to be announced"));
      text("#ante", _t("Buy-in {amount}", {amount: money(e.buy_in)}));
    } else {
      text("#level", c.is_break ? _t("Break") : _t("Level {n}", {n: c.level}));
      text("#blinds", c.is_break ? (c.color_up || _t("Back soon")) : blinds(c.sb, c.bb));
      text("#ante", c.is_break || !c.ante_chips ? "" : c.bb_ante ? _t("BB ante {n}", {n: c.ante_chips})
        : _t("Ante {n}", {n: c.ante_chips}));
    }
    document.body.classList.toggle("pp-finished", !!c.finished);
    document.body.classList.toggle("pp-announced", !c.started);
    text("#left-name", c.started ? _t("Players left") : _t("Entries so far"));
    text("#next", !c.finished && c.next ? blinds(...c.next) : "-");
    text("#left", c.started ? _t("{left} of {entries}", {left: c.players_left, entries: c.entries}) : num(c.entries));
    text("#avg", num(c.average_stack));
    text("#pool", money(c.prize_pool));
    text("#paid", num(c.places_paid));
    tick();
  }

  function showPayouts(p) {
    const c = parts.clock || {};
    fill("#payouts", p.payouts.map((prize, i) => ({place: i + 1, prize})), (tr, r) => {
      cell(tr, ord(r.place)); cell(tr, money(r.prize), "num");
      if (r.place === c.players_left && !c.finished) tr.className = "pp-here";
    });
    const left = c.players_left || 0;
    let note = _tn("{n} place paid", "{n} places paid", p.places_paid);
    if (c.bubble) note = _t("Bubble: {left} left, {paid} paid. The next one out wins nothing.", {left, paid: p.places_paid});
    else if (c.in_the_money && !c.finished) note = _t("In the money: everyone left wins at least {amount}.", {amount: money(c.prize_now ?? p.payouts[left - 1])});
    else if (c.started && !c.finished && left > p.places_paid) note = _tn("{paid} places paid; {n} more to go before the money.", "{paid} places paid; {n} more to go before the money.", left - p.places_paid, {paid: p.places_paid});
    text("#bubble", note);
  }

  const byName = (a, b) => a.localeCompare(b, PK_I18N.tag(PK_I18N.code), {numeric: true});
  const rowsOf = part => Object.values(part.rows || {});

  function showCounts(k) {
    $("#counts-card").hidden = !k.shown;
    if (!k.shown) return;
    // [name, chips, table], biggest stack first
    const rows = rowsOf(k).sort((a, b) => b[1] - a[1] || byName(a[0], b[0]));
    const left = (parts.clock || {}).players_left || 0;
    const label = !!k.label;
    text("#counts-note", !rows.length ? _t("No chip count entered yet.")
      : rows.length < left ? (label ? _t("The {n} biggest of {left} stacks, as last counted at the tables ({label}).", {n: rows.length, left, label: k.label})
                                    : _t("The {n} biggest of {left} stacks, as last counted at the tables.", {n: rows.length, left}))
      : label ? _t("As last counted at the tables ({label}).", {label: k.label}) : _t("As last counted at the tables."));
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
    fill("#bounties", rows, (tr, r) => { cell(tr, r[0], "name"); cell(tr, money(r[1]), "num"); cell(tr, money(r[2]), "num"); });
  }

  function showResults(r) {
    const bounty = !!(parts.bounties && parts.bounties.mode);
    // [place, name, prize, bounty cash], best place first
    const rows = rowsOf(r).sort((a, b) => a[0] - b[0] || byName(a[1], b[1]));
    text("#results-note", rows.length ? "" : _t("Nobody is out yet."));
    fill("#results", rows, (tr, x) => {
      cell(tr, ord(x[0]), "rank"); cell(tr, x[1], "name");
      cell(tr, bounty && x[3] ? _t("{prize} + {bounty} bounty", {prize: money(x[2]), bounty: money(x[3])}) : money(x[2]), "num");
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
    if (p.event) { text("#title", p.event.title); document.title = _t("{title} - live", {title: p.event.title}); }
    if (p.clock || p.event) showClock(parts.clock || {});
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
    if (age == null) { el.textContent = _t("Connecting to the tournament director..."); return; }
    const at = PP.time(lastSeen, (parts.event || {}).timezone);
    el.textContent = age < 90 ? _t("Connection lost: last update {n} s ago ({time}). Reconnecting...", {n: Math.round(age), time: at})
      : _t("Connection lost: last update {n} min ago ({time}). Reconnecting...", {n: Math.round(age / 60), time: at});
  }

  function tick() {
    const c = parts.clock;
    if (!c) return;
    const el = $("#time");
    if (c.finished) { el.textContent = _t("Over"); el.className = "pp-time stopped"; text("#break", "-"); return; }
    if (c.hands_left != null) {   // levels counted in hands: no time runs
      el.textContent = _tn("{n} hand", "{n} hands", c.hands_left); el.className = "pp-time"; text("#break", "-"); return;
    }
    if (!c.started) { el.textContent = ""; text("#break", "-"); return; }
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
    if (status === 429) { p.textContent = PK_I18N.say(body.error_msg, body.error) || _t("Too many lookups: wait a moment."); out.className = "pp-result bad"; return; }
    if (body.matches && body.matches.length) {
      p.textContent = PK_I18N.say(body.message_msg, body.message);
      const ul = document.createElement("ul");
      for (const m of body.matches) {
        const li = document.createElement("li");
        const b = document.createElement("b"); b.textContent = m.name;
        li.append(b, document.createTextNode(": " + PK_I18N.say(m.message_msg, m.message)));
        ul.appendChild(li);
      }
      out.appendChild(ul);
      out.className = "pp-result";
      return;
    }
    if (status !== 200) { p.textContent = PK_I18N.say(body.error_msg, body.error) || _t("No answer: try again."); out.className = "pp-result bad"; return; }
    if (body.table != null) {
      p.className = "pp-seat-big";
      p.textContent = _t("Table {table} \u00b7 Seat {seat}", {table: String(body.table), seat: String(body.seat)});
      const who = document.createElement("p");
      who.textContent = body.status === "moving" ? _t("{name} (moving there now)", {name: body.name}) : body.name;
      out.appendChild(who);
    } else {
      p.textContent = `${body.name}: ${PK_I18N.say(body.message_msg, body.message)}`;
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
      showSeat(0, {error: _t("No connection: try again in a moment.")});
    }
  });

  connect();
  setInterval(() => { tick(); linkState(); }, 500);
})();
