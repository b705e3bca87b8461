"""The engine's version for caches of its output: a content hash of the ``claims`` package.

A cached decomposition is valid only for the code and data that produced it. Rather than a
number someone must remember to raise, the version is the SHA-256 of every ``.py`` and data file
of the package (paths and bytes, in sorted order), so any change to the engine invalidates what
was cached by an older one. Computed once per process (tens of milliseconds: the word lists are read too).
"""

from __future__ import annotations

import hashlib
from functools import lru_cache
from pathlib import Path

__all__ = ["engine_version"]

_PACKAGE = Path(__file__).resolve().parent
_SUFFIXES = frozenset({".py", ".tsv", ".txt", ".json"})


@lru_cache(maxsize=1)
def engine_version() -> str:
    """Hex SHA-256 (64 characters) over the relative path and bytes of every ``.py``, ``.tsv``,
    ``.txt`` and ``.json`` file under ``claims/``, in sorted order.

    >>> len(engine_version()), engine_version() == engine_version()
    (64, True)
    """
    digest = hashlib.sha256()
    for path in sorted(p for p in _PACKAGE.rglob("*") if p.suffix in _SUFFIXES and p.is_file()):
        if "__pycache__" in path.parts:
            continue
        digest.update(path.relative_to(_PACKAGE).as_posix().encode("utf-8") + b"\0")
        digest.update(path.read_bytes())
        digest.update(b"\0")
    return digest.hexdigest()
