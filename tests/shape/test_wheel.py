"""What a table's wheel carries: the product, not the harness that tests it (the soak, the
failover rehearsal, the room loop, scratch PostgreSQL servers and the virtual clock live in
bench/harness)."""

from __future__ import annotations

import subprocess
import sys
import zipfile
from pathlib import Path

import kiosk

REPO = Path(kiosk.__file__).resolve().parent.parent
HARNESS = ("soak.py", "soak_dealers.py", "failover.py", "room_loop.py", "pg_admin.py",
           "sim_clock.py")


def test_the_wheel_holds_the_product_and_no_harness(tmp_path: Path) -> None:
    subprocess.run([sys.executable, "-m", "pip", "wheel", "-q", "--no-deps", "-w",
                    str(tmp_path), str(REPO)],
                   check=True, capture_output=True, timeout=300)
    wheel = next(tmp_path.glob("poker_kiosk-*.whl"))
    names = zipfile.ZipFile(wheel).namelist()
    shipped = {Path(n).name for n in names}
    assert not shipped & set(HARNESS), sorted(shipped & set(HARNESS))
    assert not [n for n in names if n.startswith(("harness/", "bench/", "tests/"))]
    for needed in ("kiosk/demo/room.py", "kiosk/sim/engine.py", "kiosk/director/service.py",
                   "kiosk/table/ui/table.kv", "kiosk/rules/profiles/tda-2017.toml",
                   "kiosk/director/web/static/room.html"):
        assert needed in names, needed
