"""What a slip costs on the wire to the printer, by language and paper: the ESC/POS bytes
of a seat card and a payout slip in English, Czech (text in PC852) and Chinese (its lines
raster images), on 58 mm (32 columns, 384 dots) and 80 mm (48 columns, 576 dots) paper,
the time to build and render each, and how long a 19200-baud serial line takes to carry
it. Prints figures, asserts nothing.

    python bench/slip_bench.py [--runs 20]
"""

from __future__ import annotations

import argparse
import statistics
import time

from kiosk.printer import cards, escpos
from kiosk.printer.escpos import PAPER_DOTS, Raster

T = 1_800_000_000.0
PAPERS = {58: 32, 80: 48}
PLAYERS = {"en": ("Sunday Main", "Ann Lee"), "cs": ("Nedělní turnaj", "Antonín Dvořák"),
           "zh_Hans": ("周日主赛", "王伟")}
BAUD = 19200          # 8N1: ten bits a byte


def slips(code: str, columns: int) -> dict[str, object]:
    title, name = PLAYERS[code]
    h = cards.Heading(event="sunday", title=title, columns=columns,
                      url="https://poker.example/p/sunday", language=code,
                      timezone="Europe/Prague", currency="CZK")
    return {"seat card": cards.seat_card(h, name, 3, 5, T, cards.moved_from(2, 7)),
            "payout": cards.payout(h, name, T, 4, 1_240, 175)}


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--runs", type=int, default=20)
    runs = ap.parse_args().runs
    print(f"{'language':8} {'paper':>5} {'slip':10} {'bytes':>7} {'images':>6} "
          f"{'render ms':>9} {'serial s':>8}")
    for code in PLAYERS:
        for mm, columns in PAPERS.items():
            for kind in ("seat card", "payout"):
                times, data = [], b""
                for _ in range(runs):
                    start = time.perf_counter()
                    slip = slips(code, columns)[kind]
                    data = escpos.render(slip, columns, dots=PAPER_DOTS[mm])  # type: ignore[arg-type]
                    times.append(time.perf_counter() - start)
                [printed] = escpos.decode(data, columns)
                images = sum(isinstance(ln, Raster) for ln in printed)
                print(f"{code:8} {mm:>3}mm {kind:10} {len(data):>7} {images:>6} "
                      f"{statistics.median(times) * 1000:>9.1f} {len(data) * 10 / BAUD:>8.2f}")


if __name__ == "__main__":
    main()
