"""Mixed versions: the two update messages are the one thing every version of the kiosk
shares, so a director of any later protocol can still bring an old table up to date."""

from __future__ import annotations

import msgspec
import pytest

from kiosk.appliance import broker_files
from kiosk.protocol import topics as protocol_topics
from kiosk.releases import messages as rm


def test_the_update_topics_stay_when_the_protocol_moves_on(
        monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(protocol_topics, "ROOT", "pk/v3")     # a later protocol's tree
    later = protocol_topics.Topics("spring")
    assert later.plan(3).startswith("pk/v3/")
    # ...yet the release and update topics are today's, and the later room's broker
    # still lets table 3 read its wanted release and write its state
    assert rm.release_topic(later, 3) == "pk/v2/spring/table/3/release"
    assert rm.update_topic(later, 3) == "pk/v2/spring/table/3/update"
    acl = broker_files.acl_file("spring", [3])
    assert "topic read pk/v2/spring/table/3/release" in acl
    assert "topic write pk/v2/spring/table/3/update" in acl


def test_a_later_directors_wanted_release_is_read_by_todays_table() -> None:
    later = {"v": 2, "version": "0.3.0", "manifest": "m", "signature": "s", "now": True,
             "channel": "beta", "window": {"from": "03:00"}}     # fields added later
    wanted = rm.decode_wanted(msgspec.json.encode(later))
    assert (wanted.version, wanted.now, wanted.hold) == ("0.3.0", True, False)
    # and today's table answers in the shape any later director reads
    status = rm.UpdateStatus(table=3, version="0.1.0", state="waiting", wanted="0.3.0",
                             reason="a hand is in play")
    back = rm.decode_status(rm.encode(status))
    assert (back.state, back.reason) == ("waiting", "a hand is in play")
    with pytest.raises(msgspec.ValidationError, match="state"):
        rm.decode_status(msgspec.json.encode({"table": 3, "version": "0.1.0",
                                              "state": "exploded"}))
