"""Lazy reference decomposition (claims.lazy_references) and the ``references`` audit option.

The references are invented sentences about one invented subject; the claim's own evidence is
placed among unrelated ones, so that which references are kept follows from their words alone.
"""

from __future__ import annotations

import pytest

from claims.audit import audit_texts, evidence_mask, prefetch
from claims.decompose import decompose
from claims.embed import CachedEmbedder, InMemoryEmbeddingCache, default_embedder
from claims.lazy_references import LAZY_MIN_REFERENCES, PER_CLAIM, VALUE_EXTRA, evidence_references
from claims.options import AuditOptions

FILLER = [
    f"The {colour} ferry number {k} leaves the northern harbour at dawn."
    for k, colour in enumerate(["red", "blue", "green", "grey", "white", "black"] * 6)
]
EVIDENCE = "The Halvorsen Bridge opened to traffic on 12 May 1998."


def _references(n: int = 30, at: int = 17) -> list[str]:
    refs = FILLER[:n]
    refs[at] = EVIDENCE
    return refs


def test_few_references_are_all_decomposed() -> None:
    refs = _references()[: LAZY_MIN_REFERENCES - 1]
    assert evidence_references(["The Halvorsen Bridge opened in 1998."], refs) is None


def test_keeps_the_best_matches_of_each_claim() -> None:
    refs = _references()
    kept = evidence_references(["The Halvorsen Bridge opened in 1998."], refs)
    assert kept is not None
    assert 17 in kept  # the only reference naming the bridge ranks first
    assert len(kept) == PER_CLAIM  # no other reference writes 1998: no value extras
    assert all(0 <= k < len(refs) for k in kept)


def test_keeps_references_that_state_a_number_of_the_claim() -> None:
    refs = _references()
    refs[29] = "Ticket sales rose in 1998."  # shares no content word with the claim, only its year
    kept = evidence_references(["The Halvorsen Bridge opened in 1998."], refs)
    assert kept is not None and 29 in kept
    assert len(kept) <= PER_CLAIM + VALUE_EXTRA


def test_blank_references_are_never_kept_and_keep_their_index() -> None:
    refs = _references()
    refs[3] = "   "
    kept = evidence_references(["The red ferry leaves at dawn."], refs)
    assert kept is not None and 3 not in kept


def test_no_claims_keeps_nothing() -> None:
    assert evidence_references([], _references()) == frozenset()


def test_option_is_validated() -> None:
    assert AuditOptions.from_config({"references": "evidence"}).lazy_references
    assert not AuditOptions.from_config({}).lazy_references
    with pytest.raises(ValueError, match="config.references"):
        AuditOptions.from_config({"references": "some"})


def test_full_mode_decomposes_every_reference() -> None:
    refs = _references()
    claims = decompose("The Halvorsen Bridge opened in 1998.")
    assert evidence_mask(claims, refs, lazy=False) == [True] * len(refs)


def test_lazy_audit_judges_against_the_evidence_and_leaves_the_rest_without_claims() -> None:
    refs = _references()
    response = "The Halvorsen Bridge opened in 2001."
    lazy = audit_texts(response, refs, options=AuditOptions.from_config({"references": "evidence"}))
    full = audit_texts(response, refs)
    # the verdict and its evidence are those of the full decomposition
    assert [j.verdict for j in lazy.judgements] == [j.verdict for j in full.judgements]
    assert [e.text for e in lazy.judgements[0].evidence] == [e.text for e in full.judgements[0].evidence]
    kept = {rc.reference for rc in lazy.reference_claims}
    assert 17 in kept and len(kept) < len(refs)
    assert {rc.reference for rc in full.reference_claims} == set(range(len(refs)))


def test_prefetch_decomposes_only_the_kept_references() -> None:
    from claims.decompose import CACHE

    refs = [f"{r} Note {k}." for k, r in enumerate(_references())]  # texts no other test decomposed
    embedder = CachedEmbedder(default_embedder(), InMemoryEmbeddingCache())
    prefetch([("The Halvorsen Bridge opened in 2001.", refs)], embedder, lazy=[True])
    decomposed = [r for r in refs if True in CACHE.get(r, {})]
    assert refs[17] in decomposed
    assert len(decomposed) <= PER_CLAIM + VALUE_EXTRA
