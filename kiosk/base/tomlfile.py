"""Read TOML files into plain data with one-line errors that name file and key."""

from __future__ import annotations

import tomllib
from collections.abc import Callable, Mapping
from pathlib import Path
from typing import Any, TypeVar

from kiosk.base.errors import ConfigError

T = TypeVar("T")


def read_toml(path: str | Path) -> dict[str, Any]:
    """Parse a TOML file; a missing file or a syntax error becomes a ConfigError."""
    p = Path(path)
    try:
        with p.open("rb") as fh:
            return tomllib.load(fh)
    except FileNotFoundError:
        raise ConfigError(str(p), "", "file not found") from None
    except tomllib.TOMLDecodeError as exc:
        raise ConfigError(str(p), "", f"not valid TOML ({exc})") from None
    except OSError as exc:
        raise ConfigError(str(p), "", f"cannot read ({exc.strerror})") from None


class Section:
    """A view of one TOML table that checks each key's type as it is read."""

    def __init__(self, source: str, data: Mapping[str, Any], prefix: str = "") -> None:
        self.source, self.data, self.prefix = source, data, prefix

    def _key(self, key: str) -> str:
        return f"{self.prefix}{key}"

    def fail(self, key: str, problem: str) -> ConfigError:
        return ConfigError(self.source, self._key(key), problem)

    def get(self, key: str, kind: type[T] | tuple[type, ...], default: Any = ...) -> Any:
        """Value of `key`, which must be of `kind`; missing keys need a default."""
        if key not in self.data:
            if default is ...:
                raise self.fail(key, "missing (required)")
            return default
        value = self.data[key]
        kinds = kind if isinstance(kind, tuple) else (kind,)
        if float in kinds and isinstance(value, int) and not isinstance(value, bool):
            value = float(value)
        if isinstance(value, bool) and bool not in kinds:
            raise self.fail(key, f"expected {_names(kinds)}, got a boolean")
        if not isinstance(value, kinds):
            raise self.fail(key, f"expected {_names(kinds)}, got {type(value).__name__}")
        return value

    def number(self, key: str, default: Any = ..., *, minimum: float | None = None,
               maximum: float | None = None, integer: bool = False) -> Any:
        """A number within bounds."""
        value = self.get(key, int if integer else (int, float), default)
        if value is None:
            return value
        if minimum is not None and value < minimum:
            raise self.fail(key, f"must be at least {minimum}, got {value}")
        if maximum is not None and value > maximum:
            raise self.fail(key, f"must be at most {maximum}, got {value}")
        return value

    def choice(self, key: str, options: tuple[str, ...], default: Any = ...) -> str:
        value = self.get(key, str, default)
        if value not in options:
            raise self.fail(key, f"must be one of {', '.join(options)}; got {value!r}")
        return value

    def section(self, key: str, required: bool = False) -> Section:
        if key not in self.data:
            if required:
                raise self.fail(key, "missing section")
            return Section(self.source, {}, f"{self._key(key)}.")
        value = self.data[key]
        if not isinstance(value, dict):
            raise self.fail(key, f"expected a table, got {type(value).__name__}")
        return Section(self.source, value, f"{self._key(key)}.")

    def unknown(self, known: set[str]) -> None:
        """Reject misspelt keys: a silent typo in a rule profile is worse than an error."""
        extra = sorted(set(self.data) - known)
        if extra:
            raise self.fail(extra[0], f"unknown key (known: {', '.join(sorted(known))})")


def _names(kinds: tuple[type, ...]) -> str:
    names = {int: "an integer", float: "a number", str: "a string", bool: "true/false",
             list: "a list", dict: "a table"}
    return " or ".join(names.get(k, k.__name__) for k in kinds)


def parse_with(path: str | Path, build: Callable[[Section], T]) -> T:
    """Read `path` and build an object from its top-level Section."""
    return build(Section(str(path), read_toml(path)))
