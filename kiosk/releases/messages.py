"""The two update messages and their topics, beside the protocol's tree:

    pk/v2/<room>/table/<n>/release   retained, director -> table: the wanted release
    pk/v2/<room>/table/<n>/update    retained, table -> director: its version and state

They stay under `pk/v2` and keep `"v": 2` whatever protocol later releases speak, and
an unknown field is ignored, so a director can always bring an old table up to date
(docs/updates.md, "Mixed versions during a rollout").
"""

from __future__ import annotations

from typing import Annotated, Literal

import msgspec
from msgspec import Meta

from kiosk.protocol.topics import Topics
from kiosk.releases.manifest import Version

MAX_WANTED = 128 * 1024
State = Literal["current", "downloading", "ready", "waiting", "held", "switching",
                "switched", "rolled back", "refused"]
STATES: tuple[str, ...] = State.__args__   # type: ignore[attr-defined]
Reason = Annotated[str, Meta(max_length=500)]


class Wanted(msgspec.Struct, forbid_unknown_fields=False):
    """The release a table should run: None keeps the one it runs."""

    v: Literal[2] = 2
    version: Version | None = None
    manifest: Annotated[str, Meta(max_length=100_000)] = ""   # the signed bytes, as text
    signature: Annotated[str, Meta(max_length=200)] = ""
    hold: bool = False       # the floor holds the switch (downloads still go ahead)
    now: bool = False        # the floor says: switch at the next moment between hands


class UpdateStatus(msgspec.Struct, forbid_unknown_fields=False):
    """What a table's updater is doing, for the floor's room page."""

    table: Annotated[int, Meta(ge=1, le=9999)]   # a room's table numbers (up to 2,000)
    version: Version
    state: State
    v: Literal[2] = 2
    wanted: Version | None = None
    reason: Reason = ""
    ts: Annotated[float, Meta(ge=0, le=1e11)] = 0.0


UPDATES_ROOT = "pk/v2"     # not the protocol's root: it never moves


def release_topic(topics: Topics, table: int | str) -> str:
    return f"{UPDATES_ROOT}/{topics.room}/table/{table}/release"


def update_topic(topics: Topics, table: int | str) -> str:
    return f"{UPDATES_ROOT}/{topics.room}/table/{table}/update"


def decode_wanted(payload: bytes) -> Wanted:
    if len(payload) > MAX_WANTED:
        raise ValueError("release message too large")
    return msgspec.json.decode(payload, type=Wanted)


def decode_status(payload: bytes) -> UpdateStatus:
    if len(payload) > 4096:
        raise ValueError("update status too large")
    return msgspec.json.decode(payload, type=UpdateStatus)


def encode(msg: Wanted | UpdateStatus) -> bytes:
    return msgspec.json.encode(msg)
