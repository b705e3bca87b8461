"""Which audits the second auditor samples, and with which config (service.checks)."""

from __future__ import annotations

import uuid
from types import SimpleNamespace

import pytest

from service.checks import sampled, second_config

IDS = [uuid.uuid5(uuid.NAMESPACE_URL, f"audit-{i}") for i in range(4000)]


@pytest.mark.parametrize("share", [0.1, 0.3, 0.5])
def test_sample_share_is_kept_and_stable(share: float) -> None:
    picked = [a for a in IDS if sampled(a, share)]
    # a uniform hash: the share of 4,000 ids is within 3 standard errors (sqrt(p(1-p)/n) <= 0.008)
    assert abs(len(picked) / len(IDS) - share) < 0.025
    assert picked == [a for a in IDS if sampled(a, share)]
    assert set(picked) <= {a for a in IDS if sampled(a, min(1.0, share + 0.2))}  # nested samples


def test_no_share_no_sample_and_full_share_everything() -> None:
    assert not any(sampled(a, 0.0) for a in IDS[:100])
    assert all(sampled(a, 1.0) for a in IDS[:100])


@pytest.mark.parametrize(
    ("settings", "config"),
    [
        ({"second_audit_config": {"decomposer": "llm"}}, {"decomposer": "llm"}),
        ({"openai_base_url": "http://127.0.0.1:8001/v1"}, {"judge": "llm"}),
        ({}, {"threshold": 0.75}),
    ],
)
def test_second_config(settings: dict[str, object], config: dict[str, object]) -> None:
    base = {"second_audit_config": None, "openai_base_url": None, "openai_api_key": None}
    assert second_config(SimpleNamespace(**{**base, **settings})) == config
