"""Process start-up for the offline engine: load its models once, then take them out of the
garbage collector's full passes.

A process with the engine loaded (all-MiniLM-L6-v2 through torch, spaCy's parser, the verdict
data, the language identifier) holds about 560,000 objects the cyclic garbage collector tracks.
None of them ever becomes garbage, yet each full (generation 2) pass walks all of them: measured
here at 0.2-0.46 s a pass, a pause of the whole process (an audit that meets one waits that long;
docs/PERFORMANCE.md). :func:`settle_heap` moves every object alive at the
end of start-up into the permanent generation (``gc.freeze``, the CPython recipe for long-lived
and pre-fork processes), so that later passes walk only what audits create. Nothing else
changes: reference counting still frees objects at once, and objects created afterwards are
collected as before.
"""

from __future__ import annotations

import gc

__all__ = ["WARM_REFERENCES", "WARM_RESPONSE", "load_offline_models", "settle_heap", "warm_up"]


_settled = False


def settle_heap() -> int:
    """Collect once, then freeze every object alive now (``gc.freeze``); returns how many objects
    the permanent generation holds (``gc.get_freeze_count()``). Meant for the end of start-up
    loading (the collection first, so that start-up garbage is freed rather than frozen); once
    per process: later calls (an app built again in the same process, as tests do) only return
    the count. The API's process (about 200,000 tracked objects) measured 170 ms a full pass."""
    global _settled
    if not _settled:
        _settled = True
        gc.collect()
        gc.freeze()
    return gc.get_freeze_count()


def load_offline_models(*, embedder: bool = True, parser: bool = True) -> None:
    """Load the local embedder and spaCy's parser (each when asked) and the language identifier,
    once per process, so that the first audit does not pay for them; idempotent."""
    from claims.embed import default_embedder
    from claims.language import detect_language
    from claims.spacy_pipeline import parser as load_parser

    if embedder:
        default_embedder()
    if parser:
        load_parser()
    detect_language("Das ist ein kurzer Satz, der die Sprache lädt.")  # not English: the model runs


#: The warm-up audit: a number, a date, a name, a negation and a second reference, so that each
#: lazily built table of the decision (value, name, polarity and address checks) is built once
#: (the worker also rehearses its database stages on it: ``workers.rehearsal``).
WARM_RESPONSE = "The Halvorsen Bridge did not open in 1989; it cost 4 million euros."
WARM_REFERENCES = (
    "The Halvorsen Bridge opened to traffic on 12 May 1998.",
    "It cost about 4 million euros and is 310 metres long.",
)


def warm_up() -> float:
    """Run one small audit in memory (:func:`claims.audit.audit_texts`) so that the first real
    audit of the process does not pay for what the engine builds on first use (the verdict
    tables, the parser's and the model's first-call set-up). Returns its wall time in seconds.
    Measured in memory after :func:`load_offline_models`: the first audit took 0.37 s and the
    next ones 0.12-0.13 s without it; with it the first takes what the later ones do
    (docs/PERFORMANCE.md, "Warm start")."""
    import time

    from claims.audit import audit_texts

    start = time.perf_counter()
    audit_texts(WARM_RESPONSE, list(WARM_REFERENCES))
    return time.perf_counter() - start
