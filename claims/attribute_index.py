"""An indexed stand-in for the Matcher inside spaCy's ``attribute_ruler``: the same matches, found
by looking each token up instead of trying every pattern on it.

The small English pipeline's attribute ruler (``en-core-web-sm``: 179 patterns; 171 of them one
token long) maps fine-grained tags to coarse parts of speech and morphology, and fixes a few
lemmas and tags. spaCy's ``Matcher`` tries every pattern at every token: on the bench workload
that was 0.34 s for 20,000 tokens, as much as the tagger and the parser together (0.35 s).

Here a one-token pattern is a test of four token attributes (``LOWER``, ``TAG``, ``DEP``,
``IS_SPACE``); the set of one-token keys that match a token depends only on those four values, so
it is worked out once per combination and remembered, read for all tokens at once
(``Doc.to_array``). Longer patterns (8 in the small model, two tokens each, none with an
operator) are tried where a token matches their first token. The result is the list of
``(key, start, end)`` the full Matcher returns, in another order: ``AttributeRuler.match``
sorts it before applying the attributes.

``install`` refuses (returns False, and the ruler keeps spaCy's Matcher) a pipeline whose
patterns use anything else: another attribute, an operator (``OP``), a predicate other than
equality, ``IN``, ``NOT_IN`` and ``REGEX``. ``tests/unit/test_attribute_index.py`` compares the
two matchers on every sentence of the shared cases and on constructions each pattern kind covers.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterable
from typing import Any

__all__ = ["IndexedMatcher", "install"]

#: token attribute -> how to read it from a spaCy ``Token`` (the Matcher compares strings / bools)
_READERS: dict[str, Callable[[Any], Any]] = {
    "LOWER": lambda t: t.lower_,
    "TAG": lambda t: t.tag_,
    "DEP": lambda t: t.dep_,
    "IS_SPACE": lambda t: t.is_space,
}
#: remembered combinations before the memo starts again (a long-lived worker meets new words)
_MEMO_SIZE = 200_000


class UnsupportedPattern(ValueError):
    """A pattern this index cannot evaluate exactly; the ruler keeps spaCy's Matcher."""


def _value_test(value: Any) -> Callable[[Any], bool]:
    """A test of one attribute's value as the Matcher does it: equality, ``IN``, ``NOT_IN``,
    ``REGEX`` (``re.search``)."""
    if not isinstance(value, dict):
        return lambda v: bool(v == value)
    if len(value) != 1:
        raise UnsupportedPattern(f"predicate with several operators: {value!r}")
    ((op, arg),) = value.items()
    if op == "IN":
        options = frozenset(arg)
        return lambda v: v in options
    if op == "NOT_IN":
        excluded = frozenset(arg)
        return lambda v: v not in excluded
    if op == "REGEX":
        pattern = re.compile(arg)
        return lambda v: isinstance(v, str) and pattern.search(v) is not None
    raise UnsupportedPattern(f"operator {op!r}")


def _exact_values(value: Any) -> list[Any] | None:
    """The values an attribute's predicate accepts when it names them (equality, ``IN``)."""
    if isinstance(value, str):
        return [value]
    return list(value["IN"]) if isinstance(value, dict) and "IN" in value else None


def _token_test(spec: dict[str, Any]) -> Callable[[Any], bool]:
    """A test of one token against one token specification of a pattern."""
    tests = []
    for attr, value in spec.items():
        reader = _READERS.get(attr.upper())
        if reader is None:
            raise UnsupportedPattern(f"attribute {attr!r}")
        tests.append((reader, _value_test(value)))
    return lambda tok: all(test(read(tok)) for read, test in tests)


class IndexedMatcher:
    """Called as spaCy's ``Matcher`` is by ``AttributeRuler.match``; same matches as ``matcher``.

    Parameters
    ----------
    matcher : spacy.matcher.Matcher
        The attribute ruler's own Matcher (kept for ``get`` and for the longer patterns' keys).
    keys : iterable of int
        The Matcher's keys (string-store hashes of "0", "1", ...: ``AttributeRuler.add``).

    Raises
    ------
    UnsupportedPattern
        A pattern uses an attribute, operator or predicate the index does not evaluate.
    """

    def __init__(self, matcher: Any, keys: Iterable[int]) -> None:
        from spacy.attrs import DEP, IS_SPACE, LOWER, TAG

        self._matcher = matcher
        self._signature_attrs = [LOWER, TAG, DEP, IS_SPACE]  # what a one-token pattern reads
        # one-token alternatives (key, test), filed under an exact LOWER or TAG value they need
        # (each value of an ``IN``), or kept aside to be tried on every token
        self._by_lower: dict[str, list[tuple[int, Callable[[Any], bool]]]] = {}
        self._by_tag: dict[str, list[tuple[int, Callable[[Any], bool]]]] = {}
        self._general: list[tuple[int, Callable[[Any], bool]]] = []
        # longer patterns (key, one test per token): fixed length, as none has an operator
        self._sequences: list[tuple[int, tuple[Callable[[Any], bool], ...]]] = []
        for key in keys:
            _, patterns = matcher.get(key)
            for p in patterns:
                if any("OP" in spec for spec in p):
                    raise UnsupportedPattern("operator 'OP'")
                if not p:
                    raise UnsupportedPattern("empty pattern")
                if len(p) == 1:
                    self._file(key, p[0])
                else:
                    self._sequences.append((key, tuple(_token_test(spec) for spec in p)))
        self._memo: dict[tuple[int, ...], tuple[tuple[int, ...], tuple[int, ...]]] = {}

    def _file(self, key: int, spec: dict[str, Any]) -> None:
        entry = (key, _token_test(spec))
        for attr, index in (("LOWER", self._by_lower), ("TAG", self._by_tag)):
            values = _exact_values(spec.get(attr))
            if values is not None and all(isinstance(v, str) for v in values):
                for v in values:
                    index.setdefault(v, []).append(entry)
                return
        self._general.append(entry)

    def _look_up(self, tok: Any) -> tuple[tuple[int, ...], tuple[int, ...]]:
        """The keys of the one-token patterns ``tok`` matches (each once), and the longer
        patterns (positions in ``_sequences``) whose first token it matches."""
        candidates = (*self._by_lower.get(tok.lower_, ()), *self._by_tag.get(tok.tag_, ()), *self._general)
        keys = tuple(dict.fromkeys(key for key, test in candidates if test(tok)))
        return keys, tuple(n for n, (_, tests) in enumerate(self._sequences) if tests[0](tok))

    def __call__(self, doc: Any, *, allow_missing: bool = False, as_spans: bool = False) -> list[Any]:
        """The ``(key, start, end)`` matches of ``doc`` (``as_spans`` is not supported), each
        once, as the Matcher gives them."""
        if as_spans:
            raise ValueError("IndexedMatcher returns (key, start, end) tuples only")
        memo = self._memo
        out: list[Any] = []
        longer: set[tuple[int, int, int]] = set()
        # the four attributes of every token at once: no Token object unless a look-up needs one
        for i, signature in enumerate(map(tuple, doc.to_array(self._signature_attrs).tolist())):
            found = memo.get(signature)
            if found is None:
                if len(memo) >= _MEMO_SIZE:
                    memo.clear()
                found = memo[signature] = self._look_up(doc[i])
            keys, starts = found
            out.extend((key, i, i + 1) for key in keys)
            for n in starts:
                key, tests = self._sequences[n]
                end = i + len(tests)
                if end <= len(doc) and all(test(doc[i + k]) for k, test in enumerate(tests[1:], 1)):
                    longer.add((key, i, end))
        out.extend(sorted(longer))
        return out

    def add(self, *args: Any, **kwargs: Any) -> None:
        """Refused: the index is built once from the ruler's patterns (``install``)."""
        raise TypeError("the attribute ruler's patterns are fixed once indexed (claims.attribute_index)")

    remove = add

    def get(self, key: Any, default: Any = None) -> Any:
        """The patterns of ``key``, from the ruler's own Matcher (``AttributeRuler.patterns``)."""
        return self._matcher.get(key, default)

    def __len__(self) -> int:
        return len(self._matcher)

    def __contains__(self, key: Any) -> bool:
        return key in self._matcher


def install(ruler: Any) -> bool:
    """Put an ``IndexedMatcher`` in place of ``ruler``'s Matcher (a spaCy ``AttributeRuler``);
    False, leaving the ruler as it was, when a pattern is one the index does not evaluate."""
    if isinstance(ruler.matcher, IndexedMatcher):
        return True
    keys = [ruler.vocab.strings[str(i)] for i in range(len(ruler.attrs))]
    try:
        ruler.matcher = IndexedMatcher(ruler.matcher, keys)
    except UnsupportedPattern:
        return False
    return True
