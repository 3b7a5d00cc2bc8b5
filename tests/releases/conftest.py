"""Fixtures for the release tests: signing keys and small wheels."""

from __future__ import annotations

import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).parent))
