"""The decision: candidates, the verdict steps in order, contradictions, inference, and ``judge``.

Part of ``claims.verdict`` (see its docstring for the method)."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass, replace

import numpy as np
from rapidfuzz import fuzz

from claims.decompose import outside_scope_reason
from claims.facets import Facets, extract
from claims.labels import embedding_text
from claims.match import DEFAULT_THRESHOLD
from claims.types import Claim, ClaimKind, Judgement, ReferenceClaim, Verdict
from claims.verdict.affirmed import Decider
from claims.verdict.compare import compare_facets
from claims.verdict.contradictions import find_contradictions
from claims.verdict.counterparts import decide_counterparts
from claims.verdict.findings import Conflict, Pair
from claims.verdict.infer import infer_pairs
from claims.verdict.key_values import key_value_finding, other_subject_value
from claims.verdict.reasons import describe_conflict, evidence_at, hedge_change, where_stated
from claims.verdict.recase import recase
from claims.verdict.roles import entity_role
from claims.verdict.text import head_word, stated_verbatim, subject_head
from claims.verdict.thresholds import T
from claims.verdict.value_slots import rival_name, slot_conflict
from claims.verdict.values import shares_value

# ---------------------------------------------------------------- judging


def _supports(p: Pair, threshold: float) -> bool:
    """One reference claim states the response claim (facets clean, see module docstring).

    Routes, all needing clean facets: a cosine of at least ``SUPPORT_COSINE`` with
    ``SUPPORT_MIN_COVERAGE`` of the content words, or ``SUPPORT_COSINE_HIGH`` with
    ``SUPPORT_MIN_COVERAGE_HIGH_COS`` and some of its predicate (a claim of two or more words
    besides its names, none of them stated, only shares the topic: "The Kestrel Bridge carries a
    railway line" / "The Kestrel Bridge is 410 metres long"; both cosines shifted by
    ``threshold - DEFAULT_THRESHOLD``);
    or ``COVERAGE_SUPPORT`` of the content words at ``MIN_COS_SUPPORT``; or every number/date
    of the claim stated with ``COVERAGE_SUPPORT_FACTS`` of the content words."""
    if p.conflicts or p.missing or p.entities_missing or p.polarity_flip or p.comparative_flip:
        return False
    if p.polarity_mismatch or p.predicate_swap is not None or p.object_swap is not None:
        return False
    if not p.head_covered:
        return False
    if p.cos < T.min_cos_support:
        return False
    shift = threshold - DEFAULT_THRESHOLD
    if p.cos >= T.support_cosine + shift and p.coverage >= T.support_min_coverage:
        return True
    if (
        p.cos >= T.support_cosine_high + shift
        and p.coverage >= T.support_min_coverage_high_cos
        and (p.predicate_coverage > 0.0 or p.predicate_size < 2)
    ):
        return True
    facts = [k for k in p.stated if k.startswith(("q:", "d:"))]
    if facts and p.coverage >= T.coverage_support_facts:
        return True
    return p.coverage >= T.coverage_support


@dataclass(frozen=True)
class _Case:
    """One response claim under judgement: its index, text and facets, the compared candidate
    pairs, the contradictions found among them (best first), and what every verdict step reads
    (the reference claims and texts, the threshold)."""

    index: int
    claim: Claim
    r: Facets
    pairs: list[Pair]
    found: list[tuple[float, Pair, Conflict]]
    reference_claims: Sequence[ReferenceClaim]
    reference_texts: Sequence[str] | None
    threshold: float

    def where(self, j: int, start: int = 0, end: int | None = None) -> str:
        rc = self.reference_claims[j]
        return where_stated(rc, start, len(rc.claim.text) if end is None else end, self.reference_texts)


def _candidates(
    r: Facets, claim: Claim, reference_claims: Sequence[ReferenceClaim], row: np.ndarray
) -> list[int]:
    """The reference claims a claim is compared with: the ``TOP_K`` most relevant material ones
    (cosine plus ``LEXICAL_WEIGHT`` times rapidfuzz's token-set ratio), and up to
    ``FACET_CANDIDATES`` more that state one of its numbers or dates (a year given in a title
    or another sentence), so ``inferred`` can combine them."""
    cols = [j for j, rc in enumerate(reference_claims) if rc.claim.kind is ClaimKind.MATERIAL]
    text = claim.text.lower()

    def relevance(j: int) -> float:
        lex = fuzz.token_set_ratio(text, reference_claims[j].claim.text.lower()) / 100.0
        return float(row[j]) + T.lexical_weight * lex

    rel = sorted(((relevance(j), j) for j in cols), reverse=True)
    top = [j for _, j in rel[: T.top_k]]
    if r.quantities or r.dates:
        for _, j in rel[T.top_k :]:
            if len(top) >= T.top_k + T.facet_candidates:
                break
            if shares_value(r, extract(reference_claims[j].claim.text)):
                top.append(j)
    return top


def _best(pairs: list[Pair]) -> Pair:
    return max(pairs, key=lambda p: (p.cos, p.coverage))


def _supported(k: _Case) -> Judgement | None:
    """Supported — unless the candidate that matches the claim's subject and slot best gives
    another value: a looser match elsewhere (another study, another subject) must not hide a
    contradiction (the contradicting claim covers more of the claim's words than the supporting
    one by ``SUBJECT_MARGIN``)."""
    conflicted = {id(t[1]) for t in k.found}
    sup = [
        p
        for p in k.pairs
        if _supports(p, k.threshold)
        and p.hedge_dropped is None
        and id(p) not in conflicted
        and _name_rival(k, p) is None
    ]
    if not sup or (k.found and k.found[0][1].subject_coverage >= _best(sup).coverage + T.subject_margin):
        return None
    best = _best(sup)
    return Judgement(
        k.index,
        Verdict.SUPPORTED,
        (evidence_at(k.reference_claims, best.j, best.cos),),
        f"stated by {k.where(best.j)} (cosine {best.cos:.2f})",
    )


def _qualification_dropped(k: _Case) -> Judgement | None:
    """As supported, but the reference hedges or limits what the claim states flatly."""
    qd = [p for p in k.pairs if _supports(p, k.threshold) and p.hedge_dropped is not None]
    if not qd:
        return None
    best = _best(qd)
    assert best.hedge_dropped is not None
    label, surface, s, e = best.hedge_dropped
    return Judgement(
        k.index,
        Verdict.QUALIFICATION_DROPPED,
        (evidence_at(k.reference_claims, best.j, best.cos),),
        f"the reference qualifies it ({label}: {surface!r}, {k.where(best.j, s, e)}); "
        "the response states it flatly",
        hedge_change(k.claim.text, k.reference_claims[best.j].claim.text, s, e),
    )


def _contradicted(k: _Case) -> Judgement | None:
    """The best contradiction found (``find_contradictions``), the conflicting claim cited first."""
    if not k.found:
        return None
    _, p, conflict = k.found[0]
    reason, change = describe_conflict(conflict, k.reference_claims[p.j], k.reference_texts)
    return Judgement(
        k.index, Verdict.CONTRADICTED, (evidence_at(k.reference_claims, p.j, p.cos),), reason, change
    )


def _value_contradicted(k: _Case) -> Judgement | None:
    """A value of the claim whose slot the evidence states with another, single value in any
    reference claim, not only the nearest ones (``value_slots.slot_conflict``); None when the
    pairwise checks found the same value (their reason says more: "450 in 2020 → 120 in 2020"),
    and None for a name when another candidate states the claim with every name of it, none in
    another name's slot ("Tromsø lies north of Oslo" / "Oslo is located north of Rome")."""
    found = slot_conflict(k.r, k.reference_claims)
    if found is None:
        return None
    j, conflict = found
    if any(p.j == j and c.start <= conflict.start < c.end for _, p, c in k.found):
        return None  # the pairwise check found the same value: ``_contradicted`` words it
    if conflict.kind == "entity" and any(
        p.j != j and _supports(p, k.threshold) and not p.entities_missing and p.hedge_dropped is None
        and _name_rival(k, p) is None for p in k.pairs
    ):  # fmt: skip
        return None  # a rival name in one claim's slot does not outweigh a claim stating it
    reason, change = describe_conflict(conflict, k.reference_claims[j], k.reference_texts)
    cos = next((p.cos for p in k.pairs if p.j == j), 0.0)
    return Judgement(
        k.index, Verdict.CONTRADICTED, (evidence_at(k.reference_claims, j, cos),), reason, change
    )


def _inferred(k: _Case) -> Judgement | None:
    """Two or more reference claims together state the claim (``infer_pairs``), unless one of them
    states the claim's predicate of a rival name ("Senator Ortiz introduced the bill" against
    "Senator Hale introduced the bill": that "Senator Hale co-sponsored it" adds the name does
    not make Hale the one who introduced it)."""
    if any(_rival_statement(k, p) for p in k.pairs):
        return None
    heads = {p.j: subject_head(k.reference_claims[p.j].claim.text) for p in k.pairs}
    inferred = infer_pairs(k.r, k.pairs, heads)
    if not inferred or any(_name_rival(k, p) is not None for p in inferred):
        return None  # a part fills a name's slot with another name: the claim's name is joined from elsewhere
    ev = tuple(evidence_at(k.reference_claims, p.j, p.cos) for p in inferred)
    parts = " + ".join(k.where(p.j) for p in inferred)
    return Judgement(
        k.index, Verdict.INFERRED, ev, f"follows from {len(inferred)} reference claims together: {parts}"
    )


def _key_value_judgement(k: _Case, with_subject: bool) -> Judgement | None:
    found = key_value_finding(k.claim.text, k.reference_claims, with_subject=with_subject)
    if found is None:
        return None
    cos = next((p.cos for p in k.pairs if p.j == found.j), 0.0)
    ev = (evidence_at(k.reference_claims, found.j, cos),)
    if found.same:
        where = k.where(found.j, found.start, found.end)
        why = f"{found.label.lower()} {found.reference_value} stated by {where}"
        return Judgement(k.index, Verdict.SUPPORTED, ev, why, finding="key_value")
    conflict = Conflict(
        found.label.lower(), found.response_value, found.reference_value, found.start, found.end
    )
    reason, change = describe_conflict(conflict, k.reference_claims[found.j], k.reference_texts)
    return Judgement(k.index, Verdict.CONTRADICTED, ev, reason, change)


def _key_value(k: _Case) -> Judgement | None:
    """A subjectless "Label: value" claim whose predicate a reference claim states with a value
    slot (``claims.verdict.key_values``): supported when the slot holds its value, contradicted
    when it holds another."""
    return _key_value_judgement(k, with_subject=False)


def _subject_key_value(k: _Case) -> Judgement | None:
    """A "<subject>, <label>: <value>" claim (a table row, a list item under its heading, a
    JSON record) judged against the reference claims about its subject that state the label's
    predicate with a value slot (``claims.verdict.key_values``), before any other step: the
    same value stated of another subject (the next row) is no support, and the value stated of
    the subject decides. A value the references state only of another subject, in no claim
    about the subject, is unsupported (finding "rival": it stands against the learned decision)."""
    found = _key_value_judgement(k, with_subject=True)
    other = (
        other_subject_value(k.claim.text, k.reference_claims, k.reference_texts) if found is None else None
    )
    if other is None:
        return found
    j, surface, start, end = other
    ev = (evidence_at(k.reference_claims, j, next((p.cos for p in k.pairs if p.j == j), 0.0)),)
    why = f"the reference states {surface!r} of another subject ({k.where(j, start, end)})"
    return Judgement(k.index, Verdict.UNSUPPORTED, ev, why, finding="rival")


def _name_rival(k: _Case, p: Pair) -> tuple[str, str] | None:
    """The claim's name and the other name that the reference claim of ``p`` puts in its slot,
    not naming the claim's name there (``value_slots.rival_name``: "Anna Berg finished second"
    / "Maria Lind finished second, behind Anna Berg"); such a claim does not state it. A rival
    that the reference document does not write in the claim's span (a pronoun the rewriting
    resolved: "it is widely used" -> "Conclusion is widely used") is none."""
    texts = [rc.claim.text for rc in k.reference_claims]
    found = rival_name(k.r.text, texts[p.j], texts)
    if found is None:
        return None
    rc, docs = k.reference_claims[p.j], k.reference_texts
    written = docs[rc.reference][rc.claim.start : rc.claim.end] if docs and rc.reference < len(docs) else None
    if written is not None and found[1].text not in written:
        return None
    return found[0].text, found[1].text


def _rival_statement(k: _Case, p: Pair) -> bool:
    """The reference claim lacks one of the claim's names, names another in the same role (the
    agent, or the patient: ``roles.entity_role``), and states the rest of the claim's predicate
    at an inference's cosine: the same statement of someone else ("Lisa Holm won the 2019
    edition" for "The 2019 edition was won by Marta Ilves"; "Tomas Brell made his stage debut"
    is no rival of "Salt Harbour was staged")."""
    if not (
        p.entities_missing
        and p.entities_extra
        and p.predicate_size
        and p.predicate_coverage >= T.coverage_predicate
        and p.cos >= T.inferred_min_cosine
    ):
        return False
    ref = k.reference_claims[p.j].claim.text
    mine = next((entity_role(k.r.text, s, e) for n, s, e in k.r.entities if n == p.entities_missing[0]), "")
    theirs = next(
        (entity_role(ref, ref.find(n), ref.find(n) + len(n)) for n in p.entities_extra if n in ref), ""
    )
    return bool(mine) and mine == theirs


def _unsupported(k: _Case) -> Judgement:
    """Unsupported, the nearest reference claims listed for display, the reason naming what the
    most relevant one lacks (a value, a name, the subject, the action, a denial)."""
    near = sorted(k.pairs, key=lambda p: p.cos, reverse=True)[:3]
    ev = tuple(evidence_at(k.reference_claims, p.j, p.cos) for p in near)
    why, finding = "no reference claim states it", None
    rival = next((p for p in sorted(k.pairs, key=lambda p: -p.cos) if _rival_statement(k, p)), None)
    if rival is not None:
        # "Senator Ortiz introduced the bill": the statement is someone else's; it stands
        # against the learned decision (``claims.decision.STANDING_FINDINGS``)
        why = (
            f"the reference states it of another name: {rival.entities_extra[0]!r}, not "
            f"{rival.entities_missing[0]!r} ({k.where(rival.j)})"
        )
        return Judgement(k.index, Verdict.UNSUPPORTED, ev, why, finding="rival")
    close = [p for p in sorted(k.pairs, key=lambda p: -p.cos) if p.cos >= T.entity_swap_cosine]
    named = next(((p, found) for p in close if (found := _name_rival(k, p)) is not None), None)
    if named is not None:
        (p, (mine, theirs)) = named
        why = f"the reference states it of another name: {theirs!r}, not {mine!r} ({k.where(p.j)})"
        return Judgement(k.index, Verdict.UNSUPPORTED, ev, why, finding="rival")
    if near:
        p0 = max(k.pairs, key=lambda p: p.relevance)
        gaps = list(dict.fromkeys(p0.missing + p0.entities_missing))
        if not p0.head_covered and not gaps:
            why = f"no reference claim is about the same subject ({head_word(k.claim.text)!r})"
        if gaps:
            why = f"no reference claim states {', '.join(repr(g) for g in gaps[:3])}"
            finding = "degree" if p0.degree_gap else None
        elif p0.predicate_swap is not None:
            swap = p0.predicate_swap
            why = (
                f"the reference states another action: {swap.reference_value!r}, not {swap.response_value!r} "
                f"({k.where(p0.j, swap.start, swap.end)})"
            )
        elif p0.object_swap is not None:
            swap = p0.object_swap
            finding, what = _SWAP_FINDINGS.get(swap.kind, ("slot", "another word in its place"))
            why = (
                f"the reference states {what}: {swap.reference_value!r}, not {swap.response_value!r} "
                f"({k.where(p0.j, swap.start, swap.end)})"
            )
        elif p0.polarity_mismatch and k.r.negated:
            why = "no reference claim denies it; a reference that does not mention it is no denial"
            finding = "denial"
        elif p0.polarity_mismatch:
            why = f"{k.where(p0.j)} denies its words, not the whole claim (no contradiction, no support)"
    best = [max(k.pairs, key=lambda p: p.relevance), max(k.pairs, key=lambda p: p.cos)] if k.pairs else []
    if finding is None and k.r.negated and all(p.polarity_mismatch for p in best):
        finding = "denial"  # the nearest candidates do not deny it: wording alone does not state it
    return Judgement(k.index, Verdict.UNSUPPORTED, ev, why, finding=finding)


#: kind of an object or slot swap -> (the judgement's finding, what the reason says the reference states)
_SWAP_FINDINGS = {"object": ("object", "another object"), "converse": ("converse", "the converse")}


#: the verdict steps, in the order of the module docstring; the first that applies decides
_VERDICT_STEPS: tuple[Callable[[_Case], Judgement | None], ...] = (
    _subject_key_value,
    _value_contradicted,
    _supported,
    _qualification_dropped,
    _contradicted,
    _inferred,
    _key_value,
)


def judge_one(
    index: int,
    claim: Claim,
    reference_claims: Sequence[ReferenceClaim],
    row: np.ndarray,
    *,
    threshold: float = DEFAULT_THRESHOLD,
    reference_texts: Sequence[str] | None = None,
    counterparts: bool = True,
    decider: Decider | None = None,
) -> Judgement:
    """Judge one response claim (see module docstring). ``row`` holds its cosines with every
    reference claim (shape ``(len(reference_claims),)``). The opposites, negation, roles and
    order of ``claims.verdict.counterparts`` are checked last and decide when they find
    something; ``counterparts=False`` leaves them out (how that check judges its rewordings)."""
    if claim.kind is ClaimKind.OUTSIDE_SCOPE:
        why = outside_scope_reason(claim.text) or "question, opinion or advice"
        return Judgement(index, Verdict.OUTSIDE_SCOPE, (), f"not a factual claim ({why})")
    if not any(rc.claim.kind is ClaimKind.MATERIAL for rc in reference_claims):
        return Judgement(index, Verdict.UNSUPPORTED, (), "the references contain no factual claim")
    same = stated_verbatim(claim.text, reference_claims)
    if same is not None:  # a claim the reference states word for word is supported, whatever else it says
        rc = reference_claims[same]
        where = where_stated(rc, 0, len(rc.claim.text), reference_texts)
        evidence = (evidence_at(reference_claims, same, float(row[same])),)
        return Judgement(
            index, Verdict.SUPPORTED, evidence, f"stated word for word ({where})", finding="verbatim"
        )
    r = extract(claim.text)
    top = _candidates(r, claim, reference_claims, row)
    # names written in lower case take their capitals ("in sydney"), so the name checks see them
    # a label-style claim ("HQ: Bergen") is judged as the sentence it states (claims.labels);
    # names written in lower case take their capitals ("in sydney"), so the name checks see them
    text = recase(embedding_text(claim.text), [reference_claims[j].claim.text for j in top])
    r = extract(text) if text != claim.text else r
    pairs = [compare_facets(r, extract(reference_claims[j].claim.text), float(row[j]), j) for j in top]
    found = find_contradictions(r, pairs, reference_claims)
    case = _Case(index, claim, r, pairs, found, reference_claims, reference_texts, threshold)
    judgement = next((j for step in _VERDICT_STEPS if (j := step(case)) is not None), None)
    judgement = judgement or _unsupported(case)
    if not counterparts:
        return judgement

    def judge_text(text: str, decided: bool = False) -> Judgement:
        other = replace(claim, text=text, end=claim.start + len(text))
        got = judge_one(
            index,
            other,
            reference_claims,
            row,
            threshold=threshold,
            reference_texts=reference_texts,
            counterparts=False,
        )
        return decider(other, got, reference_claims, row, reference_texts) if decided and decider else got

    found_here = decide_counterparts(index, claim, judgement, top, reference_claims, judge_text, case.where)
    return found_here or judgement


def judge(
    response_claims: Sequence[Claim],
    reference_claims: Sequence[ReferenceClaim],
    similarity: np.ndarray,
    *,
    threshold: float = DEFAULT_THRESHOLD,
    reference_texts: Sequence[str] | None = None,
    decider: Decider | None = None,
) -> list[Judgement]:
    """Judge every response claim against the reference claims.

    Parameters
    ----------
    response_claims : sequence of Claim
        The response's claims (outside_scope ones get ``Verdict.OUTSIDE_SCOPE``).
    reference_claims : sequence of ReferenceClaim
        The flat list of reference claims; ``Evidence.claim_index`` indexes it.
    similarity : ndarray, shape (len(response_claims), len(reference_claims))
        Cosine similarities in [-1, 1] (``claims.match.cosine_matrix``).
    threshold : float, keyword-only
        The matching threshold (``claims.match.DEFAULT_THRESHOLD``); the support cosines move
        with ``threshold - DEFAULT_THRESHOLD`` (the default leaves them as calibrated).
    reference_texts : sequence of str, optional, keyword-only
        The reference documents: with them a conflicting value's span is exact even in a
        rewritten reference claim (a resolved pronoun); without them that claim's span.
    decider : claims.verdict.affirmed.Decider, optional, keyword-only
        The learned decision for one text (``claims.decision.decide_one``); the negation check
        of ``claims.verdict.affirmed`` judges an affirmation with it. Without it that check
        reads the rules' verdict of the affirmation, which carries no probability, and finds
        nothing.

    Returns
    -------
    list of Judgement
        One per response claim, in order: evidence (best first), a reason ("year 2001 ≠ 2004
        (reference 0, chars 3–7)"), and a ``change`` ("2001 → 2004") when contradicted or
        qualification_dropped.

    Raises
    ------
    ValueError
        If ``similarity`` does not have shape ``(len(response_claims), len(reference_claims))``.

    Examples
    --------
    >>> from claims.types import Claim, ReferenceClaim
    >>> ref = [ReferenceClaim(0, Claim("Ines Marlow won the Varga Prize in 2004.", 0, 40))]
    >>> j = judge([Claim("Ines Marlow won the Varga Prize in 2001.", 0, 40)], ref, np.array([[0.93]]))
    >>> j[0].verdict.value, j[0].change
    ('contradicted', '2001 → 2004')
    """
    sim = np.asarray(similarity, dtype=np.float64)
    if sim.shape != (n := len(response_claims), m := len(reference_claims)):
        raise ValueError(f"similarity has shape {sim.shape}, expected ({n}, {m})")
    return [
        judge_one(
            i,
            c,
            reference_claims,
            sim[i] if sim.size else np.zeros(len(reference_claims)),
            threshold=threshold,
            reference_texts=reference_texts,
            decider=decider,
        )
        for i, c in enumerate(response_claims)
    ]
