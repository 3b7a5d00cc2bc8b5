"""Numbers, chips, blinds, money and times as a locale writes them (CLDR, through Babel).

Chip counts never have decimals, so the locale's group separator never reads as one:
1,000 (en, zh) · 1.000 (de, es, pt_BR) · 1 000 (fr, cs, with a narrow no-break space).
Blinds join their amounts with "/"; where the group separator is a space, the slash
takes a space on each side ("1 000 / 2 000"), so a level never reads as three numbers.
Money is a whole amount in the event's currency, symbol where the locale puts it, no
cents ("€1,500", "1.500 €", "1 500 Kč"); without a currency, a grouped number. Times of
day are in the room's time zone, in the locale's short clock (21:35; English is written
as CLDR's en_GB: a card room's 24-hour clock).
"""

from __future__ import annotations

import functools
import string
from datetime import UTC, datetime, timedelta
from typing import Any
from zoneinfo import ZoneInfo

from babel import Locale
from babel.dates import format_date, format_time
from babel.numbers import format_currency, format_decimal, get_group_symbol

from kiosk.base.texts import Msg
from kiosk.lang.codes import PSEUDO, SOURCE

# places as each language writes them: 18th · 18. · 18e · 18.º · 18º · 第18
_ORDINAL = {"de": "{n}.", "cs": "{n}.", "fr": "{n}e", "es": "{n}.º", "pt": "{n}º",
            "zh": "第{n}"}


# English as a card room writes it: CLDR's en_GB (a 24-hour clock, digits grouped by ",")
_CLDR = {SOURCE: "en_GB", PSEUDO: "en_GB"}


@functools.cache
def locale_of(code: str) -> Locale:
    """Babel's locale for a shipped code (the pseudo-locale formats as English)."""
    return Locale.parse(_CLDR.get(code, code))


class Formats:
    """One reader's formatting: a language, the room's time zone, the event's currency."""

    def __init__(self, code: str, timezone: str = "", currency: str = "") -> None:
        self.code = code
        self.locale = locale_of(code)
        self.zone = ZoneInfo(timezone) if timezone else None   # None: this machine's
        self.currency = currency

    def num(self, value: float) -> str:
        return format_decimal(value, locale=self.locale)

    def chips(self, value: float) -> str:
        """A chip count: grouped, never a decimal."""
        return format_decimal(int(value), locale=self.locale, decimal_quantization=True)

    def blinds(self, *amounts: int) -> str:
        """A level's blinds ("1,000/2,000"; "1 000 / 2 000" where groups are spaces)."""
        space = get_group_symbol(self.locale).isspace() or \
            get_group_symbol(self.locale) in ("\u202f", "\xa0")
        return (" / " if space and any(a >= 1000 for a in amounts) else "/").join(
            self.chips(a) for a in amounts)

    def money(self, value: float) -> str:
        """A whole amount in the event's currency (a grouped number without one)."""
        if not self.currency:
            return self.num(value)
        pattern = self.locale.currency_formats["standard"].pattern.split(";")[0]
        return format_currency(value, self.currency, format=pattern.replace(".00", ""),
                               locale=self.locale, currency_digits=False)

    def _when(self, epoch: float) -> datetime:
        when = datetime.fromtimestamp(float(epoch), tz=UTC).astimezone(self.zone)
        if self.zone is None:
            when = when.replace(tzinfo=None) + (when.utcoffset() or timedelta())
        return when

    def time(self, epoch: float) -> str:
        """A time of day in the room's zone, in the locale's short clock."""
        return format_time(self._when(epoch), format="short", locale=self.locale)

    def stamp(self, epoch: float) -> str:
        """A date and time, as a slip prints when it was printed (15 Jan 2027 20:05,
        15.01.2027 20:05, 2027年1月15日 20:05)."""
        when = self._when(epoch)
        return (f"{format_date(when, format='medium', locale=self.locale)} "
                f"{format_time(when, format='short', locale=self.locale)}")

    def ordinal(self, n: float) -> str:
        """A place: 18th, 18., 18e, 18.º, 第18."""
        n = int(n)
        pattern = _ORDINAL.get(self.locale.language)
        if pattern is not None:
            return pattern.format(n=n)
        suffix = "th" if 10 <= n % 100 <= 20 else {1: "st", 2: "nd", 3: "rd"}.get(n % 10, "th")
        return f"{n}{suffix}"


class Placeholders(string.Formatter):
    """Fills a translated sentence: `{x:chips}`, `{x:money}`, `{x:time}`, `{x:num}`,
    `{x:ordinal}` formatted by `fmt`; a sentence given as an argument rendered by
    `render`; anything else as `str.format` does."""

    def __init__(self, fmt: Formats, render: Any) -> None:
        self.fmt, self.render = fmt, render

    def format_field(self, value: Any, format_spec: str) -> str:
        if isinstance(value, Msg):
            return str(self.render(value))
        if isinstance(value, (int, float)) and not isinstance(value, bool):
            how = {"chips": self.fmt.chips, "money": self.fmt.money, "num": self.fmt.num,
                   "time": self.fmt.time, "ordinal": self.fmt.ordinal,
                   "blinds": self.fmt.chips}.get(format_spec)
            if how is not None:
                return str(how(value))
        if format_spec in ("chips", "money", "num", "time", "ordinal", "blinds"):
            return str(value)
        return super().format_field(value, format_spec)
