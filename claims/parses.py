"""One cache of spaCy's parses by text, for the decomposition and the verdict checks
(``parse``, ``parse_many``, ``remember``, ``clear``). The pipeline is ``claims.spacy_pipeline``'s
(loaded once per process, its entity recogniser run on demand); every parse is mended by
``claims.parse_repairs``.
"""

from __future__ import annotations

import threading
from collections import OrderedDict
from collections.abc import Iterable
from typing import Any

from claims.parse_repairs import repair, repair_many
from claims.spacy_pipeline import DISABLE, parser
from claims.types import odd_input

__all__ = ["clear", "parse", "parse_many", "remember"]

#: parses kept (most recently used; a few KB each without their tensor, see ``_put``): a claim
#: is parsed by several checks of several pairs, and a chunk of 64 audits of the bench workload
#: has about 600 sentences
_SIZE = 4096
_cache: OrderedDict[str, Any] = OrderedDict()
_lock = threading.Lock()


def _get(text: str) -> Any:
    with _lock:
        doc = _cache.get(text)
        if doc is not None:
            _cache.move_to_end(text)
        return doc


def _put(text: str, doc: Any) -> None:
    # the token-to-vector output (about 0.4 KB per token) is read by no check and not by the
    # entity recogniser, which has its own: cached parses keep only tags, dependencies, entities
    doc.tensor = doc.tensor[:0]
    with _lock:
        _cache[text] = doc
        _cache.move_to_end(text)
        while len(_cache) > _SIZE:
            _cache.popitem(last=False)


def parse(text: str) -> Any:
    """spaCy's ``Doc`` of ``text`` (tags and dependencies; entities through
    ``claims.spacy_pipeline.entity_type``), cached. Raises ``ParserUnavailable`` (see
    ``claims.spacy_pipeline.parser``)."""
    doc = _get(text)
    if doc is None:
        nlp = parser()
        doc = repair(nlp(text, disable=list(DISABLE)))
        _put(text, doc)
    return doc


def parse_many(texts: Iterable[str]) -> int:
    """Parse, in one ``nlp.pipe``, those of ``texts`` not yet in the cache, so that later
    ``parse`` calls find them, at a quarter of the cost per text of ``parse`` one by one
    (measured on 303 claim texts of the bench workload: 0.27 s against 1.07 s).
    Same pipes and ``repair`` as ``parse``; the readings (tags, dependencies, entities) were
    equal on every text tried (the dev sets, the bench workload, 1,502 more texts), but
    the layers' floats differ in the last digits with the batch (numpy's OpenBLAS picks its
    kernels by matrix size), as the embeddings' do. Worth it where most of ``texts`` will be
    asked for: the claims of a batch of audits, about 57 % of whose texts a verdict check
    parses. A warm-up only: if the batch fails (a text over spaCy's length limit), nothing is
    cached and each ``parse`` reports its own text. Returns the number of texts parsed; raises
    ``ParserUnavailable`` (see ``parser``)."""
    todo = [text for text in dict.fromkeys(texts) if _get(text) is None]
    if not todo:
        return 0
    nlp = parser()
    try:
        docs = repair_many(list(nlp.pipe(todo, batch_size=64, disable=list(DISABLE))))
    except Exception as exc:  # the audits' own parse calls fail (or not) one by one
        if not odd_input(exc):  # a time limit, out of memory, a broken install: raised
            raise
        return 0
    for text, doc in zip(todo, docs, strict=True):
        _put(text, doc)
    return len(todo)


def remember(text: str, doc: Any) -> None:
    """Keep ``doc``, a parse of ``text`` made with ``DISABLE`` left out (the decomposition's
    ``nlp.pipe``), as ``parse(text)``: a claim that is a whole sentence is not parsed again."""
    _put(text, doc)


def clear() -> None:
    """Forget every cached parse (a cold start, for benchmarks and tests)."""
    with _lock:
        _cache.clear()
