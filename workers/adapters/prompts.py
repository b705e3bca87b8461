"""Prompts and structured-output schemas of the LLM decomposer and judge.

Every prompt has a version; the version is part of the cache key (``llm_cache``), so editing
a prompt without bumping its version would serve stale answers: bump it.

The decomposition prompt follows FActScore (Min et al. 2023, "FActScore: Fine-grained Atomic
Evaluation of Factual Precision in Long Form Text Generation", EMNLP; Appendix: "Please breakdown
the following sentence into independent facts") but asks once per *text*, not per sentence, and
for self-contained claims (pronouns resolved, as in SAFE, Wei et al. 2024) with a kind.
The judge prompt gives each material response claim with its top-k evidence claims (cosine
similarity from pgvector) and asks for one verdict per claim from ``claims.types.Verdict``.
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from typing import Any, Literal

from pydantic import BaseModel, ConfigDict, Field

__all__ = [
    "DECOMPOSE_PROMPT_VERSION",
    "JUDGE_PROMPT_VERSION",
    "EMBED_CACHE_VERSION",
    "DecomposedClaim",
    "Decomposition",
    "JudgedClaim",
    "JudgeOutput",
    "JudgeItem",
    "decompose_messages",
    "judge_messages",
    "repair_message",
]

DECOMPOSE_PROMPT_VERSION = "decompose-v1"
JUDGE_PROMPT_VERSION = "judge-v1"
#: Embeddings have no prompt; the version marks the cache entry layout.
EMBED_CACHE_VERSION = "embed-v1"

#: Marker words the prompts start with (also lets a test endpoint tell the two tasks apart).
DECOMPOSE_TAG = "[claimaudit:decompose]"
JUDGE_TAG = "[claimaudit:judge]"


class _Strict(BaseModel):
    model_config = ConfigDict(extra="forbid")


class DecomposedClaim(_Strict):
    """One atomic claim as the model states it."""

    text: str = Field(description="One atomic, self-contained claim.")
    kind: Literal["material", "outside_scope"] = Field(
        description="material: a checkable statement of fact; outside_scope: question, opinion, "
        "advice, greeting or other non-factual sentence."
    )
    ambiguous: bool = Field(description="True when a pronoun could not be resolved to a name.")


class Decomposition(_Strict):
    """Output of the decomposer: the claims of one text in reading order."""

    claims: list[DecomposedClaim]


MaterialVerdict = Literal["supported", "inferred", "contradicted", "qualification_dropped", "unsupported"]


class JudgedClaim(_Strict):
    """The judge's verdict on one response claim."""

    id: int = Field(description="The id of the claim as given in the input.")
    verdict: MaterialVerdict
    reason: str = Field(description="One sentence citing the evidence ids that decide the verdict.")


class JudgeOutput(_Strict):
    """Output of the judge: one entry per claim id of the input."""

    verdicts: list[JudgedClaim]


class JudgeItem(BaseModel):
    """Input of the judge for one response claim: its id, text and evidence (best first)."""

    id: int
    claim: str
    evidence: list[dict[str, Any]]  # {"id": "r<ref>.<n>", "text": str, "similarity": float}


_DECOMPOSE_SYSTEM = f"""{DECOMPOSE_TAG}
You break a passage into atomic claims for fact checking.
Rules:
1. One claim = one piece of information (one fact, number, date, relation or qualifier). Split
   sentences that state several things; keep the passage's order.
2. Each claim must stand alone: replace pronouns and references such as "she", "it", "the
   prize" by the name they refer to. If you cannot tell who or what is meant, keep the words
   and set "ambiguous": true.
3. Keep numbers, dates, units, names, negations and hedges ("about", "may", "in some cases")
   exactly as the passage states them. Add nothing that the passage does not say; use the
   passage's own words where possible.
4. "kind" is "material" for a checkable statement of fact, "outside_scope" for questions,
   opinions, advice, greetings and other sentences that assert no fact.
5. An empty passage has no claims.
Answer with JSON only: {{"claims": [{{"text": "...", "kind": "material", "ambiguous": false}}, ...]}}

Example passage: "In 1998 the bridge opened. It is 2 km long. I think it is lovely."
Example answer: {{"claims": [
 {{"text": "The bridge opened in 1998.", "kind": "material", "ambiguous": false}},
 {{"text": "The bridge is 2 km long.", "kind": "material", "ambiguous": false}},
 {{"text": "I think the bridge is lovely.", "kind": "outside_scope", "ambiguous": false}}]}}"""

_JUDGE_SYSTEM = f"""{JUDGE_TAG}
You check claims of an answer against evidence claims taken from reference texts.
For every claim give exactly one verdict:
- "supported": one evidence claim states it (same facts, numbers, dates, names).
- "inferred": two or more evidence claims together entail it.
- "contradicted": evidence states the same thing with a different value (number, date, unit,
  name, negation, comparative).
- "qualification_dropped": the evidence hedges or limits what the claim states flatly.
- "unsupported": the evidence does not say it (nothing related, or only related topics).
Use only the evidence given, not your own knowledge. "reason": one short sentence naming the
evidence ids that decide the verdict (e.g. "r0.2 gives 2004, not 2001").
Answer with JSON only: {{"verdicts": [{{"id": 0, "verdict": "supported", "reason": "..."}}, ...]}}
with one entry for every claim id of the input, in the input's order."""


def decompose_messages(text: str) -> list[dict[str, str]]:
    """Chat messages asking for the claims of ``text`` (one call per text)."""
    return [
        {"role": "system", "content": _DECOMPOSE_SYSTEM},
        {"role": "user", "content": f"Passage:\n{text}"},
    ]


def judge_messages(items: Sequence[JudgeItem]) -> list[dict[str, str]]:
    """Chat messages asking for a verdict on every item (one call per audit)."""
    payload = [item.model_dump() for item in items]
    body = json.dumps({"claims": payload}, ensure_ascii=False, sort_keys=True, indent=1)
    return [
        {"role": "system", "content": _JUDGE_SYSTEM},
        {"role": "user", "content": f"Claims with their evidence:\n{body}"},
    ]


def repair_message(error: str) -> dict[str, str]:
    """The user message of the one repair attempt after an invalid answer."""
    return {
        "role": "user",
        "content": "Your answer could not be used: "
        f"{error[:500]}\nAnswer again with JSON only, exactly in the required format.",
    }
