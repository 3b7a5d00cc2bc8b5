"""The declared schemas: docs/protocol.md agrees with them, and what they refuse."""

from __future__ import annotations

from pathlib import Path

import msgspec
import pytest

from kiosk.protocol import doc
from kiosk.protocol.messages import SCHEMAS, ProtocolError, decode, encode, report

DOC = Path(__file__).parents[3] / "docs" / "protocol.md"


def test_the_protocol_document_matches_the_schemas() -> None:
    text = DOC.read_text()
    assert doc.splice(text) == text, (
        "docs/protocol.md differs from the declared schemas; run "
        "`python -m kiosk.protocol.doc docs/protocol.md` and review the change")


@pytest.mark.parametrize(("data", "why"), [
    ({"seat": True, "hand": 1}, "got `bool`"),
    ({"seat": 1.5, "hand": 1}, "got `float`"),
    ({"seat": 11, "hand": 1}, "<= 10"),
    ({"seat": 1, "hand": 10**30}, "<= 1000000000"),
    ({"seat": 1}, "missing required field `hand`"),
    ({"seat": 1, "hand": 1, "why": "x"}, "unknown field `why`"),
])
def test_a_report_field_of_the_wrong_shape_is_refused_with_the_reason(data: dict,
                                                                        why: str) -> None:
    with pytest.raises(ProtocolError, match=why.replace("`", ".").replace("(", ".")):
        decode("report", encode(report(3, "r1", 1, 1.0, "all_in", **data)))


def test_refusals_name_the_version_size_and_nesting() -> None:
    with pytest.raises(ProtocolError, match="schema version 1 is not 2"):
        decode("ack", b'{"v": 1, "ids": []}')
    with pytest.raises(ProtocolError, match="exceeds"):
        decode("plan", b" " * (65 * 1024))
    with pytest.raises(ProtocolError):
        decode("report", b'{"v": 2, "data": ' + b"[" * 5000 + b"]" * 5000 + b"}")
    names = decode("seating", encode({"rev": 1, "cards": {"C1": [1, 2, "Ann"]}}))
    assert list(names["cards"]["C1"]) == [1, 2, "Ann"]


@pytest.mark.parametrize("kind", sorted(SCHEMAS))
def test_a_payload_without_its_version_is_refused_with_the_reason(kind: str) -> None:
    """The version is required: a message that leaves it out is not taken for version 2,
    whatever else it carries."""
    bodies = {"report": report(3, "r1", 1, 1.0, "floor_call"),
              "status": {"state": "online"}, "ack": {"ids": ["r1"]},
              "live": {"table": 3, "hand": 1}, "seating": {"rev": 1, "cards": {}},
              "events": {"rev": 1, "room": "casino"},
              "plan": {"table": 3, "rev": 1, "event": None, "seats": {}, "moves_out": [],
                       "moves_in": []},
              "schedule": {"rev": 1, "profile": "tda-2017", "clock": {"period": 0,
                                                                      "anchor": 0.0},
                           "structure": {"name": "s", "start_stack": 100,
                                         "periods": [{"minutes": 20}]}}}
    body = {k: v for k, v in bodies[kind].items() if k != "v"}
    assert decode(kind, encode(body))["v"] == 2           # the sender's encode stamps it
    with pytest.raises(ProtocolError, match='no schema version: every payload carries "v": 2'):
        decode(kind, msgspec.json.encode(body))
