"""The admission path without services (``service.admission``, ``service.rate_limits``): each check
refuses what it must, a refused request counts nothing, an extra check plugs in, and the limits
hold per process while the counter store does not answer."""

from __future__ import annotations

import time
from typing import Any

import pytest

from service import admission
from service.rate_limits import RateLimiter
from service.settings import Settings

BODY = {"response": "Water boils at 90 °C.", "references": ["Water boils at 100 °C."], "config": {}}


def _settings(**values: Any) -> Settings:
    return Settings(**values)


class Counter:
    """A limiter that records what it was asked to count and refuses nothing."""

    def __init__(self) -> None:
        self.counted: list[tuple[str | None, int, str | None]] = []

    def audits(self, key: str | None, per_minute: int, count: int, **tenant: Any) -> None:
        self.counted.append((key, count, tenant.get("tenant")))


WHO = admission.Submitter("t1", "key-1", 0)


@pytest.mark.parametrize(
    ("body", "expected"),
    [
        ({**BODY, "response": "a\x00b"}, "response: must not contain NUL"),
        ({**BODY, "question": "\ud800"}, "question: must not contain lone surrogates"),
        ({**BODY, "metadata": {"k": ["x", "y\x00"]}}, "metadata.k[1]: must not contain NUL"),
        ({**BODY, "references": [{"text": "x", "title": "\udfff"}]}, "references[0].title"),
        ({**BODY, "metadata": {"n": float("nan")}}, "metadata.n: must be a finite number"),
    ],
)
def test_every_string_of_an_audit_is_checked(body: dict[str, Any], expected: str) -> None:
    counter = Counter()
    found = admission.admit(WHO, [body, BODY], settings=_settings(), limiter=counter)
    assert found[0] is not None and found[0].status == 422 and expected in found[0].detail
    assert found[1] is None and counter.counted == [("key-1", 1, "t1")]  # only the admitted one counts


@pytest.mark.parametrize(
    ("name", "expected"),
    [
        (admission.Name(("body", "items", 0, "id"), "a\x00"), "items.0.id: must not contain NUL"),
        (admission.Name(("body", "label"), "\ud800"), "label: must not contain lone surrogates"),
        (
            admission.Name(("body", "suite"), "s" * 201, admission.NAME_CHARS),
            "201 characters, over the limit of 200",
        ),
    ],
)
def test_a_name_that_cannot_be_stored_refuses_the_whole_request(name: admission.Name, expected: str) -> None:
    counter = Counter()
    with pytest.raises(admission.Refused) as err:
        admission.admit(WHO, [BODY], settings=_settings(), limiter=counter, names=[name])
    assert err.value.refusal.status == 422 and expected in err.value.refusal.detail
    assert err.value.refusal.loc == name.loc and counter.counted == []


def test_sizes_are_413_naming_the_setting() -> None:
    settings = _settings(max_text_chars=10, max_total_chars=15)
    long = admission.admit(WHO, [{**BODY, "response": "x" * 11}], settings=settings)[0]
    assert long is not None and long.status == 413 and "MAX_TEXT_CHARS" in long.detail
    total = admission.admit(WHO, [{"response": "x" * 8, "references": ["y" * 8]}], settings=settings)[0]
    assert total is not None and total.status == 413 and "MAX_TOTAL_CHARS" in total.detail


def test_question_and_metadata_sizes_are_413_naming_the_setting() -> None:
    # both are stored with the audit and shown in every listing: a 2,000,000-character question
    # or 5 MB of metadata was accepted (202) and made GET /audits answer megabytes
    settings = _settings(max_question_chars=20, max_metadata_bytes=30)
    question = admission.admit(WHO, [{**BODY, "question": "q" * 21}], settings=settings)[0]
    assert question is not None and question.status == 413 and "MAX_QUESTION_CHARS" in question.detail
    assert question.loc == ("body", "question")
    metadata = {"k": "é" * 13}  # {"k":"ééé..."}: 8 + 13 x 2 bytes = 34 bytes of UTF-8 JSON
    big = admission.admit(WHO, [{**BODY, "metadata": metadata}], settings=settings)[0]
    assert big is not None and big.status == 413 and "MAX_METADATA_BYTES" in big.detail
    assert big.loc == ("body", "metadata")
    fits = {"question": "q" * 20, "metadata": {"k": "é" * 11}}  # 20 characters; 30 bytes
    assert admission.admit(WHO, [{**BODY, **fits}], settings=settings) == [None]


def test_models_outside_the_allow_list_and_llm_without_endpoint_are_422() -> None:
    configured = _settings(openai_base_url="http://127.0.0.1:9/v1", allowed_llm_models=("small-chat",))
    evil = admission.admit(WHO, [{**BODY, "config": {"llm_model": "gpt-evil"}}], settings=configured)[0]
    assert evil is not None and evil.status == 422 and "ALLOWED_LLM_MODELS" in evil.detail
    bare = admission.admit(WHO, [{**BODY, "config": {"judge": "llm"}}], settings=_settings())[0]
    assert bare is not None and "no LLM endpoint configured" in bare.detail
    with pytest.raises(admission.Refused, match="ALLOWED_LLM_MODELS"):  # a suite's config on its own
        admission.admit(WHO, [], settings=configured, config={"llm_model": "gpt-evil"})


def test_more_audits_than_a_minute_allows_is_413_for_the_key_and_the_tenant() -> None:
    with pytest.raises(admission.Refused, match="your limit of 3 audits per minute") as err:
        admission.admit(admission.Submitter("t", "k", 3), [BODY] * 4, settings=_settings(), limiter=Counter())
    assert err.value.refusal.status == 413
    tenant = _settings(tenant_audits_per_minute=2)
    with pytest.raises(admission.Refused, match="TENANT_AUDITS_PER_MINUTE"):
        admission.admit(admission.Submitter("t"), [BODY] * 3, settings=tenant, limiter=Counter())


def test_an_extra_check_plugs_in_and_a_refusal_counts_nothing() -> None:
    seen: list[tuple[str, int]] = []

    def backlog(who: admission.Submitter, count: int) -> admission.Refusal | None:
        seen.append((who.tenant_id, count))
        return admission.Refusal(503, "backlog full", retry_after=30) if count > 1 else None

    counter = Counter()
    assert admission.admit(WHO, [BODY], settings=_settings(), limiter=counter, checks=[backlog]) == [None]
    with pytest.raises(admission.Refused, match="backlog full"):
        admission.admit(WHO, [BODY, BODY], settings=_settings(), limiter=counter, checks=[backlog])
    assert seen == [("t1", 1), ("t1", 2)] and counter.counted == [("key-1", 1, "t1")]


def test_limits_hold_per_process_while_the_counter_store_is_down() -> None:
    # nothing listens on port 1: every Redis call fails at once; the memory counters take over
    limiter = RateLimiter("redis://127.0.0.1:1/0")
    started = time.monotonic()
    answers = [limiter.request("k", 5) for _ in range(8)]
    assert [a is None for a in answers] == [True] * 5 + [False] * 3
    assert answers[-1] is not None and answers[-1].limit == "requests_per_second"
    assert limiter.local
    assert limiter.audits("k", 0, 3, tenant="t", tenant_per_minute=4) is None
    refused = limiter.audits("k2", 0, 2, tenant="t", tenant_per_minute=4)  # same tenant, other key
    assert refused is not None and refused.limit == "tenant_audits_per_minute"
    assert time.monotonic() - started < 5  # no connection is waited for per request


def test_a_tenant_limit_is_shared_by_its_keys_and_a_refusal_counts_nothing() -> None:
    limiter = RateLimiter("memory://")
    assert limiter.request("k1", 0, tenant="t", tenant_per_second=3) is None
    assert limiter.request("k2", 0, tenant="t", tenant_per_second=3) is None
    assert limiter.request("k3", 0, tenant="t", tenant_per_second=3) is None
    refused = limiter.request("k4", 0, tenant="t", tenant_per_second=3)
    assert refused is not None and refused.limit == "tenant_requests_per_second"
    assert limiter.request("k5", 0, tenant="other", tenant_per_second=3) is None
    # a key over its own limit is refused before the tenant is counted
    limiter2 = RateLimiter("memory://")
    assert limiter2.audits("k", 1, 1, tenant="t", tenant_per_minute=2) is None
    assert limiter2.audits("k", 1, 1, tenant="t", tenant_per_minute=2) is not None
    assert limiter2.audits("k-other", 1, 1, tenant="t", tenant_per_minute=2) is None
