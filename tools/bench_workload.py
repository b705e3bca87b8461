"""The fixed, reproducible workload of ``tools/bench.py`` (no randomness, no network).

Three kinds of audit:

- **pairs**: one Factcheck-GPT claim/evidence stance pair each (the claim is the response, the
  evidence the one reference);
- **rag**: RAG-style audits, 3-5 evidence passages of consecutive pairs as references and two or
  three of their claims as the response;
- **cases**: hand-written audits (the repository's ``examples/*.json``, plus a run_cases.py
  ``audits.jsonl`` when ``--cases`` names one).

Default data: ``tools/bench_data/factcheck_pairs.jsonl`` (245 pairs, every 7th line of
Factcheck-Bench's ``stance_dev.jsonl``; Apache-2.0, Wang et al. 2023), checked in so that the
benchmark runs on a fresh clone. ``--data DIR`` reads ``DIR/factcheck_gpt/stance_dev.jsonl``
instead (1,715 pairs). The same flags always give the same audits in the same order.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
DEFAULT_PAIRS = ROOT / "tools" / "bench_data" / "factcheck_pairs.jsonl"

__all__ = ["build_workload", "probe_audit", "read_pairs", "read_cases"]


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
