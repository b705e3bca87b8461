#!/usr/bin/env python3
"""Run a batch of audits fully in memory (no DB, no queue): the run_cases.py batch contract.

Usage:
    python tools/inprocess_batch.py INPUT.jsonl --output OUTPUT.jsonl

Each input line: {"id", "references": [str, ...], "response": str, "config": {...}}.
Each output line: the result document of ``claims.audit.report_to_dict`` with "id" set to
the input id; invalid input gives {"id", "status": "rejected", "error": "<message>"}, and an
unexpected exception {"id", "status": "failed", "error": "<message>"}.
The config is read by ``claims.options.AuditOptions.from_config``, as the workers read it:
threshold, case_insensitive and remove_punctuation are used; the LLM keys (decomposer, judge,
embedder, llm_band, llm_model, embedding_model) are checked and ignored offline; any other key or
an invalid value rejects the line, as the API does. A blank reference among others is kept as an
empty document (no claims); all-blank references reject the line.

Every non-blank input line gives exactly one output line, in input order (blank lines are
skipped); a line that is not a JSON object in UTF-8 (NaN and infinite numbers are not JSON) is
rejected with "id": null. Top-level keys other than id, references, response and config (a
case's "kind" or "expect", say) are ignored: the run_cases.py contract carries them.
Audits run in chunks of ``CHUNK``: each chunk is decomposed and embedded together
(``claims.audit.prefetch``), then each audit alone on the warm caches.
"""

from __future__ import annotations

import argparse
import itertools
import json
import sys
import time
import traceback
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from claims.audit import audit_texts, prefetch, report_to_dict, validate_inputs  # noqa: E402
from claims.embed import CachedEmbedder, InMemoryEmbeddingCache, default_embedder  # noqa: E402
from claims.options import AuditOptions  # noqa: E402
from claims.runtime import load_offline_models, settle_heap  # noqa: E402


def run_line(item: dict[str, Any], embedder: Any) -> dict[str, Any]:
    """One input line -> one output document (never raises)."""
    ident = item.get("id")
    try:
        raw = item.get("config")
        if raw is not None and not isinstance(raw, dict):
            raise ValueError("config: must be an object")
        options = AuditOptions.from_config(raw)
        response, references = validate_inputs(item.get("response"), item.get("references"))
    except ValueError as exc:  # invalid input: rejected, nothing computed
        return {"id": ident, "status": "rejected", "error": str(exc)}
    try:
        report = audit_texts(response, references, embedder=embedder, options=options)
        doc = report_to_dict(report, references, response)
    except Exception as exc:  # noqa: BLE001 - one failing audit must not stop the batch
        traceback.print_exc()
        return {"id": ident, "status": "failed", "error": f"{type(exc).__name__}: {exc}"}
    return {"id": ident, **doc}


#: audits decomposed and embedded together (``claims.audit.prefetch``): one parser pass and one
#: model call for about 600 claim texts, small enough that the first results come early
CHUNK = 64


def run_chunk(items: list[Any], embedder: Any) -> list[dict[str, Any]]:
    """Input lines (parsed) -> output documents, in order: the valid audits' texts are first
    decomposed and embedded together (``prefetch``), then each line runs alone (``run_line``)
    on the warm caches. Never raises: if the shared step fails, each line still runs alone."""
    pairs, lazy = [], []
    for item in items:
        try:
            if isinstance(item, dict):
                options = AuditOptions.from_config(item.get("config"))
                pairs.append(validate_inputs(item.get("response"), item.get("references")))
                lazy.append(options.lazy_references)
        except (ValueError, TypeError):
            continue  # run_line rejects it with the message
    try:
        prefetch(pairs, embedder, lazy=lazy)
    except Exception:  # noqa: BLE001 - the per-line path reports what fails
        traceback.print_exc()
    return [
        run_line(item, embedder)
        if isinstance(item, dict)
        else {"id": None, "status": "rejected", "error": str(item)}
        for item in items
    ]


def _parsed(raw: bytes) -> dict[str, Any] | str:
    """A line's JSON object, or the rejection message of an invalid line (never raises)."""
    try:
        # utf-8-sig: a byte-order mark (editors on Windows write one) is not part of the JSON
        item = json.loads(raw.decode("utf-8-sig"), parse_constant=_non_finite, parse_float=_finite_float)
    except UnicodeDecodeError as exc:
        return f"invalid UTF-8: {exc}"
    except (ValueError, RecursionError) as exc:  # JSONDecodeError is a ValueError; '[[[…' recurses
        return f"invalid JSON: {exc}"
    return item if isinstance(item, dict) else "each line must be a JSON object"


def _non_finite(name: str) -> float:
    raise ValueError(f"{name} is not a JSON number")


def _finite_float(text: str) -> float:
    value = float(text)
    if value in (float("inf"), float("-inf")):
        raise ValueError(f"{text} is out of the range of a double")
    return value


def _dumps(doc: dict[str, Any]) -> str:
    """One output line; a lone surrogate (valid JSON, "\\ud800") cannot be UTF-8: escaped then."""
    text = json.dumps(doc, ensure_ascii=False)
    try:
        text.encode("utf-8")
    except UnicodeEncodeError:
        text = json.dumps(doc)
    return text


def start_up() -> None:
    """What a worker process does before its first audit: load the models, then settle the heap
    (``claims.runtime``)."""
    load_offline_models()
    settle_heap()


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("input", type=Path)
    ap.add_argument("--output", type=Path, required=True)
    args = ap.parse_args()
    started = time.monotonic()
    start_up()
    embedder = CachedEmbedder(default_embedder(), InMemoryEmbeddingCache())
    n = 0
    with args.input.open("rb") as fin, args.output.open("w", encoding="utf-8") as fout:
        chunk: list[dict[str, Any] | str] = []
        for line in itertools.chain(fin, [None]):
            if line is not None and line.strip():
                chunk.append(_parsed(line))
            if chunk and (line is None or len(chunk) >= CHUNK):
                for doc in run_chunk(chunk, embedder):
                    fout.write(_dumps(doc) + "\n")
                n += len(chunk)
                chunk = []
    print(f"inprocess_batch: {n} lines in {time.monotonic() - started:.1f} s", file=sys.stderr)
    return 0


if __name__ == "__main__":
    sys.exit(main())
