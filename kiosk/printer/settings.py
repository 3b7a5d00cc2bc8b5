"""A printer's settings as the services run them (from `[printer]`, kiosk.config.files)."""

from __future__ import annotations

from dataclasses import dataclass

from kiosk.printer.codepages import DEFAULT_PAGES
from kiosk.printer.escpos import PAPER_DOTS
from kiosk.printer.ports import PortSpec, parse_port


@dataclass(frozen=True)
class PrinterConfig:
    port: PortSpec
    columns: int = 42          # characters per line: 48 on 80 mm paper, 32 on 58 mm
    status: bool = True        # ask for paper (DLE EOT) before each job
    retry: float = 5.0         # seconds between tries while the printer is away
    player_url: str = ""       # an event's player page, "{event}" replaced; "": no QR
    paper: int = 80            # mm: 58 or 80, how wide an image (a Chinese line) prints
    code_pages: tuple[tuple[str, int], ...] = tuple(DEFAULT_PAGES.items())  # ESC t numbers

    @classmethod
    def of(cls, port: str, **kw: object) -> PrinterConfig:
        """From a port string (ValueError when it does not parse)."""
        return cls(port=parse_port(port), **kw)  # type: ignore[arg-type]

    def url_for(self, event: str) -> str:
        return self.player_url.replace("{event}", event) if self.player_url else ""

    @property
    def dots(self) -> int:
        """The paper's width in dots (58 mm: 384, 80 mm: 576)."""
        return PAPER_DOTS.get(self.paper, PAPER_DOTS[80])

    @property
    def pages(self) -> dict[str, int]:
        return dict(self.code_pages)
