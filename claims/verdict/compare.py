"""One (claim, reference claim) pair compared: the checks of ``_PAIR_CHECKS`` run in one loop.

Part of ``claims.verdict`` (see its docstring for the method)."""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import dataclass, replace

from claims.facets import (
    Facets,
    Quantity,
    content_spans,
    content_tokens,
    extract,
    is_weak_entity,
    quantity_matches,
    slots_compatible,
    token_match,
    values_equal,
    year_matches,
    year_overlaps,
)
from claims.verdict.clause_checks import _object_swap, _polarity, _predicate_swap
from claims.verdict.degree import compare_quantifiers, one_of_dropped, superlative_missing, superlative_rank
from claims.verdict.events import event_coverage
from claims.verdict.findings import _MONTH_DAY, _YEAR, _Conflict, _Pair
from claims.verdict.lexical import antonym_flip, ended_state
from claims.verdict.names import _entity_key, _entity_present, _lower_words, _name_keys, alias_stated
from claims.verdict.rivals import _approximation_rival, _both_currencies, _ordinal_rival
from claims.verdict.slots import slot_swap
from claims.verdict.text import (
    _best_clause,
    _coverage,
    _named_subject,
    _other_modifier,
    _widen,
    subject_heads,
    subject_modifier,
)
from claims.verdict.values import (
    _RELATIVE_YEAR,
    _bound_year,
    _date_conflict,
    _date_states,
    _is_dateline,
    _ordinal_word,
    _range_relation,
    _range_span,
    _stated_dimensions,
    _value_kind,
    _word_tokens,
    _year_like,
)


@dataclass(frozen=True)
class _Context:
    """What every check of one (claim, reference claim) pair reads: both facets, the claim's
    word tokens (values excluded), the reference's stems (with the dimensions its values
    state), its lower-case words and name keys, and the clause of the reference that covers
    the claim best (``_best_clause``)."""

    r: Facets
    c: Facets
    r_tokens: list[str]
    c_stems: list[str]
    c_words: frozenset[str]
    names_c: frozenset[str]
    dateline: bool
    clause: tuple[int, int]
    clause_coverage: float

    @property
    def clause_text(self) -> str:
        return self.c.text[self.clause[0] : self.clause[1]]

    @property
    def clause_facets(self) -> Facets:
        text = self.clause_text
        return extract(text) if text != self.c.text else self.c


def _context(r: Facets, c: Facets) -> _Context:
    # values (numbers, dates with their month names) are compared as facets, not as words
    r_tokens = _word_tokens(r)
    cs, ce, ccov = _best_clause(r_tokens, c.text)
    return _Context(
        r,
        c,
        r_tokens,
        c.tokens + _stated_dimensions(r, c),
        _lower_words(c.text),
        _name_keys(c.text),
        _is_dateline(c.text),
        (cs, ce),
        ccov,
    )


def _check_subject_head(pair: _Pair, x: _Context) -> None:
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

    short = any(heads[0] in content_tokens(e) and _entity_key(e) in x.names_c for e, _, _ in r.entities)
    pair.head_covered = (
        stated(heads[0]) or short or (any(stated(h) for h in heads[1:]) and not _named_subject(c.text))
    )
    mod = subject_modifier(r.text)
    if pair.head_covered and mod and not stated(mod) and _other_modifier(c.text, heads[0], mod):
        pair.head_covered = False


def _check_entities(pair: _Pair, x: _Context) -> None:
    """Check: entities. Which of the claim's names the reference claim states (in full or in
    short), which it lacks (weak sentence-initial words excepted), which names it adds, and how
    much of the claim's predicate (its words other than names) it covers."""
    r, c = x.r, x.c
    r_words, names_r = _lower_words(r.text), _name_keys(r.text)
    pair.entities_extra = [
        e
        for e, s, en in c.entities
        if not _entity_present(e, r_words, r.tokens, names_r) and not is_weak_entity(c.text, (e, s, en))
    ]
    # a rival name (not a code such as "E39") in the reference: the claim's names must then be
    # stated by the words that tell them apart ("Marit Larsen" / "Marit Olsen")
    strict = any(not re.search(r"\d", e) for e in pair.entities_extra)
    for ent_t in r.entities:
        ent = ent_t[0]
        if _entity_present(ent, x.c_words, x.c_stems, x.names_c, strict=strict) or alias_stated(
            r.text, ent_t[1], ent_t[2], x.c_words, x.c_stems
        ):
            pair.stated.add("e:" + ent.lower())
            pair.entities_present.append(ent)
        elif not is_weak_entity(r.text, ent_t):
            pair.entities_missing.append(ent)
    ent_tokens = set(content_tokens(" ".join(e for e, _, _ in r.entities)))
    predicate = [t for t in x.r_tokens if t not in ent_tokens]
    pair.predicate_coverage, pair.predicate_size = event_coverage(predicate, x.c_stems)
    pair.relative_time = bool(_RELATIVE_YEAR.search(c.text))


def _years_of(c: Facets) -> list[Quantity]:
    """The reference claim's years: year quantities and the years of its dates."""
    return [q for q in c.quantities if _year_like(q)] + [
        Quantity(float(d.year), float(d.year), "year", "", d.text, d.start, d.end) for d in c.dates if d.year
    ]


def _check_year(pair: _Pair, x: _Context, q: Quantity, c_years: list[Quantity]) -> None:
    """Check: year. Stated by the same year or range; only point years conflict, and only
    with point years that share no year with it."""
    if any(year_matches(q, y) for y in c_years):
        pair.stated.add("q:" + q.text.lower())
        pair.dated |= x.dateline and any(e.year == q.raw and e.month is not None for e in x.c.dates)
        return
    rivals = [y for y in c_years if not q.loose and not y.loose and not year_overlaps(q, y)]
    if rivals and not any(year_overlaps(q, y) for y in c_years):
        y = rivals[0]
        pair.conflicts.append(_Conflict("year", q.text, y.text, y.start, y.end))
    else:
        pair.missing.append(q.text)


def _check_range(pair: _Pair, x: _Context, q: Quantity) -> bool:
    """Check: range membership (``_range_relation``). True when it decided the value: inside a
    stated range it is missing (not stated, not contradicted), outside it conflicts."""
    relation, o = _range_relation(q, x.c)
    if relation == "inside":
        pair.missing.append(q.text)
        return True
    if relation == "outside" and o is not None:
        s, e = _range_span(x.c, o)
        pair.conflicts.append(_Conflict("range", q.text, x.c.text[s:e], s, e))
        return True
    return False


#: the words of a bound right before its value ("over", "fewer than"), for the reason
_BOUND_WORDS = re.compile(
    r"\b(up to|at most|no more than|(?:a )?maximum of|less than|fewer than|under|below|at least|"
    r"(?:a )?minimum of|more than|over|above|in excess of)\s*$",
    re.I,
)


def _narrower(x: _Context, q: Quantity, o: Quantity) -> bool:
    """The reference counts a narrower kind than the claim: a word between its number and the
    claim's counted noun that the claim lacks ("18 gold medals" against "over 20 medals")."""
    if not q.slot.startswith("n:"):
        return False
    words = content_spans(x.c.text[o.end : o.end + 60])
    noun = next((k for k, (t, _, _) in enumerate(words) if token_match(t, q.slot[2:])), None)
    return noun is not None and any(t not in x.r_tokens for t, _, _ in words[:noun])


def _check_bound(pair: _Pair, x: _Context, q: Quantity) -> bool:
    """Check: a bound of the claim ("over $10 million", "fewer than 500 patients") against the
    reference's point values of the same slot. A point past the bound conflicts ("$9.8
    million"); one inside is no conflict (``quantity_matches`` states "over"/"below"/"at least"
    by it, not "up to", which also says the most there can be). True when it found a conflict."""
    if q.bound not in ("above", "atleast", "below", "upto") or q.interval is None:
        return False
    points = [
        o
        for o in x.c.quantities
        if not o.bound
        and not _year_like(o)
        and (not o.slot or slots_compatible(q, o) or _both_currencies(q, o))
    ]
    if not points:
        return False
    lo, hi = q.interval
    strict = q.bound in ("above", "below")
    inside = [o for o in points if (lo < o.value < hi if strict else lo <= o.value <= hi)]
    if inside or len(points) > 1 or _narrower(x, q, points[0]):
        # several values, or a narrower count, may be parts of the total ("over 20 medals" /
        # "18 gold medals and 7 silver medals")
        return False
    o = points[0]
    words = _BOUND_WORDS.search(x.r.text, 0, q.start)
    bound = f"{words.group(1)} {q.text}" if words else q.text
    pair.conflicts.append(_Conflict("bound", bound, o.text, o.start, o.end))
    return True


def _check_year_binding(pair: _Pair, x: _Context, q: Quantity, q_year: float) -> None:
    """Check: a value bound to a year. The value is there but bound to another year: the
    number of that year in the reference (same slot) conflicts; without one the claim's
    pairing is not stated."""
    c = x.c
    bound = [
        o
        for o in c.quantities
        if not _year_like(o) and slots_compatible(q, o) and _bound_year(c, o) == q_year
    ]
    if bound and not q.loose and not bound[0].loose:
        o = bound[0]
        kind = _value_kind(q, o)
        pair.conflicts.append(
            _Conflict(kind, f"{q.text} in {q_year:g}", f"{o.text} in {q_year:g}", o.start, o.end)
        )
    else:
        pair.missing.append(f"{q.text} in {q_year:g}")


def _check_value(pair: _Pair, x: _Context, q: Quantity) -> None:
    """Check: quantity (not a year). Stated by an equal value of the slot (bound to the same
    year); else a range decides (``_check_range``); else another exact value of the slot
    conflicts; else the value is missing. An ordinal is compared only where the reference
    states an ordinal, and an ordinal word only ever states (``_ordinal_word``)."""
    c = x.c
    if q.ordinal and not any(o.ordinal for o in c.quantities):
        return
    same = [o for o in c.quantities if not _year_like(o) and quantity_matches(q, o)]
    rival = None if same or not q.ordinal else _ordinal_rival(x.r.text, q, c)
    if rival is not None:
        pair.conflicts.append(_Conflict("ordinal", q.text, rival.text, rival.start, rival.end))
        return
    if _ordinal_word(q) and not same:
        return
    if _check_bound(pair, x, q):
        return
    if not same and _check_range(pair, x, q):
        return
    q_year = _bound_year(x.r, q)
    if same and (q_year is None or any(_bound_year(c, o) in (None, q_year) for o in same)):
        pair.stated.add("q:" + q.text.lower())
        return
    if same and q_year is not None:
        _check_year_binding(pair, x, q, q_year)
        return
    rivals = [
        o
        for o in c.quantities
        if (slots_compatible(q, o) or q.slot == o.slot == "time" or _both_currencies(q, o))
        and ((not q.loose and not o.loose) or _approximation_rival(x.r.text, q, x.c.text, o))
    ]
    if rivals:
        o = rivals[0]
        unit_only = values_equal(q.raw, o.raw) and q.unit != o.unit
        pair.conflicts.append(
            _Conflict(_value_kind(q, o), q.text, o.text, o.start, o.end, unit_only=unit_only)
        )
    else:
        pair.missing.append(q.text)


def _check_quantities(pair: _Pair, x: _Context) -> None:
    """Check: quantities and years, one per value of the claim (``_check_year``,
    ``_check_value``)."""
    c_years = _years_of(x.c)
    for q in x.r.quantities:
        if _year_like(q):
            _check_year(pair, x, q, c_years)
        else:
            _check_value(pair, x, q)


def _check_dates(pair: _Pair, x: _Context) -> None:
    """Check: dates, part by part (``_date_states``, ``_date_conflict``). A dateline's date is
    the report's, not the event's: it never conflicts. A date may be stated in parts: its
    month and day by a year-less date ("November 2"), its year by the report's dateline;
    ``_infer`` joins the parts. Alone, either part leaves the date missing, never a conflict."""
    c = x.c
    c_years = _years_of(c)
    for d in x.r.dates:
        key = "d:" + d.text.lower()
        if any(_date_states(d, e) for e in c.dates):
            pair.stated.add(key)
            pair.dated |= x.dateline
            continue
        clash = next(
            ((part, e) for e in (c.dates if not x.dateline else ()) if (part := _date_conflict(d, e))), None
        )
        if clash is None and d.year is not None:
            if d.month is not None and any(
                e.year is None and e.month == d.month and (d.day is None or e.day == d.day) for e in c.dates
            ):
                pair.stated.add(key + _MONTH_DAY)
            if x.dateline and any(values_equal(y.raw, d.year) for y in c_years):
                pair.stated.add(key + _YEAR)
                pair.dated = True
        if clash is not None:
            part, e = clash
            pair.conflicts.append(
                _Conflict("date" if part != "year" else "year", d.text, e.text, e.start, e.end)
            )
        else:
            pair.missing.append(d.text)


def _check_polarity(pair: _Pair, x: _Context) -> None:
    """Check: polarity (``_polarity``)."""
    _polarity(pair, x.r, x.c, x.r_tokens)


def _check_predicate(pair: _Pair, x: _Context) -> None:
    """Check: predicate, object and other slots (``_predicate_swap``, ``_object_swap``,
    ``slots.slot_swap``)."""
    pair.predicate_swap = _predicate_swap(x.r, x.c, x.r_tokens, pair.tokens_covered, x.clause)
    if pair.predicate_swap is None and pair.coverage < 1.0:
        pair.object_swap = _object_swap(x.r, x.c, pair.tokens_covered, x.clause) or slot_swap(
            x.r, x.clause_text, x.clause[0], pair.tokens_covered
        )


def _check_antonyms(pair: _Pair, x: _Context) -> None:
    """Check: antonym, comparative and negative prefix (``lexical.antonym_flip``), and a state
    given as current that the reference says has ended (``lexical.ended_state``)."""
    found = antonym_flip(x.r, x.clause_text, x.clause_facets, x.clause[0], x.r_tokens)
    if found is not None:
        pair.comparative_flip, pair.flip_coverage = found
        return
    ended = ended_state(x.r.text, x.c.text)
    if ended is not None:
        # a role or state that has ended ("the former CEO", "was CEO until 2019"); the
        # reference's own past words are no words the claim lacks
        word, theirs, s, e = ended
        pair.comparative_flip = _Conflict("ended", word, theirs, s, e)
        pair.flip_coverage, _ = _coverage(x.r_tokens, x.c_stems)


def _check_hedges(pair: _Pair, x: _Context) -> None:
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


def _check_degree(pair: _Pair, x: _Context) -> None:
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
            pair.comparative_flip = _Conflict("quantifier", q.word, o.word, o.start, o.end)
            own = set(content_tokens(q.word))  # "rarely" itself is no word the reference must cover
            # covered by the clause itself: "Few own bicycles, but most own cars" is no flip of
            # "Most own cars"
            pair.flip_coverage, _ = _coverage(
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
        pair.comparative_flip = _Conflict("rank", ranked[0], ranked[1], ranked[2], ranked[3])
        own = set(content_tokens(f"{ranked[0]} {ranked[1]}"))
        pair.flip_coverage, _ = _coverage([t for t in x.r_tokens if t not in own], content_tokens(x.c.text))
    one_of = one_of_dropped(x.r.text, x.c.text) if pair.hedge_dropped is None else None
    if one_of is not None:
        pair.hedge_dropped = ("limited", *one_of)
    superlative = superlative_missing(x.r.text, x.c.text)
    if superlative is not None:
        pair.missing.append(superlative)
        pair.degree_gap = True


def _keep_clause_conflicts(pair: _Pair, x: _Context) -> None:
    """A different value outside the clause that covers the claim (widened over value-only
    clauses, ``_widen``) belongs to another statement: the claim's value is then simply not
    stated (missing), never a conflict."""
    pair.subject_coverage = max(pair.coverage, x.clause_coverage, event_coverage(x.r_tokens, x.c_stems)[0])
    ws, we = _widen(x.c.text, *x.clause)
    inside = [k for k in pair.conflicts if ws <= k.start and k.end <= we or k.kind == "date"]
    pair.missing.extend(k.response_value for k in pair.conflicts if k not in inside)
    pair.conflicts = inside


#: the checks of one (claim, reference claim) pair, run in this order by ``_compare``; each
#: reads the context and records its findings on the pair
_PAIR_CHECKS: tuple[Callable[[_Pair, _Context], None], ...] = (
    _check_subject_head,
    _check_entities,
    _check_quantities,
    _check_dates,
    _check_polarity,
    _check_predicate,
    _check_antonyms,
    _check_hedges,
    _check_degree,
    _keep_clause_conflicts,
)


def _compare(r: Facets, c: Facets, cos: float, j: int) -> _Pair:
    """Compare the claim's facets ``r`` with the reference claim's ``c`` (cosine ``cos``, index
    ``j``): every check of ``_PAIR_CHECKS`` in turn."""
    x = _context(r, c)
    coverage, covered = _coverage(x.r_tokens, x.c_stems)
    pair = _Pair(j=j, cos=cos, coverage=coverage, subject_coverage=coverage, tokens_covered=covered)
    for check in _PAIR_CHECKS:
        check(pair, x)
    return pair
