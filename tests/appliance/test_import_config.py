"""The first-boot import on the director: the broker must be able to read what it moved.

Found by booting the director under QEMU (images/vm.sh): install-root.sh makes
/etc/mosquitto/pokerkiosk root:root 0750, the import put the password file in it as
root:mosquitto 0640, and Mosquitto, running as user mosquitto, could not open it: no
broker, a dark room.
"""

from __future__ import annotations

import grp
import os
import subprocess
from pathlib import Path

REPO = Path(__file__).resolve().parents[2]
IMPORT = REPO / "images" / "stage-pokerkiosk" / "import-config.sh"


def test_the_broker_directory_lets_mosquitto_in(tmp_path: Path) -> None:
    etc, card = tmp_path / "etc", tmp_path / "bootfs" / "pokerkiosk"
    broker = etc / "mosquitto" / "pokerkiosk"
    broker.mkdir(parents=True, mode=0o750)          # as install-root.sh leaves it
    os.chown(broker, 0, 0)
    card.mkdir(parents=True)
    for name in ("passwd", "acl", "server.key", "server.crt", "ca.crt"):
        (card / name).write_text(f"{name}\n")
    proc = subprocess.run(["bash", str(IMPORT)], env={**os.environ, "PK_IMPORT_DIR": str(card),
                          "PK_ETC": str(etc)}, capture_output=True, text=True, check=False)
    assert proc.returncode == 0, proc.stderr
    mosquitto = grp.getgrnam("mosquitto").gr_gid
    st = broker.stat()
    assert st.st_gid == mosquitto and st.st_mode & 0o050 == 0o050, oct(st.st_mode)
    assert (broker / "passwd").stat().st_gid == mosquitto
    assert list(card.iterdir()) == []
