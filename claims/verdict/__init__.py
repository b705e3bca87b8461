"""Verdicts: judge every response claim against the reference claims.

Cosine similarity only proposes candidates; facets decide. all-MiniLM-L6-v2 scores
"debut in 1991" vs "debut in 1993" about 0.9 and a true paraphrase about 0.96, so no cosine
threshold separates support from contradiction. For each material response claim we:

1. rank the material reference claims by relevance (cosine from the similarity matrix plus
   lexical overlap of content words, rapidfuzz token-set ratio) and keep the top ``TOP_K``;
2. compare facets pairwise (``claims.facets``): quantities per slot (numbers, magnitudes,
   units, percentages/fractions, ages, years, times of day), dates part by part, named
   entities (and swapped ones), negation, comparatives and hedges, on the clause of the
   reference claim that best covers the response claim;
3. decide, in this order:

   ``supported``
       one reference claim states every salient facet of the claim (numbers, dates, entities)
       with the same value, none conflicts, polarity agrees, no hedge is dropped, and either
       its cosine reaches ``SUPPORT_COSINE`` with ``SUPPORT_MIN_COVERAGE`` of the claim's
       content words (or ``SUPPORT_COSINE_HIGH`` with ``SUPPORT_MIN_COVERAGE_HIGH_COS``),
       or it covers ``COVERAGE_SUPPORT`` of them (``COVERAGE_SUPPORT_FACTS`` when
       it states the claim's numbers/dates). A passage on the same topic that does not state
       the value is not support.
   ``qualification_dropped``
       as supported, except that the reference hedges or limits what the claim states flatly
       (planned to → did, reportedly → fact, may → is, about 5 → 5, in one city → ...).
   ``contradicted``
       a reference claim about the same subject (the claim's other entities present, its
       predicate covered, ``COVERAGE_PREDICATE``, and its other numbers/dates stated) gives
       another value in the same slot and in the clause that carries the claim, another
       entity in the same role (same preceding word), the opposite polarity (a negation cue
       among the shared words of a clause mostly about the claim) or the opposite
       comparative. A different subject with a different value, a year of another event, a
       bound ("before 1492") or an approximation ("about 40") is *not* a contradiction.
   Support and contradiction are weighed together: a support is void when a candidate
   that covers ``SUBJECT_MARGIN`` more of the claim's words (the same subject and slot)
   contradicts it. A support also needs the claim's subject head (``subject_head``) in the
   reference claim (the head noun: "The busy centre" is about the centre, unless the
   reference claim puts another modifier on it, "The old bridge" for "The new bridge"; a noun
   modifier picks out the subject: "the oxygen atom" is about the oxygen); another proper noun
   as subject head with every other word equal
   ("Lyon is the capital of France" vs "Paris ...") and swapped roles around the same
   relation word ("Brazil beat Germany" vs "Germany beat Brazil") are entity conflicts.
   A number is bound to the nearest year in its clause ("120 employees in 2020"), so the
   same numbers under other years conflict.
   ``inferred``
       no single reference claim suffices, but two or more together state every facet and
       cover the content words (all are listed as evidence). Candidates need a cosine of 0.3,
       except a reference claim that states the claim's year or date with a calendar date: a
       dateline ("May 20, 2019") dates the report it heads, and its cosine with any claim is
       low (0.17 with "... head coach since 2019"); it joins on the value. A date may be
       stated in parts: its month and day by a year-less date ("from March 4th"), its year by
       another claim (the dateline). A dateline (``is_dateline``: a calendar date and at most
       one other word) gives the report's date, so its date never conflicts with the claim's.
   ``unsupported``
       otherwise (the nearest reference claims are listed as evidence for display only).
   ``outside_scope``
       ``claim.kind == outside_scope``.

Checks of one (claim, reference claim) pair: each a public or module function of one
signature, ``check(x: Context, prior: Pair) -> tuple[Finding, ...]`` (``compare.Check``),
listed in one registry, ``compare.PAIR_CHECKS`` (the value checks, then the word checks, which
read the value checks' findings). A ``Finding`` is frozen: a ``FindingKind``, a ``Stance``
(agree, conflict, unstated, extra), the two values and the reference value's span. No check
writes into a shared record: ``pairs.fold`` turns the findings into the frozen ``Pair`` the
verdict steps read, with the precedence between findings (the first flip, swap or dropped
qualifier in the registry's order) and the clause scope of value conflicts (``in_clause``)
in one place. The checks by family:

* values (``quantity_checks``): quantities per slot, years (a value bound to its year), dates part by
  part, range membership (``values.range_relation``: a value, a range end or a reached
  maximum outside the range or bound the reference states is contradicted; inside is only
  not stated), another currency for the same amount (``rivals.both_currencies``: "$45" /
  "€45"), ordinals (another ordinal, words or digits, in the same slot or next to the
  same content word conflicts: ``rivals.ordinal_rival``); bounds from opposite sides with no
  value in common ("over 18" / "under 18") conflict, a tighter bound states a looser one;
* value slots (``value_slots``, checked before the verdict steps, over every material reference
  claim, not only the nearest): a year, date, number with a slot, ordinal or name of the claim
  whose slot (the word it depends on in the parse, the same role for a name, the claim's other
  words with the values masked) the evidence states with one other value -> contradicted; where
  no reference claim holds the words of the value's clause, an aligned pass sets the claim with
  its values masked against every reference claim with its values masked (``value_slots.align``);
  the same value after normalisation, several values (a list, a range, two statements), a bound,
  an approximation that may round the other value (not "about 1.3 million" / "1.2 million"),
  another event (a count of another year) or a place after a preposition of place is no conflict;
* polarity (``clause_checks.check_polarity``): denying frames ("It is false that", "There is no
  evidence that"), "no longer", "never"; a denial contradicts only a reference that states
  the same nouns affirmatively, and a negated claim is never supported by a reference claim
  without a denial of the same things (absence is not denial, nor is a denial of something
  else: a denying clause must state ``COVERAGE_POLARITY`` of the claim's nouns, names and
  adjectives; ``denials.denial_stated``); a negation word glued to an address
  ("tessel.no/guide") is no denial;
* predicate (``clause_checks.predicate_swap_of``): another verb between the same participants,
  no synonym of ``claims/data/predicate_synonyms.txt`` ("sued" / "hired") -> unsupported;
* object (``clause_checks.object_swap_of``): the same subject and root verb with another direct
  object ("carries a railway line" / "carries two lanes of road traffic") -> unsupported; at a
  high cosine a claim none of whose predicate words (besides its names) is stated only shares
  the topic and is not supported either (``decide._supports``);
* antonym (``compare._check_antonyms``, ``claims/data/antonyms.tsv``): an opposite state,
  comparative, direction ("reduced" / "increased") or outcome ("closed" / "open") ->
  contradicted, unless another year or date makes it another event; a negated antonym
  ("did not decrease" / "increased") is a double negation and agrees;
* opposites, negation, roles and order (``counterparts``, its counterpart texts made by
  ``opposed``; the project's lexicon
  ``claims.lexicon``; checked after the verdict steps, and it decides): the claim with a word
  replaced by its opposite, or with its negation removed, stated by a reference claim with the
  same words -> contradicted; an ordered relation of the parse (converse verbs and their
  parties, "from A to B", the operands of a formula in any wording: "A divided by B", "A over
  B", "the ratio of A to B", "B minus A" (``operands``), the sides of "than", "A is the parent
  of B") held the other way round -> contradicted ("roles swapped"); an agent noun with an
  adjective is read as its verb with an adverb ("a poor conductor" / "conducts ... well":
  ``agentive``); a converse rewording, "not closed" / "open" (complementary) and "not able" /
  "unable" agree; "not hot" / "cold" (gradable) is unsupported;
* roles (``roles``): another name in the same role (also when the reference states the claim's
  name in another slot: ``roles._slot_swap``), also the agent that opens the sentence
  (attribution: "Olav Brandt proposed X" vs "Lena Varga proposed X"), and swapped roles also
  when the reference describes a party ("Tessel bought the software firm Corvin Group"), and
  around a one-way verb or a comparison (``one_way``: "Copper displaces iron" / "Iron displaces
  copper", also when the parse reads the verb as a noun);
* office (``offices``, ``claims/data/office_modifiers.tsv``): "president" / "vice president" is
  another office (contradicted), "CEO" / "acting CEO" drops a qualification;
* degree (``degree``): quantifiers, superlatives and ranks ("the largest producer" / "ranked
  third in production" is another rank);
* modality and hedge (``compare._check_hedges``);
* scores and rounding (``claims.facets.scores``, ``claims.facets.rounding``): "7-0" / "7-1" are
  two values of the slot ``score``; "2.1 million" states what it rounds (2,148,271), and an
  approximation that misses a point value by more than its step and 10 % conflicts
  (``rivals.approximation_rival``: "about 3.4 million" / 2,148,271);
* label-style claims (``claims.labels``): "HQ: Bergen" is judged (and embedded) as "headquartered
  in Bergen.", so attribute and value meet the reference's predicate and value;
* key-value claims (``key_values``): "Oslo, population: 291,000." (a table row, a list item, a
  JSON leaf) is judged first against the reference claims about its subject that state the
  label's predicate with a value in its slot: the same value -> supported, another point value
  -> contradicted, though the value is stated of another subject (a swapped row); a subjectless
  "Population: 8,400." against every reference claim, after the other steps;
* names in lower case (``recase``): "in sydney" is "in Sydney"; in a claim written in lower case
  the words in the slot of a reference's name are a name ("in melbourne" / "in Sydney");
* subject of the evidence: an inference needs its value-giving claims about the claim's subject
  (``infer._about_subject``), and a subject swap is void when the references name the claim's
  subject elsewhere (``contradictions._distractor_free``: a distractor, not a rival).

Every numeric threshold is a field of ``THRESHOLDS`` (``thresholds.Thresholds``).

A name is stated by its initialism and the other way round ("the DNC" names the Democratic
National Committee).

Evidence of a supported / inferred verdict is exactly the supporting reference claims (the
recall of ``claims.score`` counts them); a contradicted / qualification_dropped verdict cites
the conflicting reference claim first.

Calibration (dev sets only; ``../shared/eval/run_label_eval.py``): the support constants
were set on Factcheck-GPT stance_dev (1,715 pairs) with the 31 shared audit cases as hard
constraints (all must pass), and checked on WiCE claims_dev (349 claims). Support takes one
of two tiers: cosine >= ``SUPPORT_COSINE`` (0.60) with ``SUPPORT_MIN_COVERAGE`` (0.55) of the
claim's content words, or cosine >= ``SUPPORT_COSINE_HIGH`` (0.665) with
``SUPPORT_MIN_COVERAGE_HIGH_COS`` (0.3). Balanced accuracy of "support vs rest" on stance_dev
(seed method at the default threshold 0.65: 0.665 in the same runs): single tier (0.66, 0.5)
0.659, (0.60, 0.5) 0.666, (0.66, 0.3) 0.671, (0.60, 0.0) 0.681; two tiers (0.60/0.6,
0.72/0.3) 0.661, (0.60/0.6, 0.68/0.34) 0.666, (0.60/0.55, 0.68/0.3) 0.664, (0.60/0.55,
0.665/0.3) 0.670. The more liberal settings break shared cases: a list item the reference
lacks ("has a rooftop bar" vs "has a pool": all-MiniLM-L6-v2 cosine 0.63, half the content
words) and "the bridge also carries a railway line" vs "the bridge was designed by Rosa Feld"
(cosine 0.661, 2 of 5 content words) must stay unsupported; the chosen tiers keep both out
(the second by a margin of only 0.004). The balanced accuracy weighs a missed support 3.7
times a false one on stance_dev (366 supports of 1,715), which rewards liberal support; a
careful auditor should not follow it all the way.
False contradictions are expensive to users, so every contradiction rule requires the same
subject and predicate: refute precision on stance_dev went from 0.24 to 0.43-0.50 with those
rules (recall stays low, 0.03: most gold refutations there need world knowledge, not a value
check).
"""

from __future__ import annotations

from claims.verdict.clause_checks import same_predicate
from claims.verdict.compare import PAIR_CHECKS, Check, compare_facets
from claims.verdict.decide import judge, judge_one
from claims.verdict.findings import Conflict, Finding, FindingKind, Pair, Stance
from claims.verdict.pairs import fold
from claims.verdict.text import subject_head, subject_heads, subject_modifier
from claims.verdict.thresholds import (
    COVERAGE_INFERRED,
    COVERAGE_POLARITY,
    COVERAGE_PREDICATE,
    COVERAGE_SUBJECT,
    COVERAGE_SUPPORT,
    COVERAGE_SUPPORT_FACTS,
    MIN_COS_SUPPORT,
    SUBJECT_MARGIN,
    SUPPORT_COSINE,
    SUPPORT_COSINE_HIGH,
    SUPPORT_MIN_COVERAGE,
    SUPPORT_MIN_COVERAGE_HIGH_COS,
    THRESHOLDS,
    TOP_K,
    Thresholds,
)

__all__ = [
    "judge",
    "judge_one",
    "same_predicate",
    "subject_head",
    "subject_heads",
    "subject_modifier",
    "THRESHOLDS",
    "Thresholds",
    "TOP_K",
    "SUPPORT_COSINE",
    "SUPPORT_MIN_COVERAGE",
    "SUPPORT_COSINE_HIGH",
    "SUPPORT_MIN_COVERAGE_HIGH_COS",
    "COVERAGE_SUPPORT",
    "COVERAGE_SUPPORT_FACTS",
    "MIN_COS_SUPPORT",
    "COVERAGE_SUBJECT",
    "COVERAGE_PREDICATE",
    "COVERAGE_POLARITY",
    "SUBJECT_MARGIN",
    "COVERAGE_INFERRED",
    "PAIR_CHECKS",
    "Check",
    "Conflict",
    "Finding",
    "FindingKind",
    "Pair",
    "Stance",
    "compare_facets",
    "fold",
]
