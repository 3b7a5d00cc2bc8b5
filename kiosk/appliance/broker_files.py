"""Mosquitto's password file, ACL and room config, derived from the one topic tree."""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass

from kiosk.protocol import dealer_messages
from kiosk.protocol.messages import MAX_MESSAGE
from kiosk.protocol.topics import Topics, V1Topics
from kiosk.releases.messages import release_topic, update_topic
from kiosk.system.passwords import hash_line

DIRECTOR_USER = "director"


def table_user(n: int) -> str:
    return f"table-{n}"


def password_file(users: Mapping[str, str]) -> str:
    """Hashed lines for every user; a fresh salt each time is harmless (same passwords)."""
    return "".join(hash_line(user, pw) + "\n" for user, pw in sorted(users.items()))


def table_rules(topics: Topics, n: int) -> list[tuple[str, str]]:
    """(access, topic) for table n: write its own leaves; read its plan and acks, the
    director's status, the events directory and every event's schedule and seating (a
    table serves whichever event the room assigns it, and card check-in looks across
    events). Version 1 tables may still write their status and read their plan, so the
    director's answer (update the kiosk) reaches them."""
    old = V1Topics
    return [
        ("write", topics.report(n)),
        ("write", topics.live(n)),
        ("write", topics.table_status(n)),   # also the topic of its last will
        ("read", topics.plan(n)),
        ("read", topics.ack(n)),
        ("read", topics.director_status),
        ("read", topics.events),
        ("read", topics.all_schedules),
        ("read", topics.all_seating),
        ("read", release_topic(topics, n)),    # the wanted release (docs/updates.md)
        ("write", update_topic(topics, n)),    # its updater's state
        ("write", dealer_messages.request_topic(topics, n)),   # a dealer's badge or PIN
        ("read", dealer_messages.answer_topic(topics, n)),     # and the director's answer
        ("write", f"{old.root}/+/table/{n}/status"),
        ("read", f"{old.root}/+/table/{n}/plan"),
    ]


def acl_file(room: str, tables: Iterable[int]) -> str:
    """Mosquitto ACL: with an acl_file, anything not granted here is denied. One login
    per table, valid whatever event the table serves."""
    topics = Topics(room)
    lines = [f"# pokerkiosk broker ACL for room {room!r}; anything not listed is denied.",
             "",
             f"user {DIRECTOR_USER}",
             f"topic readwrite {topics.base}/#",
             "# version 1: the director hears old tables and tells them to update",
             f"topic readwrite {V1Topics.root}/#"]
    for n in sorted(tables):
        lines += ["", f"user {table_user(n)}"]
        lines += [f"topic {access} {topic}" for access, topic in table_rules(topics, n)]
    return "\n".join(lines) + "\n"


@dataclass(frozen=True)
class BrokerLayout:
    """Where the broker's files live on the director Pi, and which ports it serves."""

    broker_dir: str = "/etc/mosquitto/pokerkiosk"
    persistence_dir: str = "/var/lib/mosquitto/"
    port: int = 1883
    tls_port: int = 8883


def mosquitto_conf(layout: BrokerLayout, *, tls: bool) -> str:
    """A complete mosquitto.conf for the room (replaces Debian's /etc/mosquitto/mosquitto.conf)."""
    d = layout.broker_dir
    lines = [
        "# pokerkiosk room broker: written by `pokerkiosk provision`.",
        "# Install as /etc/mosquitto/mosquitto.conf on the director Pi.",
        "per_listener_settings false",
        "# Reports are small: send each at once, never ~40 ms later behind Nagle's algorithm.",
        "set_tcp_nodelay true",
        "allow_anonymous false",
        f"password_file {d}/passwd",
        f"acl_file {d}/acl",
        "# The largest message is the seating directory (kiosk.protocol MAX_MESSAGE).",
        f"message_size_limit {MAX_MESSAGE}",
        "",
        "# Retained plans and schedules must survive a broker restart.",
        "persistence true",
        f"persistence_location {layout.persistence_dir}",
        "autosave_interval 60",
        "",
        "log_dest syslog",
        "log_type error",
        "log_type warning",
        "log_type notice",
        "connection_messages true",
        "",
    ]
    if tls:
        lines += [
            "# TLS only: table passwords never cross the room's network in clear.",
            f"listener {layout.tls_port}",
            f"cafile {d}/ca.crt",
            f"certfile {d}/server.crt",
            f"keyfile {d}/server.key",
            "tls_version tlsv1.2",
        ]
    else:
        lines += [
            "# Plain MQTT: use `provision --tls` when the room network is shared.",
            f"listener {layout.port}",
        ]
    lines += [
        "# Each login is its own client id: no table can take over the director's session",
        "# (or another table's) by connecting with its client id. A listener option: it",
        "# must follow the listener line, or Mosquitto opens a second listener on 1883.",
        "use_username_as_clientid true",
    ]
    return "\n".join(lines) + "\n"
