"""Results, deal and audit over HTTP, and the floor's money commands through /api/act."""

from __future__ import annotations

import asyncio
import csv
import io
from pathlib import Path

from aiohttp.test_utils import TestClient, TestServer
from money_helpers import Reports, money_director

from kiosk.director.views import views
from kiosk.director.web.app import make_app


def test_summary_money_object_for_the_clock_and_dashboard(tmp_path: Path) -> None:
    d = money_director(tmp_path)
    Reports(d).play_down(4)
    s = views.summary(d, d.now())
    m = s["money"]
    assert (m["prize_pool"], m["payouts"], m["places_paid"], m["bubble"], m["bounty_pool"]) \
        == (1200, [600, 360, 240], 3, True, 600)
    assert s["prize_pool"] == 1200 and s["payouts"] == [600, 360, 240]


def test_results_csv_audit_and_deal_endpoints(tmp_path: Path) -> None:
    d = money_director(tmp_path)
    rep = Reports(d)
    rep.play_down(3)
    rep.count([60000, 40000, 20000])

    async def go() -> None:
        client = TestClient(TestServer(make_app(d)))
        await client.start_server()
        deal = await (await client.get("/api/deal?method=icm")).json()
        assert sorted(r["stack"] for r in deal["players"]) == [20000, 40000, 60000]
        assert sum(r["amount"] for r in deal["players"]) == deal["total"] == 1200
        chop = await (await client.post("/api/deal", json={
            "method": "chip_chop", "stacks": {r["player"]: 10000 for r in deal["players"]}
        })).json()
        assert [r["amount"] for r in chop["players"]] == [400, 400, 400]
        bad = await (await client.post("/api/deal", json={"method": "icm", "stacks": {}})).json()
        assert "enter every player's chips" in bad["error"]
        refused = await client.post("/api/act", json={"kind": "deal", "amounts": {}})
        assert refused.status == 401
        login = await client.post("/api/login", json={"user": "floor", "password": "s3cret"})
        token = {"X-CSRF-Token": (await login.json())["csrf"]}
        amounts = {r["player"]: r["amount"] for r in deal["players"]}
        wrong = await client.post("/api/act", headers=token, json={"kind": "deal", "amounts": {
            **amounts, deal["players"][0]["player"]: 1}})
        assert wrong.status == 400 and "places left pay 1,200" in (await wrong.json())["error"]
        ok = await client.post("/api/act", headers=token,
                               json={"kind": "deal", "method": "icm", "amounts": amounts})
        assert ok.status == 200
        audit = (await (await client.get("/api/audit")).json())["audit"]
        assert audit[0]["action"] == "deal_agreed" and audit[0]["by"] == "floor"
        assert audit[0]["before"] and audit[0]["details"]["amounts"] == amounts
        rep.play_down(1)
        res = await (await client.get("/api/results")).json()
        assert res["finished"] and sum(r["prize"] for r in res["rows"]) == 1200
        assert {r["player"]: r["prize"] for r in res["rows"][:3]} == amounts
        text = await (await client.get("/api/results.csv?site=1")).text()
        rows = list(csv.DictReader(io.StringIO(text)))
        assert list(rows[0]) == ["place", "name", "prize", "country"] and len(rows) == 3
        assert {r["country"] for r in rows} <= {"IE", ""}
        await client.close()

    asyncio.run(go())
