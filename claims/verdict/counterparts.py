"""Check: opposites, negation, roles and order against the lexicon (``claims.lexicon``) and the
parse. Decides before the other verdict steps of ``decide.judge_one``; what it finds stands
(the learned decision keeps a rule ``contradicted``: ``claims.decision``).

Two findings, and a limit of both:

* **counterpart stated** (``counterpart``): the claim's counterparts (``claims.verdict.opposed``:
  the claim with one word replaced by its opposite, ``claims.lexicon.opposites``: "slowly" ->
  "rapidly"; with its negation removed, "did not serve" -> "did serve"; an agent noun's
  adjective said with its verb as the opposite adverb, "is a poor conductor" -> "conducts
  well"): one ``supported`` by a reference claim that does not state the claim's own word (nor
  holds a negation, for the negation) says the opposite of the same predicate of the
  same subject -> ``contradicted``, the reason naming the two words. A negated
  claim whose opposite is stated agrees when the pair is complementary ("is not closed" / "is
  open" -> ``supported``) and stays unsupported when it is gradable ("is not hot" / "is cold");
  "not X" and a negative-prefix "un-X" agree ("is not able" / "is unable"). An affirmation
  stated in other words, judged by the rules and the learned decision, contradicts a negation
  of the claim's main predicate (``claims.verdict.affirmed``).
* **order** (``claims.verdict.order``, whose docstring lists the relations read: the parties of
  a verb with a converse, subject and object of a verb between two names, "from A to B", the
  operands of a formula, the two sides of a "than" comparison, "A is the parent of B", "A is
  above B"): a relation whose reference holds it with the two nouns the other way round ->
  ``contradicted``. A converse rewording agrees ("A is larger than B" = "B is smaller than A"),
  as does a denied comparison against the affirmed one the other way round
  (``claims.verdict.order.told_conversely``). One end of a path against the other end, and a
  name in the other role of a verb, are swaps too (``claims.verdict.arguments``).
* An opposite contradicts as a word of its part of speech, not in a name or a measure ("the
  High Court", "20 years old": ``claims.verdict.text.named_alike``).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence

from claims import lexicon
from claims.facets.vocabulary import stem_of
from claims.types import Claim, Judgement, ReferenceClaim, Verdict
from claims.verdict.affirmed import JudgeText, affirmed_in_other_words
from claims.verdict.alike import (
    ALIKE_SHARE,
    TOPIC_SHARE,
    WORD,
    is_form_of,
    said_elsewhere,
    said_of_subject,
    stated_alike,
    states_form,
    states_word,
    topic_stated,
    words,
)
from claims.verdict.arguments import roles_swapped, subject_of
from claims.verdict.factive import asserts
from claims.verdict.opposed import NEGATION_WORDS, Counterpart, agentive_counterparts, counterpart_texts
from claims.verdict.order import (
    converse_keys,
    converse_texts,
    relations,
    told_conversely,
)
from claims.verdict.reasons import evidence_at
from claims.verdict.text import content_word, named_alike

__all__ = ["decide_counterparts"]


def _agreeing(
    index: int,
    text: str,
    current: Judgement,
    judge_text: JudgeText,
    where: Callable[[int], str],
) -> Judgement | None:
    """A support by a counterpart that says the same ("not able" / "unable", "not closed" /
    "open") over a contradiction the other checks read from those very words."""
    for cp in counterpart_texts(text):
        if cp.agrees and cp.other in (current.change or "") + current.reason:
            got = judge_text(cp.text)
            if got.verdict is Verdict.SUPPORTED and got.evidence:
                return _said_the_same(index, cp, got, where)
    return None


def _said_the_same(index: int, cp: Counterpart, got: Judgement, where: Callable[[int], str]) -> Judgement:
    """``supported`` by the evidence of ``got``, the judgement of a counterpart that agrees."""
    j = got.evidence[0].claim_index
    reason = f"stated by {where(j)} as '{cp.other}' ('{cp.word}' says the same)"
    return Judgement(index, Verdict.SUPPORTED, got.evidence, reason, finding="counterpart")


def decide_counterparts(
    index: int,
    claim: Claim,
    current: Judgement,
    top: list[int],
    reference_claims: Sequence[ReferenceClaim],
    judge_text: JudgeText,
    where: Callable[[int], str],
) -> Judgement | None:
    """The verdict the two findings of the module docstring give ``claim`` (already judged
    ``current``), or None when neither applies. ``top``: the candidate reference claims;
    ``judge_text``: judges a text against the same references with the same cosines; ``where``:
    a reference claim's locator text."""
    text = claim.text
    if current.verdict is Verdict.CONTRADICTED:
        # the other checks' finding stands, unless it reads "not X" against "un-X" as a flip
        return _agreeing(index, text, current, judge_text, where)
    swapped = roles_swapped(index, text, top, reference_claims, where)
    if swapped is not None:
        return swapped
    told = [reference_claims[j].claim.text for j in top]
    if current.verdict is not Verdict.SUPPORTED:
        conversed = _converse_support(index, text, " ".join(told), judge_text, where) or _told_conversely(
            index, text, top, reference_claims, where
        )
        if conversed is not None:
            return conversed
    theirs = {t.key for j in top for t in relations(reference_claims[j].claim.text)}
    theirs |= {k for j in top for k in converse_keys(reference_claims[j].claim.text)}
    mine = [(r.key, r.word) for r in relations(text)] + list(converse_keys(text).items())
    read_both_ways = {word.lower() for key, word in mine if key in theirs}
    restated = agentive_counterparts(text, told)
    for cp in [*counterpart_texts(text, attributive=True), *restated]:
        if cp.word.lower() in read_both_ways:
            continue  # one relation read from its two sides: the order check's
        if cp.kind == "negation":
            if all(NEGATION_WORDS.search(reference_claims[j].claim.text) for j in top):
                continue
        elif not any(states_word(t, cp.other) and named_alike(t, cp.other, text, cp.word) for t in told):
            continue  # no candidate states the opposite alike: "the High Court" for "high fees"
        decided, found = _counterpart_judgement(index, cp, current, reference_claims, top, judge_text, where)
        if decided:
            return found
        if cp.kind == "negation" and current.verdict is not Verdict.SUPPORTED:
            affirmed = _affirmed_word_for_word(index, cp, top, reference_claims, where)
            if affirmed is None and current.verdict is Verdict.UNSUPPORTED:
                affirmed = affirmed_in_other_words(
                    index,
                    text,
                    cp.text,
                    cp.word,
                    top,
                    reference_claims,
                    judge_text,
                    where,
                    NEGATION_WORDS.search,
                )
            if affirmed is not None:
                return affirmed
    read_as_converse = read_both_ways | {w.lower() for w in converse_keys(text).values()}
    return _opposite_gap(index, text, current, top, reference_claims, where, read_as_converse)


def _opposite_gap(
    index: int,
    text: str,
    current: Judgement,
    top: list[int],
    reference_claims: Sequence[ReferenceClaim],
    where: Callable[[int], str],
    converse_words: set[str],
) -> Judgement | None:
    """Not ``supported`` when a content word of an affirmed claim is not stated where its opposite
    (``claims.lexicon``; inflections, derived forms and degrees count: ``states_form``) is:
    the evidence gives the other pole of the claim's predicate, not the claim's ("Iron is
    gaseous" / "Iron is solid at room temperature"). A reference claim counts when it states the
    opposite and not the word, and either is the one the judgement leans on (``current``'s
    evidence: the support, the claims of an inference, or the nearest claim of an
    ``unsupported``), or no candidate states the word and it is about the claim's subject
    (``topic_stated`` at ``ALIKE_SHARE``, or the opposite said of the claim's subject:
    ``said_of_subject``; WordNet's similar-to opposites aside, too loose there).
    A reference claim with a negation word states no opposite ("did not lower rents" for "raised
    rents"), nor one that says the opposite of something else (``said_elsewhere``). The verdict
    is ``unsupported`` with the finding "opposite", which the learned
    decision does not overturn (a conflict stated alike is the counterpart check's).
    A word of ``converse_words`` (one relation read from its two sides: "lost to" / "won
    against") counts only when both verbs have the same subject (``subject_of``); an adjective
    before its noun only in a claim the judgement's support or inference rests on, with the
    opposite before the same noun in the same place (``said_elsewhere``: "The old bridge was
    closed" / "The new bridge was closed"; "Small cities have low rents" is of other cities than
    "Big cities have high rents"). Found only when no check above decides; None otherwise."""
    if current.verdict not in (Verdict.SUPPORTED, Verdict.INFERRED, Verdict.UNSUPPORTED):
        return None
    if NEGATION_WORDS.search(text):
        return None  # "not X" against the opposite: the negated-opposite counterparts' call
    leaned = [e.claim_index for e in current.evidence]
    if current.verdict is Verdict.UNSUPPORTED:
        leaned = leaned[:1]  # the nearest claim, the one the learned decision reads most
    order = list(dict.fromkeys([*leaned, *top]))
    for cp in counterpart_texts(text, attributive=True):
        if cp.kind != "opposite" or states_word(text, cp.other) or not content_word(text, cp.word):
            continue  # the claim holds both poles ("left before they arrived"), or a preposition
        stated = any(states_form(reference_claims[j].claim.text, cp.word) for j in top)
        opp = lexicon.opposite_of(cp.word.lower(), cp.other)
        loose = opp is not None and opp.source == "wordnet-similar"
        for j in order:
            ref = reference_claims[j].claim.text
            if not states_form(ref, cp.other) or states_form(ref, cp.word) or NEGATION_WORDS.search(ref):
                continue
            if said_elsewhere(text, cp.word, ref, cp.other):
                continue  # "Rents are high" / "Rents are expensive, while wages are low"
            about = topic_stated(text, ref, ALIKE_SHARE) or said_of_subject(text, ref, cp.other)
            if cp.attributive and (j not in leaned or current.verdict is Verdict.UNSUPPORTED):
                continue  # "Small cities have low rents" may be of other cities than the claim's
            if j not in leaned and (stated or loose or not about):
                continue
            if (
                cp.word.lower() in converse_words
                and not subject_of(text, cp.word) == subject_of(ref, cp.other) != ""
            ):
                continue
            ev = (evidence_at(reference_claims, j, 0.0),)
            reason = f"{where(j)} states '{cp.other}', the opposite of '{cp.word}', and not '{cp.word}'"
            return Judgement(index, Verdict.UNSUPPORTED, ev, reason, finding="opposite")
    return None


def _affirms(cp: Counterpart, ref: str, share: float) -> bool:
    """``ref`` affirms the negation counterpart ``cp``: it holds no negation word, states the
    word the claim denies ("encoded" of "is not encoded") and asserts its event
    (``claims.verdict.factive.asserts``), and the subject and ``share`` of the topic of the
    affirmation (``topic_stated``)."""
    if NEGATION_WORDS.search(ref) or (cp.denied and not states_word(ref, cp.denied)):
        return False
    # a reference that names the event without asserting it ("was invited to perform")
    # affirms nothing (``claims.verdict.factive``)
    return topic_stated(cp.text, ref, share) and (not cp.denied or asserts(ref, cp.denied))


def _affirmed_word_for_word(
    index: int,
    cp: Counterpart,
    top: list[int],
    reference_claims: Sequence[ReferenceClaim],
    where: Callable[[int], str],
) -> Judgement | None:
    """``contradicted`` when a candidate affirms ``cp`` with every noun, name, number and verb of
    the affirmation ``cp.text`` (``_affirms`` with share 1): the
    affirmation in the claim's own words, though the claim's cosines fall short of a support
    ("did not win the cup" against "won the cup in 1986"); else None."""
    for j in top:
        ref = reference_claims[j].claim.text
        if _affirms(cp, ref, 1.0):
            reason = f"'{cp.word}' denies what {where(j)} affirms"
            return Judgement(index, Verdict.CONTRADICTED, (evidence_at(reference_claims, j, 0.0),), reason)
    return None


def _converse_support(
    index: int,
    text: str,
    candidates: str,
    judge_text: JudgeText,
    where: Callable[[int], str],
) -> Judgement | None:
    """``supported`` when the claim told from the other side of a converse relation ("sold to" for
    "bought from") is supported and the candidates state the converse word; else None."""
    for other, rel in converse_texts(text):
        if not states_word(candidates, rel.converse):
            continue
        got = judge_text(other)
        if got.verdict is Verdict.SUPPORTED and got.evidence:
            j = got.evidence[0].claim_index
            reason = f"stated by {where(j)} from the other side ('{rel.converse}' for '{rel.word}')"
            return Judgement(index, Verdict.SUPPORTED, got.evidence, reason, finding="counterpart")
    return None


#: words of a comparison that its converse need not repeat ("not as deep as", "less deep than" /
#: "deeper than")
_COMPARISON_WORDS = frozenset(
    form for w in ("not", "no", "as", "than", "n't", "more", "less") for form in (w, stem_of(w))
)


def _told_conversely(
    index: int,
    text: str,
    top: list[int],
    reference_claims: Sequence[ReferenceClaim],
    where: Callable[[int], str],
) -> Judgement | None:
    """``supported`` when a candidate holds the claim's relation from its other side
    (``claims.verdict.order.told_conversely``: "A is no deeper than B" / "B is deeper than A")
    and every other word of the claim (``claims.verdict.alike.words``; the comparison's words
    and the degrees of its adjective aside: ``is_form_of``); else None."""
    for j in top:
        ref = reference_claims[j].claim.text
        if not told_conversely(text, ref):
            continue
        theirs = WORD.findall(ref.lower())
        rest = [w for w in words(text) - words(ref) if w not in _COMPARISON_WORDS]
        if all(any(is_form_of(t, w) for t in theirs) for w in rest):
            reason = f"stated by {where(j)} from the other side"
            ev = (evidence_at(reference_claims, j, 0.0),)
            return Judgement(index, Verdict.SUPPORTED, ev, reason, finding="counterpart")
    return None


def _counterpart_judgement(
    index: int,
    cp: Counterpart,
    current: Judgement,
    reference_claims: Sequence[ReferenceClaim],
    top: list[int],
    judge_text: JudgeText,
    where: Callable[[int], str],
) -> tuple[bool, Judgement | None]:
    """What one counterpart text ``cp`` (``counterpart_texts``) finds, as ``(decided, verdict)``:
    ``(True, judgement)``; ``(True, None)`` for an agreeing counterpart of a supported claim
    (``current`` stands, look no further); ``(False, None)`` when it finds nothing (try the next).
    An opposite supported (or inferred) in other words is a conflict where a candidate of
    ``top`` states the opposite word alike (``_opposite_stated``)."""
    got = judge_text(cp.text)
    stated = (
        (Verdict.SUPPORTED, Verdict.INFERRED) if cp.kind in ("negation", "opposite") else (Verdict.SUPPORTED,)
    )
    if got.verdict not in stated or not got.evidence:
        return False, None
    j = got.evidence[0].claim_index
    ref = reference_claims[j].claim.text
    if cp.kind == "negation":
        ref = " ".join(reference_claims[e.claim_index].claim.text for e in got.evidence)
    if cp.agrees:
        if current.verdict is Verdict.SUPPORTED:
            return True, None
        return True, _said_the_same(index, cp, got, where)
    if cp.kind == "negation" and not _affirms(cp, ref, TOPIC_SHARE):
        return False, None
    if cp.kind == "negated opposite":
        # gradable opposites under negation: "not hot" neither states nor denies "cold"; a
        # reference claim that denies the claim's own word states the claim itself ("does not
        # open on Mondays" read against itself as "closes on Mondays"): no veto
        own = cp.word.removeprefix("not ")
        if current.verdict is not Verdict.SUPPORTED or (NEGATION_WORDS.search(ref) and states_word(ref, own)):
            return False, None
        reason = f"'{cp.word}' does not state '{cp.other}' ({where(j)}): both may be false"
        return True, Judgement(index, Verdict.UNSUPPORTED, (), reason, finding="gradable")
    evidence = got.evidence
    if cp.kind != "negation":
        found = _opposite_stated(cp, reference_claims, [j, *top])
        if found is None:
            return False, None
        j, evidence = found, (evidence_at(reference_claims, found, got.evidence[0].similarity),)
    if cp.kind == "negation":
        reason = f"'{cp.word}' denies what {where(j)} affirms"
    else:
        said = f"'{cp.said}' ('{cp.word}')" if cp.said else f"'{cp.word}'"
        reason = f"{said} where {where(j)} states its opposite '{cp.other}'"
    change = f"{cp.said or cp.word} → {cp.other}"
    return True, Judgement(index, Verdict.CONTRADICTED, evidence, reason, change)


def _opposite_stated(
    cp: Counterpart, reference_claims: Sequence[ReferenceClaim], order: list[int]
) -> int | None:
    """The first reference claim of ``order`` that states the opposite ``cp.other`` alike
    (``stated_alike``) and not the claim's own word; None when none does."""
    for j in dict.fromkeys(order):
        ref = reference_claims[j].claim.text
        if not states_word(ref, cp.word) and stated_alike(cp.text, ref, cp.other, attributive=cp.attributive):
            return j
    return None
