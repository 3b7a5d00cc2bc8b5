"""The README's pictures of the slips: `python -m kiosk.printer.samples docs/slips`.

Built from the same card functions and the same preview the dashboard uses, with a fixed
time and made-up players, so the pictures change only when a slip's layout does.
"""

from __future__ import annotations

import sys
from pathlib import Path

from kiosk.printer import cards, preview
from kiosk.printer.slip import Slip

T = 1_800_000_000.0
HEAD = cards.Heading(event="sunday", title="Sunday Main Event", columns=42,
                     url="https://poker.example/p/sunday")
ROOM = {"timezone": "Europe/Prague", "currency": "CZK"}


def samples() -> dict[str, Slip]:
    return {
        "seat-card": cards.seat_card(HEAD, "Zoë Ñandú", 7, 2, T, cards.moved_from(3, 5)),
        "receipt": cards.receipt(HEAD, "Ann Lee", "Re-entry", [
            ("Prize pool", 100), ("Bounty", 50), ("Fee", 10), ("Staff", 5)], T, entry=2),
        "payout": cards.payout(HEAD, "Bo Berg", T, 4, 1_240, 175),
        "results": cards.results(HEAD, [(1, "Cy Moss", 4_800), (2, "Ann Lee", 2_880),
                                        (3, "Dee Park", 1_920), (4, "Bo Berg", 1_240),
                                        (5, "Eve Tran", 0)], T, 12_000, 80),
        # a player's own language: Czech in PC852, Chinese drawn as raster images
        "seat-card-cs": cards.seat_card(cards.Heading(**{**vars(HEAD), **ROOM,
                                                         "title": "Nedělní turnaj"}),
                                        "Antonín Dvořák", 7, 2, T, cards.moved_from(3, 5),
                                        "cs"),
        "payout-zh": cards.payout(cards.Heading(**{**vars(HEAD), **ROOM,
                                                   "title": "周日主赛"}),
                                  "王伟", T, 4, 1_240, 175, language="zh_Hans"),
    }


def write(folder: Path) -> list[Path]:
    folder.mkdir(parents=True, exist_ok=True)
    out = []
    for name, slip in samples().items():
        path = folder / f"{name}.png"
        path.write_bytes(preview.png(slip, HEAD.columns))
        out.append(path)
    return out


if __name__ == "__main__":
    for p in write(Path(sys.argv[1] if len(sys.argv) > 1 else "docs/slips")):
        print(p)
