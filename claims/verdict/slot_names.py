"""Names that are one: a first name and a surname of one person, written apart in the evidence.

Part of ``claims.verdict`` (value slots, ``claims.verdict.value_slots``): "a now-successful
LaRusso" against "a now-successful Daniel" is no rival name when the evidence also writes
"Daniel LaRusso". Two names are one when some reference text writes them in one run of
capitalised words, in either order, with at most two capitalised words between them.
"""

from __future__ import annotations

import re
from collections.abc import Iterable

__all__ = ["one_name"]

#: At most two capitalised words (middle names, initials) between the two parts.
_BETWEEN = r"\s+(?:[A-Z][\w.'\-]*\s+){0,2}"


def one_name(a: str, b: str, texts: Iterable[str]) -> bool:
    """Whether ``a`` and ``b`` are parts of one longer name that one of ``texts`` writes.

    >>> one_name("LaRusso", "Daniel", ["underdog Daniel LaRusso (Macchio)"])
    True
    >>> one_name("LaRusso", "Johnny", ["Daniel LaRusso and Johnny Lawrence"])
    False
    """
    x, y = re.escape(a.strip()), re.escape(b.strip())
    if not x or not y:
        return False
    pattern = re.compile(rf"\b(?:{x}{_BETWEEN}{y}|{y}{_BETWEEN}{x})\b")
    return any(pattern.search(t) for t in texts)
