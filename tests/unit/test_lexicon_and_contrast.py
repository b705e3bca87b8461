"""The lexicon (``claims.lexicon``, ``claims/data/lexicon.tsv``), the opposites, negation, roles
and order check (``claims.verdict.counterparts``) and the behavioural suite's edits
(``tools/contrast_edits.py``).

The sample ``tests/data/contrast_sample.jsonl`` holds edits the suite generates from 13
hand-written supported pairs (one reference each; written for these tests): every contrast edit
must come out ``contradicted`` and every invariance edit must keep the original's ``supported``.
Before the counterpart check, 11 of its 35 rows failed (an opposite adverb, an opposite verb,
"from A to B" reversed, operands swapped, an opposite comparative, "not closed" for "open",
"not able" for "unable", "not unable" for "unable", converse comparatives and kinship terms).
"""

from __future__ import annotations

import importlib.util
import json
from pathlib import Path
from typing import Any

import numpy as np
import pytest

from claims import lexicon
from claims.embed import CachedEmbedder, InMemoryEmbeddingCache, default_embedder
from claims.types import Claim, ReferenceClaim, Verdict
from claims.verdict import judge

ROOT = Path(__file__).resolve().parents[2]
SAMPLE = [json.loads(line) for line in (ROOT / "tests/data/contrast_sample.jsonl").read_text().splitlines()]


_spec = importlib.util.spec_from_file_location("contrast_suite", ROOT / "tools" / "contrast_suite.py")
assert _spec is not None and _spec.loader is not None
suite: Any = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(suite)
edits = suite.edits  # tools/contrast_edits.py, as the suite loads it


def test_lexicon_relations() -> None:
    """WordNet 3.0: direct ("quickly" / "slowly"), indirect through a similar-to cluster ("rapid"
    / "slow"), derived adverbs ("rapidly" / "slowly"); converses written for claimaudit;
    complementary against gradable; synonyms of the first sense ("big" / "large")."""
    assert "slow" in [o.word for o in lexicon.opposites("rapid")]
    assert "slowly" in [o.word for o in lexicon.opposites("rapidly")]
    assert "slowly" in [o.word for o in lexicon.opposites("quickly")]
    assert "sold" in lexicon.converses("bought") and "child" in lexicon.converses("parent")
    assert "shallower" in lexicon.converses("deeper") and "below" in lexicon.converses("above")
    assert lexicon.complementary("open", "closed") and lexicon.complementary("alive", "dead")
    assert not lexicon.complementary("hot", "cold")
    assert "large" in lexicon.synonyms("big")
    assert lexicon.opposites("zzz") == () and lexicon.converses("zzz") == ()
    # synset-mates of a direct antonym: "well" / "ill" in the synset "ill, badly, poorly"
    assert "well" in [o.word for o in lexicon.opposites("poorly")]
    assert lexicon.opposites("poorly")[0].source in ("wordnet", "wordnet-synset")


def test_one_source_of_opposites() -> None:
    """The engine's tables and the planted faults read the lexicon: every pair of the hand list
    is in it, and every word the perturbations flip has its opposite there."""
    from claims.facets.vocabulary import ANTONYMS, WORDNET_ANTONYMS
    from claims.perturb import ANTONYMS as PLANTED

    assert all(o in {x.word for x in lexicon.opposites(w)} for w, os in ANTONYMS.items() for o in os)
    assert all(o in {x.word for x in lexicon.opposites(w)} for w, os in WORDNET_ANTONYMS.items() for o in os)
    assert PLANTED and all(PLANTED[w] in {x.word for x in lexicon.opposites(w)} for w in PLANTED)


def test_registry_refuses_bad_kinds() -> None:
    with pytest.raises(ValueError, match="family"):
        edits.edit_kind("x", "other")
    with pytest.raises(ValueError, match="twice"):
        edits.edit_kind("opposite", "contrast")(lambda doc: edits.Skip("x"))


@pytest.mark.parametrize("row", SAMPLE, ids=[f"{r['kind']}: {r['response']}" for r in SAMPLE])
def test_edits_are_generated(row: dict[str, Any]) -> None:
    """Each sample edit is what its kind makes of the original (the parse places it)."""
    got = edits.generate(row["original"], [row["kind"]])[row["kind"]]
    assert isinstance(got, edits.Edit) and got.text == row["response"]


@pytest.fixture(scope="module")
def embedder() -> Any:
    return CachedEmbedder(default_embedder(), InMemoryEmbeddingCache())


@pytest.mark.parametrize("row", SAMPLE, ids=[f"{r['kind']}: {r['response']}" for r in SAMPLE])
def test_sample_verdicts(row: dict[str, Any], embedder: Any) -> None:
    """The whole audit in memory (``tools/inprocess_batch.py``): the original is supported; a
    contrast edit is contradicted, an invariance edit supported."""
    items = [
        {"id": "o", "response": row["original"], "references": row["references"]},
        {"id": "e", "response": row["response"], "references": row["references"]},
    ]
    original, edited = (suite.verdict(d) for d in suite.batch.run_chunk(items, embedder))
    assert original == "supported"
    want = "contradicted" if row["family"] == "contrast" else "supported"
    assert edited == want, f"{row['kind']}: {row['response']!r} -> {edited}"


HIGH = 0.93  # as tests/unit/test_verdict_checks.py: only the checks decide
C, S, U = Verdict.CONTRADICTED, Verdict.SUPPORTED, Verdict.UNSUPPORTED
ROWS = [
    # gradable opposites under negation: neither (complementary ones agree: the sample)
    ("The soup is not hot.", "The soup is cold.", U),
    # "un-X" against X
    ("The witness was able to identify the driver.", "The witness was unable to identify the driver.", C),
    # a denial against an affirmation of every word
    ("Douglas did not serve on the Supreme Court.", "Douglas served on the Supreme Court.", C),
    # the same words on another occasion are no conflict
    ("Shares rose in early trading.", "Shares fell in late trading.", U),
    # a converse with a preposition: one event told from both sides
    ("Brazil won the final against Germany.", "Germany lost the final to Brazil.", S),
    ("Germany won the final against Brazil.", "Germany lost the final to Brazil.", C),
    # symmetric verbs have no order
    ("Germany played Brazil in the final.", "Brazil played Germany in the final.", S),
    # "A over B" spelled as a ratio
    ("The ratio of women to men is 3 to 2.", "The ratio of men to women is 3 to 2.", C),
    # an adverb against its opposite through a synset-mate of WordNet ("well" / "ill, poorly");
    # U without the synset-mates (no pair in the lexicon)
    ("Copper conducts electricity poorly.", "Copper conducts electricity well.", C),
    ("Copper conducts electricity well.", "Copper conducts electricity well.", S),
    # a superlative against its opposite, the rest of the claim in other words; U when every
    # word had to be stated ("wings", "fur")
    (
        "The swift is the slowest bird with long wings.",
        "The swift is the fastest bird in level flight, with long wings and short legs.",
        C,
    ),
    # a participle against its opposite of the same subject ("found" / "lost")
    (
        "Fossils of the fern are lost in the rocks of the valley.",
        "Fossils of the fern are found in the rocks of the eastern valley.",
        C,
    ),
    # "from A to B" with "to" under "from" in the parse
    ("The ferry sails from Bergen to Stavanger.", "The ferry sails from Stavanger to Bergen.", C),
    ("The ferry sails from Stavanger to Bergen.", "The ferry sails from Stavanger to Bergen.", S),
    # subject and object of a relative clause: the noun the clause is about
    (
        "The Varga Observatory built Lena Varga in Pecs.",
        "Lena Varga was an engineer who built the Varga Observatory in Pecs.",
        C,
    ),
    # a denial against a candidate stating every noun and verb of the affirmation
    (
        "Norway did not host the Winter Olympics in 1994.",
        "Norway hosted the Winter Olympics in 1994 at Lillehammer.",
        C,
    ),
]


@pytest.mark.parametrize(("response", "reference", "want"), ROWS)
def test_counterparts(response: str, reference: str, want: Verdict) -> None:
    j = judge(
        [Claim(response, 0, len(response))],
        [ReferenceClaim(0, Claim(reference, 0, len(reference)))],
        np.array([[HIGH]]),
    )[0]
    assert j.verdict is want, j.reason
