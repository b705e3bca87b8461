"""The decomposition pipeline over a batch of texts and its cache: structure and sentences
(``claims.decompose.items``), one ``nlp.pipe`` over all parsable sentences, assembling
(``claims.decompose.assemble``), deduplication (``claims.dedupe``)."""

from __future__ import annotations

import threading
from collections.abc import Iterable
from typing import Any

from claims.decompose.antecedents import _names_people
from claims.decompose.assemble import _assemble
from claims.decompose.items import _fallback, _Item, _prepare, _Sentence
from claims.dedupe import dedupe
from claims.parses import DISABLE, parser, recognise, remember, repair_many
from claims.types import Claim, odd_input

#: most recent decompositions by text (the same reference is audited again and again)
_CACHE: dict[str, tuple[Claim, ...]] = {}
_CACHE_SIZE = 4096
_cache_lock = threading.Lock()


def _parsed_sentences(nlp: Any, sentences: list[str]) -> list[Any | None]:
    """Repaired parses of ``sentences`` (``repair_many``) from one ``nlp.pipe``, the entity
    recogniser run on those whose people ``_note_people`` will ask about. When the batch fails
    on odd input, each sentence is parsed and repaired alone, and one that fails again is None
    (its text gets sentence-level claims), so that one sentence never fails the others of the
    batch (audits of other users in a bundle)."""
    try:
        docs = repair_many(list(nlp.pipe(sentences, batch_size=64, disable=list(DISABLE))))
    except Exception as exc:
        if not odd_input(exc):
            raise
        docs = [_parsed_alone(nlp, sentence) for sentence in sentences]
    try:
        recognise([doc for doc in docs if doc is not None and _names_people(doc)])
    except Exception as exc:  # entity_type then runs the recogniser one parse at a time
        if not odd_input(exc):
            raise
    return docs


def _parsed_alone(nlp: Any, sentence: str) -> Any | None:
    try:
        return repair_many([nlp(sentence, disable=list(DISABLE))])[0]
    except Exception as exc:
        if not odd_input(exc):
            raise
        return None


def _decompose_batch(texts: list[str]) -> list[tuple[Claim, ...]]:
    """Decompose ``texts`` with one ``nlp.pipe`` over all their parsable sentences."""
    prepared: list[list[_Item] | None] = []
    for text in texts:
        try:
            prepared.append(_prepare(text))
        except Exception as exc:  # never fail on odd input
            if not odd_input(exc):
                raise
            prepared.append(None)
    jobs = [
        (t, k, item.analysis)
        for t, items in enumerate(prepared)
        if items is not None
        for k, item in enumerate(items)
        if isinstance(item, _Sentence)
    ]
    docs: list[dict[int, Any]] = [{} for _ in texts]
    nlp = parser() if jobs else None
    if nlp is not None:
        sentences = _parsed_sentences(nlp, [j[2] for j in jobs])
        for (t, k, _), doc in zip(jobs, sentences, strict=True):
            if doc is None:  # its parse could not be repaired: the text gets sentence-level claims
                prepared[t] = None
                continue
            docs[t][k] = doc
            remember(doc.text, doc)
    out: list[tuple[Claim, ...]] = []
    for text, items, parsed in zip(texts, prepared, docs, strict=True):
        try:
            raw = _assemble(items, parsed) if items is not None else _fallback(text)
        except Exception as exc:  # never fail on odd input: fall back to sentence-level claims
            if not odd_input(exc):
                raise
            raw = _fallback(text)
        if not raw:  # structure that yields nothing (invalid JSON, say): sentence claims
            raw = _fallback(text)
        out.append(tuple(dedupe(raw)))
    return out


def decompose_many(texts: Iterable[str]) -> list[list[Claim]]:
    """Decompose several texts at once: :func:`decompose` for each, with the spaCy parser
    run once over the sentences of all of them (``nlp.pipe``), which is faster than one call
    per text. Same results as ``[decompose(t) for t in texts]``.

    Raises
    ------
    TypeError
        If an element of ``texts`` is not a ``str``.
    claims.types.ModelUnavailable
        A model the decomposition needs (spaCy's pipeline, the language identifier) could not
        be loaded: a broken install (``claims.parses.parser``).
    """
    texts = list(texts)
    for t in texts:
        if not isinstance(t, str):
            raise TypeError(f"decompose needs a str, got {type(t).__name__}")
    with _cache_lock:
        todo = list(dict.fromkeys(t for t in texts if t.strip() and t not in _CACHE))
    if todo:
        done = _decompose_batch(todo)
        with _cache_lock:
            for t, claims in zip(todo, done, strict=True):
                if len(_CACHE) >= _CACHE_SIZE:
                    _CACHE.pop(next(iter(_CACHE)))
                _CACHE[t] = claims
            found = {t: _CACHE[t] for t in texts if t in _CACHE}
        found.update(zip(todo, done, strict=True))
    else:
        with _cache_lock:
            found = {t: _CACHE[t] for t in texts if t in _CACHE}
    return [list(found.get(t, ())) for t in texts]


def decompose(text: str) -> list[Claim]:
    """Decompose ``text`` into atomic, self-contained claims.

    Parameters
    ----------
    text : str
        Any text in any language (English gets clause-level splitting and pronoun
        resolution; other languages sentence-level claims).

    Returns
    -------
    list of Claim
        In document order, ``position`` 0..n-1 after deduplication. Each claim's
        ``[start, end)`` satisfies ``0 <= start <= end <= len(text)`` and covers the
        material the claim was built from. Empty or blank text gives ``[]``.

    Raises
    ------
    TypeError
        If ``text`` is not a ``str``.
    claims.types.ModelUnavailable
        As ``decompose_many``: a broken install.

    Examples
    --------
    >>> [c.text for c in decompose("The Alder Hotel has a pool and a gym.")]
    ['The Alder Hotel has a pool.', 'The Alder Hotel has a gym.']
    """
    if not isinstance(text, str):
        raise TypeError(f"decompose needs a str, got {type(text).__name__}")
    if not text.strip():
        return []
    return decompose_many([text])[0]
