"""``claimaudit.offline.audit_offline`` takes the engine's own config keys, ``references`` among
them, checks the config with the API's model and refuses the keys that need the service; its
document has the keys of the API's."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

from claimaudit.offline import audit_offline

ROOT = Path(__file__).resolve().parents[2]
CLAIMAUDIT = str(Path(sys.executable).parent / "claimaudit")
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
    [
        ({"references": "some"}, "references"),
        ({"llm_model": "gpt-x"}, "offline audits use only"),
        ({"judge": "llm"}, "got \\['judge'\\]"),
        ({"decomposer": "llm"}, "got \\['decomposer'\\]"),
    ],
)
def test_an_unknown_mode_or_a_service_key_is_refused(config: dict[str, str], message: str) -> None:
    with pytest.raises(ValueError, match=message):
        audit_offline("The ferry entered service in 1998.", [REFERENCE], config=config)


def test_service_keys_with_their_offline_values_are_accepted() -> None:
    """One config file serves the API and offline audits: the values an offline audit has anyway
    (claimaudit.offline.OFFLINE_VALUES) are accepted and shown in the effective config."""
    config = {"decomposer": "offline", "judge": "none", "embedder": "local", "references": "full"}
    doc = audit_offline("The Skarvik ferry entered service in 1998.", [REFERENCE], config=config)
    assert doc.config == config
    assert (doc.effective_config["decomposer"], doc.effective_config["judge"]) == ("offline", "none")
    assert [c.verdict for c in doc.claims if c.role == "response"] == ["supported"]


@pytest.mark.parametrize(
    ("config", "message"),
    [
        ({"threshold": None}, "config.threshold: Value error, must not be null"),
        ({"threshold": "0.8"}, "config.threshold: Input should be a valid number"),
        ({"threshold": 1.5}, "config.threshold: Input should be less than or equal to 1"),
        ({"colour": "red"}, "config.colour: Extra inputs are not permitted"),
    ],
)
def test_the_config_is_checked_by_the_api_model(config: dict[str, object], message: str) -> None:
    """The API's 422 for each of these configs (api.schemas.AuditConfig) is the offline refusal."""
    from pydantic import ValidationError

    from api.schemas import AuditConfig

    with pytest.raises(ValidationError):
        AuditConfig.model_validate(config)
    with pytest.raises(ValueError, match=message):
        audit_offline("The ferry entered service in 1998.", [REFERENCE], config=config)


def test_cli_null_config_is_a_usage_error_and_json_has_the_api_keys(tmp_path: Path) -> None:
    """``claimaudit audit --offline``: a null threshold exits 2 with the key named (no traceback);
    ``--json`` has the keys of ``GET /audits/{id}`` (``AuditDocument``; ``correction`` only after
    a method check), ``effective_config`` as ``api.documents.effective_config`` works it out."""
    from api.documents import effective_config
    from claimaudit.models import AuditDocument
    from claims.match import DEFAULT_THRESHOLD

    (tmp_path / "ref.txt").write_text(REFERENCE, encoding="utf-8")
    (tmp_path / "resp.txt").write_text("The Skarvik ferry entered service in 1998.", encoding="utf-8")

    def audit(config: str) -> subprocess.CompletedProcess[str]:
        return subprocess.run(
            [CLAIMAUDIT, "audit", "--offline", "--json", "-r", str(tmp_path / "ref.txt"),
             "--response", str(tmp_path / "resp.txt"), "--config", config],
            capture_output=True, text=True, timeout=600, stdin=subprocess.DEVNULL, cwd=ROOT,
        )  # fmt: skip

    bad = audit('{"threshold": null}')
    assert bad.returncode == 2, bad.stdout + bad.stderr
    assert "config.threshold" in bad.stderr and "must not be null" in bad.stderr
    assert "Traceback" not in bad.stderr
    good = audit('{"case_insensitive": true}')
    assert good.returncode == 0, good.stderr
    doc = json.loads(good.stdout)
    assert set(doc) == set(AuditDocument.model_fields) - {"correction"}
    assert doc["config"] == {"case_insensitive": True}
    assert doc["effective_config"] == effective_config({"case_insensitive": True}, DEFAULT_THRESHOLD)
    assert doc["effective_config"] == {
        "case_insensitive": True, "threshold": DEFAULT_THRESHOLD, "remove_punctuation": False
    }  # fmt: skip
