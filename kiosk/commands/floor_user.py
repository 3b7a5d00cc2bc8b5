"""`pokerkiosk floor-user add|remove|list`: manage the dashboard's floor logins.

Passwords are asked for (or read from standard input) and only their argon2 hash is
written; a running director picks the change up without a restart. `--role` gives a login
its role (director, floor or cashier); `add` without it keeps an existing login's role and
makes a new one a director. `--language` gives a login its own language for the floor's
pages (`--language ""` drops it: the room's again).
"""

from __future__ import annotations

import argparse
import getpass
import sys
from pathlib import Path

from kiosk.base.errors import KioskError
from kiosk.config import floor_users
from kiosk.system.passwords import new_password


def add_arguments(p: argparse.ArgumentParser) -> None:
    p.add_argument("action", choices=("add", "remove", "list"),
                   help="add (or change the password of) a user, remove one, or list them")
    p.add_argument("name", nargs="?", help="the floor user's name")
    where = p.add_mutually_exclusive_group(required=True)
    where.add_argument("--config", help="the event's event.toml (its floor_users_file)")
    where.add_argument("--users", help="the floor-users.toml file itself")
    p.add_argument("--generate", action="store_true",
                   help="make up a strong password and print it once")
    p.add_argument("--role", choices=floor_users.ROLES,
                   help="director: everything; floor: calls, moves, tables, clock, "
                        "penalties, register; cashier: register, money, tickets "
                        "(default: director, or the login's role when it exists)")
    p.add_argument("--language", metavar="CODE",
                   help="the login's own language for the floor's pages (en, es, de, fr, "
                        "cs, pt_BR, zh_Hans; default: the room's, or the login's own)")


def ask_password(user: str) -> str:
    if not sys.stdin.isatty():
        line = sys.stdin.readline().rstrip("\n")
        if not line:
            raise KioskError("no password on standard input")
        return line
    first = getpass.getpass(f"new password for {user}: ")
    if getpass.getpass("again: ") != first:
        raise KioskError("the two passwords differ; nothing changed")
    return first


def run(args: argparse.Namespace) -> int:
    path = Path(args.users) if args.users else floor_users.file_of(args.config)
    users = floor_users.load(path)
    roles = floor_users.load_roles(path)
    languages = floor_users.load_languages(path)
    if args.action == "list":
        print("\n".join(f"{u} ({roles.get(u, floor_users.DEFAULT_ROLE)}"
                        + (f", {languages[u]})" if u in languages else ")")
                        for u in sorted(users)) if users else f"no floor users in {path}")
        return 0
    if not args.name:
        raise KioskError(f"floor-user {args.action} needs a NAME")
    user = floor_users.check_user_name(args.name)
    if args.action == "remove":
        if users.pop(user, None) is None:
            raise KioskError(f"no floor user {user} in {path}")
        floor_users.save(path, users)
        print(f"removed {user} from {path}; their sessions end at once")
        return 0
    if args.language:
        languages[user] = floor_users.check_language(args.language)
    elif args.language == "":
        languages.pop(user, None)
    password = new_password() if args.generate else ask_password(user)
    existed = user in users
    users[user] = floor_users.hash_password(floor_users.check_new_password(user, password))
    if args.role:
        roles[user] = args.role
    floor_users.save(path, users, roles, languages)
    role = roles.get(user, floor_users.DEFAULT_ROLE) + (
        f", {languages[user]}" if user in languages else "")
    print(f"{'changed' if existed else 'added'} {user} ({role}) in {path}"
          + (f"; password: {password}" if args.generate else ""))
    return 0
