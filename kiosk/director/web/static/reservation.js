// One reservation on its holder's phone: the code (text and QR), its state, the table
// and seat once the desk confirmed it. Called as an alternate, the page says so and the
// phone vibrates once. Polled every few seconds; nothing here needs a login.
"use strict";
(function () {
  const event = document.body.dataset.event, code = document.body.dataset.code;
  const url = "/p/" + encodeURIComponent(event) + "/reservation/" + encodeURIComponent(code);
  const $ = id => document.getElementById(id);
  let buzzed = false;
  const WORDS = {reserved: _t("Reserved: pay at the desk"), alternate: _t("Alternate"),
                 confirmed: _t("Confirmed"), lapsed: _t("Lapsed (not confirmed in time)")};
  // a state whose word is the reservation's own (cancelled: "Storniert") comes said as state_word

  function show(r) {
    $("res-name").textContent = r.name;
    $("res-state").textContent = r.state !== "alternate" ? r.state_word || WORDS[r.state] || r.state
      : r.called ? _t("Alternate {n} - called", {n: r.position}) : _t("Alternate {n}", {n: r.position});
    $("res-table").textContent = r.table == null ? "-" : r.table;
    $("res-seat").textContent = r.seat == null ? "-" : r.seat;
    const call = $("res-call");
    call.hidden = !(r.state === "alternate" && r.called);
    call.textContent = call.hidden ? "" : _t("Alternate {n}: {name}, to the desk",
      {n: r.position, name: r.name});
    if (!call.hidden && !buzzed) {
      buzzed = true;
      if (navigator.vibrate) navigator.vibrate([300, 150, 300]);
    }
    $("res-note").textContent = PK_I18N.say(r.note_msg, r.note) || (r.state === "confirmed" && r.seat == null
      ? _t("Your seat is drawn when play starts.") : "");
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
