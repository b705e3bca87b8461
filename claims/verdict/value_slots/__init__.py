"""Check: a value of the claim set against every statement of its slot in the whole evidence
("made his debut in 1991" / "..., who joined Leeds in 1990, made his debut there in 1993").

Part of ``claims.verdict`` (its docstring: the method). The pairwise checks compare a claim
with its nearest reference claims as wholes; a changed value lowers that similarity, and a long
sentence stating the slot among other facts is rarely nearest. This reads every material one:

1. the claim's values (``claim_values``): years, calendar dates, numbers with a slot (unit or
   counted noun), ordinals, and names (spaCy entities of the types in ``NAME_TYPES``);
2. prefilter (numpy, all reference claims at once): a value of the same type (a year, a digit,
   a month, an ordinal, a capitalised word), the words of the value's clause other than its
   values covered to ``MIN_CONTEXT`` by the reference claim's, the other names of that clause
   all in it (a clause of fewer than ``align.MIN_CLAUSE_WORDS`` words, "In 2004,", is read with
   the clause it modifies, unless it has a verb of its own: "... and released in 2010" is read
   with the sentence's subject, ``exact.value_clause``); a reference claim whose subject is a
   pronoun ("He was released in April 2010.") holds the subjects of the claims before it
   (``antecedents``);
3. slot (``claims.parses.parse``): the word the value depends on (its preposition's head, the
   noun it counts or orders, its verb with that verb's object or complement) must be a word of
   the reference clause holding its value; for a name also the same role;
4. decision (``slot_conflict``): the slot stated with the claim's value anywhere (after
   normalisation: units, rounding, number words, date precision, a year range) -> no conflict;
   several values for the slot (a list or range in one clause, different values in different
   statements: "visited in 2003 and 2005", "in 2009 and again in 2011") -> none; exactly one
   other point value -> conflict; a bound beside the point ("returned in 2014, after serving
   ... since 2006") is no statement of a point claim's slot unless it holds the claim's year;
5. aligned pass (``align``), for a year, date, number or ordinal of which steps 2-3 find no
   statement: the claim with its values masked against every reference claim with its values
   masked; the same slot by the parse (a common word) at a lower coverage, or the one value of
   the kind on both sides on each sentence's main predicate at ``MIN_CONTEXT``; a count the
   claim dates in its own clause (not in another: "In May 2012, she was the only member who
   voted against raising the fee by 19%") needs one of its years there; decided as in 4.

The modules: ``reading`` (values, slots, agreement, the decision), ``exact`` (steps 2-4 and
``slot_conflict``), ``align`` (step 5), ``antecedents`` (what a pronoun subject may stand for),
``name_rivals`` (``rival_name``: a reference claim that fills a name's slot with another name
and names the claim's name only in another role; in the exact pass such a rival is the slot's
value, and ``claims.verdict.decide`` takes no such reference claim as support, in an inference
or alone). Not conflicts by construction: a range on either side ("around 1900", "1992–93"), an
approximation that may round the other value ("about 40" / 43; but "about 1.3 million" / "1.2
million", rounded alike and a step apart, conflict: ``rounding.approximation_misses``), a bound
against a point or a bound of another word ("before 1492" / "in 1490"; "since 1938" / "since
1941" is a conflict), a number bound to another year than the claim's (``values.bound_year``)
and a year of a count that differs (another measurement), a place name after a preposition of
place (a place is stated at several granularities: "born in Kansas" / "born in Wichita"), names
that share a word ("Kansas" / "Kansas City") or that the evidence writes as one name ("Daniel" /
"LaRusso": "Daniel LaRusso"; ``slot_names``).
"""

from claims.verdict.value_slots.exact import MIN_CONTEXT, MIN_CONTEXT_NAME, slot_conflict
from claims.verdict.value_slots.name_rivals import rival_name
from claims.verdict.value_slots.reading import NAME_TYPES, Value, claim_values

__all__ = [
    "MIN_CONTEXT",
    "MIN_CONTEXT_NAME",
    "NAME_TYPES",
    "Value",
    "claim_values",
    "rival_name",
    "slot_conflict",
]
