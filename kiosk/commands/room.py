"""`pokerkiosk room ...`: run the room from a terminal, through a running director's API.

It logs in as floor staff (the same logins, roles and audit as the dashboard) and sends one
action: list the events, open (create, or open a scheduled one), start, pause, resume,
finish or archive an event, assign a free table to an event, free a table, list the
tickets, give one back or refund it. The password comes from PK_FLOOR_PASSWORD, or is
asked for.
"""

from __future__ import annotations

import argparse
import getpass
import os
import sys
import tomllib
from typing import Any

from kiosk.base.errors import KioskError
from kiosk.core.model import commands
from kiosk.core.model import room_commands as rc
from kiosk.core.model.room_events import EventState
from kiosk.director.web.client import RoomClient

PASSWORD_ENV = "PK_FLOOR_PASSWORD"
ACTIONS = ("events", "open", "start", "pause", "resume", "finish", "archive", "assign",
           "free", "tickets", "return", "refund")


def add_arguments(p: argparse.ArgumentParser) -> None:
    p.add_argument("action", choices=ACTIONS, metavar="ACTION",
                   help="events | open EVENT | start EVENT | pause EVENT | resume EVENT | "
                        "finish EVENT | archive EVENT | assign TABLE EVENT | free TABLE | "
                        "tickets | return TICKET | refund TICKET")
    p.add_argument("args", nargs="*", metavar="ARG", help="the event, table or ticket")
    p.add_argument("--url", default=os.environ.get("PK_DIRECTOR_URL", "http://127.0.0.1:8080"),
                   help="the director's dashboard address (default: $PK_DIRECTOR_URL or "
                        "http://127.0.0.1:8080)")
    p.add_argument("--user", default=os.environ.get("PK_FLOOR_USER"),
                   help="floor login (default: $PK_FLOOR_USER); the password comes from "
                        f"${PASSWORD_ENV} or is asked for")
    new = p.add_argument_group("open: a new event (the keys of a room.toml [[events]] entry)")
    new.add_argument("--title")
    new.add_argument("--kind", choices=("event", "satellite", "flight", "day2"))
    new.add_argument("--target", help="satellite: the event its seats are for")
    new.add_argument("--flights", help="day2: its flights, comma-separated")
    new.add_argument("--structure")
    new.add_argument("--buy-in", type=int)
    new.add_argument("--tables", type=int, help="tables taken from the pool now")
    new.add_argument("--scheduled", action="store_true",
                     help="announced only: it takes entries once opened")
    new.add_argument("--set", action="append", default=[], metavar="KEY=VALUE",
                     help="any other [[events]] key, VALUE in TOML (seats=6, money.seat_value=300)")
    p.add_argument("--note", default="", help="return, refund: why (kept in the audit)")
    p.add_argument("--amount", type=int, help="refund: what is paid (default: its value)")


def _password(user: str) -> str:
    password = os.environ.get(PASSWORD_ENV)
    if password:
        return password
    if not sys.stdin.isatty():
        raise KioskError(f"no password: set {PASSWORD_ENV} or run in a terminal")
    return getpass.getpass(f"password for {user}: ")


def _need(args: argparse.Namespace, n: int, what: str) -> list[str]:
    if len(args.args) != n:
        raise KioskError(f"room {args.action} needs {what}")
    return list(args.args)


def _table(text: str) -> int:
    if not text.isdigit():
        raise KioskError(f"table {text!r}: a table number")
    return int(text)


def spec(args: argparse.Namespace, name: str) -> dict[str, Any]:
    """The new event's [[events]] keys, from the options given."""
    out: dict[str, Any] = {"name": name}
    for key in ("title", "kind", "target", "structure", "buy_in", "tables"):
        if getattr(args, key) is not None:
            out[key] = getattr(args, key)
    if args.flights:
        out["flights"] = [f.strip() for f in args.flights.split(",") if f.strip()]
    if args.scheduled:
        out["scheduled"] = True
    for item in args.set:
        key, eq, value = item.partition("=")
        if not eq or not key.strip():
            raise KioskError(f"--set {item!r}: write KEY=VALUE")
        try:
            parsed = tomllib.loads(f"v = {value}")["v"]
        except tomllib.TOMLDecodeError:
            parsed = value
        *parents, leaf = key.strip().split(".")
        node = out
        for part in parents:
            node = node.setdefault(part, {})
        node[leaf] = parsed
    return out


def print_events(room: dict[str, Any]) -> None:
    print(f"{room['title']} ({room['room']}): {len(room['free_tables'])} free tables"
          + (f" ({', '.join(map(str, room['free_tables']))})" if room["free_tables"] else ""))
    for e in room["events"]:
        field = f"{e.get('players_left', '-')}/{e.get('entries', '-')}"
        level = (f"level {e['level']}" if e.get("started") and not e.get("finished")
                 else "")
        tables = ",".join(map(str, e["tables"])) or "-"
        print(f"  {e['event']:<16} {e['state']:<9} {e['kind']:<9} {field:>9} left  "
              f"tables {tables:<12} {level}  {e['title']}".rstrip())


def print_tickets(room: dict[str, Any]) -> None:
    if not room["tickets"]:
        print("no tickets")
    for t in room["tickets"]:
        print(f"  {t['ticket']:<12} {t['state']:<9} {t['name']:<20} -> {t['target']} "
              f"({t['value']:,})" + (f"  {t['note']}" if t["note"] else ""))


def run(args: argparse.Namespace) -> int:
    client = RoomClient(args.url)
    if args.action in ("events", "tickets"):
        room = client.call("GET", "/api/room")
        (print_events if args.action == "events" else print_tickets)(room)
        return 0
    if not args.user:
        raise KioskError("name the floor login: --user NAME (or PK_FLOOR_USER)")
    client.login(args.user, _password(args.user))
    print(act(client, args))
    return 0


def act(client: RoomClient, args: argparse.Namespace) -> str:
    """Do the action; what happened, in one line."""
    a = args.action
    if a == "open":
        (name,) = _need(args, 1, "an EVENT")
        known = {e["event"]: e for e in client.call("GET", "/api/room")["events"]}
        if name in known:
            client.room_act(rc.SetEventState(event=name, state="open"))
            return f"{name} is open for entries"
        client.call("POST", "/api/room/events", spec(args, name))
        return f"{name} created" + (" (scheduled)" if args.scheduled else "")
    if a in ("start", "pause", "resume"):
        (name,) = _need(args, 1, "an EVENT")
        client.act(name, commands.Start() if a == "start" else commands.ClockAction(action=a))
        return f"{name}: {'started' if a == 'start' else a + 'd'}"
    if a in ("finish", "archive"):
        (name,) = _need(args, 1, "an EVENT")
        state: EventState = "finished" if a == "finish" else "archived"
        client.room_act(rc.SetEventState(event=name, state=state))
        return f"{name}: {state}"
    if a == "assign":
        table, name = _need(args, 2, "a TABLE and an EVENT")
        client.room_act(rc.AssignTable(table=_table(table), event=name))
        return f"table {table} now serves {name}"
    if a == "free":
        (table,) = _need(args, 1, "a TABLE")
        client.room_act(rc.FreeTable(table=_table(table)))
        return f"table {table} is free"
    (ticket,) = _need(args, 1, "a TICKET")
    client.room_act(rc.ReturnTicket(ticket=ticket, note=args.note) if a == "return" else
                    rc.RefundTicket(ticket=ticket, note=args.note, amount=args.amount))
    return f"ticket {ticket} {'returned' if a == 'return' else 'refunded'}"
