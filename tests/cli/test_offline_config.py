"""``claimaudit.offline.audit_offline`` takes the engine's own config keys, ``references`` among
them, and refuses the ones that need the service."""

from __future__ import annotations

import pytest

from claimaudit.offline import audit_offline

REFERENCE = "The Skarvik ferry entered service in 1998. It carries up to 420 passengers."


@pytest.mark.parametrize("mode", ["full", "evidence"])
def test_the_reference_mode_is_accepted_offline(mode: str) -> None:
    doc = audit_offline(
        "The Skarvik ferry entered service in 1998.", [REFERENCE], config={"references": mode}
    )
    assert doc.config == {"references": mode}
    # the response restates the reference's first sentence: one claim, supported in either mode
    assert [c.verdict for c in doc.claims if c.role == "response"] == ["supported"]


@pytest.mark.parametrize(
    ("config", "message"),
    [({"references": "some"}, "references"), ({"llm_model": "gpt-x"}, "offline audits use only")],
)
def test_an_unknown_mode_or_a_service_key_is_refused(config: dict[str, str], message: str) -> None:
    with pytest.raises(ValueError, match=message):
        audit_offline("The ferry entered service in 1998.", [REFERENCE], config=config)
