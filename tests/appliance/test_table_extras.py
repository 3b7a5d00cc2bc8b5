"""A table's Pi installs the `table` extra only: its kiosk and `pokerkiosk doctor` must
start without the director's packages (argon2, aiohttp, psycopg...). The arm64 VM found
the doctor failing on `import argon2` through the room's dealer settings."""

from __future__ import annotations

import subprocess
import sys

DIRECTOR_ONLY = ("argon2", "aiohttp", "psycopg", "itsdangerous", "segno", "orjson", "amqtt")


def test_the_tables_doctor_and_kiosk_import_without_the_directors_packages() -> None:
    blocked = "; ".join(f"sys.modules[{m!r}] = None" for m in DIRECTOR_ONLY)
    code = (f"import sys; {blocked}; "
            "import kiosk.commands.doctor, kiosk.appliance.checks, kiosk.table.service, "
            "kiosk.config.room, kiosk.table.headless; print('ok')")
    proc = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                          timeout=120, check=False)
    assert proc.returncode == 0 and proc.stdout.strip() == "ok", proc.stderr[-2000:]
