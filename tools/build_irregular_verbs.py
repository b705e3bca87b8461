#!/usr/bin/env python3
"""Add WordNet's irregular verb forms to ``claims/data/irregular_verbs.tsv``.

Usage: python tools/build_irregular_verbs.py [--wordnet /usr/share/wordnet]

Source: WordNet 3.0's morphological exception list ``verb.exc`` (Debian package
``wordnet-base``; licence notice in ``claims/data/WORDNET_LICENSE.txt``), one "form base" per
line ("beaten beat", "went go"). A form is kept when it is an irregular past or participle: not
itself a noun or verb lemma of WordNet (``index.noun``, ``index.verb``: "left", "found", "saw",
"felt" stay out, as the hand rows' header asks), a single word, its base a verb lemma, and not a
regular spelling the stemmer reads anyway (-ed, -ing, -es). The hand rows above the marker line
are kept as they are; the rows below it are rewritten. The product reads only the data file.
"""

from __future__ import annotations

import argparse
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
TARGET = ROOT / "claims" / "data" / "irregular_verbs.tsv"
MARKER = "# WordNet 3.0 verb.exc (tools/build_irregular_verbs.py; claims/data/WORDNET_LICENSE.txt)"


def _lemmas(wordnet: Path, pos: str) -> set[str]:
    lines = (wordnet / f"index.{pos}").read_text(encoding="utf-8").splitlines()
    return {line.split(" ", 1)[0] for line in lines if line and not line.startswith(" ")}


def wordnet_rows(wordnet: Path) -> list[tuple[str, str]]:
    """The kept ``(form, base)`` pairs of ``verb.exc``, sorted (module docstring)."""
    nouns, verbs = _lemmas(wordnet, "noun"), _lemmas(wordnet, "verb")
    rows = set()
    for line in (wordnet / "verb.exc").read_text(encoding="utf-8").splitlines():
        form, *bases = line.split()
        if not bases or not form.isalpha() or form in nouns or form in verbs:
            continue
        if bases[0] in verbs and not form.endswith(("ed", "ing", "es")):
            rows.add((form, bases[0]))
    return sorted(rows)


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n", 1)[0])
    ap.add_argument("--wordnet", type=Path, default=Path("/usr/share/wordnet"))
    args = ap.parse_args()
    lines = TARGET.read_text(encoding="utf-8").splitlines()
    head = lines[: lines.index(MARKER)] if MARKER in lines else lines
    hand = {line.split("\t")[0] for line in head if line and not line.startswith("#")}
    added = [f"{form}\t{base}" for form, base in wordnet_rows(args.wordnet) if form not in hand]
    TARGET.write_text("\n".join([*head, MARKER, *added]) + "\n", encoding="utf-8")
    print(f"{len(hand)} hand rows, {len(added)} from WordNet -> {TARGET.relative_to(ROOT)}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
