"""``claims.options.AuditOptions``: one place that works out an audit's options."""

from __future__ import annotations

from typing import Any

import pytest

from claims.match import DEFAULT_THRESHOLD
from claims.options import DEFAULT_LLM_BAND, AuditOptions


class _Settings:
    """A deployment whose defaults differ from the engine's (the attributes of service.settings.Settings)."""

    judge = "auto"
    decomposer = "llm"
    embedder = "openai"
    llm_band = (0.2, 0.9)


@pytest.mark.parametrize(
    ("config", "settings", "expected"),
    [
        # nothing set: the engine defaults (DEFAULT_THRESHOLD, flags off, offline components,
        # the band of claims.options.DEFAULT_LLM_BAND written out: (0.0, 0.6))
        ({}, None, AuditOptions(DEFAULT_THRESHOLD, False, False, "offline", "none", "local", (0.0, 0.6))),
        (None, None, AuditOptions()),
        # config values win; an int threshold is a float
        (
            {"threshold": 1, "case_insensitive": True, "judge": "llm", "llm_band": [0.1, 0.2]},
            None,
            AuditOptions(1.0, True, False, "offline", "llm", "local", (0.1, 0.2)),
        ),
        # components and band default to the deployment's settings, threshold never does
        ({}, _Settings(), AuditOptions(DEFAULT_THRESHOLD, False, False, "llm", "auto", "openai", (0.2, 0.9))),
        (
            {"judge": "none", "llm_band": [0.5, 0.5]},
            _Settings(),
            AuditOptions(judge="none", decomposer="llm", embedder="openai", llm_band=(0.5, 0.5)),
        ),
        # None is "not set" (stored configs never hold it; the API refuses an explicit null)
        ({"threshold": None, "judge": None}, _Settings(), AuditOptions.from_config({}, _Settings())),
        # the model names are accepted and left to the LLM configuration
        ({"llm_model": "m", "embedding_model": "e"}, None, AuditOptions()),
    ],
)  # fmt: skip
def test_from_config(config: dict[str, Any] | None, settings: object, expected: AuditOptions) -> None:
    assert AuditOptions.from_config(config, settings) == expected


@pytest.mark.parametrize(
    ("config", "message"),
    [
        ({"thresold": 0.5}, "config.thresold: unknown key"),
        ({"threshold": 1.5}, "config.threshold"),
        ({"threshold": True}, "config.threshold"),
        ({"threshold": "0.5"}, "config.threshold"),
        ({"threshold": float("nan")}, "config.threshold"),
        ({"case_insensitive": 1}, "config.case_insensitive"),
        ({"judge": "sometimes"}, "config.judge"),
        ({"decomposer": "magic"}, "config.decomposer"),
        ({"llm_band": [0.8, 0.2]}, "config.llm_band"),
        ({"llm_band": [0.2]}, "config.llm_band"),
        ({"llm_band": [-0.1, 0.5]}, "config.llm_band"),
        ({"llm_band": "0.2,0.5"}, "config.llm_band"),
        ({"llm_model": " "}, "config.llm_model"),
    ],
)
def test_invalid_config_names_the_key(config: dict[str, Any], message: str) -> None:
    with pytest.raises(ValueError, match=message.replace(".", r"\.")):
        AuditOptions.from_config(config)


@pytest.mark.parametrize(
    ("band", "confidence", "uncertain"),
    [
        ((0.35, 0.75), None, True),  # no calibrated confidence: uncertain
        ((0.35, 0.75), 0.35, True),  # bounds included
        ((0.35, 0.75), 0.75, True),
        ((0.35, 0.75), 0.3499, False),
        ((0.35, 0.75), 0.7501, False),
        ((0.0, 0.0), 0.0, True),
        ((0.0, 0.0), 0.01, False),
    ],
)
def test_is_uncertain(band: tuple[float, float], confidence: float | None, uncertain: bool) -> None:
    assert AuditOptions(llm_band=band).is_uncertain(confidence) is uncertain


def test_effective_config_shows_what_runs() -> None:
    assert AuditOptions().effective_config({}) == {
        "threshold": DEFAULT_THRESHOLD,
        "case_insensitive": False,
        "remove_punctuation": False,
    }
    auto = AuditOptions.from_config({"judge": "auto"})
    assert auto.effective_config({"judge": "auto"}) == {
        "judge": "auto",
        "threshold": DEFAULT_THRESHOLD,
        "case_insensitive": False,
        "remove_punctuation": False,
        "llm_band": list(DEFAULT_LLM_BAND),
        "llm_on_error": "offline",  # the default failure policy of an LLM judge
    }
