"""A table's badge or PIN over the broker: parsed, handed to the dealers' service
(kiosk.director.services.dealers), and answered on the table's own topic. Only I/O here:
the service decides who deals where.

The answer travels as message keys for the kiosk's reader (who badged: the dealer's own
language, the roster's), with the words in the room's default language beside them for a
kiosk on the previous release."""

from __future__ import annotations

import logging

from kiosk.base.errors import RuleError
from kiosk.base.texts import Msg
from kiosk.director.mqtt.speech import Speech
from kiosk.director.mqtt.wire import Wire
from kiosk.director.services.dealers import Answer, Dealers, refused, where_msg
from kiosk.protocol import dealer_messages as dm
from kiosk.protocol.messages import ProtocolError

log = logging.getLogger("kiosk.director")


class DealerRequests:
    """The dealers' topics of every table: requests in, answers out."""

    def __init__(self, dealers: Dealers, wire: Wire) -> None:
        self.dealers = dealers
        self.wire = wire
        self.speech = Speech(dealers.service.config)    # `text` in the room's language

    @property
    def subscription(self) -> str:
        return dm.request_topic(self.wire.topics, "+")

    def on_request(self, table: int, payload: bytes) -> None:
        """A table's badge or PIN: checked, acted on, answered on the table's topic (a
        failure is counted; the inbox goes on)."""
        try:
            self._answer(table, payload)
        except Exception as exc:
            self.dealers.service.tx.internal(f"table {table}'s dealer request", exc)

    def _answer(self, table: int, payload: bytes) -> None:
        try:
            req = dm.parse_request(payload)
        except ProtocolError as exc:
            log.warning("table %d: dealer request refused: %s", table, exc)
            return
        if req.table != table:
            log.warning("table %d: a dealer request naming table %d refused", table,
                        req.table)
            return
        try:
            ans = self.dealers.badge(table, req.badge) if req.badge is not None else \
                self.dealers.pin(table, req.dealer or "", req.pin or "")
        except RuleError as exc:
            ans = Answer(False, refused(exc))
        self.wire.send_encoded(dm.answer_topic(self.wire.topics, table),
                               dm.encode(self.reply(req.id, ans)), retain=False)

    def reply(self, rid: str, ans: Answer) -> dm.DealerAnswer:
        """The answer as it travels: its keys, and its words in the room's language."""
        where = ans.where or {}
        msg = ans.msg if isinstance(ans.msg, Msg) else None
        gone = where_msg(where) if where else None
        spoken = next((d.language for d in self.dealers.config.roster
                       if d.name == ans.dealer and d.language), None)
        return dm.DealerAnswer(
            id=rid, ok=ans.ok, text=self.speech.say(ans.msg)[:2000], text_msg=msg,
            dealer=ans.dealer, outgoing=str(where.get("dealer", "")) if where else "",
            outgoing_to=self.speech.say(gone)[:2000] if gone else "", outgoing_to_msg=gone,
            language=spoken)
