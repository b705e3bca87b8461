"""Assembling step: the claims of one text from its items and parses: each parsed sentence
split into clauses (``claims.decompose.clauses``), rewritten (``claims.decompose.rewrite``)
and sorted by scope (``claims.scope``), with spans in the original text."""

from __future__ import annotations

from dataclasses import replace
from typing import Any

from claims.decompose.antecedents import Antecedents, note_people
from claims.decompose.clauses import split_sentence
from claims.decompose.items import OUT, Context, Item, ItemSentence, Raw, clean, plain_claim
from claims.decompose.rewrite import resolve
from claims.decompose.tree import render, trimmable
from claims.scope import is_outside_scope
from claims.types import ClaimKind


def _sentence_raws(sent: ItemSentence, doc: Any, ante: Antecedents) -> list[Raw]:
    """The claims of one parsed sentence, pronouns resolved against ``ante`` (updated)."""
    out: list[Raw] = []
    whole_outside = is_outside_scope(sent.analysis) and sent.analysis.rstrip().endswith(("?", "!"))
    for piece in split_sentence(doc):
        piece, ambiguous, named = resolve(doc, piece, ante)
        claim_text = clean(render(doc, piece))
        if not claim_text:
            continue
        ordered = sorted(piece.tokens)
        # a conjunct's span ends at its own last word, not at the sentence's final mark
        while len(ordered) > 1 and trimmable(doc[ordered[-1]]) and ordered[-2] != ordered[-1] - 1:
            ordered.pop()
        lo, hi = doc[ordered[0]], doc[ordered[-1]]
        start = sent.source(lo.idx)
        end = max(start, sent.source(hi.idx + len(hi.text)))
        if whole_outside or is_outside_scope(claim_text, imperative=piece.imperative):
            kind = OUT
            ambiguous = False
        else:
            kind = ClaimKind.MATERIAL
            if named:
                ante.update(*named)
        if not claim_text.endswith((".", "!", "?", "。", "！", "？")) and kind is ClaimKind.MATERIAL:
            claim_text += "."
        out.append(Raw(claim_text, start, end, kind, ambiguous))
    note_people(doc, ante)
    return out


def assemble_items(items: list[Item], docs: dict[int, Any]) -> list[Raw]:
    """Claims of one text from its items; ``docs`` maps item index -> parsed sentence."""
    out: list[Raw] = []
    ante = Antecedents()
    for k, item in enumerate(items):
        if isinstance(item, Context):
            ante.update(item.text, any(w[:1].isupper() for w in item.text.split()))
        elif isinstance(item, Raw):
            out.append(item)
        elif k in docs:
            out.extend(_sentence_raws(item, docs[k], ante))
        else:
            raw = plain_claim(item.analysis, 0, len(item.analysis))
            if raw is not None:
                out.append(replace(raw, start=item.start, end=item.end))
    return out
