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
