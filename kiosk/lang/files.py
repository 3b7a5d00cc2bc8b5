"""Where the catalogues live in the package, and reading one."""

from __future__ import annotations

from pathlib import Path

from babel.messages.catalog import Catalog
from babel.messages.pofile import read_po

DOMAIN = "pokerkiosk"
LOCALE_DIR = Path(__file__).with_name("locale")
TEMPLATE = LOCALE_DIR / f"{DOMAIN}.pot"


def po_path(code: str, root: Path = LOCALE_DIR) -> Path:
    return root / code / "LC_MESSAGES" / f"{DOMAIN}.po"


def read_catalog(path: Path, code: str | None = None) -> Catalog:
    """A `.po` or `.pot` file as Babel's Catalog."""
    with path.open("rb") as f:
        return read_po(f, locale=code, domain=DOMAIN)
