"""The fixed, reproducible workload of ``tools/bench.py`` (no randomness, no network).

Three kinds of audit:

- **pairs**: one Factcheck-GPT claim/evidence stance pair each (the claim is the response, the
  evidence the one reference);
- **rag**: RAG-style audits, 3-5 evidence passages of consecutive pairs as references and two or
  three of their claims as the response;
- **cases**: hand-written audits (the repository's ``examples/*.json``, plus a run_cases.py
  ``audits.jsonl`` when ``--cases`` names one).

Two more workloads have figures of their own (``tools/bench.py``): reference-heavy WiCE-style
audits (:func:`ref_heavy_workload`, one reference per evidence sentence) and audits over a few
recurring passages (:func:`repeated_passages_workload`).

Default data: ``tools/bench_data/factcheck_pairs.jsonl`` (245 pairs, every 7th line of
Factcheck-Bench's ``stance_dev.jsonl``; Apache-2.0, Wang et al. 2023), checked in so that the
benchmark runs on a fresh clone. ``--data DIR`` reads ``DIR/factcheck_gpt/stance_dev.jsonl``
instead (1,715 pairs). The same flags always give the same audits in the same order.
"""

from __future__ import annotations

import json
import os
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
DEFAULT_PAIRS = ROOT / "tools" / "bench_data" / "factcheck_pairs.jsonl"

__all__ = [
    "build_workload",
    "probe_audit",
    "read_pairs",
    "read_cases",
    "ref_heavy_workload",
    "repeated_passages_workload",
]

#: The shared material beside the repository (``$CLAIMAUDIT_SHARED`` overrides it): the WiCE dev
#: set of the reference-heavy workload, when present.
SHARED = Path(os.environ.get("CLAIMAUDIT_SHARED") or ROOT.parent / "shared")
#: Evidence sentences of a synthesised WiCE-like audit: about the WiCE dev set's mean (119.5
#: sentences an audit over its 349 claims; median 83, at most 1,131).
REF_HEAVY_SENTENCES = 120


def read_pairs(data_dir: Path | None) -> list[dict[str, str]]:
    """Claim/evidence pairs (``claim``, ``evidence``), one per distinct claim, in file order."""
    path = DEFAULT_PAIRS if data_dir is None else data_dir / "factcheck_gpt" / "stance_dev.jsonl"
    seen: set[str] = set()
    pairs = []
    for line in path.read_text(encoding="utf-8").splitlines():
        if not line.strip():
            continue
        item = json.loads(line)
        if item["claim"] in seen or not item["evidence"].strip():
            continue
        seen.add(item["claim"])
        pairs.append({"claim": item["claim"], "evidence": item["evidence"]})
    return pairs


def read_cases(cases_file: Path | None) -> list[dict[str, Any]]:
    """Hand-written audits: ``examples/*.json`` then the lines of ``cases_file`` (run_cases.py format)."""
    out: list[dict[str, Any]] = []
    for path in sorted((ROOT / "examples").glob("*.json")):
        body = json.loads(path.read_text(encoding="utf-8"))
        out.append(
            {"id": f"example-{path.stem}", "references": body["references"], "response": body["response"]}
        )
    if cases_file is not None:
        for line in cases_file.read_text(encoding="utf-8").splitlines():
            if line.strip():
                case = json.loads(line)
                if case.get("expect", {}).get("status", "done") != "done":
                    continue  # rejected inputs measure validation, not the pipeline
                refs, config = case["references"], case.get("config", {})
                out.append(
                    {
                        "id": f"case-{case['id']}",
                        "references": refs,
                        "response": case["response"],
                        "config": config,
                    }
                )
    return out


def _rag(group: list[dict[str, str]], index: int) -> dict[str, Any]:
    claims = [p["claim"] for p in group[: 2 + index % 2]]
    return {
        "id": f"rag-{index}",
        "references": [p["evidence"] for p in group],
        "response": " ".join(claims),
    }


def build_workload(
    n_audits: int, *, data_dir: Path | None = None, cases_file: Path | None = None
) -> list[dict[str, Any]]:
    """``n_audits`` audits (``id``, ``references``, ``response``, optional ``config``).

    About a quarter RAG audits (3, 4 or 5 passages each, in turn), the cases (at most a sixth),
    the rest pairs; interleaved so that any prefix has the same mix. Pairs are used at most once
    as a pair audit; RAG audits take their passages from the end of the pair list backwards (so
    a passage recurs in at most a few audits, as a retrieval corpus's passages do).

    Raises ``ValueError`` when the data has too few pairs for ``n_audits``.
    """
    pairs = read_pairs(data_dir)
    cases = read_cases(cases_file)[: max(1, n_audits // 6)]
    n_rag = n_audits // 4
    n_pairs = n_audits - n_rag - len(cases)
    pair_audits = [
        {"id": f"pair-{i}", "references": [p["evidence"]], "response": p["claim"]}
        for i, p in enumerate(pairs[:n_pairs])
    ]
    rag_audits = []
    pool, start = pairs[::-1], 0  # from the end: the pairs no pair audit uses come first
    for i in range(n_rag):
        size = 3 + i % 3
        group = [pool[(start + k) % len(pool)] for k in range(size)]
        start += size
        rag_audits.append(_rag(group, i))
    if len(pair_audits) < n_pairs:
        raise ValueError(f"{len(pairs)} pairs in the data, {n_pairs} needed for {n_audits} audits")
    # interleave by relative position, so that any prefix has the same mix (ties: pairs first)
    streams = [pair_audits, rag_audits, cases]
    keyed = [((i + 0.5) / len(s), k, a) for k, s in enumerate(streams) for i, a in enumerate(s)]
    return [a for _, _, a in sorted(keyed, key=lambda t: (t[0], t[1]))]


def probe_audit(index: int) -> dict[str, Any]:
    """A small audit (one reference, one wrong date) whose texts differ with ``index``, so that
    no cache has seen them: what a single latency measurement submits."""
    year = 1900 + index % 100
    return {
        "id": f"probe-{index}",
        "references": [f"The Halvorsen Bridge (span {index} m) opened to traffic on 12 May {year}."],
        "response": f"The Halvorsen Bridge, with a span of {index} m, opened in {year + 1}.",
    }


def _sentences(text: str) -> list[str]:
    """The sentences of an evidence text, split at ``. `` (enough for a synthesised workload)."""
    parts = [p.strip() for p in text.replace("\n", " ").split(". ")]
    return [p if p.endswith((".", "!", "?")) else p + "." for p in parts if len(p) > 3]


def ref_heavy_workload(
    n_audits: int, *, wice_file: Path | None = None, references: str = "evidence"
) -> list[dict[str, Any]]:
    """``n_audits`` WiCE-style audits: one claim as the response and one reference per evidence
    sentence, with config ``{"references": references}`` (``evidence``: lazy reference
    decomposition, ``claims.lazy_references``; ``full``: every sentence decomposed).

    From ``wice_file`` (WiCE's ``claims_dev.jsonl``, Kamoi et al. 2023; default
    ``SHARED/data/wice/claims_dev.jsonl`` when it exists): every ``len/n_audits``-th claim with
    its evidence sentences as they are (119.5 a claim on average). Without the file, synthesised
    from the pairs of :func:`read_pairs`: pair ``i``'s claim, and ``REF_HEAVY_SENTENCES``
    sentences of the evidence of pairs ``i, i+1, ...`` (pair ``i``'s own first), so that the
    benchmark runs on a fresh clone. Raises ``ValueError`` for ``n_audits < 1``.
    """
    if n_audits < 1:
        raise ValueError("n_audits must be at least 1")
    path = wice_file or SHARED / "data" / "wice" / "claims_dev.jsonl"
    if path.is_file():
        rows = [json.loads(x) for x in path.read_text(encoding="utf-8").splitlines() if x.strip()]
        step = max(1, len(rows) // n_audits)
        picked = [rows[(k * step) % len(rows)] for k in range(n_audits)]
        return [
            {
                "id": f"refheavy-{k}",
                "references": list(r["evidence"]),
                "response": r["claim"],
                "config": {"references": references},
            }
            for k, r in enumerate(picked)
        ]
    pairs = read_pairs(None)
    out = []
    for k in range(n_audits):
        refs: list[str] = []
        j = k
        while len(refs) < REF_HEAVY_SENTENCES:
            refs += _sentences(pairs[j % len(pairs)]["evidence"])
            j += 1
        out.append(
            {
                "id": f"refheavy-{k}",
                "references": refs[:REF_HEAVY_SENTENCES],
                "response": pairs[k % len(pairs)]["claim"],
                "config": {"references": references},
            }
        )
    return out


def repeated_passages_workload(
    n_audits: int = 1000, *, passages: int = 20, per_audit: int = 5
) -> list[dict[str, Any]]:
    """``n_audits`` RAG audits over a small corpus: ``passages`` distinct evidence passages (the
    first pairs of :func:`read_pairs`), each audit citing ``per_audit`` of them (audit ``k``:
    passages ``k*3, k*3+1, ...`` modulo ``passages``, so that every passage recurs about
    ``n_audits * per_audit / passages`` times) and stating the claims of its first two. The
    response is varied by the audit's number so that no two audits are identical inputs.
    Raises ``ValueError`` when ``per_audit > passages`` or the data has too few pairs."""
    pairs = read_pairs(None)
    if per_audit > passages or passages > len(pairs):
        raise ValueError(f"{passages} passages of {per_audit} an audit from {len(pairs)} pairs")
    corpus = pairs[:passages]
    out = []
    for k in range(n_audits):
        group = [corpus[(k * 3 + m) % passages] for m in range(per_audit)]
        claims = " ".join(p["claim"] for p in group[:2])
        out.append(
            {
                "id": f"repeated-{k}",
                "references": [p["evidence"] for p in group],
                "response": f"{claims} This is answer number {k}.",
            }
        )
    return out
