"""The affirmation probe: a denial of what the evidence states is contradicted.

A negated claim that no reference claim denies is ``unsupported`` (finding "denial": absence is
no denial). But when the references state the claim's affirmation ("Douglas served on the
Supreme Court from 1939" for "Douglas did not serve on the Supreme Court from 1939"), the claim
denies what the evidence states: the contradiction the audit exists to catch. The rule check
``claims.verdict.affirmed`` asks this inside the rules with the negated claim's own cosines; a
negation moves the sentence embedding (all-MiniLM-L6-v2), so the affirmation read with them
falls short of the support the same words get as a claim of their own. The probe asks the
question as contrast sets do (Gardner et al., Findings of EMNLP 2020): the affirmation is
embedded itself and judged by the whole engine, as a response claim would be.

For each judgement with finding "denial" whose claim negates its main predicate with one "not"
(``claims.verdict.affirmed.main_negation``):

1. the affirmation: the claim with its negation removed (``claims.verdict.opposed
   .counterpart_texts``, kind "negation": "did not serve" -> "did serve");
2. its cosines with the reference claims (``flip_similarity``, one call for all), then the rules
   (``claims.verdict.judge``) and the learned decision (``claims.decision.decide_one``);
3. the affirmation ``supported`` with a calibrated probability of support of at least
   ``AFFIRMED_P`` (the decision's confidence, Platt-scaled on the natural label mix of the dev
   sets), by a reference claim that holds no negation word -> the claim is ``contradicted``,
   finding "affirmed", the reason naming that reference claim and the probability.

A negation narrowed to a part of the claim ("not only", "not until 1990") or a double negation is
left alone (``main_negation``). ``AFFIRMED_P`` and its measured effect: docs/CALIBRATION.md.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import replace

import numpy as np

from claims.decision import decide_one
from claims.facets.vocabulary import data_rows
from claims.labels import embedding_text
from claims.parses import parse
from claims.polarity_probe import FlipSimilarity
from claims.sentences import split_sentences
from claims.types import Claim, ClaimKind, Evidence, Judgement, ReferenceClaim, Verdict
from claims.verdict import judge
from claims.verdict.affirmed import AFFIRMED_P as AFFIRMED_IN_OTHER_WORDS_P
from claims.verdict.affirmed import main_negation
from claims.verdict.contractions import expand_contractions
from claims.verdict.factive import asserts
from claims.verdict.opposed import NEGATION_WORDS
from claims.verdict.reasons import evidence_at, where_stated

__all__ = ["AFFIRMED_P", "affirm", "affirmation", "affirmation_texts"]

#: the least calibrated probability of support (``claims.decision``) of the affirmation, by its
#: own embedding, for the claim to be ``contradicted``: the rule check's (0.7,
#: ``claims.verdict.affirmed.AFFIRMED_P``), not refitted; docs/CALIBRATION.md gives its effect
AFFIRMED_P = AFFIRMED_IN_OTHER_WORDS_P

#: auxiliaries of "do" that an affirmation drops, putting the verb in their tense ("did not
#: build" -> "built", "does not carry" -> "carries"): "did build" would read as emphasis, which
#: the embedder and the decision score above the plain form
_DO = frozenset(["do", "does", "did"])

#: words after the negation's verb phrase that mark a contrast ("not in Oslo but in Bergen"),
#: polarity items that only a negation licenses ("any", "either", "ever", "at all"), or a
#: report or belief: the affirmation would not be the claim's opposite
_NOT_AFFIRMABLE = frozenset(
    ["but", "rather", "instead", "any", "anything", "anyone", "either", "ever", "yet"]
)

#: a denial in the sentence that holds the cited evidence: a negation word or an exclusion
_DENYING = re.compile(
    NEGATION_WORDS.pattern + r"|\b(?:without|nothing|rather\s+than|instead\s+of)\b", re.IGNORECASE
)


def _inflected(verb: str, aux: str) -> str:
    """``verb`` (a base form) in the tense and person of the dropped ``aux``: "did" -> past
    (irregular forms from ``claims/data/irregular_verbs.tsv`` read backwards, else "-ed"),
    "does" -> third person singular, "do" -> unchanged."""
    low = verb.lower()
    if aux == "do":
        return verb
    if aux == "did":
        past = _IRREGULAR_PAST.get(low)
        if past is None:
            past = (
                low + "d"
                if low.endswith("e")
                else low[:-1] + "ied"
                if _consonant_y(low)
                else _doubled(low) + "ed"
            )
        return past
    if _consonant_y(low):
        return low[:-1] + "ies"
    return low + ("es" if low.endswith(("s", "sh", "ch", "x", "z", "o")) else "s")


def _doubled(word: str) -> str:
    """A short verb of one vowel ending consonant-vowel-consonant doubles its last letter before
    "-ed" ("stop" -> "stopp", "plan" -> "plann"); others are unchanged ("open", "visit")."""
    vowels = sum(c in "aeiou" for c in word)
    cvc = len(word) >= 3 and word[-1] not in "aeiouwxy" and word[-2] in "aeiou" and word[-3] not in "aeiou"
    return word + word[-1] if len(word) <= 4 and vowels == 1 and cvc else word


def _consonant_y(word: str) -> bool:
    return len(word) > 1 and word.endswith("y") and word[-2] not in "aeiou"


#: base -> simple past of the irregular verbs (the first form the table gives for a base)
_IRREGULAR_PAST: dict[str, str] = {}
for _form, _base in data_rows("irregular_verbs.tsv", 2):
    _IRREGULAR_PAST.setdefault(_base, _form)


def affirmation(text: str) -> str | None:
    """The affirmation of ``text`` (``_affirmed``); None when it has none."""
    found = _affirmed(text)
    return found[0] if found else None


def _affirmed(text: str) -> tuple[str, str] | None:
    """``text`` with its one negation of the main predicate removed ("Arsenal did not win the FA
    Cup in 1993." -> "Arsenal won the FA Cup in 1993."; "is not" -> "is"); a dropped "do"
    auxiliary puts the verb in its tense (``_inflected``). None when ``text`` has no such
    negation (``claims.verdict.affirmed.main_negation``), when the negation sits under a modal
    ("could not have been", "cannot"), when a contrast, a polarity item or a report follows it
    (``_NOT_AFFIRMABLE``: "not in Oslo but in Bergen", "did not win any"), or when the parser is
    not installed."""
    if not main_negation(text):
        return None
    doc = parse(expand_contractions(text))
    if doc is None:
        return None
    neg = next(t for t in doc if t.lower_ in ("not", "n't") or t.dep_ == "neg")
    head = neg.head
    if any(t.tag_ == "MD" for t in (*head.children, head)):
        return None
    if any(t.lower_ in _NOT_AFFIRMABLE for t in doc[neg.i + 1 :]):
        return None
    aux = next((t for t in head.children if t.i < neg.i and t.lower_ in _DO), None)
    if aux is not None and head.tag_ == "VB":
        words = [(t.text_with_ws if t.i not in (aux.i, neg.i) else "") for t in doc]
        words[head.i] = _inflected(head.text, aux.lower_) + head.whitespace_
    else:
        words = [t.text_with_ws if t.i != neg.i else "" for t in doc]
        if neg.i + 1 < len(doc) and doc[neg.i + 1].is_punct and neg.i > 0:
            words[neg.i - 1] = doc[neg.i - 1].text  # "They were not, by ..." -> "They were, by ..."
    out = "".join(words).strip()
    return (out, head.text) if out else None


def _asserted(reference_texts: Sequence[str], ev: Evidence, verb: str) -> bool:
    """The sentence of the reference that holds the cited evidence ``ev`` states no denial
    (``_DENYING``) and asserts the event of ``verb`` (``claims.verdict.factive.asserts``: not
    reported, believed, conditional or modal: "It is often said that Brenk built the bridge")."""
    text = reference_texts[ev.reference] if ev.reference < len(reference_texts) else ev.text
    spans = [(a, b) for a, b in split_sentences(text) if a < ev.end and b > ev.start] or [(ev.start, ev.end)]
    sentence = text[spans[0][0] : spans[-1][1]]
    return not _DENYING.search(sentence) and asserts(sentence, verb)


def _todo(judgements: Sequence[Judgement], response_claims: Sequence[Claim]) -> list[tuple[int, str, str]]:
    """(position in ``judgements``, affirmation, its verb) of every judgement the probe reads."""
    out = []
    for i, j in enumerate(judgements):
        claim = response_claims[j.response_index]
        if j.verdict is Verdict.UNSUPPORTED and j.finding == "denial" and claim.kind is ClaimKind.MATERIAL:
            found = _affirmed(claim.text)
            if found:
                out.append((i, *found))
    return out


def affirmation_texts(claim_texts: Sequence[str]) -> list[str]:
    """The texts the probe may ask the embedder for (``embedding_text`` of the affirmation of
    every negated claim of ``claim_texts``; distinct, in order), whatever the verdicts turn out to
    be: an embedder with a cache embeds them with the claims (``workers.services.embed_audit``)."""
    found = (affirmation(t) for t in claim_texts)
    return list(dict.fromkeys(embedding_text(t) for t in found if t))


def _contradicted(
    j: Judgement,
    got: Judgement,
    verb: str,
    reference_claims: Sequence[ReferenceClaim],
    reference_texts: Sequence[str],
) -> Judgement | None:
    """``j`` made ``contradicted`` by its affirmation's decided judgement ``got`` (step 3), or
    None; ``verb``: the word the claim's negation denies."""
    if got.verdict is not Verdict.SUPPORTED or not got.evidence or (got.confidence or 0.0) < AFFIRMED_P:
        return None
    ev = got.evidence[0]
    rc = reference_claims[ev.claim_index]
    if NEGATION_WORDS.search(rc.claim.text) or not _asserted(reference_texts, ev, verb):
        return None  # a reference that denies something or reports the event affirms nothing
    where = where_stated(rc, 0, len(rc.claim.text), reference_texts)
    reason = (
        f"the claim denies what {where} states: without its negation it is supported "
        f"(P(support) = {got.confidence:.2f})"
    )
    return replace(
        j,
        verdict=Verdict.CONTRADICTED,
        evidence=(evidence_at(reference_claims, ev.claim_index, ev.similarity),),
        reason=reason,
        change="not → affirmed",
        confidence=None,
        finding="affirmed",
    )


def affirm(
    judgements: Sequence[Judgement],
    response_claims: Sequence[Claim],
    reference_claims: Sequence[ReferenceClaim],
    flip_similarity: FlipSimilarity,
    *,
    threshold: float,
    reference_texts: Sequence[str],
) -> list[Judgement]:
    """The judgements with the probe applied (module docstring); same order and length.

    ``flip_similarity`` gives the cosines of other texts with ``reference_claims``, float32
    ``(n_texts, len(reference_claims))`` (one call for all of the audit's affirmations);
    ``threshold``: the audit's matching threshold (``claims.verdict.judge``)."""
    todo = _todo(judgements, response_claims)
    if not todo or not reference_claims:
        return list(judgements)
    rows = np.asarray(flip_similarity([embedding_text(t) for _, t, _ in todo]), np.float32)
    out = list(judgements)
    for (i, text, verb), row in zip(todo, rows, strict=True):
        j = out[i]
        claim = response_claims[j.response_index]
        other = replace(claim, text=text, end=claim.start + len(text))
        rule = judge(
            [other],
            reference_claims,
            row.reshape(1, -1),
            threshold=threshold,
            reference_texts=reference_texts,
            decider=decide_one,
        )[0]
        got = decide_one(other, rule, reference_claims, row, reference_texts)
        found = _contradicted(j, got, verb, reference_claims, reference_texts)
        out[i] = found or j
    return out
