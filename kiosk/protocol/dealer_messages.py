"""A dealer at a table: the kiosk's request (a badge read, or a name and a PIN typed) and
the director's answer, on topics of their own beside the table's report.

    pk/v2/<room>/table/<n>/dealer       QoS1, not retained: table -> director
    pk/v2/<room>/director/dealer/<n>    QoS1, not retained: the director's answer

Neither is retained nor logged: a badge and a PIN cross the broker once, to the director,
which keeps only their check (kiosk.director.services.dealers). A player's card is never
sent here: the kiosk sends a card the seating directory does not know, and the director
answers whether it is a dealer's badge.
"""

from __future__ import annotations

from typing import Annotated, Literal

import msgspec
from msgspec import Meta

from kiosk.base.texts import Msg
from kiosk.core.model.bounds import Ident, Name, TableNo, Text
from kiosk.protocol.messages import Language, ProtocolError
from kiosk.protocol.topics import Topics

Secret = Annotated[str, Meta(min_length=1, max_length=64)]


class DealerRequest(msgspec.Struct, kw_only=True, forbid_unknown_fields=True):
    """`badge`: the id the card reader read; or `dealer` and `pin` as typed."""

    v: Literal[2] = 2
    id: Ident
    table: TableNo
    badge: Secret | None = None
    dealer: Name | None = None
    pin: Annotated[str, Meta(pattern=r"^\d{4,8}$")] | None = None


class DealerAnswer(msgspec.Struct, kw_only=True, omit_defaults=True):
    v: Literal[2] = 2
    id: Ident
    ok: bool
    text: Text                 # in the room's default language (older kiosks)
    text_msg: Msg | None = None   # the same as a message key
    dealer: Name = ""
    outgoing: Name = ""        # the dealer pushed off, and where they go next
    outgoing_to: Text = ""
    outgoing_to_msg: Msg | None = None
    language: Language | None = None   # the dealer's own (the roster's), if any


_request = msgspec.json.Decoder(DealerRequest)
_answer = msgspec.json.Decoder(DealerAnswer)
_encoder = msgspec.json.Encoder()


def request_topic(topics: Topics, table: int | str) -> str:
    return f"{topics.base}/table/{table}/dealer"


def answer_topic(topics: Topics, table: int | str) -> str:
    return f"{topics.base}/director/dealer/{table}"


def parse_request(payload: bytes) -> DealerRequest:
    """The request, checked; ProtocolError with why (a badge or PIN is never echoed)."""
    if len(payload) > 4096:
        raise ProtocolError(f"payload of {len(payload)} bytes exceeds 4096")
    try:
        req = _request.decode(payload)
    except (msgspec.ValidationError, msgspec.DecodeError) as exc:
        reason = str(exc).split("`")[1] if "`" in str(exc) else "malformed"
        raise ProtocolError(f"bad dealer request (at {reason})") from None
    if (req.badge is None) == (req.dealer is None or req.pin is None):
        raise ProtocolError("a dealer request holds a badge, or a dealer and a PIN")
    return req


def parse_answer(payload: bytes | bytearray) -> DealerAnswer:
    try:
        return _answer.decode(payload)
    except (msgspec.ValidationError, msgspec.DecodeError) as exc:
        raise ProtocolError(f"bad dealer answer: {exc}") from None


def encode(msg: DealerRequest | DealerAnswer) -> bytes:
    return _encoder.encode(msg)
