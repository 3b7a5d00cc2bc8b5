"""Bounded field types shared by events and messages.

Every number or string that crosses a process boundary or lands in the event log is
bounded here, so a value no real room can produce (a hand number of 10^30, a stack of
2^64, a 1 MB name) is refused when decoded, never stored. The limits sit far above any
real event and far below what JSON, SQLite or a 64-bit integer would choke on.
"""

from __future__ import annotations

from typing import Annotated

from msgspec import Meta

MAX_SEATS = 10
MAX_TABLES = 10_000
MAX_INT = 2**53 - 1            # exact in every JSON reader, including browsers

TableNo = Annotated[int, Meta(ge=1, le=MAX_TABLES)]
SeatNo = Annotated[int, Meta(ge=1, le=MAX_SEATS)]
HandNo = Annotated[int, Meta(ge=0, le=10**9)]
PeriodNo = Annotated[int, Meta(ge=0, le=500)]   # a period of a blind structure
Chips = Annotated[int, Meta(ge=0, le=10**13)]
Count = Annotated[int, Meta(ge=0, le=10**9)]
Money = Annotated[int, Meta(ge=0, le=10**13)]
Rev = Annotated[int, Meta(ge=-1, le=MAX_INT)]
Seconds = Annotated[float, Meta(ge=-1e7, le=1e7)]
Time = Annotated[float, Meta(ge=-1e11, le=1e11)]   # seconds since the epoch (or a sim's 0)
Ident = Annotated[str, Meta(min_length=1, max_length=64)]
Name = Annotated[str, Meta(max_length=120)]
Text = Annotated[str, Meta(max_length=2000)]
# a reader's language as it was given ("de", "pt-BR", "zh_Hans"; "": the room's); the
# director checks it against the shipped catalogues (kiosk.lang.codes) before the core
Lang = Annotated[str, Meta(max_length=35, pattern=r"^[A-Za-z0-9_-]*$")]
Seats = Annotated[list[SeatNo], Meta(max_length=MAX_SEATS)]
