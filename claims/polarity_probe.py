"""The polarity probe: a supported claim whose evidence sits closer to its opposite is unsupported.

Sentence embeddings barely see polarity: "The Kelby bridge was poorly built" and "... well
built" lie close together in all-MiniLM-L6-v2, so the cosine that supports a claim supports its
opposite nearly as well. Where the evidence states the claim's word, the
lexicon's checks read it (``claims.verdict.counterparts``); where it never does, nothing said
which pole the evidence leans to. The probe asks the embedder the counterfactual question
directly, as contrast sets do (Gardner et al., "Evaluating Models' Local Decision Boundaries via
Contrast Sets", Findings of EMNLP 2020): the claim with one word replaced by its opposite is
embedded, and if the claim's evidence is closer to that flipped form than to the claim itself
by more than ``PROBE_MARGIN``, the evidence does not support the claim's pole.

For each supported or inferred material claim (the learned decision's verdict, before any LLM
judge; a support that an exact check found, ``EXACT_SUPPORT``, is left alone):

1. the flips: every adjective, adverb or verb of the claim (``PROBED_POS``; not a compound's
   first part: "down payment"; not one that takes a measure, ``claims.lexicon.measured``: "17
   years old") with an opposite in the project's lexicon
   (``claims.lexicon.opposites``) that applies to its part of speech in the parse
   (``claims.lexicon.applies_to``), where the references state neither pole: neither the
   word, nor any of its opposites ("not closed" states "closed": the lexicon's checks read
   it), nor a lexicon synonym of either (token matching as ``claims.facets.token_match``);
   flipped to its first opposite in the lexicon's order, never to one of WordNet's indirect
   opposites (``INDIRECT``). Not a word with a converse ("lent" / "borrowed"), nor one in a
   "than" comparison: a converse wording swaps the sides too ("A is weaker than B" / "B is
   stronger than A");
2. ``d`` = the best cosine of any flip with the reference claims the verdict cites as evidence
   (the nearest one where it cites none) minus the claim's own best cosine with them (cosines
   as ``claims.match`` computes them): the question is which pole the claim's own evidence
   leans to, not whether another sentence (another entity, another year) says the opposite;
3. ``d > PROBE_MARGIN`` -> ``unsupported``, finding "polarity", the reason naming the word,
   its opposite and both cosines.

The probe never makes a contradiction: a closer opposite is a lean of the embedding, not a
statement of the evidence. ``PROBE_MARGIN`` and its measured effect: docs/CALIBRATION.md.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Sequence
from dataclasses import dataclass, replace

import numpy as np

from claims.decision_features import reference_index
from claims.facets import content_tokens, token_match
from claims.labels import embedding_text
from claims.lexicon import SOURCE_ORDER, Opposite, applies_to, converses, measured, opposites, synonyms
from claims.parses import parse
from claims.types import Claim, ClaimKind, Judgement, ReferenceClaim, Verdict

__all__ = [
    "EXACT_SUPPORT",
    "PROBE_MARGIN",
    "Flip",
    "FlipSimilarity",
    "Lead",
    "demoted",
    "flip_texts",
    "flips",
    "leads",
    "probe",
]

#: least lead, in cosine, of a flipped claim over the claim itself (best reference claim each)
#: for the evidence to lean to the opposite; chosen as described in docs/CALIBRATION.md
PROBE_MARGIN = 0.03

#: the parts of speech (spaCy's) of the words the probe flips: predicates and their modifiers,
#: not nouns ("the fall", "a rose"), prepositions or names
PROBED_POS = frozenset({"ADJ", "ADV", "VERB"})

#: lexicon sources whose opposites the probe does not flip to: WordNet's indirect opposites (a
#: similar-to cluster's), often of another sense ("gentle" / "intense"); they still count as a
#: stated pole
INDIRECT = frozenset({"wordnet-similar"})

#: support findings of exact checks, which the probe leaves alone: the lexicon equates the words
#: ("counterpart"), a key-value row states the label's value ("key_value"), a reference claim
#: states the claim word for word ("verbatim")
EXACT_SUPPORT = frozenset({"counterpart", "key_value", "verbatim"})

#: the cosines of texts with the audit's reference claims: float32 ``(len(texts), n_reference)``
FlipSimilarity = Callable[[Sequence[str]], np.ndarray]

_WORD = re.compile(r"[a-z]+(?:-[a-z]+)*")


@dataclass(frozen=True, slots=True)
class Flip:
    """The claim ``text`` with its word ``word`` (chars ``start``-``end`` of the claim) replaced by
    the opposite ``opposite``."""

    word: str
    opposite: str
    start: int
    end: int
    text: str


def _cased(new: str, old: str) -> str:
    if len(old) > 1 and old.isupper():
        return new.upper()
    return new[:1].upper() + new[1:] if old[:1].isupper() else new


def _stated(word: str, doc_tokens: Sequence[str], doc_lower: str) -> bool:
    """``word`` or one of its lexicon synonyms is in the references: as a content token
    (``token_match``), or, for a word with none (a stopword: "more", "up"), as a whole word."""
    for w in (word, *synonyms(word)):
        tokens = content_tokens(w)
        if not tokens and re.search(rf"(?<![a-z]){re.escape(w)}(?![a-z])", doc_lower):
            return True
        if tokens and all(any(token_match(t, d) for d in doc_tokens) for t in tokens):
            return True
    return False


def _opposites(tok: object) -> list[Opposite]:
    """The opposites of the spaCy token ``tok`` that apply to it (``applies_to``), in
    ``SOURCE_ORDER`` (the lexicon's surest first)."""
    found = [o for o in opposites(tok.lower_) if applies_to(o, tok)]  # type: ignore[attr-defined]
    found.sort(key=lambda o: SOURCE_ORDER.index(o.source) if o.source in SOURCE_ORDER else len(SOURCE_ORDER))
    return found


def _compares(tok: object, text: str) -> bool:
    """``tok`` takes part in a "than" comparison ("weaker than those of neutron stars", "more
    nurses than Mirth"): its converse swaps the sides as well ("those ... are stronger than
    ..."), which one flipped word does not. A comparative word in a claim that says "than", or a
    word whose subtree holds it."""
    if tok.tag_ in ("JJR", "RBR") and re.search(r"\bthan\b", text, re.I):  # type: ignore[attr-defined]
        return True
    return any(c.lower_ == "than" for c in tok.subtree)  # type: ignore[attr-defined]


def _probed(tok: object, text: str, doc_tokens: Sequence[str], doc_lower: str) -> str | None:
    """The opposite ``tok`` is flipped to, or None where the probe does not read it (``flips``)."""
    if tok.pos_ not in PROBED_POS or tok.dep_ == "compound" or not _WORD.fullmatch(tok.lower_):  # type: ignore[attr-defined]
        return None
    if measured(tok):
        return None  # "17 years old" gives an age, not a pole: "17 years young" says nothing
    found = _opposites(tok)
    direct = [o.word for o in found if o.source not in INDIRECT]
    if not direct or converses(tok.lower_) or _compares(tok, text):  # type: ignore[attr-defined]
        return None
    if any(_stated(w, doc_tokens, doc_lower) for w in (tok.lower_, *(o.word for o in found))):  # type: ignore[attr-defined]
        return None  # a pole is stated: the lexicon's checks read it (claims.verdict.counterparts)
    return direct[0]


def flips(text: str, doc_tokens: Sequence[str], doc_lower: str) -> list[Flip]:
    """The probe's flips of the claim ``text`` (module docstring, step 1) against references whose
    sorted content tokens are ``doc_tokens`` and whose lower-cased text is ``doc_lower``.

    >>> [f.text for f in flips("The lake is shallow.", ["lake", "metr"], "the lake is 300 metres.")]
    ['The lake is deep.']
    """
    out = []
    for tok in parse(text):
        new = _probed(tok, text, doc_tokens, doc_lower)
        if new is None:
            continue
        start, end = tok.idx, tok.idx + len(tok.text)
        out.append(Flip(tok.lower_, new, start, end, text[:start] + _cased(new, tok.text) + text[end:]))
    return out


def flip_texts(claim_texts: Sequence[str], reference_texts: Sequence[str]) -> list[str]:
    """The texts the probe may ask the embedder for (``embedding_text`` of every flip of every
    claim in ``claim_texts`` against the references ``reference_texts``; distinct, in order; none
    where every reference is blank), whatever the claims' verdicts turn out to be: an embedder with a cache
    can embed them with the claims, in the same request (``workers.services.embed_audit``)."""
    if not any(t.strip() for t in reference_texts):
        return []
    idx = reference_index((), reference_texts)
    found = (f.text for t in claim_texts for f in flips(t, idx.doc_tokens, idx.doc_lower))
    return list(dict.fromkeys(embedding_text(t) for t in found))


@dataclass(frozen=True, slots=True)
class Lead:
    """What the probe found for one judgement: its flip ``flip`` whose best cosine ``flipped``
    leads the claim's own best cosine ``own`` most (``lead`` = ``flipped - own``, in [-2, 2])."""

    flip: Flip
    own: float
    flipped: float

    @property
    def lead(self) -> float:
        return self.flipped - self.own


def leads(
    judgements: Sequence[Judgement],
    response_claims: Sequence[Claim],
    reference_claims: Sequence[ReferenceClaim],
    similarity: np.ndarray,
    flip_similarity: FlipSimilarity,
    *,
    doc_tokens: Sequence[str],
    doc_lower: str,
) -> dict[int, Lead]:
    """The probe's measure (module docstring, steps 1-2) of every judgement it reads, keyed by its
    position in ``judgements``; arguments as ``probe``. One ``flip_similarity`` call for all."""
    todo: list[tuple[int, list[Flip]]] = []
    for i, j in enumerate(judgements):
        claim = response_claims[j.response_index]
        if claim.kind is not ClaimKind.MATERIAL or j.finding in EXACT_SUPPORT or not reference_claims:
            continue
        if j.verdict in (Verdict.SUPPORTED, Verdict.INFERRED):
            found = flips(claim.text, doc_tokens, doc_lower)
            if found:
                todo.append((i, found))
    if not todo:
        return {}
    sims = np.asarray(
        flip_similarity([embedding_text(f.text) for _, found in todo for f in found]), np.float32
    )
    out: dict[int, Lead] = {}
    at = 0
    for i, found in todo:
        cited = _cited(judgements[i], similarity)
        best = sims[at : at + len(found), cited].max(axis=1)
        at += len(found)
        k = int(np.argmax(best))
        out[i] = Lead(found[k], float(similarity[judgements[i].response_index, cited].max()), float(best[k]))
    return out


def _cited(j: Judgement, similarity: np.ndarray) -> list[int]:
    """The reference claims the judgement cites as its evidence (the best by cosine where it cites
    none): the probe asks which pole *they* lean to, not the rest of the references."""
    n = similarity.shape[1]
    cited = sorted({e.claim_index for e in j.evidence if 0 <= e.claim_index < n})
    return cited or [int(np.argmax(similarity[j.response_index]))]


def demoted(j: Judgement, lead: Lead) -> Judgement:
    """``j`` made ``unsupported`` by the probe's ``lead`` (finding "polarity", no change, no
    confidence), the reason naming both words and both cosines."""
    f = lead.flip
    reason = (
        f"the evidence is closer to its opposite '{f.opposite}' than to '{f.word}' "
        f"(cosine {lead.flipped:.2f} against {lead.own:.2f}) and never says '{f.word}'"
    )
    return replace(
        j, verdict=Verdict.UNSUPPORTED, finding="polarity", reason=reason, change=None, confidence=None
    )


def probe(
    judgements: Sequence[Judgement],
    response_claims: Sequence[Claim],
    reference_claims: Sequence[ReferenceClaim],
    similarity: np.ndarray,
    flip_similarity: FlipSimilarity,
    *,
    doc_tokens: Sequence[str],
    doc_lower: str,
) -> list[Judgement]:
    """The judgements with the probe applied (module docstring); same order and length.

    ``similarity`` is the audit's cosine matrix, float32 ``(len(response_claims),
    len(reference_claims))``; ``flip_similarity`` gives the same cosines for other texts (one
    call for all of the audit's flips); ``doc_tokens`` / ``doc_lower``: the references' sorted
    content tokens and lower-cased text (``claims.decision_features.reference_index``). A
    demoted judgement: ``demoted``.
    """
    found = leads(
        judgements,
        response_claims,
        reference_claims,
        similarity,
        flip_similarity,
        doc_tokens=doc_tokens,
        doc_lower=doc_lower,
    )
    return [
        demoted(j, found[i]) if i in found and found[i].lead > PROBE_MARGIN else j
        for i, j in enumerate(judgements)
    ]
