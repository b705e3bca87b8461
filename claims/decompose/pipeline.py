"""The decomposition pipeline and its cache: ``PIPELINE``, a ``Compose`` of named ``Step``s run
in order over a batch of texts: structure and sentences (``claims.decompose.items``), one
``nlp.pipe`` over all parsable sentences, clause split with rewriting and scope
(``claims.decompose.assemble``), deduplication (``claims.dedupe``)."""

from __future__ import annotations

import threading
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass, field
from typing import Any

from claims.decompose.antecedents import names_people
from claims.decompose.assemble import assemble_items
from claims.decompose.items import Item, ItemSentence, Raw, fallback, prepare
from claims.dedupe import dedupe
from claims.parse_repairs import repair_many
from claims.parses import remember
from claims.spacy_pipeline import DISABLE, parser, recognise
from claims.types import Claim, Role, odd_input

#: most recent decompositions by text, each by reading (``evidence`` False: a response, True: a
#: reference), as the same reference is audited again and again
CACHE: dict[str, dict[bool, tuple[Claim, ...]]] = {}
_CACHE_SIZE = 4096
_cache_lock = threading.Lock()


def _parsed_sentences(nlp: Any, sentences: list[str]) -> list[Any | None]:
    """Repaired parses of ``sentences`` (``repair_many``) from one ``nlp.pipe``, the entity
    recogniser run on those whose people ``note_people`` will ask about. When the batch fails
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
        recognise([doc for doc in docs if doc is not None and names_people(doc)])
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


@dataclass(slots=True)
class _Batch:
    """What the steps hand on, one entry per text of ``texts``: whether it is read as evidence
    (``evidence``: a reference), its items (``None``: the text gets sentence-level claims), its
    parses (item index -> spaCy ``Doc``), its claims before deduplication (``raws``) and after
    (``claims``)."""

    texts: list[str]
    evidence: list[bool] = field(default_factory=list)
    items: list[list[Item] | None] = field(default_factory=list)
    docs: list[dict[int, Any]] = field(default_factory=list)
    raws: list[list[Raw]] = field(default_factory=list)
    claims: list[tuple[Claim, ...]] = field(default_factory=list)


@dataclass(frozen=True, slots=True)
class Step:
    """One named step of the decomposition: reads what earlier steps left in a ``_Batch`` and
    adds its own part."""

    name: str
    run: Callable[[_Batch], None]


class Compose:
    """Steps run in order over one batch of texts, in the manner of jiwer's ``Compose`` of text
    transforms; calling it gives the claims of each text, in the order of ``texts``."""

    def __init__(self, steps: Sequence[Step]) -> None:
        self.steps = tuple(steps)

    def __call__(self, texts: list[str], evidence: Sequence[bool] | None = None) -> list[tuple[Claim, ...]]:
        batch = _Batch(list(texts), list(evidence) if evidence is not None else [False] * len(texts))
        for step in self.steps:
            step.run(batch)
        return batch.claims


def _structure(batch: _Batch) -> None:
    """Blocks, language and sentences of each text (``claims.decompose.items``)."""
    for text, evidence in zip(batch.texts, batch.evidence, strict=True):
        try:
            batch.items.append(prepare(text, evidence))
        except Exception as exc:  # never fail on odd input
            if not odd_input(exc):
                raise
            batch.items.append(None)


def _parse(batch: _Batch) -> None:
    """One ``nlp.pipe`` over the sentences to parse of all texts."""
    jobs = [
        (t, k, item.analysis)
        for t, items in enumerate(batch.items)
        if items is not None
        for k, item in enumerate(items)
        if isinstance(item, ItemSentence)
    ]
    batch.docs = [{} for _ in batch.texts]
    nlp = parser() if jobs else None
    if nlp is not None:
        sentences = _parsed_sentences(nlp, [j[2] for j in jobs])
        for (t, k, _), doc in zip(jobs, sentences, strict=True):
            if doc is None:  # its parse could not be repaired: the text gets sentence-level claims
                batch.items[t] = None
                continue
            batch.docs[t][k] = doc
            remember(doc.text, doc)


def clause_spans(batch: _Batch) -> None:
    """Clause split, rewriting and scope of each text's items (``claims.decompose.assemble``);
    sentence-level claims where that fails on odd input or yields nothing."""
    for text, items, parsed in zip(batch.texts, batch.items, batch.docs, strict=True):
        try:
            raw = assemble_items(items, parsed) if items is not None else fallback(text)
        except Exception as exc:  # never fail on odd input: fall back to sentence-level claims
            if not odd_input(exc):
                raise
            raw = fallback(text)
        if not raw:  # structure that yields nothing (invalid JSON, say): sentence claims
            raw = fallback(text)
        batch.raws.append(raw)


def _dedupe(batch: _Batch) -> None:
    """Identical or near-identical claims of each text merged (``claims.dedupe``)."""
    batch.claims = [tuple(dedupe(raw)) for raw in batch.raws]


#: the decomposition, step by step
PIPELINE = Compose(
    [
        Step("structure and sentences", _structure),
        Step("parse", _parse),
        Step("clauses, rewriting and scope", clause_spans),
        Step("dedupe", _dedupe),
    ]
)


def _decompose_batch(texts: list[str], evidence: Sequence[bool] | None = None) -> list[tuple[Claim, ...]]:
    """Decompose ``texts`` (read as evidence where ``evidence`` says so; default none) with one
    ``nlp.pipe`` over all their parsable sentences."""
    return PIPELINE(texts, evidence)


def _readings(texts: list[str], roles: Role | Sequence[Role]) -> list[tuple[str, bool]]:
    """``(text, read as evidence: a reference)`` for each of ``texts``; raises as
    ``decompose_many``."""
    for t in texts:
        if not isinstance(t, str):
            raise TypeError(f"decompose needs a str, got {type(t).__name__}")
    each = [roles] * len(texts) if isinstance(roles, Role) else [Role(r) for r in roles]
    if len(each) != len(texts):
        raise ValueError(f"roles: {len(each)} roles for {len(texts)} texts")
    return [(t, r is Role.REFERENCE) for t, r in zip(texts, each, strict=True)]


def decompose_many(
    texts: Iterable[str], *, roles: Role | Sequence[Role] = Role.RESPONSE
) -> list[list[Claim]]:
    """Decompose several texts at once: :func:`decompose` for each, with the spaCy parser
    run once over the sentences of all of them (``nlp.pipe``), which is faster than one call
    per text. Same results as ``[decompose(t, role=r) for t, r in zip(texts, roles)]``.

    ``roles`` is one role for all texts or one per text (``Role`` or its value): a
    ``reference``'s headings that state something are claims too (``decompose``).

    Raises
    ------
    TypeError
        If an element of ``texts`` is not a ``str``.
    ValueError
        ``roles`` is a sequence of another length than ``texts``, or holds no role.
    claims.types.ModelUnavailable
        A model the decomposition needs (spaCy's pipeline, the language identifier) could not
        be loaded: a broken install (``claims.spacy_pipeline.parser``).
    """
    wanted = _readings(list(texts), roles)
    with _cache_lock:
        todo = list(dict.fromkeys(w for w in wanted if w[0].strip() and w[1] not in CACHE.get(w[0], {})))
    found: dict[tuple[str, bool], tuple[Claim, ...]] = {}
    if todo:
        done = _decompose_batch([t for t, _ in todo], [e for _, e in todo])
        found.update(zip(todo, done, strict=True))
    with _cache_lock:
        for (t, e), claims in found.items():
            if t not in CACHE and len(CACHE) >= _CACHE_SIZE:
                CACHE.pop(next(iter(CACHE)))
            CACHE.setdefault(t, {})[e] = claims
        for t, e in wanted:
            if (t, e) not in found and e in CACHE.get(t, {}):
                found[(t, e)] = CACHE[t][e]
    return [list(found.get(w, ())) for w in wanted]


def decompose(text: str, *, role: Role = Role.RESPONSE) -> list[Claim]:
    """Decompose ``text`` into atomic, self-contained claims.

    Parameters
    ----------
    text : str
        Any text in any language (English gets clause-level splitting and pronoun
        resolution; other languages sentence-level claims).
    role : Role
        ``Role.REFERENCE``: a heading of ``text`` that states something (a parenthetical, a
        "Label: value", a sentence; ``claims.blocks.context.heading_states``) is a claim as
        well as context for the blocks under it, as it is evidence. ``Role.RESPONSE`` (the
        default): every heading is context only.

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
    return decompose_many([text], roles=role)[0]
