"""Write the small, flat TOML files provisioning produces (tomllib only reads)."""

from __future__ import annotations

import json
from collections.abc import Mapping
from typing import Any

Value = str | int | float | bool


def _value(v: Any) -> str:
    if isinstance(v, bool):
        return "true" if v else "false"
    if isinstance(v, int | float):
        return repr(v)
    if isinstance(v, str):
        # A JSON string is a valid TOML basic string (same escapes).
        return json.dumps(v, ensure_ascii=False)
    if isinstance(v, Mapping):
        return "{ " + ", ".join(f"{_key(k)} = {_value(x)}" for k, x in v.items()) + " }"
    raise TypeError(f"cannot write {type(v).__name__} to TOML")


def _key(k: str) -> str:
    return k if k.replace("-", "").replace("_", "").isalnum() else json.dumps(k)


def dumps(doc: Mapping[str, Mapping[str, Any]], header: str = "") -> str:
    """Tables of scalars (or inline tables), in the order given, with an optional comment."""
    out = [f"# {line}".rstrip() for line in header.splitlines()]
    for name, table in doc.items():
        if out:
            out.append("")
        out.append(f"[{_key(name)}]")
        out.extend(f"{_key(k)} = {_value(v)}" for k, v in table.items() if v is not None)
    return "\n".join(out) + "\n"
