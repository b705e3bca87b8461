"""pytest plugin (entry point ``pytest11``): the ``assert_claims`` fixture, a claim-level gate.

.. code-block:: python

    def test_answer_keeps_the_facts(assert_claims):
        assert_claims(
            "The Halvorsen Bridge opened in 1998.",
            ["The Halvorsen Bridge opened to traffic on 12 May 1998."],
            fail_on={"contradicted", "qualification_dropped"},
        )

``assert_claims(response, references, fail_on=..., *, question=None, config=None)`` audits the
response and raises ``AssertionError`` when a response claim has one of the ``fail_on``
verdicts (default ``contradicted`` and ``qualification_dropped``); the message lists each such
claim with its verdict, reason and best evidence. It returns the audit's document
(:class:`claimaudit.AuditDocument`) for further checks.

Where: in memory (:func:`claimaudit.audit_offline`) by default; against a running API when
``CLAIMAUDIT_API_URL`` is set (key: ``CLAIMAUDIT_API_KEY``, else the local stack's), where the
LLM config keys work too and the message ends with the audit's page URL.
"""

from __future__ import annotations

import os
from collections.abc import Collection, Iterator, Mapping, Sequence
from typing import Any

import pytest

from claimaudit.models import VERDICTS, AuditDocument, Claim

__all__ = ["DEFAULT_FAIL_ON", "ClaimGate", "failure_message", "assert_claims"]

#: Verdicts that fail ``assert_claims`` unless ``fail_on`` says otherwise.
DEFAULT_FAIL_ON = frozenset({"contradicted", "qualification_dropped"})


def _quote(text: str, limit: int = 200) -> str:
    flat = " ".join(text.split())
    return repr(flat if len(flat) <= limit else flat[: limit - 1] + "…")


def _claim_lines(claim: Claim) -> list[str]:
    lines = [f"  [{claim.position}] {claim.verdict}: {_quote(claim.text)}"]
    if claim.reason:
        lines.append(f"      reason: {claim.reason}")
    if claim.evidence:
        best = claim.evidence[0]
        where = f"reference {best.reference}, chars {best.start}-{best.end}"
        lines.append(f"      evidence ({where}, cosine {best.similarity:.2f}): {_quote(best.text)}")
    else:
        lines.append("      evidence: none in the references")
    return lines


def failure_message(
    doc: AuditDocument, failing: Sequence[Claim], fail_on: Collection[str], where: str
) -> str:
    """The ``AssertionError`` text: how many response claims have a ``fail_on`` verdict, then
    each with its reason and best evidence, then where the audit ran."""
    total = len(doc.response_claims)
    names = " or ".join(sorted(fail_on))
    head = f"{len(failing)} of {total} response claims are {names}:"
    body = [line for claim in failing for line in _claim_lines(claim)]
    return "\n".join([head, *body, where])


class ClaimGate:
    """The ``assert_claims`` callable: audits in memory, or through ``client`` when given."""

    def __init__(self, client: Any | None = None) -> None:
        self.client = client

    def audit(
        self,
        response: str,
        references: Sequence[str],
        *,
        question: str | None,
        config: Mapping[str, Any] | None,
    ) -> tuple[AuditDocument, str]:
        """The audit's document and a line saying where it ran."""
        if self.client is None:
            from claimaudit.offline import audit_offline

            return audit_offline(
                response, references, question=question, config=config
            ), "(audited in memory)"
        doc = self.client.audit(response, references, question=question, config=dict(config or {}) or None)
        return doc, f"(audited by {self.client.base_url}; page: {self.client.page_url(doc.id)})"

    def __call__(
        self,
        response: str,
        references: Sequence[str],
        fail_on: Collection[str] = DEFAULT_FAIL_ON,
        *,
        question: str | None = None,
        config: Mapping[str, Any] | None = None,
    ) -> AuditDocument:
        """Audit and fail on ``fail_on`` verdicts (module docstring); returns the document.

        Raises ``ValueError`` for a verdict name that does not exist (a typo must not make the
        gate pass) and ``AssertionError`` when the audit did not end ``done``.
        """
        __tracebackhide__ = True
        wanted = frozenset(fail_on)
        unknown = sorted(wanted - set(VERDICTS))
        if unknown:
            raise ValueError(f"fail_on: unknown verdict(s) {unknown}; choose from {list(VERDICTS)}")
        doc, where = self.audit(response, references, question=question, config=config)
        if doc.status != "done":
            raise AssertionError(f"the audit ended {doc.status}: {doc.error} {where}")
        failing = doc.claims_with(wanted)
        if failing:
            raise AssertionError(failure_message(doc, failing, wanted, where))
        return doc


@pytest.fixture(scope="session")
def claimaudit_client() -> Iterator[Any | None]:
    """A :class:`claimaudit.Client` of ``CLAIMAUDIT_API_URL`` for the session, or None (in memory)."""
    if not os.environ.get("CLAIMAUDIT_API_URL", "").strip():
        yield None
        return
    from claimaudit.client import Client

    with Client() as client:
        yield client


@pytest.fixture
def assert_claims(claimaudit_client: Any | None) -> ClaimGate:
    """``assert_claims(response, references, fail_on={...})``: see :mod:`claimaudit.pytest_plugin`."""
    return ClaimGate(claimaudit_client)
