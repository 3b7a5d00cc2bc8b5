// One reservation on its holder's phone: the code (text and QR), its state, the table
// and seat once the desk confirmed it. Called as an alternate, the page says so and the
// phone vibrates once. Polled every few seconds; nothing here needs a login.
"use strict";
(function () {
  const event = document.body.dataset.event, code = document.body.dataset.code;
  const url = "/p/" + encodeURIComponent(event) + "/reservation/" + encodeURIComponent(code);
  const $ = id => document.getElementById(id);
  let buzzed = false;
  const WORDS = {reserved: "Reserved: pay at the desk", alternate: "Alternate",
                 confirmed: "Confirmed", lapsed: "Lapsed (not confirmed in time)",
                 cancelled: "Cancelled"};

  function show(r) {
    $("res-name").textContent = r.name;
    $("res-state").textContent = r.state === "alternate"
      ? "Alternate " + r.position + (r.called ? " - called" : "") : WORDS[r.state] || r.state;
    $("res-table").textContent = r.table == null ? "-" : r.table;
    $("res-seat").textContent = r.seat == null ? "-" : r.seat;
    const call = $("res-call");
    call.hidden = !(r.state === "alternate" && r.called);
    call.textContent = call.hidden ? "" : "Alternate " + r.position + ": " + r.name +
      ", to the desk";
    if (!call.hidden && !buzzed) {
      buzzed = true;
      if (navigator.vibrate) navigator.vibrate([300, 150, 300]);
    }
    $("res-note").textContent = r.note || (r.state === "confirmed" && r.seat == null
      ? "Your seat is drawn when play starts." : "");
    $("res-cancel").hidden = !(r.state === "reserved" || r.state === "alternate");
  }

  function load() {
    fetch(url, {headers: {Accept: "application/json"}, cache: "no-store"})
      .then(r => r.ok ? r.json() : null).then(r => { if (r) show(r); }).catch(() => {});
  }
  $("res-cancel").addEventListener("click", () => {
    fetch(url + "/cancel", {method: "POST"}).then(load);
  });
  load();
  setInterval(load, 3000);
})();
