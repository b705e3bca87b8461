"""One (claim, reference claim) pair compared: the checks of ``PAIR_CHECKS`` run in one loop.

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
from claims.verdict.events import event_coverage
from claims.verdict.findings import MONTH_DAY, YEAR, Conflict, Pair
from claims.verdict.lexical import antonym_flip, ended_state
from claims.verdict.names import alias_stated, entity_key, entity_present, lower_words, name_keys
from claims.verdict.offices import office_change
from claims.verdict.quantity_checks import check_quantities, years_of
from claims.verdict.roles import converse_relation
from claims.verdict.slots import slot_swap
from claims.verdict.text import (
    coverage_of,
    named_subject,
    other_modifier,
    subject_heads,
    subject_modifier,
    widen,
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
    RELATIVE_YEAR,
    date_conflict,
    date_states,
)


def _check_subject_head(pair: Pair, x: Context) -> None:
    """Check: subject. The claim's subject head is stated by the reference claim
    (``pair.head_covered``; see ``subject_head``): the head itself, a short form of its name
    ("the DNC"), or another word of its name when the reference's subject is no other name;
    another adjective on the head ("The old bridge" for "The new bridge") is another subject."""
    r, c = x.r, x.c
    heads = subject_heads(r.text)
    if not heads:
        return

    def stated(h: str) -> bool:
        return any(token_match(h, t) for t in x.c_stems) or h in x.c_words

    short = any(heads[0] in content_tokens(e) and entity_key(e) in x.names_c for e, _, _ in r.entities)
    pair.head_covered = (
        stated(heads[0]) or short or (any(stated(h) for h in heads[1:]) and not named_subject(c.text))
    )
    mod = subject_modifier(r.text)
    if pair.head_covered and mod and not stated(mod) and other_modifier(c.text, heads[0], mod):
        pair.head_covered = False


def _check_entities(pair: Pair, x: Context) -> None:
    """Check: entities. Which of the claim's names the reference claim states (in full or in
    short), which it lacks (weak sentence-initial words excepted), which names it adds, and how
    much of the claim's predicate (its words other than names) it covers."""
    r, c = x.r, x.c
    r_words, names_r = lower_words(r.text), name_keys(r.text)
    pair.entities_extra = [
        e
        for e, s, en in c.entities
        if not entity_present(e, r_words, r.tokens, names_r) and not is_weak_entity(c.text, (e, s, en))
    ]
    # a rival name (not a code such as "E39") in the reference: the claim's names must then be
    # stated by the words that tell them apart ("Marit Larsen" / "Marit Olsen")
    strict = any(not re.search(r"\d", e) for e in pair.entities_extra)
    for ent_t in r.entities:
        ent = ent_t[0]
        if entity_present(ent, x.c_words, x.c_stems, x.names_c, strict=strict) or alias_stated(
            r.text, ent_t[1], ent_t[2], x.c_words, x.c_stems
        ):
            pair.stated.add("e:" + ent.lower())
            pair.entities_present.append(ent)
        elif not is_weak_entity(r.text, ent_t):
            pair.entities_missing.append(ent)
    ent_tokens = set(content_tokens(" ".join(e for e, _, _ in r.entities)))
    predicate = [t for t in x.r_tokens if t not in ent_tokens]
    pair.predicate_coverage, pair.predicate_size = event_coverage(predicate, x.c_stems)
    pair.relative_time = bool(RELATIVE_YEAR.search(c.text))


def _check_identifiers(pair: Pair, x: Context) -> None:
    """Check: web addresses, DOIs, arXiv numbers and e-mail addresses
    (``claims.facets.identifiers``), which name one thing exactly, as a number does. Each of the
    claim's is stated when the reference claim names the same resource (``mentioned``); else an
    address of the reference claim that is none of the claim's conflicts
    ("arxiv.org/abs/2012.15730" / "doi.org/10.48550/arXiv.2302.13971"); else it is missing."""
    mine = identifiers(x.r.text)
    if not mine:
        return
    others = [o for o in identifiers(x.c.text) if not any(same_identifier(i.text, o.text) for i in mine)]
    for ident in mine:
        if mentioned(ident.text, x.c.text):
            pair.stated.add("u:" + ident.text.lower())
        elif others:
            o = others[0]
            pair.conflicts.append(Conflict("identifier", ident.text, o.text, o.start, o.end))
        else:
            pair.missing.append(ident.text)


def _check_dates(pair: Pair, x: Context) -> None:
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
    for d in x.r.dates:
        key = "d:" + d.text.lower()
        mine = time_points(x.r.text, (), [d])
        if mine and mine[0].bound:
            check_time_bound(pair, x, mine[0], key)
            continue
        if any(date_states(d, e) for e in c.dates if not bounded_in_reference(x, e.start)):
            pair.stated.add(key)
            pair.dated |= x.dateline
            continue
        points = [e for e in c.dates if not bounded_in_reference(x, e.start)] if not x.dateline else []
        points, outside = month_range_check(x, d, points)
        clash = next(((part, e) for e in points if (part := date_conflict(d, e))), None)
        if clash is None and d.year is not None:
            if d.month is not None and any(
                e.year is None and e.month == d.month and (d.day is None or e.day == d.day) for e in c.dates
            ):
                pair.stated.add(key + MONTH_DAY)
            if x.dateline and any(values_equal(y.raw, d.year) for y in c_years):
                pair.stated.add(key + YEAR)
                pair.dated = True
        past = reference_bound_conflict(x, mine[0]) if mine else None
        if past is not None:
            pair.conflicts.append(past)
        elif outside is not None and not relative_time(x):
            pair.conflicts.append(outside)
        elif clash is not None and not relative_time(x):
            part, e = clash
            pair.conflicts.append(
                Conflict("date" if part != "year" else "year", d.text, e.text, e.start, e.end)
            )
        else:
            pair.missing.append(d.text)


def _check_polarity(pair: Pair, x: Context) -> None:
    """Check: polarity (``check_polarity``)."""
    check_polarity(pair, x.r, x.c, x.r_tokens)


def _check_predicate(pair: Pair, x: Context) -> None:
    """Check: predicate, object and other slots (``predicate_swap_of``, ``object_swap_of``,
    ``slots.slot_swap``), and the converse of the claim's relation (``roles.converse_relation``)."""
    pair.predicate_swap = predicate_swap_of(x.r, x.c, x.r_tokens, pair.tokens_covered, x.clause)
    if pair.predicate_swap is None and pair.coverage < 1.0:
        pair.object_swap = object_swap_of(x.r, x.c, pair.tokens_covered, x.clause) or slot_swap(
            x.r, x.clause_text, x.clause[0], pair.tokens_covered
        )
    elif pair.predicate_swap is None:
        pair.object_swap = converse_relation(pair, x.r, x.c)


def _check_antonyms(pair: Pair, x: Context) -> None:
    """Check: antonym, comparative and negative prefix (``lexical.antonym_flip``; antonyms of two
    occasions are another action: ``pair.predicate_swap``), and a state given as current that
    the reference says has ended (``lexical.ended_state``)."""
    found = antonym_flip(x.r, x.clause_text, x.clause_facets, x.clause[0], x.r_tokens)
    if found is not None and found[0].kind == "predicate":  # antonyms of two occasions
        pair.predicate_swap = pair.predicate_swap or found[0]
    elif found is not None:
        pair.comparative_flip, pair.flip_coverage = found
        return
    ended = ended_state(x.r.text, x.c.text)
    if ended is not None:
        # a role or state that has ended ("the former CEO", "was CEO until 2019"); the
        # reference's own past words are no words the claim lacks
        word, theirs, s, e = ended
        pair.comparative_flip = Conflict("ended", word, theirs, s, e)
        pair.flip_coverage, _ = coverage_of(x.r_tokens, x.c_stems)


def _check_hedges(pair: Pair, x: Context) -> None:
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
        pair.hedge_dropped = (h[0], h[1], cs + h[2], cs + h[3])
        return


def _check_degree(pair: Pair, x: Context) -> None:
    """Check: quantifier and degree (``claims.verdict.degree``). Quantifiers that exclude each
    other ("few" / "most") are a flip. A universal claim against a weaker quantifier ("all" /
    "some"), and "the largest" against "one of the largest", drop a qualification; another rank
    of the same superlative ("the largest" / "the second largest") is a flip. A stronger
    claim ("most" / "some") and a superlative the reference does not grade ("the most
    effective" / "an effective") are missing; such a gap stands against the learned decision
    (``degree_gap``)."""
    found = compare_quantifiers(x.r.text, x.clause_text)  # the clause: "Few own bicycles, but most own cars"
    if found is not None:
        kind, q, o = found
        o = replace(o, start=o.start + x.clause[0], end=o.end + x.clause[0])
        if kind == "conflict" and pair.comparative_flip is None:
            pair.comparative_flip = Conflict("quantifier", q.word, o.word, o.start, o.end)
            own = set(content_tokens(q.word))  # "rarely" itself is no word the reference must cover
            # covered by the clause itself: "Few own bicycles, but most own cars" is no flip of
            # "Most own cars"
            pair.flip_coverage, _ = coverage_of(
                [t for t in x.r_tokens if t not in own], content_tokens(x.clause_text)
            )
        elif kind == "qualified" and pair.hedge_dropped is None:
            pair.hedge_dropped = ("quantifier", o.word, o.start, o.end)
        elif kind == "missing":
            pair.missing.append(q.word)
            pair.degree_gap = True
    ranked = superlative_rank(x.r.text, x.c.text) if pair.comparative_flip is None else None
    if ranked is not None:
        # "the largest" / "the second largest": another rank of the same superlative
        pair.comparative_flip = Conflict("rank", ranked[0], ranked[1], ranked[2], ranked[3])
        own = set(content_tokens(f"{ranked[0]} {ranked[1]}"))
        pair.flip_coverage, _ = coverage_of([t for t in x.r_tokens if t not in own], content_tokens(x.c.text))
    one_of = one_of_dropped(x.r.text, x.c.text) if pair.hedge_dropped is None else None
    if one_of is not None:
        pair.hedge_dropped = ("limited", *one_of)
    superlative = superlative_missing(x.r.text, x.c.text)
    if superlative is not None:
        pair.missing.append(superlative)
        pair.degree_gap = True


def _check_office(pair: Pair, x: Context) -> None:
    """Check: the office a title names (``claims.verdict.offices``). Another office ("president"
    / "vice president") is a flip; a qualification of the reference's office the claim drops
    ("CEO" / "acting CEO") drops a qualification; a qualification the claim adds ("acting CEO" /
    "CEO"), and an office the reference says of another time, holder or scope ("is president" /
    "was vice president until 2016"), is missing and stands against the learned decision
    (``degree_gap``)."""
    found = office_change(x.r.text, x.c.text)
    if found is None:
        return
    if found.kind == "other" and pair.comparative_flip is None:
        pair.comparative_flip = Conflict(
            "office", found.claim_words, found.reference_words, found.start, found.end
        )
        own = set(content_tokens(f"{found.claim_words} {found.reference_words}"))
        pair.flip_coverage, _ = coverage_of([t for t in x.r_tokens if t not in own], x.c_stems)
    elif found.kind == "qualified" and pair.hedge_dropped is None:
        pair.hedge_dropped = ("office", found.reference_words, found.start, found.end)
    elif found.kind in ("more", "unstated"):
        pair.missing.append(found.claim_words)
        pair.degree_gap = True


def _keep_clause_conflicts(pair: Pair, x: Context) -> None:
    """A different value outside the clause that covers the claim (widened over value-only
    clauses, ``widen``) belongs to another statement: the claim's value is then simply not
    stated (missing), never a conflict. Dates and addresses are exempt (an address's own
    brackets or punctuation split no clause: "wiki/Mercury_(element)")."""
    pair.subject_coverage = max(pair.coverage, x.clause_coverage, event_coverage(x.r_tokens, x.c_stems)[0])
    ws, we = widen(x.c.text, *x.clause)
    inside = [k for k in pair.conflicts if ws <= k.start and k.end <= we or k.kind in ("date", "identifier")]
    pair.missing.extend(k.response_value for k in pair.conflicts if k not in inside)
    pair.conflicts = inside


#: the checks of one (claim, reference claim) pair, run in this order by ``compare_facets``; each
#: reads the context and records its findings on the pair
PAIR_CHECKS: tuple[Callable[[Pair, Context], None], ...] = (
    _check_subject_head,
    _check_entities,
    check_quantities,
    _check_identifiers,
    _check_dates,
    check_relative_time,
    _check_polarity,
    _check_predicate,
    _check_antonyms,
    _check_hedges,
    _check_degree,
    _check_office,
    _keep_clause_conflicts,
)


def compare_facets(r: Facets, c: Facets, cos: float, j: int) -> Pair:
    """Compare the claim's facets ``r`` with the reference claim's ``c`` (cosine ``cos``, index
    ``j``): every check of ``PAIR_CHECKS`` in turn."""
    x = context_of(r, c)
    coverage, covered = coverage_of(x.r_tokens, x.c_stems)
    pair = Pair(j=j, cos=cos, coverage=coverage, subject_coverage=coverage, tokens_covered=covered)
    for check in PAIR_CHECKS:
        check(pair, x)
    return pair
