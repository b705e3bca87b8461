"""One (claim, reference claim) pair compared: the checks of ``PAIR_CHECKS`` return findings,
and ``fold`` turns them into the frozen ``Pair`` the decision reads.

Every check has one signature, ``check(x: Context, prior: Pair) -> tuple[Finding, ...]``: it
reads the pair's context and ``prior``, the pair folded from the findings of the stages before
its own, and writes nothing. The value checks (stage one) read no ``prior``; of the word checks
only ``_check_predicate`` reads it: the coverage with the words compared as a bound, and, through
``roles.converse_relation``, the value checks' missing values and conflicts before ``in_clause``
(a value conflict outside the covering clause still stands against a converse). The order of
the registry decides which finding the pair names first: the first flip, swap or dropped
qualifier (``fold``), and the order of ``Pair.conflicts``, whose first a reason names. The clause
scope of value conflicts lives in ``in_clause`` alone.

Part of ``claims.verdict`` (see its docstring for the method)."""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import replace

from claims.facets import (
    Facets,
    content_tokens,
    extract,
    is_weak_entity,
    token_match,
    values_equal,
)
from claims.facets.identifiers import identifiers, mentioned, same_identifier
from claims.verdict.clause_checks import check_polarity, object_swap_of, predicate_swap_of
from claims.verdict.context import Context, context_of
from claims.verdict.degree import compare_quantifiers, one_of_dropped, superlative_missing, superlative_rank
from claims.verdict.findings import (
    MONTH_DAY,
    YEAR,
    Conflict,
    Finding,
    FindingKind,
    Pair,
    Stance,
    conflict_finding,
    stated,
    unstated,
)
from claims.verdict.lexical import antonym_flip, ended_state
from claims.verdict.names import alias_stated, entity_key, entity_present, lower_words, name_keys
from claims.verdict.offices import office_change
from claims.verdict.pairs import fold, in_clause, measure
from claims.verdict.quantity_checks import check_quantities, years_of
from claims.verdict.roles import converse_relation
from claims.verdict.slots import slot_swap
from claims.verdict.text import (
    coverage_of,
    named_subject,
    other_modifier,
    subject_heads,
    subject_modifier,
)
from claims.verdict.time_bounds import (
    bounded_in_reference,
    check_relative_time,
    check_time_bound,
    month_range_check,
    reference_bound_conflict,
    relative_time,
    time_points,
)
from claims.verdict.values import (
    date_conflict,
    date_states,
)

#: one check of a pair: what it finds, from the context and the pair as the earlier stages left it
Check = Callable[[Context, Pair], tuple[Finding, ...]]


def _check_subject_head(x: Context, prior: Pair) -> tuple[Finding, ...]:
    """Check: subject. The claim's subject head is stated by the reference claim
    (``Pair.head_covered``; see ``subject_head``): the head itself, a short form of its name
    ("the DNC"), or another word of its name when the reference's subject is no other name;
    another adjective on the head ("The old bridge" for "The new bridge") is another subject:
    a ``SUBJECT`` conflict."""
    r, c = x.r, x.c
    heads = subject_heads(r.text)
    if not heads:
        return ()

    def said(h: str) -> bool:
        return any(token_match(h, t) for t in x.c_stems) or h in x.c_words

    short = any(heads[0] in content_tokens(e) and entity_key(e) in x.names_c for e, _, _ in r.entities)
    covered = said(heads[0]) or short or (any(said(h) for h in heads[1:]) and not named_subject(c.text))
    mod = subject_modifier(r.text)
    if covered and mod and not said(mod) and other_modifier(c.text, heads[0], mod):
        covered = False
    return () if covered else (Finding(FindingKind.SUBJECT, Stance.CONFLICT, heads[0]),)


def _check_entities(x: Context, prior: Pair) -> tuple[Finding, ...]:
    """Check: entities. Which names the reference claim adds (``Stance.EXTRA``), and which of
    the claim's names it states (in full or in short) or lacks (weak sentence-initial words
    excepted)."""
    r, c = x.r, x.c
    r_words, names_r = lower_words(r.text), name_keys(r.text)
    extra = [
        e
        for e, s, en in c.entities
        if not entity_present(e, r_words, r.tokens, names_r) and not is_weak_entity(c.text, (e, s, en))
    ]
    found = [Finding(FindingKind.NAME, Stance.EXTRA, reference_value=e) for e in extra]
    # a rival name (not a code such as "E39") in the reference: the claim's names must then be
    # stated by the words that tell them apart ("Marit Larsen" / "Marit Olsen")
    strict = any(not re.search(r"\d", e) for e in extra)
    for ent_t in r.entities:
        ent = ent_t[0]
        if entity_present(ent, x.c_words, x.c_stems, x.names_c, strict=strict) or alias_stated(
            r.text, ent_t[1], ent_t[2], x.c_words, x.c_stems
        ):
            found.append(stated(FindingKind.NAME, "e:" + ent.lower(), ent))
        elif not is_weak_entity(r.text, ent_t):
            found.append(unstated(FindingKind.NAME, ent))
    return tuple(found)


def _check_identifiers(x: Context, prior: Pair) -> tuple[Finding, ...]:
    """Check: web addresses, DOIs, arXiv numbers and e-mail addresses
    (``claims.facets.identifiers``), which name one thing exactly, as a number does. Each of the
    claim's is stated when the reference claim names the same resource (``mentioned``); else an
    address of the reference claim that is none of the claim's conflicts
    ("arxiv.org/abs/2012.15730" / "doi.org/10.48550/arXiv.2302.13971"); else it is missing."""
    mine = identifiers(x.r.text)
    if not mine:
        return ()
    others = [o for o in identifiers(x.c.text) if not any(same_identifier(i.text, o.text) for i in mine)]
    found = []
    for ident in mine:
        if mentioned(ident.text, x.c.text):
            found.append(stated(FindingKind.VALUE, "u:" + ident.text.lower(), ident.text))
        elif others:
            o = others[0]
            found.append(
                conflict_finding(
                    FindingKind.VALUE, Conflict("identifier", ident.text, o.text, o.start, o.end)
                )
            )
        else:
            found.append(unstated(FindingKind.VALUE, ident.text))
    return tuple(found)


def _check_dates(x: Context, prior: Pair) -> tuple[Finding, ...]:
    """Check: dates, part by part (``date_states``, ``date_conflict``). A dateline's date is
    the report's, not the event's: it never conflicts. A date may be stated in parts: its
    month and day by a year-less date ("November 2"), its year by the report's dateline;
    ``infer_pairs`` joins the parts. Alone, either part leaves the date missing, never a conflict.
    A bounded date ("no later than May 2003") and a date against a bounded one are compared by
    ``time_bounds``, a month against a month range ("from March to June 2004") by
    ``time_bounds.month_range_check``; no date conflicts where either claim tells a relative
    time."""
    c = x.c
    c_years = [y for y in years_of(c) if not bounded_in_reference(x, y.start)]
    found: list[Finding] = []
    for d in x.r.dates:
        key = "d:" + d.text.lower()
        mine = time_points(x.r.text, (), [d])
        if mine and mine[0].bound:
            found.extend(check_time_bound(x, mine[0], key))
            continue
        if any(date_states(d, e) for e in c.dates if not bounded_in_reference(x, e.start)):
            found.append(stated(FindingKind.VALUE, key, d.text))
            if x.dateline:
                found.append(stated(FindingKind.DATELINE, key, d.text))
            continue
        points = [e for e in c.dates if not bounded_in_reference(x, e.start)] if not x.dateline else []
        points, outside = month_range_check(x, d, points)
        clash = next(((part, e) for e in points if (part := date_conflict(d, e))), None)
        if clash is None and d.year is not None:
            if d.month is not None and any(
                e.year is None and e.month == d.month and (d.day is None or e.day == d.day) for e in c.dates
            ):
                found.append(stated(FindingKind.VALUE, key + MONTH_DAY, d.text))
            if x.dateline and any(values_equal(y.raw, d.year) for y in c_years):
                found.append(stated(FindingKind.VALUE, key + YEAR, d.text))
                found.append(stated(FindingKind.DATELINE, key + YEAR, d.text))
        past = reference_bound_conflict(x, mine[0]) if mine else None
        if past is not None:
            found.append(conflict_finding(FindingKind.VALUE, past))
        elif outside is not None and not relative_time(x):
            found.append(conflict_finding(FindingKind.VALUE, outside))
        elif clash is not None and not relative_time(x):
            part, e = clash
            other = Conflict("date" if part != "year" else "year", d.text, e.text, e.start, e.end)
            found.append(conflict_finding(FindingKind.VALUE, other))
        else:
            found.append(unstated(FindingKind.VALUE, d.text))
    return tuple(found)


def _check_polarity(x: Context, prior: Pair) -> tuple[Finding, ...]:
    """Check: polarity (``check_polarity``)."""
    return check_polarity(x.r, x.c, x.r_tokens)


def _check_predicate(x: Context, prior: Pair) -> tuple[Finding, ...]:
    """Check: predicate, object and other slots (``predicate_swap_of``, ``object_swap_of``,
    ``slots.slot_swap``), and the converse of the claim's relation (``roles.converse_relation``,
    which reads the value checks' findings in ``prior``)."""
    swap = predicate_swap_of(x.r, x.c, x.r_tokens, prior.tokens_covered, x.clause)
    if swap is not None:
        return (conflict_finding(FindingKind.PREDICATE, swap),)
    if prior.coverage < 1.0:
        other = object_swap_of(x.r, x.c, prior.tokens_covered, x.clause) or slot_swap(
            x.r, x.clause_text, x.clause[0], prior.tokens_covered
        )
    else:
        other = converse_relation(prior, x.r, x.c)
    return () if other is None else (conflict_finding(FindingKind.OBJECT, other),)


def _check_antonyms(x: Context, prior: Pair) -> tuple[Finding, ...]:
    """Check: antonym, comparative and negative prefix (``lexical.antonym_flip``; antonyms of two
    occasions are another action: ``Pair.predicate_swap``), and a state given as current that
    the reference says has ended (``lexical.ended_state``)."""
    found = antonym_flip(x.r, x.clause_text, x.clause_facets, x.clause[0], x.r_tokens)
    swap: tuple[Finding, ...] = ()
    if found is not None and found[0].kind == "predicate":  # antonyms of two occasions
        swap = (conflict_finding(FindingKind.PREDICATE, found[0]),)
    elif found is not None:
        return (conflict_finding(FindingKind.OPPOSITE, found[0], coverage=found[1]),)
    ended = ended_state(x.r.text, x.c.text)
    if ended is None:
        return swap
    # a role or state that has ended ("the former CEO", "was CEO until 2019"); the
    # reference's own past words are no words the claim lacks
    word, theirs, s, e = ended
    coverage, _ = coverage_of(x.r_tokens, x.c_stems)
    return (
        *swap,
        conflict_finding(FindingKind.OPPOSITE, Conflict("ended", word, theirs, s, e), coverage=coverage),
    )


def _check_hedges(x: Context, prior: Pair) -> tuple[Finding, ...]:
    """Check: modality and hedge. The covering clause qualifies what the claim states flatly
    (planned to, reportedly, may, in one city, ...); "can" keeps the modality of "may"; an
    approximation ("about 5") is dropped only when the claim states that number exactly."""
    r, (cs, _) = x.r, x.clause
    clause = x.clause_text
    r_labels = {h[0] for h in r.hedges}
    if re.search(r"\b(?:can|could)\b", r.text, re.I):
        r_labels.add("may")
    for h in x.clause_facets.hedges:
        if h[0] in r_labels or (r_labels - {"about"} and h[0] != "about"):
            continue
        if h[0] == "about":
            after = extract(clause[h[3] : h[3] + 40]).quantities
            if not after or not any(
                values_equal(q.value, after[0].value) or values_equal(q.raw, after[0].raw)
                for q in r.quantities
            ):
                continue
        return (_dropped(h[0], h[1], cs + h[2], cs + h[3]),)
    return ()


def _dropped(label: str, words: str, start: int, end: int) -> Finding:
    """A ``QUALIFIER`` conflict: the reference's qualifier ``words`` (span ``start``-``end`` in
    the reference claim; ``label`` its kind: "may", "about", "limited", "office", ...) that
    the claim drops."""
    return Finding(
        FindingKind.QUALIFIER, Stance.CONFLICT, reference_value=words, start=start, end=end, facet=label
    )


def _check_degree(x: Context, prior: Pair) -> tuple[Finding, ...]:
    """Check: quantifier and degree (``claims.verdict.degree``). Quantifiers that exclude each
    other ("few" / "most") are a flip. A universal claim against a weaker quantifier ("all" /
    "some"), and "the largest" against "one of the largest", drop a qualification; another rank
    of the same superlative ("the largest" / "the second largest") is a flip. A stronger
    claim ("most" / "some") and a superlative the reference does not grade ("the most
    effective" / "an effective") are missing; such a gap stands against the learned decision
    (``degree_gap``). Where several flips or dropped qualifiers are found, ``fold`` keeps the
    first."""
    found: list[Finding] = []
    quantified = compare_quantifiers(
        x.r.text, x.clause_text
    )  # the clause: "Few own bicycles, but most own cars"
    if quantified is not None:
        kind, q, o = quantified
        o = replace(o, start=o.start + x.clause[0], end=o.end + x.clause[0])
        if kind == "conflict":
            own = set(content_tokens(q.word))  # "rarely" itself is no word the reference must cover
            # covered by the clause itself: "Few own bicycles, but most own cars" is no flip of
            # "Most own cars"
            coverage, _ = coverage_of([t for t in x.r_tokens if t not in own], content_tokens(x.clause_text))
            flip = Conflict("quantifier", q.word, o.word, o.start, o.end)
            found.append(conflict_finding(FindingKind.OPPOSITE, flip, coverage=coverage))
        elif kind == "qualified":
            found.append(_dropped("quantifier", o.word, o.start, o.end))
        elif kind == "missing":
            found.append(unstated(FindingKind.DEGREE, q.word))
    ranked = superlative_rank(x.r.text, x.c.text)
    if ranked is not None:
        # "the largest" / "the second largest": another rank of the same superlative
        own = set(content_tokens(f"{ranked[0]} {ranked[1]}"))
        coverage, _ = coverage_of([t for t in x.r_tokens if t not in own], content_tokens(x.c.text))
        flip = Conflict("rank", ranked[0], ranked[1], ranked[2], ranked[3])
        found.append(conflict_finding(FindingKind.OPPOSITE, flip, coverage=coverage))
    one_of = one_of_dropped(x.r.text, x.c.text)
    if one_of is not None:
        found.append(_dropped("limited", *one_of))
    superlative = superlative_missing(x.r.text, x.c.text)
    if superlative is not None:
        found.append(unstated(FindingKind.DEGREE, superlative))
    return tuple(found)


def _check_office(x: Context, prior: Pair) -> tuple[Finding, ...]:
    """Check: the office a title names (``claims.verdict.offices``). Another office ("president"
    / "vice president") is a flip; a qualification of the reference's office the claim drops
    ("CEO" / "acting CEO") drops a qualification; a qualification the claim adds ("acting CEO" /
    "CEO"), and an office the reference says of another time, holder or scope ("is president" /
    "was vice president until 2016"), is missing and stands against the learned decision
    (``degree_gap``)."""
    found = office_change(x.r.text, x.c.text)
    if found is None:
        return ()
    if found.kind == "other":
        own = set(content_tokens(f"{found.claim_words} {found.reference_words}"))
        coverage, _ = coverage_of([t for t in x.r_tokens if t not in own], x.c_stems)
        flip = Conflict("office", found.claim_words, found.reference_words, found.start, found.end)
        return (conflict_finding(FindingKind.OPPOSITE, flip, coverage=coverage),)
    if found.kind == "qualified":
        return (_dropped("office", found.reference_words, found.start, found.end),)
    if found.kind in ("more", "unstated"):
        return (unstated(FindingKind.DEGREE, found.claim_words),)
    return ()


#: the checks of one (claim, reference claim) pair, in two stages: the value checks, then the
#: word checks, which read the value checks' findings (``prior``); ``fold`` keeps the first of
#: several flips, swaps or dropped qualifiers in this order
PAIR_CHECKS: tuple[tuple[Check, ...], ...] = (
    (
        _check_subject_head,
        _check_entities,
        check_quantities,
        _check_identifiers,
        _check_dates,
        check_relative_time,
    ),
    (
        _check_polarity,
        _check_predicate,
        _check_antonyms,
        _check_hedges,
        _check_degree,
        _check_office,
    ),
)


def compare_facets(r: Facets, c: Facets, cos: float, j: int) -> Pair:
    """Compare the claim's facets ``r`` with the reference claim's ``c`` (cosine ``cos``, index
    ``j``): every check of ``PAIR_CHECKS``, stage by stage, each reading the pair folded from
    the stages before; the value conflicts kept to the covering clause (``in_clause``)."""
    x = context_of(r, c)
    base = measure(x, cos, j)
    found: list[Finding] = []
    for stage in PAIR_CHECKS:
        prior = fold(base, found, x) if found else base
        for check in stage:
            found.extend(check(x, prior))
    return fold(base, in_clause(found, x), x)
