"""Decomposition of a document into atomic, self-contained claims with character spans.

Method (FActScore, Min et al. 2023: an atomic claim carries one piece of information and
stands alone):

1. Sentences: line breaks and bullets first, then pysbd (Sadvilkar & Neumann 2020), then
   full-width sentence marks (。！？) for text pysbd leaves whole.
2. English sentences are parsed with spaCy (``en_core_web_sm``, loaded lazily once per
   process) and split into clauses:

   - coordinated verb phrases ("was completed in 1998 and is 520 metres long") -> one claim
     per conjunct, each with the shared subject;
   - coordinated objects and complements ("has a pool, a gym and a rooftop bar") -> one
     claim per conjunct;
   - participial and relative clauses on a noun ("X, designed by Rosa Feld, crosses ...")
     and appositions ("X, a cellist, won ...") -> claims of their own ("X was designed by
     Rosa Feld").
3. Subject pronouns (he, she, it, they, its, ...) are replaced by the last subject named
   in an earlier claim; with no antecedent the claim is marked ``ambiguous``. A definite
   description as subject ("the bridge", "the suspension bridge", "the company") takes the
   one earlier subject name it can describe ("The Halvorsen Bridge" -> "The Halvorsen
   suspension bridge", ``claims/data/definite_descriptions.tsv``), unless a modifier sets it
   apart ("the new bridge") or two names fit.
4. Questions, opinions ("I think", "best", "beautiful"), advice (imperatives, "you
   should"), greetings and exclamations are ``outside_scope``.
5. Identical or near-identical claims are merged (the first is kept, ``duplicates``
   counts the rest): rapidfuzz ``token_sort_ratio`` >= ``DEDUP_RATIO`` with the same numbers
   and the same negations.

Any other language passes through at sentence level. The span of a claim covers the
material it was built from: ``text[start:end]`` is that stretch of the original text.

The steps run as ``claims.decompose.pipeline.PIPELINE``, a ``Compose`` of named steps over a
batch of texts; each step and each part of the clause split is a module of this package
(docs/DECOMPOSITION.md, "Pipeline and modules").
"""

from __future__ import annotations

from claims.decompose.pipeline import CACHE as CACHE  # the cache, for tests and benchmarks to clear
from claims.decompose.pipeline import decompose, decompose_many
from claims.dedupe import DEDUP_RATIO
from claims.scope import is_outside_scope, outside_scope_reason
from claims.sentences import split_sentences
from claims.spacy_pipeline import parser

__all__ = [
    "decompose",
    "decompose_many",
    "split_sentences",
    "outside_scope_reason",
    "DEDUP_RATIO",
    "is_outside_scope",
    "parser",
]
