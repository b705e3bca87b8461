"""The LLM cascade (``judge = "auto"``): only the uncertain claims go to the judge.

Two ways, both against the fake OpenAI-compatible endpoint and real Postgres:

* through the queue (HTTP → Celery worker in its own process) with the worker's own decision
  (``claims.decision``): a claim kept offline has a confidence outside the band, a rule-detected
  conflict is never sent and so never overruled; with the placeholder decision every confidence
  is None, None counts as uncertain, and every other material claim is sent;
* in this process (the stage services called directly, as ``tests/integration/test_stages.py``
  does), with the decision replaced by one giving fixed confidences, to show the band itself.

Which claims were sent is read from the judge request the fake endpoint logged.
"""

from __future__ import annotations

import json
import uuid
from collections.abc import Iterator, Sequence
from dataclasses import replace
from datetime import UTC, datetime
from typing import Any

import pytest

from db import repository as repo
from db.engine import session_scope
from tests.fakes.openai_server import FakeOpenAI
from tests.llm.test_llm_pipeline import REFERENCE, run

pytestmark = [pytest.mark.services, pytest.mark.slow]

#: Offline decomposition: one claim per sentence, in this order. Against REFERENCE the rules say:
#: 0 contradicted (2001 vs 2004), 1 supported, 2 to 4 not supported by REFERENCE's words.
RESPONSE = (
    "Ines Marlow won the Varga Prize in Vienna in 2001. Teodor Halm chaired the jury. "
    "Marlow plays the oboe. Marlow moved to Oslo in 2010. Marlow has a sister."
)
AUTO = {"judge": "auto"}


def sent_claims(fake: FakeOpenAI) -> list[str]:
    """Claim texts of every judge request the fake endpoint received, in order."""
    out = []
    for kind, _, body in fake.log:
        if kind != "judge":
            continue
        user = next(m["content"] for m in body["messages"] if m["role"] == "user")
        out += [c["claim"] for c in json.loads(user.split("Claims with their evidence:\n", 1)[-1])["claims"]]
    return out


def test_auto_sends_only_uncertain_claims_and_never_a_rule_conflict(api: Any, clean: FakeOpenAI) -> None:
    fake = clean
    fake.judge_policy = "always_supported"  # would overrule the conflict if it were sent
    doc = run(api, RESPONSE, [REFERENCE], AUTO)
    assert doc["status"] == "done", doc["error"]
    claims = [c for c in doc["claims"] if c["role"] == "response"]
    assert len(claims) == 5 and claims[0]["verdict"] == "contradicted"
    assert fake.count("judge") <= 1  # at most one batched request per audit, as with judge=llm
    sent = sent_claims(fake)
    low, high = doc["effective_config"]["llm_band"]
    assert (low, high) == (0.0, 0.6)  # Settings.llm_band default (claims.options.DEFAULT_LLM_BAND)
    # the rule conflict is never sent, so never overruled
    assert claims[0]["text"] not in sent and claims[0]["judge"] is None
    for c in claims[1:]:
        if c["text"] not in sent:  # kept offline: only a confident verdict (outside the band)
            assert c["confidence"] is not None and not low <= c["confidence"] <= high
        elif c["judge"]["agrees"]:  # sent and the offline verdict stands: it was uncertain
            assert c["confidence"] is None or low <= c["confidence"] <= high
    assert doc["usage"]["llm_judged_share"] == pytest.approx(len(sent) / 5)  # 5 judgeable claims
    if all(c["confidence"] is None for c in claims):  # the placeholder decision: all uncertain
        assert sent == [c["text"] for c in claims[1:]]


def test_judge_none_and_llm_shares(api: Any, clean: FakeOpenAI) -> None:
    fake = clean
    offline = run(api, RESPONSE, [REFERENCE], {"judge": "none"})
    assert offline["usage"]["llm_judged_share"] == 0.0 and fake.count("judge") == 0
    everything = run(api, RESPONSE, [REFERENCE], {"judge": "llm"})
    assert everything["usage"]["llm_judged_share"] == 1.0  # judge=llm sends every material claim
    assert len(sent_claims(fake)) == 5


# --------------------------------------------------------------------------- in this process


@pytest.fixture
def endpoint(fake_openai: FakeOpenAI, monkeypatch: pytest.MonkeyPatch) -> Iterator[None]:
    """This process's settings point at the fake endpoint (the stage services read them)."""
    from service.settings import get_settings

    monkeypatch.setenv("OPENAI_BASE_URL", fake_openai.base_url)
    monkeypatch.setenv("OPENAI_API_KEY", "test-key")
    monkeypatch.setenv("LLM_MODEL", "fake-chat")
    get_settings.cache_clear()
    yield
    monkeypatch.undo()
    get_settings.cache_clear()


def _decide_with(confidences: Sequence[float | None]) -> Any:
    def decide(_r: Any, _f: Any, _s: Any, judgements: Sequence[Any], **_kw: Any) -> list[Any]:
        return [replace(j, confidence=confidences[j.response_index]) for j in judgements]

    return decide


def test_the_band_decides_what_is_sent(
    session_factory: Any, clean: FakeOpenAI, endpoint: None, monkeypatch: pytest.MonkeyPatch
) -> None:
    import claims.audit
    from api.documents import audit_document
    from workers import services

    # claim 0 is a rule conflict in the band: never sent; 1 (0.9) and 4 (0.3) are confident
    # (outside [0.35, 0.75]); 2 (0.5) and 3 (0.75, the bound) are uncertain: sent
    confidences = [0.5, 0.9, 0.5, 0.75, 0.3]
    monkeypatch.setattr(claims.audit, "decide", _decide_with(confidences))
    with session_scope(session_factory) as s:
        audit, _ = repo.create_audit(
            s,
            repo.NewAudit(
                response=RESPONSE,
                references=[REFERENCE],
                request_sha256=uuid.uuid4().hex,
                config={"judge": "auto", "llm_band": [0.35, 0.75]},
            ),
        )
        # marked as sent: else the LLM worker's sweeper, running in this session, takes the
        # audit once it is UNSENT_AFTER_S old and judges it too, with the worker's own decision
        audit.enqueued_at = datetime.now(UTC)
        aid = audit.id
    for stage in (services.decompose_audit, services.embed_audit, services.match_audit):
        with session_scope(session_factory) as s:
            stage(s, aid, factory=session_factory)
    with session_scope(session_factory) as s:
        services.score_audit_stage(s, aid)
        repo.mark_done(s, aid)
    with session_factory() as s:
        doc = audit_document(s, aid)
    assert doc is not None
    claims_ = [c for c in doc["claims"] if c["role"] == "response"]
    assert clean.count("judge") == 1
    assert sent_claims(clean) == [claims_[2]["text"], claims_[3]["text"]]
    assert [c["judge"] is not None for c in claims_] == [False, False, True, True, False]
    for c, given in zip(claims_, confidences, strict=True):  # kept unless the judge changed it
        changed = c["judge"] is not None and not c["judge"]["agrees"]
        assert c["confidence"] == (None if changed else given)
    assert doc["usage"]["llm_judged_share"] == pytest.approx(2 / 5)
