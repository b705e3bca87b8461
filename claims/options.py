"""The options of one audit, worked out once from its ``config`` (and the deployment's defaults).

``AuditOptions.from_config(config, settings)`` is the one place that turns a per-audit
``config`` mapping into the values every path uses: the API (``effective_config`` of the
result document), the workers (each stage), the in-memory path (``claims.audit.audit_texts``,
``tools/inprocess_batch.py``) and the CLI (``claimaudit audit --offline``).

Config keys (all optional; an unknown key is an error):

=====================  ==========================  ============================================
key                    default                     meaning
=====================  ==========================  ============================================
``threshold``          ``DEFAULT_THRESHOLD`` 0.65  cosine threshold in [-1, 1]
``case_insensitive``   false                       Levenshtein scores ignore case
``remove_punctuation`` false                       Levenshtein scores ignore punctuation
``decomposer``         settings ``decomposer``     ``offline`` | ``llm``
``judge``              settings ``judge``          ``none`` | ``llm`` (every claim) | ``auto``
                                                   (only claims whose confidence is in the band)
``embedder``           settings ``embedder``       ``local`` | ``openai``
``llm_band``           settings ``llm_band``       ``[low, high]``, 0 <= low <= high <= 1
                       (0.0, 0.6)
``llm_model``          settings                    chat model name (non-blank)
``embedding_model``    settings                    embedding model name (non-blank)
``llm_on_error``       settings ``llm_on_error``   ``offline``: when the LLM decomposer or judge
                       (``offline``)               fails, the offline result stands (and says so);
                                                   ``fail``: the audit fails with the LLM's error
``references``         ``full``                    ``full``: every reference is decomposed (a
                                                   ground truth: recall counts all of it);
                                                   ``evidence``: in an audit with many references,
                                                   only those that can be evidence for a response
                                                   claim (``claims.lazy_references``)
=====================  ==========================  ============================================

``settings`` is any object with the attributes ``decomposer``, ``judge``, ``embedder``,
``llm_band`` and ``llm_on_error`` (``service.settings.Settings``); missing attributes take the
defaults above. The domain core never reads the environment itself.
"""

from __future__ import annotations

import math
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from claims.match import DEFAULT_THRESHOLD

__all__ = [
    "DECOMPOSERS",
    "JUDGES",
    "EMBEDDERS",
    "ON_LLM_ERROR",
    "REFERENCE_MODES",
    "DEFAULT_LLM_BAND",
    "CONFIG_KEYS",
    "AuditOptions",
]

DECOMPOSERS: tuple[str, ...] = ("offline", "llm")
JUDGES: tuple[str, ...] = ("none", "llm", "auto")
EMBEDDERS: tuple[str, ...] = ("local", "openai")
#: What an audit does when its LLM decomposer or judge fails: keep the offline result, or fail.
ON_LLM_ERROR: tuple[str, ...] = ("offline", "fail")
#: Which references an audit decomposes: all, or the candidate evidence (``claims.lazy_references``).
REFERENCE_MODES: tuple[str, ...] = ("full", "evidence")

#: Confidences in ``[low, high]`` count as uncertain under ``judge = "auto"``. A verdict's
#: confidence is the calibrated probability that it is right (``claims.decision``), so every
#: verdict at most 60 % likely to be right goes to the judge (about 18 % of the dev claims);
#: docs/CALIBRATION.md gives the share of claims sent and the accuracy of the rest for other bands.
DEFAULT_LLM_BAND: tuple[float, float] = (0.0, 0.6)

#: Every config key an audit may set.
CONFIG_KEYS: frozenset[str] = frozenset(
    {
        "threshold",
        "case_insensitive",
        "remove_punctuation",
        "decomposer",
        "judge",
        "embedder",
        "llm_band",
        "llm_model",
        "embedding_model",
        "llm_on_error",
        "references",
    }
)
_CHOICES: dict[str, tuple[str, ...]] = {
    "decomposer": DECOMPOSERS,
    "judge": JUDGES,
    "embedder": EMBEDDERS,
    "llm_on_error": ON_LLM_ERROR,
    "references": REFERENCE_MODES,
}


def _number(value: object) -> bool:
    return isinstance(value, int | float) and not isinstance(value, bool) and math.isfinite(value)


def _threshold(value: object) -> float:
    if not _number(value) or not -1.0 <= float(value) <= 1.0:  # type: ignore[arg-type]
        raise ValueError(f"config.threshold: must be a cosine in [-1, 1], got {value!r}")
    return float(value)  # type: ignore[arg-type]


def _band(value: object, name: str = "config.llm_band") -> tuple[float, float]:
    if not isinstance(value, list | tuple) or len(value) != 2 or not all(_number(v) for v in value):
        raise ValueError(f"{name}: must be [low, high], two numbers, got {value!r}")
    low, high = float(value[0]), float(value[1])
    if not 0.0 <= low <= high <= 1.0:
        raise ValueError(f"{name}: must satisfy 0 <= low <= high <= 1, got [{low}, {high}]")
    return low, high


def _check(config: Mapping[str, Any]) -> None:
    """Raise ``ValueError`` naming the key for an unknown key or a value of the wrong type."""
    for key, value in config.items():
        if key not in CONFIG_KEYS:
            raise ValueError(f"config.{key}: unknown key")
        if value is None:
            continue
        if key in ("case_insensitive", "remove_punctuation") and not isinstance(value, bool):
            raise ValueError(f"config.{key}: must be true or false, got {value!r}")
        if key in _CHOICES and value not in _CHOICES[key]:
            raise ValueError(f"config.{key}: must be one of {', '.join(_CHOICES[key])}, got {value!r}")
        if key in ("llm_model", "embedding_model") and (not isinstance(value, str) or not value.strip()):
            raise ValueError(f"config.{key}: must be a non-blank string")


@dataclass(frozen=True, slots=True)
class AuditOptions:
    """Everything an audit's config decides, resolved once (see the module docstring).

    Attributes
    ----------
    threshold : float
        Cosine threshold in [-1, 1].
    case_insensitive, remove_punctuation : bool
        Options of the Levenshtein scores (seed SDK).
    decomposer, judge, embedder : str
        The components: ``offline|llm``, ``none|llm|auto``, ``local|openai``.
    llm_band : (float, float)
        ``(low, high)`` with ``0 <= low <= high <= 1``: under ``judge = "auto"`` a verdict whose
        confidence lies in ``[low, high]`` (or has none) goes to the LLM judge.
    llm_on_error : str
        ``offline`` (the offline result stands when the LLM decomposer or judge fails) or ``fail``.
    references : str
        ``full`` (decompose every reference) or ``evidence`` (lazy: ``claims.lazy_references``).
    """

    threshold: float = DEFAULT_THRESHOLD
    case_insensitive: bool = False
    remove_punctuation: bool = False
    decomposer: str = "offline"
    judge: str = "none"
    embedder: str = "local"
    llm_band: tuple[float, float] = DEFAULT_LLM_BAND
    llm_on_error: str = "offline"
    references: str = "full"

    @classmethod
    def from_config(cls, config: Mapping[str, Any] | None, settings: object | None = None) -> AuditOptions:
        """The options of an audit whose config is ``config``, over the defaults of ``settings``.

        A key whose value is None takes the default.

        Raises
        ------
        ValueError
            An unknown key or an invalid value; the message names the key (``config.<key>: ...``).

        Examples
        --------
        >>> AuditOptions.from_config({"threshold": 0.5}).threshold
        0.5
        >>> AuditOptions.from_config({}).judge
        'none'
        """
        config = dict(config or {})
        _check(config)

        def pick(key: str, default: Any) -> Any:
            value = config.get(key)
            return getattr(settings, key, default) if value is None else value

        threshold = config.get("threshold")
        return cls(
            threshold=DEFAULT_THRESHOLD if threshold is None else _threshold(threshold),
            case_insensitive=bool(config.get("case_insensitive") or False),
            remove_punctuation=bool(config.get("remove_punctuation") or False),
            decomposer=str(pick("decomposer", "offline")),
            judge=str(pick("judge", "none")),
            embedder=str(pick("embedder", "local")),
            llm_band=_band(pick("llm_band", DEFAULT_LLM_BAND), "config.llm_band"),
            llm_on_error=str(pick("llm_on_error", "offline")),
            references=str(config.get("references") or "full"),
        )

    @property
    def lazy_references(self) -> bool:
        """True when only the candidate evidence among many references is decomposed
        (``references = "evidence"``, ``claims.lazy_references``)."""
        return self.references == "evidence"

    @property
    def uses_llm_judge(self) -> bool:
        """True when some verdicts may go to the LLM judge (``judge`` is ``llm`` or ``auto``)."""
        return self.judge in ("llm", "auto")

    def is_uncertain(self, confidence: float | None) -> bool:
        """True when ``confidence`` is None or lies in ``llm_band`` (bounds included).

        >>> AuditOptions(llm_band=(0.4, 0.7)).is_uncertain(0.7), AuditOptions().is_uncertain(0.9)
        (True, False)
        """
        low, high = self.llm_band
        return confidence is None or low <= confidence <= high

    def effective_config(self, config: Mapping[str, Any] | None = None) -> dict[str, Any]:
        """``config`` with the resolved threshold and Levenshtein flags (and the band under
        ``judge = "auto"``, the failure policy when an LLM decomposer or judge runs): the
        ``effective_config`` of the result document, JSON-ready."""
        out: dict[str, Any] = {
            **dict(config or {}),
            "threshold": self.threshold,
            "case_insensitive": self.case_insensitive,
            "remove_punctuation": self.remove_punctuation,
        }
        if self.judge == "auto":
            out["llm_band"] = list(self.llm_band)
        if self.decomposer == "llm" or self.uses_llm_judge:
            out["llm_on_error"] = self.llm_on_error
        return out
