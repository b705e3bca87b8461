"""The vectors and rows of ``tools/bench_store.py``: real sentences embedded with the project's
embedder, varied to any number of claims, laid out as tenants, audits, documents, claims,
verdicts, evidence, scores and runs.

Real text (``real_texts``): the claims and evidence sentences of the labelled dev sets under
``../shared/data`` (WiCE, Factcheck-Bench), the shared cases and ``examples/``; one sentence each
(``claims.sentences.split_sentences``), 25 to 300 characters, de-duplicated. A held-out set of
real *claims* (never stored, never a parent of a stored vector) is the query set.

Variation (``vary``): stored vector ``i`` is a real sentence itself for the first ``len(pool)``
rows; each further row is ``normalise(p + b (q - p) + s e)``: ``p`` a real pool vector (the
parent), ``q`` one of ``p``'s 10 nearest real neighbours, ``b ~ U(0, 0.4)``, ``e`` Gaussian noise
with the covariance of the real vectors scaled to unit expected norm, ``s ~ U(0.15, 0.45)``.
The variant stays on the local manifold of real sentences (a drift toward a related sentence,
noise in the directions real sentences vary in, not isotropic noise), so the density of the store
follows the topics of the real text, like a history in which the same facts recur in many answers
with other wording. Printed by the tool: the cosine of a variant to its parent (median about 0.9,
the range of paraphrases under all-MiniLM-L6-v2).
"""

from __future__ import annotations

import hashlib
import json
import os
import uuid
from collections.abc import Iterator
from dataclasses import dataclass
from datetime import UTC, datetime, timedelta
from pathlib import Path

import numpy as np

ROOT = Path(__file__).resolve().parents[1]
#: The shared material beside the repository (``$CLAIMAUDIT_SHARED`` overrides it); without it
#: the real sentences come from the pairs and examples in this repository.
SHARED = Path(os.environ.get("CLAIMAUDIT_SHARED") or ROOT.parent / "shared")
BENCH_PAIRS = ROOT / "tools" / "bench_data" / "factcheck_pairs.jsonl"
MODEL = "sentence-transformers/all-MiniLM-L6-v2"
DIM = 384
#: Tenants and their shares of the audits (one large, one mid, two small).
TENANTS = (("acme", 0.60), ("globex", 0.30), ("initech", 0.09), ("umbrella", 0.01))
#: Claims per audit: 4 response claims (document 0), two references of 3 claims each.
RESPONSE_CLAIMS, REFERENCES, REFERENCE_CLAIMS = 4, 2, 3
CLAIMS_PER_AUDIT = RESPONSE_CLAIMS + REFERENCES * REFERENCE_CLAIMS
#: Verdict shares of response claims (rough shape of the shared cases' verdict mix).
VERDICT_SHARES = (
    ("supported", 0.55),
    ("inferred", 0.10),
    ("contradicted", 0.08),
    ("qualification_dropped", 0.02),
    ("unsupported", 0.20),
    ("outside_scope", 0.05),
)
MODELS = ("gpt-4o", "claude-3-5", "llama-3-70b", "mistral-large")
SUITES = ("support-bot", "faq-bot")
#: Days of history: audits are spread evenly over them, the newest today.
HISTORY_DAYS = 180
RUNS_PER_SUITE, ITEMS_PER_RUN = 30, 200


def _sentences(text: str) -> list[str]:
    from claims.sentences import split_sentences

    return [text[a:b] for a, b in split_sentences(text)]


def _keep(text: str) -> bool:
    text = text.strip()
    return 25 <= len(text) <= 300 and len(text.split()) >= 4 and not text.startswith(("(meta", "#"))


def _shared_texts() -> tuple[list[str], list[str]]:
    """Claims and other sentences of the shared dev sets and cases."""
    claims: list[str] = []
    other: list[str] = []
    data = SHARED / "data"
    for line in (data / "factcheck_gpt" / "stance_dev.jsonl").read_text().splitlines():
        row = json.loads(line)
        claims.append(row["claim"])
        other += _sentences(row["evidence"])
    for line in (data / "wice" / "claims_dev.jsonl").read_text().splitlines():
        row = json.loads(line)
        claims.append(row["claim"])
        other += [s for item in row["evidence"] for s in _sentences(item)]
    for name in ("audits.jsonl", "formats.jsonl"):
        for line in (SHARED / "cases" / name).read_text().splitlines():
            row = json.loads(line)
            other += [s for ref in row.get("references", []) if isinstance(ref, str) for s in _sentences(ref)]
            if isinstance(row.get("response"), str):
                other += _sentences(row["response"])
    return claims, other


def real_texts() -> tuple[list[str], list[str]]:
    """``(claims, sentences)``: the real claim sentences (query candidates) and every other real
    sentence (evidence, references, responses), each de-duplicated and disjoint."""
    claims: list[str] = []
    other: list[str] = []
    data = SHARED / "data"
    if data.is_dir():
        claims, other = _shared_texts()
    else:  # a clone without the shared folder: the bench's checked-in pairs
        for line in BENCH_PAIRS.read_text().splitlines():
            row = json.loads(line)
            claims.append(row["claim"])
            other += _sentences(row["evidence"])
    for path in sorted((ROOT / "examples").glob("*.json")):
        row = json.loads(path.read_text())
        other += [s for ref in row.get("references", []) if isinstance(ref, str) for s in _sentences(ref)]
        other += _sentences(row.get("response", ""))
    claims = list(dict.fromkeys(c.strip() for c in claims if _keep(c)))
    seen = set(claims)
    other = [s for s in dict.fromkeys(s.strip() for s in other if _keep(s)) if s not in seen]
    return claims, other


def embed_real(cache_dir: Path, limit: int | None = None) -> tuple[list[str], np.ndarray, int]:
    """``(texts, vectors, n_claims)``: the real sentences (claims first) and their unit vectors
    (float32 ``(n, 384)``), cached in ``cache_dir/real-<sha>.npz`` by the texts' hash. ``limit``:
    at most that many sentences, a quarter of them claims (a quick run)."""
    claims, other = real_texts()
    if limit is not None:  # a seeded sample, so every source and topic stays in
        claims = claims[: max(1, limit // 4)]
        keep = np.random.default_rng(0).permutation(len(other))[: max(0, limit - len(claims))]
        other = [other[i] for i in sorted(keep)]
    texts = claims + other
    digest = hashlib.sha256("\n".join(texts).encode()).hexdigest()[:16]
    path = cache_dir / f"real-{digest}.npz"
    if path.exists():
        return texts, np.load(path)["vectors"], len(claims)
    from claims.embed import SentenceTransformerEmbedder

    embedder = SentenceTransformerEmbedder(batch_size=128)
    parts = []
    for start in range(0, len(texts), 2048):
        parts.append(embedder.embed(texts[start : start + 2048]).astype(np.float32))
        print(f"embedded {min(start + 2048, len(texts))}/{len(texts)} real sentences", flush=True)
    vectors = np.concatenate(parts)
    cache_dir.mkdir(parents=True, exist_ok=True)
    np.savez(path, vectors=vectors)
    return texts, vectors, len(claims)


@dataclass(frozen=True)
class Corpus:
    """The store's source: ``pool`` (real vectors that may be stored, float32 ``(p, 384)``),
    ``pool_texts``, and the held-out ``queries`` (real claims, float32 ``(q, 384)``)."""

    pool: np.ndarray
    pool_texts: list[str]
    queries: np.ndarray
    query_texts: list[str]


def split(texts: list[str], vectors: np.ndarray, n_claims: int, queries: int, seed: int) -> Corpus:
    """Hold ``queries`` real claims out of the pool (random, seeded)."""
    rng = np.random.default_rng(seed)
    held = set(rng.choice(n_claims, size=min(queries, n_claims // 2), replace=False).tolist())
    keep = [i for i in range(len(texts)) if i not in held]
    qs = sorted(held)
    # a few WiCE sentences carry NUL bytes (UTF-16 read as bytes), which a text column refuses
    clean = [t.replace("\x00", "") for t in texts]
    return Corpus(vectors[keep], [clean[i] for i in keep], vectors[qs], [clean[i] for i in qs])


def _neighbours(pool: np.ndarray, k: int = 10) -> np.ndarray:
    """Indices (int32 ``(p, k)``) of each pool vector's ``k`` nearest other pool vectors."""
    out = np.empty((len(pool), k), dtype=np.int32)
    for start in range(0, len(pool), 2048):
        sims = pool[start : start + 2048] @ pool.T
        rows = np.arange(sims.shape[0])
        sims[rows, rows + start] = -2.0
        out[start : start + 2048] = np.argpartition(-sims, k, axis=1)[:, :k]
    return out


def vary(pool: np.ndarray, parents: np.ndarray, seed: int, chunk: int = 100_000) -> Iterator[np.ndarray]:
    """The stored vectors of ``parents`` (int64 ``(n,)``, indices into ``pool``) in chunks
    (float32 ``(c, 384)``, unit length): variants of the parents (module docstring).
    Deterministic for ``seed``."""
    rng = np.random.default_rng(seed + 1)
    near = _neighbours(pool)
    cov = np.cov(pool, rowvar=False)
    w, v = np.linalg.eigh(cov)
    root = (v * np.sqrt(np.clip(w, 0, None))).astype(np.float32) / np.float32(np.sqrt(np.trace(cov)))
    for start in range(0, len(parents), chunk):
        ps = parents[start : start + chunk]
        size = len(ps)
        p = pool[ps]
        q = pool[near[ps, rng.integers(0, near.shape[1], size)]]
        b = rng.uniform(0, 0.4, (size, 1)).astype(np.float32)
        s = rng.uniform(0.15, 0.45, (size, 1)).astype(np.float32)
        e = rng.standard_normal((size, DIM), dtype=np.float32) @ root.T
        out = p + b * (q - p) + s * e
        out /= np.linalg.norm(out, axis=1, keepdims=True)
        yield out.astype(np.float32)


@dataclass(frozen=True)
class Layout:
    """Where claim row ``r`` lives: audit ``r // 10`` (slots 0-3 the response's claims, 4-6 and
    7-9 the two references'); audits in time order (oldest first), each of one tenant
    (``tenant_of[a]``, index into ``TENANTS``), created at ``created[a]``. ``parents[r]``: the
    pool sentence claim ``r`` varies. A reference is one of its tenant's source documents
    (``source_of[a, j]``, about one source per 10 audits, popularity skewed), whose three
    sentences (``source_parents[s]``) its claims vary, so documents recur across audits."""

    audits: int
    audit_ids: list[uuid.UUID]
    tenant_of: np.ndarray
    created: list[datetime]
    verdict_of: np.ndarray  # index into VERDICT_SHARES per response claim, (audits, 4)
    model_of: np.ndarray  # index into MODELS per audit
    source_of: np.ndarray  # global source index per reference, (audits, 2)
    source_parents: np.ndarray  # (sources, 3) pool indices
    parents: np.ndarray  # (audits * 10,) pool indices


def _sources(
    rng: np.random.Generator, tenant_of: np.ndarray, pool_size: int
) -> tuple[np.ndarray, np.ndarray]:
    """``(source_of (audits, 2), source_parents (sources, 3))``: per tenant ``max(1, audits/10)``
    sources; the ``u**2`` draw makes a few sources common and most rare."""
    source_of = np.zeros((len(tenant_of), REFERENCES), dtype=np.int64)
    first = 0
    for t in range(len(TENANTS)):
        rows = np.flatnonzero(tenant_of == t)
        count = max(1, len(rows) // 10)
        draw = (count * rng.uniform(0, 1, (len(rows), REFERENCES)) ** 2).astype(np.int64)
        source_of[rows] = first + np.minimum(draw, count - 1)
        first += count
    return source_of, rng.integers(0, pool_size, (first, REFERENCE_CLAIMS))


def layout(claims: int, pool_size: int, seed: int, now: datetime | None = None) -> Layout:
    """The audits of ``claims`` claims (rounded up to a multiple of 10): tenants by ``TENANTS``
    shares, created evenly over ``HISTORY_DAYS`` up to ``now``, verdicts by
    ``VERDICT_SHARES``, parents among ``pool_size`` pool sentences. Deterministic for ``seed``
    (and ``now``)."""
    rng = np.random.default_rng(seed + 2)
    audits = -(-claims // CLAIMS_PER_AUDIT)
    now = now or datetime.now(UTC)
    start = now - timedelta(days=HISTORY_DAYS)
    offsets = np.sort(rng.uniform(0, HISTORY_DAYS * 86400 - 120, audits))
    shares = np.array([s for _, s in TENANTS])
    vshares = np.array([s for _, s in VERDICT_SHARES])
    tenant_of = rng.choice(len(TENANTS), size=audits, p=shares / shares.sum())
    source_of, source_parents = _sources(rng, tenant_of, pool_size)
    parents = np.empty((audits, CLAIMS_PER_AUDIT), dtype=np.int64)
    parents[:, :RESPONSE_CLAIMS] = rng.integers(0, pool_size, (audits, RESPONSE_CLAIMS))
    for j in range(REFERENCES):
        lo = RESPONSE_CLAIMS + j * REFERENCE_CLAIMS
        parents[:, lo : lo + REFERENCE_CLAIMS] = source_parents[source_of[:, j]]
    return Layout(
        audits=audits,
        audit_ids=[uuid.UUID(bytes=rng.bytes(16), version=4) for _ in range(audits)],
        tenant_of=tenant_of,
        created=[start + timedelta(seconds=float(o)) for o in offsets],
        verdict_of=rng.choice(len(VERDICT_SHARES), size=(audits, RESPONSE_CLAIMS), p=vshares / vshares.sum()),
        model_of=rng.integers(0, len(MODELS), audits),
        source_of=source_of,
        source_parents=source_parents,
        parents=parents.reshape(-1),
    )
