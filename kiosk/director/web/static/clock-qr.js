// The TV clock's corner QR code: players point a phone at it to follow the event live.
// Landscape screens only (a phone in portrait already is the player page's audience).
"use strict";
(() => {
  function add() {
    const s = typeof PK !== "undefined" && PK.summary;
    if (!s) { setTimeout(add, 300); return; }
    const box = document.createElement("div");
    box.id = "qr";
    Object.assign(box.style, {position: "fixed", right: "1vw", bottom: "1vh", display: "flex",
      flexDirection: "column", alignItems: "center", gap: ".4vh", color: "var(--muted)",
      fontSize: "2vh", whiteSpace: "nowrap", maxWidth: "none"});   // past 1/60 of the height
    const img = document.createElement("img");
    img.src = "/p/" + encodeURIComponent(s.event) + "/qr.svg";
    const alt = () => { img.alt = PK_TV.langs.length > 1 && PK_TV.mode === "side"
      ? [...new Set(PK_TV.langs.map(c => _t("QR code: this event on your phone", null, c)))].join(" / ")
      : _t("QR code: this event on your phone", null, PK_TV.code); };
    alt();
    Object.assign(img.style, {width: "14vh", height: "14vh",
      display: "block", borderRadius: "4px"});
    const caption = document.createElement("span");
    const words = () => PK_TV.text(caption, c => _t("Live on your phone", null, c));
    words();
    PK_TV.onTurn(() => { alt(); words(); });
    box.append(img, caption);
    document.body.appendChild(box);
    const portrait = matchMedia("(orientation: portrait)");
    const place = () => { box.hidden = portrait.matches; };
    portrait.addEventListener("change", place);
    place();
  }
  PK_TV.ready.then(add);
})();
