"""What text Postgres and JSON can store: no NUL character, no lone surrogate, finite numbers.

No imports beyond the standard library: the request models (``api.schemas``, which the client
package imports) and the admission path (``service.admission``) share it.
"""

from __future__ import annotations

import math
from collections.abc import Mapping
from typing import Any

__all__ = ["NUL_MESSAGE", "SURROGATE_MESSAGE", "shown", "text_problem", "value_problem"]

NUL_MESSAGE = "must not contain NUL characters (\\u0000)"
SURROGATE_MESSAGE = "must not contain lone surrogates (\\ud800-\\udfff): not valid Unicode text"


def text_problem(value: str) -> str | None:
    """Why ``value`` cannot be stored as text (a NUL character, a lone surrogate), else None."""
    if "\x00" in value:
        return NUL_MESSAGE
    try:
        value.encode("utf-8")
    except UnicodeEncodeError:
        return SURROGATE_MESSAGE
    return None


def shown(path: str) -> str:
    return path.encode("utf-8", "backslashreplace").decode("utf-8")


def value_problem(value: Any, path: str = "") -> str | None:
    """Where ``value`` (parsed JSON) holds a string that is not storable text or a non-finite
    number, else None; e.g. ``"metadata.a[2]: must not contain NUL characters (\\u0000)"``."""
    if isinstance(value, str):
        problem = text_problem(value)
        return f"{path or 'value'}: {problem}" if problem else None
    if isinstance(value, float):
        return None if math.isfinite(value) else f"{path or 'value'}: must be a finite number, got {value!r}"
    if isinstance(value, Mapping):
        for key, item in value.items():
            sub = f"{path}.{key}" if path else str(key)
            problem = text_problem(key) if isinstance(key, str) else None
            if problem:
                return f"{shown(sub)!r} (key): {problem}"
            problem = value_problem(item, sub)
            if problem:
                return problem
    if isinstance(value, list | tuple):
        for i, item in enumerate(value):
            problem = value_problem(item, f"{path}[{i}]")
            if problem:
                return problem
    return None
