// Money, places, days and times on the players' pages, as the reader's language writes
// them (the page's <html data-lang>): money in the room's currency, times in the room's
// zone. English is written as a card room writes it (en-GB: a 24-hour clock).
"use strict";
const PP = (() => {
  const tag = () => ["en", "en_XA"].includes(PK_I18N.code) ? "en-GB" : PK_I18N.tag(PK_I18N.code);
  const ordinal = n => PK_I18N.place(n);
  // a whole amount in `currency` (ISO 4217; none: a grouped number)
  function money(n, currency) {
    if (!currency) return PK_I18N.num(Number(n));
    return new Intl.NumberFormat(tag(), {style: "currency", currency, maximumFractionDigits: 0,
                                         minimumFractionDigits: 0}).format(n);
  }
  const zone = tz => tz || "UTC";
  // a day and time: "Sun 6 Dec, 12:00" · "So., 6. Dez., 12:00"
  const when = (epoch, tz) => new Intl.DateTimeFormat(tag(), {weekday: "short", day: "numeric",
    month: "short", hour: "2-digit", minute: "2-digit", timeZone: zone(tz)}).format(new Date(epoch * 1000));
  // a time of day: "12:00"
  const time = (epoch, tz) => new Date(epoch * 1000).toLocaleTimeString(tag(),
    {hour: "2-digit", minute: "2-digit", timeZone: zone(tz)});
  return {tag, ordinal, money, when, time};
})();
