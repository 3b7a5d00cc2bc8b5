"""Errors that reach a person: each carries one line that says what to fix."""

from __future__ import annotations


class KioskError(Exception):
    """Base for errors shown to a user as one line, never as a traceback."""


class ConfigError(KioskError):
    """A config, profile, structure or CSV file is wrong; the message names file and key."""

    def __init__(self, source: str, key: str, problem: str) -> None:
        self.source, self.key, self.problem = source, key, problem
        where = f"{source}: {key}" if key else source
        super().__init__(f"{where}: {problem}")


class RuleError(KioskError):
    """A decision the rules do not allow (seat taken, player not seated, ...)."""


class InternalError(RuleError):
    """A bug met while deciding: any exception that is not a RuleError. The director logs
    it with its traceback and counts it on /api/health; the command is refused whole, so
    the floor or the table reads this one line and never the bug's own words as a rule."""

    MESSAGE = "internal error (logged)"

    def __init__(self) -> None:
        super().__init__(self.MESSAGE)

    def __reduce__(self) -> tuple[type, tuple[()]]:
        return (type(self), ())


class NeedsTable(RuleError):
    """An event of a room (pool mode) must open more tables than the room has granted it.

    `count` is how many more the refused command needs: the director grants that many
    free tables from the room's pool and decides the command again."""

    def __init__(self, event: str, count: int) -> None:
        self.event, self.count = event, count
        what = "1 more table: grant one" if count == 1 else f"{count} more tables: grant them"
        super().__init__(f"{event} needs {what} from the room's pool")

    def __reduce__(self) -> tuple[type, tuple[str, int]]:
        return (type(self), (self.event, self.count))
