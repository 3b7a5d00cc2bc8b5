// The reservation form and the alternates list on an event's public page, shown only
// when the event takes reservations. The answer's code links to its own page.
"use strict";
(function () {
  const event = document.body.dataset.event;
  const base = "/p/" + encodeURIComponent(event);
  const card = document.getElementById("reserve-card");
  if (!card) return;
  const $ = id => document.getElementById(id);

  function alternates(data) {
    const list = $("alternates");
    list.textContent = "";
    for (const a of data.alternates) {
      const li = document.createElement("li");
      li.textContent = a.called ? _t("{n}. {name} - to the desk", {n: a.position, name: a.name})
        : _t("{n}. {name}", {n: a.position, name: a.name});
      list.appendChild(li);
    }
    $("alternates-card").hidden = !data.alternates.length;
  }

  function load() {
    fetch(base + "/reservations.json", {cache: "no-store"}).then(r => r.ok ? r.json() : null)
      .then(data => {
        if (!data) return;
        card.hidden = !data.reservations;
        $("reserve-contact-row").hidden = data.contact === "none";
        $("reserve-full").hidden = !data.full;
        alternates(data);
      }).catch(() => {});
  }

  $("reserve-form").addEventListener("submit", ev => {
    ev.preventDefault();
    const out = $("reserve-result");
    out.className = "pp-result";
    out.textContent = "";
    fetch(base + "/register", {method: "POST", headers: {"Content-Type": "application/json"},
      body: JSON.stringify({name: $("reserve-name").value, contact: $("reserve-contact").value})})
      .then(r => r.json().then(body => ({ok: r.ok, body})))
      .then(({ok, body}) => {
        if (!ok) { out.className = "pp-result bad"; out.textContent = PK_I18N.say(body.error_msg, body.error); return; }
        const p = document.createElement("p");
        p.textContent = body.state === "alternate"
          ? _t("You are alternate {n}. Your code: ", {n: body.position}) : _t("Reserved. Your code: ");
        const b = document.createElement("strong");
        b.className = "pp-code";
        b.id = "reserve-code";
        b.textContent = body.code;
        p.appendChild(b);
        const a = document.createElement("a");
        a.href = body.url;
        a.id = "reserve-link";
        a.textContent = _t("Open my reservation");
        out.append(p, a);
        load();
      }).catch(() => { out.className = "pp-result bad"; out.textContent = _t("No answer: try again."); });
  });
  load();
  setInterval(load, 10000);
})();
