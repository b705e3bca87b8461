"""Audits in other languages: sentence-level claims with numbers, dates,
units and negation still compared. Each row is one kind: a wrong value in German, Spanish,
French, Chinese and Japanese is contradicted, the same value supported, a denial in Spanish
and French flips polarity. Texts written for this test; expected verdicts are the product's
definitions (README, "How a verdict is reached")."""

from __future__ import annotations

import pytest

from claims.audit import audit_texts
from claims.types import Verdict


def _verdicts(response: str, reference: str) -> list[Verdict]:
    report = audit_texts(response, [reference])
    return [j.verdict for j in report.judgements]


@pytest.mark.parametrize(
    ("reference", "response"),
    [
        ("Der Turm ist 120 Meter hoch.", "Der Turm ist 150 Meter hoch."),
        ("La torre mide 300 metros.", "La torre mide 330 metros."),
        ("La tour mesure 300 mètres et a ouvert en 1889.", "La tour mesure 330 mètres."),
        ("该桥于1998年开通，全长1420米。", "该桥全长1500米。"),
        ("大桥长1420米。它于1998年开通。", "它于2001年开通。"),
        ("橋の長さは610メートルです。1979年に開通した。", "橋の長さは650メートルです。"),
        ("彼女は17歳でデビューした。", "彼女は19歳でデビューした。"),
    ],
)
def test_a_wrong_value_in_another_language_is_contradicted(reference: str, response: str) -> None:
    assert _verdicts(response, reference) == [Verdict.CONTRADICTED]


@pytest.mark.parametrize(
    ("reference", "response"),
    [
        ("La torre mide 300 metros.", "La torre mide 300 metros."),
        ("该桥于1998年开通。", "该桥于1998年开通。"),
        ("東京タワーの高さは333メートルです。", "東京タワーの高さは333メートルです。"),
    ],
)
def test_the_same_value_in_another_language_is_supported(reference: str, response: str) -> None:
    assert _verdicts(response, reference) == [Verdict.SUPPORTED]


@pytest.mark.parametrize(
    ("reference", "response"),
    [
        ("El museo no abre los lunes.", "El museo abre los lunes."),
        # French denial "ne ... pas" around an elided verb ("n'ouvre")
        ("Le musée n'ouvre pas le lundi.", "Le musée ouvre le lundi."),
    ],
)
def test_a_denial_in_another_language_flips_polarity(reference: str, response: str) -> None:
    assert _verdicts(response, reference) == [Verdict.CONTRADICTED]


def test_a_wrong_year_in_a_sentence_level_claim_is_never_supported() -> None:
    # no parser for Spanish: the claim stays one sentence with two values, one of them wrong
    reference = "El puente mide 610 metros. Abrió en 1979."
    verdicts = _verdicts("El puente mide 610 metros y abrió en 1981.", reference)
    assert Verdict.SUPPORTED not in verdicts
