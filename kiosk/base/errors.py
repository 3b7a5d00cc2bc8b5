"""Errors that reach a person: each carries one line that says what to fix."""

from __future__ import annotations

from typing import Any

from kiosk.base.texts import M_, Mn_, Msg, english


class KioskError(Exception):
    """Base for errors shown to a user as one line, never as a traceback.

    Raised with a `Msg` (kiosk.base.texts), the error carries its key and arguments
    (`.msg`) so each reader renders it in its own language; `str()` is the English line
    the logs and the command line print. Raised with a plain English line, `.msg` is None
    and a screen shows that line as it is (kiosk.lang counts it as a fallback)."""

    def __init__(self, *args: Any) -> None:
        first = args[0] if args else None
        self.msg: Msg | None = first if isinstance(first, Msg) else None
        if self.msg is not None:
            args = (english(self.msg), *args[1:])
        super().__init__(*args)

    def __reduce__(self) -> tuple[Any, ...]:
        if self.msg is not None and type(self).__init__ is KioskError.__init__:
            return (type(self), (self.msg, *self.args[1:]))
        reduced: tuple[Any, ...] = super().__reduce__()  # type: ignore[assignment]
        return reduced


class ConfigError(KioskError):
    """A config, profile, structure or CSV file is wrong; the message names file and key.

    `problem` is English (`str(problem)` of a message key): the command line prints it; a
    problem given as a key keeps it in `.msg`, for a page that shows the error."""

    def __init__(self, source: str, key: str, problem: str | Msg) -> None:
        self.source, self.key, self.problem = source, key, str(problem)
        self.problem_msg = problem        # the problem as given: its key, if it has one
        where = f"{source}: {key}" if key else source
        if isinstance(problem, Msg):
            super().__init__(M_("config.problem", "{where}: {problem}", where=where,
                                problem=problem))
        else:
            super().__init__(f"{where}: {problem}")

    def __reduce__(self) -> tuple[Any, ...]:
        return (type(self), (self.source, self.key, self.problem_msg))


class RuleError(KioskError):
    """A decision the rules do not allow (seat taken, player not seated, ...)."""


class InternalError(RuleError):
    """A bug met while deciding: any exception that is not a RuleError. The director logs
    it with its traceback and counts it on /api/health; the command is refused whole, so
    the floor or the table reads this one line and never the bug's own words as a rule."""

    MESSAGE = "internal error (logged)"

    def __init__(self) -> None:
        super().__init__(M_("error.internal", "internal error (logged)"))

    def __reduce__(self) -> tuple[type, tuple[()]]:
        return (type(self), ())


class NeedsTable(RuleError):
    """An event of a room (pool mode) must open more tables than the room has granted it.

    `count` is how many more the refused command needs: the director grants that many
    free tables from the room's pool and decides the command again."""

    def __init__(self, event: str, count: int) -> None:
        self.event, self.count = event, count
        super().__init__(Mn_("error.needs_tables",
                              "{event} needs 1 more table: grant one from the room's pool",
                              "{event} needs {n} more tables: grant them from the room's "
                              "pool", count, event=event))

    def __reduce__(self) -> tuple[type, tuple[str, int]]:
        return (type(self), (self.event, self.count))
