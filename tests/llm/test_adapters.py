"""The LLM adapters against the fake endpoint through the real ``openai`` client, with the
cache and usage ledger in real Postgres (no Celery here; ``test_llm_pipeline`` covers that)."""

from __future__ import annotations

import json
import re
import socket
from typing import Any

import numpy as np
import pytest
import sqlalchemy

from claims.options import AuditOptions
from claims.review import uncertain_band
from claims.types import Claim, ClaimKind, Evidence, Judgement, ReferenceClaim, Verdict
from db.engine import make_engine, make_session_factory
from service.llm_config import LLMConfig, resolve_llm_config
from tests.fakes.openai_server import FakeOpenAI
from workers.adapters.client import Ledger, make_client
from workers.adapters.decomposer import decompose_or_fallback, llm_decompose
from workers.adapters.embedder import OpenAIEmbedder
from workers.adapters.errors import MalformedOutputError, PermanentLLMError, TransientLLMError
from workers.adapters.judge import llm_review, reconcile

pytestmark = pytest.mark.services

TEXT = "In 2004, Ines Marlow won the Varga Prize. She plays the cello. Is that not wonderful?"


@pytest.fixture
def ledger(database_url: str, clean: FakeOpenAI, db_engine: Any) -> Any:
    engine = make_engine(database_url)
    with db_engine.connect() as conn:  # usage rows of this test: ids above the current maximum
        _since["id"] = conn.execute(sqlalchemy.text("SELECT coalesce(max(id), 0) FROM llm_usage")).scalar()
    yield Ledger(make_session_factory(engine), None)
    engine.dispose()


_since: dict[str, Any] = {"id": 0}


def cfg_for(fake: FakeOpenAI, **kw: Any) -> LLMConfig:
    return LLMConfig(
        decomposer="llm", judge="llm", embedder="openai", llm_model="fake-chat",
        base_url=fake.base_url, api_key="k", timeout_s=kw.pop("timeout_s", 2.0), **kw,
    )  # fmt: skip


def usage_rows(db_engine: Any) -> list[Any]:
    with db_engine.connect() as conn:
        query = sqlalchemy.text("SELECT * FROM llm_usage WHERE id > :since ORDER BY id")
        return list(conn.execute(query, {"since": _since["id"]}).all())


def test_decomposition_is_cached_and_aligned(clean: FakeOpenAI, ledger: Ledger, db_engine: Any) -> None:
    cfg = cfg_for(clean)
    first = llm_decompose(TEXT, cfg=cfg, ledger=ledger)
    second = llm_decompose(TEXT, cfg=cfg, ledger=ledger)
    assert first == second
    assert clean.count("decompose") == 1  # the second answer came from llm_cache
    # fake: one claim per sentence; "In 2004, X" paraphrased to "X in 2004"; question outside scope
    assert [c.text for c in first] == [
        "Ines Marlow won the Varga Prize in 2004",
        "She plays the cello",
        "Is that not wonderful?",
    ]
    assert [c.kind for c in first] == [ClaimKind.MATERIAL, ClaimKind.MATERIAL, ClaimKind.OUTSIDE_SCOPE]
    assert TEXT[first[1].start : first[1].end] == "She plays the cello"
    assert all(0 <= c.start <= c.end <= len(TEXT) for c in first)
    rows = usage_rows(db_engine)
    assert [(r.calls, r.cache_hits) for r in rows] == [(1, 0), (0, 1)]
    # the request: temperature 0 and the strict JSON schema of the output
    body = clean.log[0][2]
    assert body["temperature"] == 0
    assert body["response_format"]["type"] == "json_schema"
    assert body["response_format"]["json_schema"]["strict"] is True


def test_blank_text_makes_no_request(clean: FakeOpenAI, ledger: Ledger) -> None:
    assert llm_decompose("  \n", cfg=cfg_for(clean), ledger=ledger) == []
    assert clean.count("decompose") == 0


def test_one_repair_attempt_then_fallback(clean: FakeOpenAI, ledger: Ledger, db_engine: Any) -> None:
    cfg = cfg_for(clean)
    clean.fail("decompose", "wrong_schema")
    assert len(llm_decompose(TEXT, cfg=cfg, ledger=ledger)) == 3  # repaired
    assert clean.count("decompose") == 2
    repair = clean.log[1][2]["messages"]
    assert repair[-2]["role"] == "assistant" and "could not be used" in repair[-1]["content"]

    clean.fail("decompose", "refusal", "malformed")
    with pytest.raises(MalformedOutputError, match="after one repair attempt"):
        llm_decompose(TEXT + " Again.", cfg=cfg, ledger=ledger)
    clean.fail("decompose", "malformed", "malformed")
    claims = decompose_or_fallback(TEXT + " Once more.", cfg=cfg, ledger=ledger)
    from claims.decompose import decompose

    assert claims == decompose(TEXT + " Once more.")  # the offline decomposer's answer
    assert [r.fallback is not None for r in usage_rows(db_engine)][-1]


@pytest.mark.parametrize(
    ("fault", "error", "message"),
    [
        ("429", TransientLLMError, "HTTP 429: Rate limit reached (fake)"),
        ("500", TransientLLMError, "HTTP 500: upstream model crashed (fake)"),
        ("503", TransientLLMError, "HTTP 503"),
        ("401", PermanentLLMError, "HTTP 401"),
        ("400", PermanentLLMError, "HTTP 400"),
    ],
)
def test_http_errors_are_translated_and_never_retried_by_the_client(
    clean: FakeOpenAI, ledger: Ledger, db_engine: Any, fault: str, error: type[Exception], message: str
) -> None:
    clean.fail("decompose", fault)
    with pytest.raises(error, match=re.escape(message)):
        llm_decompose(TEXT, cfg=cfg_for(clean), ledger=ledger)
    assert clean.count("decompose") == 1  # max_retries=0: Celery owns retries
    [row] = usage_rows(db_engine)
    assert row.failed_calls == 1 and message in row.error


def test_timeout_and_unreachable_endpoint_are_transient(clean: FakeOpenAI, ledger: Ledger) -> None:
    clean.timeout_sleep_s = 1.0
    clean.fail("decompose", "timeout")
    with pytest.raises(TransientLLMError, match="timed out"):
        llm_decompose(TEXT, cfg=cfg_for(clean, timeout_s=0.3), ledger=ledger)
    clean.timeout_sleep_s = 3.0
    with socket.socket() as s:  # a port nobody listens on
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]
    cfg = LLMConfig(decomposer="llm", base_url=f"http://127.0.0.1:{port}/v1", api_key="k", timeout_s=1.0)
    with pytest.raises(TransientLLMError, match="unreachable"):
        llm_decompose(TEXT, cfg=cfg, ledger=ledger)


def test_client_has_no_retries_and_a_timeout(clean: FakeOpenAI) -> None:
    client = make_client(cfg_for(clean, timeout_s=7.0))
    assert client.max_retries == 0
    assert client.timeout == 7.0


def test_embedder_returns_unit_float32_rows(clean: FakeOpenAI, ledger: Ledger) -> None:
    emb = OpenAIEmbedder(cfg_for(clean), ledger)
    out = emb.embed(["a cat", "a dog", "a cat"])
    assert out.shape == (3, 1536) and out.dtype == np.float32  # text-embedding-3-small: 1536 dims
    np.testing.assert_allclose(np.linalg.norm(out, axis=1), 1.0, rtol=1e-5)
    np.testing.assert_array_equal(out[0], out[2])
    assert clean.count("embeddings") == 1  # one request for the batch
    assert clean.log[0][2]["encoding_format"] == "float"
    clean.fail("embeddings", "malformed", "malformed")  # wrong dimension twice
    with pytest.raises(MalformedOutputError, match="unusable twice"):
        emb.embed(["x"])


def test_config_resolution_and_validation() -> None:
    class S:
        decomposer = "llm"
        openai_base_url = "http://h/v1"
        openai_embedding_model = "nomic-embed-text"

    cfg = resolve_llm_config({"judge": "llm"}, S())
    assert (cfg.decomposer, cfg.judge, cfg.embedder) == ("llm", "llm", "local")
    assert cfg.embedding_dim == 768  # nomic-embed-text's dimension (KNOWN_EMBEDDING_DIMS)
    with pytest.raises(ValueError, match="config.judge"):
        resolve_llm_config({"judge": "gpt"}, S())


# -- judge ------------------------------------------------------------------------------------


def _rule(verdict: Verdict, reason: str = "rule reason", change: str | None = None) -> Judgement:
    ev = (Evidence(reference=0, claim_index=0, start=0, end=4, text="ref", similarity=0.9),)
    return Judgement(0, verdict, ev, reason, change)


@pytest.mark.parametrize(
    ("rule", "judge", "final", "reason_has"),
    [
        # agreement keeps the rule judgement
        (Verdict.SUPPORTED, Verdict.SUPPORTED, Verdict.SUPPORTED, "agrees"),
        # a rule-detected conflict is never overruled to support
        (Verdict.CONTRADICTED, Verdict.SUPPORTED, Verdict.CONTRADICTED, "rule-detected contradicted kept"),
        (Verdict.QUALIFICATION_DROPPED, Verdict.INFERRED, Verdict.QUALIFICATION_DROPPED, "kept"),
        # otherwise the judge decides, the rule's verdict stays in the reason
        (Verdict.SUPPORTED, Verdict.UNSUPPORTED, Verdict.UNSUPPORTED, "rules said supported"),
        (Verdict.UNSUPPORTED, Verdict.INFERRED, Verdict.INFERRED, "rules said unsupported"),
        (Verdict.CONTRADICTED, Verdict.UNSUPPORTED, Verdict.UNSUPPORTED, "rules said contradicted"),
    ],
)
def test_reconcile(rule: Verdict, judge: Verdict, final: Verdict, reason_has: str) -> None:
    merged = reconcile(_rule(rule, change="2001 → 2004"), judge, "judge reason")
    assert merged.verdict is final
    assert reason_has in merged.reason
    assert merged.evidence == _rule(rule).evidence


def test_judge_is_one_request_for_all_material_claims(clean: FakeOpenAI, ledger: Ledger) -> None:
    resp = [
        Claim("A won in 2004.", 0, 14),
        Claim("Is it nice?", 15, 26, kind=ClaimKind.OUTSIDE_SCOPE, position=1),
        Claim("B lost.", 27, 34, position=2),
    ]
    refs = [ReferenceClaim(0, Claim("A won in 2004.", 0, 14))]
    sim = np.array([[0.95], [0.1], [0.2]], dtype=np.float32)
    rules = [_rule(Verdict.SUPPORTED), Judgement(1, Verdict.OUTSIDE_SCOPE), Judgement(2, Verdict.UNSUPPORTED)]
    final, records = llm_review(resp, refs, sim, rules, cfg=cfg_for(clean), ledger=ledger)
    assert clean.count("judge") == 1
    sent = clean.log[0][2]["messages"][-1]["content"]
    assert '"id": 0' in sent and '"id": 2' in sent and "Is it nice?" not in sent  # material only
    # fake judge: supported iff best evidence cosine >= 0.5 (0.95 → supported, 0.2 → unsupported)
    assert [j.verdict for j in final] == [Verdict.SUPPORTED, Verdict.OUTSIDE_SCOPE, Verdict.UNSUPPORTED]
    assert [r["response_index"] for r in records] == [0, 2]


# -- the cascade (judge = auto) -----------------------------------------------------------------

S, U, C, Q = Verdict.SUPPORTED, Verdict.UNSUPPORTED, Verdict.CONTRADICTED, Verdict.QUALIFICATION_DROPPED


@pytest.mark.parametrize(
    ("judge", "band", "verdicts", "confidences", "sent"),
    [
        # judge=llm: no restriction (every material claim goes, as before the cascade)
        ("llm", (0.35, 0.75), [S, U], [0.99, 0.01], None),
        # auto: inside the band (bounds included) goes, outside stays offline
        ("auto", (0.35, 0.75), [S, U, S, U], [0.35, 0.75, 0.3499, 0.7501], {0, 1}),
        # auto: None (the placeholder decision's value) counts as uncertain
        ("auto", (0.35, 0.75), [S, U], [None, 0.9], {0}),
        # auto: a rule-detected conflict is never sent, however uncertain
        ("auto", (0.35, 0.75), [C, Q, U], [0.5, None, 0.5], {2}),
        # auto with an empty band [x, x]: only exactly x (or None) goes
        ("auto", (0.5, 0.5), [S, S, S], [0.5, 0.6, None], {0, 2}),
        # auto with the whole range: every non-conflict claim goes
        ("auto", (0.0, 1.0), [S, U, C], [0.0, 1.0, 0.5], {0, 1}),
    ],
)
def test_uncertain_band(
    judge: str,
    band: tuple[float, float],
    verdicts: list[Verdict],
    confidences: list[float | None],
    sent: set[int] | None,
) -> None:
    judgements = [
        Judgement(i, v, confidence=c) for i, (v, c) in enumerate(zip(verdicts, confidences, strict=True))
    ]
    got = uncertain_band(judgements, AuditOptions(judge=judge, llm_band=band))
    assert got == (None if sent is None else frozenset(sent))


@pytest.mark.parametrize(
    ("rule", "judge", "confidence"),
    [
        (S, S, 0.6),  # the judge agrees: the offline verdict and its confidence stand
        (C, S, 0.6),  # a rule conflict kept: its confidence stands
        (S, U, None),  # the judge's verdict replaces it: no calibrated confidence for that verdict
    ],
)
def test_reconcile_keeps_confidence_only_for_the_offline_verdict(
    rule: Verdict, judge: Verdict, confidence: float | None
) -> None:
    merged = reconcile(Judgement(0, rule, confidence=0.6), judge, "judge reason")
    assert merged.confidence == confidence


def _sent_ids(fake: FakeOpenAI) -> list[int]:
    """Claim ids in the (last) judge request the fake endpoint received."""
    body = [b for kind, _, b in fake.log if kind == "judge"][-1]
    user = next(m["content"] for m in body["messages"] if m["role"] == "user")
    payload = json.loads(user.split("Claims with their evidence:\n", 1)[-1])
    return sorted(int(item["id"]) for item in payload["claims"])


def test_only_the_selected_claims_are_sent_and_the_others_keep_their_verdict(
    clean: FakeOpenAI, ledger: Ledger
) -> None:
    resp = [Claim(f"Claim {i}.", 10 * i, 10 * i + 8, position=i) for i in range(4)]
    refs = [ReferenceClaim(0, Claim("Claim 0.", 0, 8))]
    sim = np.array([[0.95], [0.9], [0.1], [0.2]], dtype=np.float32)
    rules = [
        Judgement(i, v, confidence=c) for i, (v, c) in enumerate([(S, 0.9), (C, 0.5), (U, 0.5), (U, 0.1)])
    ]
    only = uncertain_band(rules, AuditOptions(judge="auto", llm_band=(0.35, 0.75)))
    final, records = llm_review(resp, refs, sim, rules, cfg=cfg_for(clean), ledger=ledger, only=only)
    assert clean.count("judge") == 1 and _sent_ids(clean) == [2]  # one uncertain, non-conflict claim
    assert [r["response_index"] for r in records] == [2]
    assert final[0] == rules[0] and final[1] == rules[1] and final[3] == rules[3]  # untouched
    # fake judge: sim 0.1 < 0.5 -> unsupported, agreeing with the rule: confidence kept
    assert final[2].verdict is U and final[2].confidence == 0.5


def test_nothing_uncertain_means_no_request(clean: FakeOpenAI, ledger: Ledger) -> None:
    resp = [Claim("Claim 0.", 0, 8)]
    refs = [ReferenceClaim(0, Claim("Claim 0.", 0, 8))]
    rules = [Judgement(0, S, confidence=0.99)]
    only = uncertain_band(rules, AuditOptions(judge="auto"))
    final, records = llm_review(
        resp, refs, np.ones((1, 1), np.float32), rules, cfg=cfg_for(clean), ledger=ledger, only=only
    )
    assert clean.count("judge") == 0 and final == rules and records == []
