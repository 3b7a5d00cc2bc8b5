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
      fontSize: "calc(1.2 * var(--u))", whiteSpace: "nowrap", maxWidth: "none"});
    const img = document.createElement("img");
    img.src = "/p/" + encodeURIComponent(s.event) + "/qr.svg";
    img.alt = "QR code: this event on your phone";
    Object.assign(img.style, {width: "calc(8 * var(--u))", height: "calc(8 * var(--u))",
      display: "block", borderRadius: "4px"});
    const caption = document.createElement("span");
    caption.textContent = "Live on your phone";
    box.append(img, caption);
    document.body.appendChild(box);
    const portrait = matchMedia("(orientation: portrait)");
    const place = () => { box.hidden = portrait.matches; };
    portrait.addEventListener("change", place);
    place();
  }
  add();
})();
