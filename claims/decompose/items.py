"""Structure and sentence steps: a text's blocks (``claims.blocks``) and sentences
(``claims.sentences``) as items in document order: sentences to parse (``ItemSentence``), claims
taken whole (``Raw``: other languages, too long to parse, structured facts, out-of-scope
leads) and context (``Context``: headings). In a reference (``evidence``), a heading that
states something (``claims.blocks.context.heading_states``) is also read as a sentence: evidence
as well as context. ``clean`` drops citation marks and clutter."""

from __future__ import annotations

import re
from dataclasses import dataclass

from claims.answers import answered_question
from claims.blocks import Block, layout
from claims.blocks.context import heading_states
from claims.language import detect_language
from claims.scope import is_outside_scope
from claims.sentences import split_sentences
from claims.types import ClaimKind

#: Longest sentence (characters) handed to the parser; longer ones stay whole.
MAX_PARSE_CHARS = 600

# Citation marks and wiki clutter dropped from claim texts (not from spans).
_CLUTTER = re.compile(
    r"\[\s*(?:\d{1,3}|[a-z]|edit|citation needed|dead link|note \d+|clarification needed|who\?|when\?)\s*\]"
    r"|(?:^|\s)\^(?=\s|$)",
    re.IGNORECASE,
)
# A citation mark stuck to the word or stop before it ("founded in 2001[1] and", "Madrid.[2][3]"):
# read as blanks (same length, so spans stay), else the parser takes "2001[1" for a word and the
# sentence splitter misses the stop before it. A bracket after a blank or "(" (a JSON array, a
# reference list) is left alone, as is a Markdown link "[1](...)".
_CITATION = re.compile(r"(?<=[\w.,;:!?)\"'’”])(?:\[\d{1,3}(?:\s*[,–-]\s*\d{1,3})*\])+(?!\()")


@dataclass(frozen=True, slots=True)
class Raw:
    text: str
    start: int
    end: int
    kind: ClaimKind
    ambiguous: bool


def _parse_ok(sentence: str) -> bool:
    if len(sentence) > MAX_PARSE_CHARS:
        return False
    letters = sum(ch.isalpha() for ch in sentence)
    latin = sum(("a" <= ch.lower() <= "z") for ch in sentence)
    return letters > 0 and latin / letters > 0.9


@dataclass(frozen=True, slots=True)
class ItemSentence:
    """One sentence to parse: its source span and the lead-in parsed before it (a list's
    "The hotel has"); ``analysis`` is what the parser reads."""

    start: int
    end: int
    analysis: str
    lead: int = 0  # characters of ``analysis`` before the source text (lead-in + blank)

    def source(self, pos: int) -> int:
        """Source offset of ``analysis`` offset ``pos`` (lead-in words map to the start)."""
        return self.start + max(0, pos - self.lead)


@dataclass(frozen=True, slots=True)
class Context:
    """A heading or lead-in: names what follows (an antecedent), never a claim."""

    text: str


Item = ItemSentence | Raw | Context


def plain_claim(text: str, start: int, end: int) -> Raw | None:
    """A sentence taken whole (another language, or too long to parse)."""
    cleaned = clean(text[start:end])
    if not cleaned:
        return None
    kind = ClaimKind.OUTSIDE_SCOPE if is_outside_scope(cleaned) else ClaimKind.MATERIAL
    return Raw(cleaned, start, end, kind, False)


#: a meta lead-in before the answer proper ("Here is a short summary: the shipyard ...")
_META_LEAD = re.compile(
    r"(?:here(?:'s| is| are)|below (?:is|are)|in short|in summary|to summari[sz]e|to sum up)\b"
    r"[^:.!?]{0,60}:\s*",
    re.IGNORECASE,
)


#: a courtesy or apology that opens a sentence with a fact after it ("Sorry, the museum is
#: closed on Mondays.", "Happy to help — the bridge opened in 1989."): the phrase is out of
#: scope, the rest is the claim; it needs a separator mark, so "Sure enough, ..." is no lead
_COURTESY_LEAD = re.compile(
    r"\s*(?:(?:(?:I'?m|I am|we'?re|we are)\s+)?(?:(?:so|very|really|terribly|truly)\s+)?sorry"
    r"|(?:(?:my|our|sincere|many)\s+)*apologies"
    r"|thanks(?:\s+(?:a lot|so much|for (?:asking|your question|the question)))?"
    r"|thank you(?:\s+(?:so much|very much|for (?:asking|your question|the question)))?"
    r"|(?:(?:I'?m|I am|we'?re|we are)\s+)?(?:happy|glad|pleased|delighted) to (?:help|assist|answer|explain)"
    r"|great question|good question|sure|of course|certainly|absolutely|okay|ok|hi|hello|hey"
    r")(?:\s*[,!.:;\u2014\u2013]+|\s+-+)\s*(?:(?:but|however),?\s+)?",
    re.IGNORECASE,
)


def _lead_off(text: str, s: int, e: int) -> tuple[Raw | None, int]:
    """Split a meta lead-in ("Here is a summary:") or a courtesy/apology ("Sorry,") off the
    sentence ``text[s:e]``: the out-of-scope lead (or ``None``) and the new start."""
    for pattern in (_META_LEAD, _COURTESY_LEAD):
        lead = pattern.match(text, s, e)
        rest = text[lead.end() : e] if lead else ""
        # "Sorry, I don't know": a lead before what is itself out of scope stays with it
        if lead and clean(rest) and (pattern is _META_LEAD or not is_outside_scope(rest)):
            head = text[s : lead.end()].rstrip()
            return Raw(head.strip(), s, s + len(head), OUT, False), lead.end()
    return None, s


def _prose_items(text: str, block: Block, english: bool, lang: str) -> list[Item]:
    spans = split_sentences(text[block.start : block.end], language=lang)
    out: list[Item] = []
    for k, (s, e) in enumerate(spans):
        s, e = s + block.start, e + block.start
        if english and k:
            out.extend(_answer_item(text, spans[k - 1][0] + block.start, spans[k - 1][1] + block.start, s, e))
        lead, s = _lead_off(text, s, e)
        if lead is not None:
            out.append(lead)
        if english and _parse_ok(text[s:e]):
            out.append(ItemSentence(s, e, text[s:e]))
        else:
            raw = plain_claim(text, s, e)
            if raw is not None:
                out.append(raw)
    return out


def _answer_item(text: str, qs: int, qe: int, s: int, e: int) -> list[Item]:
    """The statement of the yes/no question at ``text[qs:qe]`` answered by the sentence at
    ``text[s:e]`` ("Does Jupiter have a solid surface? No."; ``claims.answers``), its span from the
    question's auxiliary to the answer word; nothing when it is no answered question."""
    question = text[qs:qe].rstrip()
    if not question.endswith("?"):
        return []
    found = answered_question(question, text[s:e])
    if found is None:
        return []
    statement, offset, answer_end = found
    return [Raw(statement, qs + offset, s + answer_end, ClaimKind.MATERIAL, False)]


def _heading_items(text: str, block: Block, english: bool, lang: str, evidence: bool) -> list[Item]:
    """A heading's items: context for what follows (the subject it names); in a reference
    (``evidence``) a heading that states something is a sentence as well, read as a text of
    headings alone is (``claims.blocks.layout``): "AIR TRAINING COMMAND (HQ: Hamamatsu,
    Shizuoka)" is evidence that the command's headquarters are at Hamamatsu."""
    out: list[Item] = [Context(block.text)] if block.text.strip() else []
    if evidence and heading_states(text[block.start : block.end]):
        out.extend(_prose_items(text, Block("prose", block.start, block.end), english, lang))
    return out


def _block_items(
    text: str, source: str, block: Block, english: bool, lang: str, evidence: bool = False
) -> list[Item]:
    """The items of one structural block (see ``claims.blocks``); ``text`` is ``source`` with
    its markup and citation marks blanked; ``evidence``: ``source`` is a reference."""
    if block.kind == "prose":
        return _prose_items(text, block, english, lang)
    if block.kind == "heading":
        return _heading_items(text, block, english, lang, evidence)
    if block.kind == "outside":
        return [
            Raw(source[block.start : block.end].strip() or block.reason, block.start, block.end, OUT, False)
        ]
    if block.kind == "fact":
        claim = clean(block.text)
        if not claim:
            return []
        claim = claim if claim.endswith((".", "!", "?", "。")) else claim + "."
        return [Raw(claim, block.start, block.end, ClaimKind.MATERIAL, False)]
    # a list item: with its lead-in when that is English prose the item continues; an item
    # with no lead-in is a paragraph of its own (a numbered passage of several sentences)
    if not block.lead:
        return _prose_items(text, block, english, lang)
    item = text[block.start : block.end]
    analysis = f"{block.lead} {item}" if block.lead else item
    if english and _parse_ok(analysis):
        return [ItemSentence(block.start, block.end, analysis, len(block.lead) + 1 if block.lead else 0)]
    raw = plain_claim(text, block.start, block.end)
    return [raw] if raw is not None else []


OUT = ClaimKind.OUTSIDE_SCOPE


def prepare(text: str, evidence: bool = False) -> list[Item]:
    """Structure, language and sentences of ``text`` as items in document order; ``evidence``:
    ``text`` is a reference, whose headings that state something are sentences as well."""
    found = layout(text)
    masked = _CITATION.sub(lambda m: " " * len(m.group(0)), found.plain)
    prose = " ".join(masked[b.start : b.end] for b in found.blocks if b.kind in {"prose", "item"})
    lang = detect_language(prose) if prose.strip() else "en"
    english = lang == "en"
    items: list[Item] = []
    for block in found.blocks:
        items.extend(_block_items(masked, text, block, english, lang, evidence))
    return items


def clean(text: str) -> str:
    """Drop citation marks and wiki clutter; '' when nothing worth a claim is left."""
    out = re.sub(r"\s{2,}", " ", _CLUTTER.sub(" ", text)).strip()
    out = re.sub(r"\s+([,.;:!?])", r"\1", out)
    if not re.search(r"[^\W\d_]{3,}|\d{2,}|[\u3040-\u30ff\u3400-\u9fff\uac00-\ud7af]{2}", out):
        return ""
    return out[:1].upper() + out[1:]


def fallback(text: str) -> list[Raw]:
    """Sentence-level claims: the answer when the structured path fails on odd input."""
    return [r for s, e in split_sentences(text) if (r := plain_claim(text, s, e)) is not None]
