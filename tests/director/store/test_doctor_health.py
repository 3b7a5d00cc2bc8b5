"""`pokerkiosk doctor` on the director machine reads the running director's health: a
command a bug refused is named there, with where to read it, not only on the pages."""

from __future__ import annotations

import json
import urllib.request
from pathlib import Path
from typing import Any

import pytest
from money_helpers import Reports, Served, money_director

from kiosk.appliance.checks import director_health
from kiosk.base.errors import InternalError
from kiosk.core.money.knockouts import Knockouts


def health(served: Served) -> dict[str, Any]:
    with urllib.request.urlopen(served.url + "/api/health", timeout=10) as r:
        return dict(json.loads(r.read()))


@pytest.mark.internal_errors(1)
def test_the_doctor_names_a_directors_internal_errors(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    d = money_director(tmp_path)
    served = Served(d)
    try:
        before = director_health(health(served))
        assert [c.line() for c in before] == [
            "OK   health: the running director met no internal error"]

        def after_bust(self: Knockouts, *args: Any) -> None:
            raise KeyError(2)

        monkeypatch.setattr(Knockouts, "after_bust", after_bust)
        p = d.tour.players["p3"]
        with pytest.raises(InternalError):     # the table is answered "internal error"
            served.call(lambda: Reports(d).send(p.table or 0, "bust", seat=p.seat,
                                                player="p3", eliminator=None))
        after = director_health(health(served))
    finally:
        served.close()
    lines = [c.line() for c in after]
    assert any(line.startswith("WARN health: the running director refused 1 command(s) "
                               "on an internal error") and "journalctl" in line
               for line in lines), lines
    assert not any(c.failed for c in after)      # the setup is sound: exit code stays 0
