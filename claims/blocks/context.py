"""Context words: what a heading or a lead-in names, and "Label: value" lines.

A heading or a lead-in ("Here is what the sources say about the Skarvik ferry:", "Brenholm
Orchard at a glance:") is never a claim; it names the subject of the list, table or data under
it. :func:`lead_topic` takes the generic announcement off and keeps the subject; a lead-in that
is nothing but an announcement ("Key facts:") names none. :func:`heading_states` tells a
heading that states something (a parenthetical, a "Label: value", a sentence) from a title; a
reference's such heading is evidence as well (``claims.decompose.items``). :func:`key_value` reads a
"Label: value" line (a list item, a line of a paragraph), which becomes the claim
``"<subject>, <label>: <value>."`` (``claims.labels`` reads such claims as sentences).
"""

from __future__ import annotations

import re

from claims.labels import predicate_phrase

__all__ = [
    "lead_topic",
    "is_meta",
    "is_lead",
    "item_lead",
    "prose_label",
    "is_source_label",
    "section_subject",
    "continues",
    "key_value",
    "label_word",
    "fact_text",
    "heading_states",
    "names_record",
]

#: words of a generic announcement of a list or table, saying nothing about the world
#: ("Key facts:", "Here is what the sources say about", "at a glance")
_META_WORDS = frozenset(
    (  # noqa: SIM905 - one word list reads and extends more easily
        "a an the some few more other here is are below following key main quick important notable basic "
        "general additional further short brief facts fact details detail summary overview points point "
        "highlights highlight notes note info information data specs specifications features "
        "takeaways things to know at glance in tl dr tldr answer results findings list rundown "
        "what everything all that sources source say says said documents document references reference "
        "text texts context passage passages i we found find have has according sheet profile numbers "
        "figures nutshell this these there's here's"
    ).split()
)
#: a heading that names a section, not a subject ("History", "Key figures")
_SECTION_WORDS = _META_WORDS | frozenset(
    [
        "history",
        "background",
        "timeline",
        "pricing",
        "prices",
        "location",
        "contact",
        "statistics",
        "stats",
        "figures",
        "conclusion",
        "introduction",
        "description",
        "specs",
        "specification",
        "characteristics",
        "properties",
        "attributes",
    ]
)
_ABOUT = re.compile(r"\s+(?:about|on|of|for|regarding|concerning)\s+(?=\S)", re.IGNORECASE)
_TAIL = re.compile(
    r"\s*(?:[-\u2013\u2014,]\s*)?(?:at a glance|in brief|in short|in a nutshell|in numbers|in figures|"
    r"by the numbers|(?:key |quick |main )?(?:facts|details|figures|overview|summary|profile|fact sheet))$",
    re.IGNORECASE,
)
#: last words of a lead-in that its items continue as a sentence ("The hotel has:")
_CONTINUING_LEAD = re.compile(
    r"\b(?:is|are|was|were|has|have|had|include|includes|included|including|offers|offer|"
    r"provides|provide|contains|contain|comprises|such as|like|of|for|to|with|in|at|by|from|"
    r"holds|hold|houses|house|features|feature|covers|cover|lists|serves|serve|sells|sell|owns|own|"
    r"employs|runs|operates|connects|produces|produce|makes|make|won|wrote|built|"
    r"and|or|are available|were)\s*$",
    re.IGNORECASE,
)
#: "Label: value": a label of at most five words with no sentence mark, then a value
_KEY_VALUE = re.compile(
    r"^\s*(?P<label>[^\W\d_][\w ,'\u2019&()/-]{0,60}?)\s*:\s+(?P<value>\S(?:(?!:\s).)*?)\s*$", re.DOTALL
)
#: labels that introduce prose or a source rather than an attribute
_PROSE_LABELS = frozenset(
    [
        "note",
        "notes",
        "answer",
        "summary",
        "tip",
        "warning",
        "update",
        "caveat",
        "disclaimer",
        "example",
        "nb",
    ]
)
_SOURCE_LABELS = frozenset(
    ["source", "sources", "reference", "references", "citation", "citations", "see", "also"]
)


def _words(s: str) -> list[str]:
    return re.findall(r"[a-z]+(?:'[a-z]+)?", s.lower())


def is_meta(phrase: str) -> bool:
    """Every word of ``phrase`` is a generic announcement (``_META_WORDS``)."""
    words = _words(phrase)
    return bool(words) and all(w in _META_WORDS for w in words)


def lead_topic(lead: str) -> str:
    """What a heading or lead-in names: the announcement taken off ("Key facts about the
    Eiffel Tower" -> "the Eiffel Tower", "Brenholm Orchard at a glance" -> "Brenholm Orchard"),
    else the words themselves ("Opening hours"); ``""`` for an announcement alone ("Summary").

    >>> lead_topic("Here is what the sources say about the Skarvik ferry:"), lead_topic("Opening hours")
    ('the Skarvik ferry', 'Opening hours')
    """
    s = lead.strip().rstrip(":").strip()
    for m in _ABOUT.finditer(s):
        if is_meta(s[: m.start()]):
            s = s[m.end() :].strip()
            break
    s = _TAIL.sub("", s).strip()
    return "" if not s or is_meta(s) else s


def section_subject(heading: str) -> str:
    """The subject a heading names for the blocks under it; ``""`` for a section title
    ("History", "Key figures")."""
    topic = lead_topic(heading)
    words = _words(topic)
    if not words or all(w in _SECTION_WORDS for w in words):
        return ""
    return topic


def is_lead(line: str) -> bool:
    """A line that ends in ":" and reads as one short announcement (at most 25 words)."""
    s = line.strip()
    return s.endswith(":") and 0 < len(s.split()) <= 25 and not re.search(r"[.!?]\s", s)


def continues(lead: str) -> bool:
    """The items complete the lead-in as a sentence ("The hotel has:" + "a pool")."""
    return bool(_CONTINUING_LEAD.search(lead)) and len(lead.split()) >= 2


def item_lead(lead: str) -> str:
    """The lead-in put before each item of a list: none for a generic announcement, the words
    alone when the item continues them ("The hotel has"), else the lead-in with its colon
    ("Opening hours: Monday 9-17")."""
    lead = lead.strip().rstrip(":").strip()
    if not lead or not lead_topic(lead) or lead_topic(lead) != lead:
        return ""
    return lead if continues(lead) else lead + ":"


def key_value(line: str) -> tuple[str, str] | None:
    """``(label, value)`` of a "Label: value" line (markup already blanked), or ``None``: a
    label of one to five words with no sentence mark and no digit first, a value of at most
    twelve words; "Note: ..." and "Source: ..." are no attribute."""
    m = _KEY_VALUE.match(line)
    if m is None:
        return None
    label = " ".join(m.group("label").split())
    value = " ".join(m.group("value").split())
    if not 1 <= len(label.split()) <= 5 or len(value.split()) > 12 or label.lower() in _PROSE_LABELS:
        return None
    return label, value


def prose_label(line: str) -> int:
    """Length of a prose label ("Note: ", "Answer: ") that opens ``line``; 0 when none."""
    m = _KEY_VALUE.match(line)
    if m is None or " ".join(m.group("label").split()).lower() not in _PROSE_LABELS:
        return 0
    return m.start("value")


def is_source_label(line: str) -> bool:
    """A "Source: ..." / "References: ..." line: a citation, no claim."""
    m = _KEY_VALUE.match(line)
    return m is not None and " ".join(m.group("label").split()).lower() in _SOURCE_LABELS


#: names that keep their capital as a label ("Monday: closed")
_CALENDAR = frozenset(
    [
        "monday",
        "tuesday",
        "wednesday",
        "thursday",
        "friday",
        "saturday",
        "sunday",
        "january",
        "february",
        "march",
        "april",
        "may",
        "june",
        "july",
        "august",
        "september",
        "october",
        "november",
        "december",
        "mon",
        "tue",
        "wed",
        "thu",
        "fri",
        "sat",
        "sun",
    ]
)


def label_word(label: str) -> str:
    """A label as it reads after the subject: the first letter in lower case, an acronym kept
    ("Crossing to Halden" -> "crossing to Halden", "HQ" -> "HQ")."""
    first = label.split()[0] if label.split() else ""
    if (len(first) > 1 and first.isupper()) or first.lower() in _CALENDAR:
        return label
    return label[:1].lower() + label[1:]


def fact_text(subject: str, label: str, value: str) -> str:
    """The claim of one attribute: ``"<Subject>, <label>: <value>."`` (``"<Label>: <value>."``
    without a subject)."""
    value = value.strip().rstrip(".;,").strip()
    if not label:
        text = f"{subject}: {value}" if subject else value
    else:
        text = f"{subject}, {label_word(label)}: {value}" if subject else f"{label}: {value}"
    text = text[:1].upper() + text[1:]
    return text if text.endswith((".", "!", "?")) else text + "."


#: a parenthetical with a word or number in it ("(HQ: Hamamatsu, Shizuoka)", "(1998)")
_PARENTHETICAL = re.compile(r"\([^()]*[^\W_][^()]*\)")
#: a heading of this many words or more reads as a sentence, not a title
_SENTENCE_WORDS = 6


def heading_states(heading: str) -> bool:
    """Whether the heading ``heading`` (markup blanked) states something, beyond naming a topic:
    it holds a parenthetical ("AIR TRAINING COMMAND (HQ: Hamamatsu, Shizuoka)"), a "Label:
    value" ("Founded: 1998"), or reads as a sentence (it ends with "." or "!", or has at least
    ``_SENTENCE_WORDS`` words: "A move to Naha in 2016 ended the squadron's stay at Tsuiki").
    A title, a section name or an announcement ("Ambleston War Memorial", "History", "Key
    facts:") states nothing, nor does a question or a lead-in ("Here is what the sources say
    about the Skarvik ferry:").

    >>> heading_states("AIR TRAINING COMMAND (HQ: Hamamatsu, Shizuoka)"), heading_states("History")
    (True, False)
    """
    s = " ".join(heading.split())
    if not s or s.endswith(("?", ":")) or is_meta(s):
        return False
    if _PARENTHETICAL.search(s) or key_value(s) is not None or s.endswith((".", "!")):
        return True
    return len(s.split()) >= _SENTENCE_WORDS


#: labels whose value names the record the other lines describe ("Name: Storebælt Bridge"), as
#: a JSON object's ``name``/``title``/``label`` field does (``claims.blocks.data``)
_NAME_LABELS = frozenset({"name", "full name", "person"})
#: labels of a first line that name the record ("Title: Harbour Lights", "Company: Kestrel
#: Robotics"); further down, a title or a company is an attribute ("Title: Chief Engineer")
_KIND_LABELS = frozenset(
    {"title", "company", "product", "organisation", "organization", "town", "place", "entity", "subject"}
)
#: a name: capitalised words, small linking words between them, no digit ("Museum of Art")
_NAME_VALUE = re.compile(
    r"[^\W\d_a-z][\w.'\u2019&-]*(?: (?:of|the|and|de|da|del|di|du|la|le|van|von|der|on|upon|&|"
    r"[^\W\d_a-z][\w.'\u2019&-]*))*"
)


def names_record(label: str, value: str, first: bool) -> bool:
    """Whether the line ``label: value`` of a record of "Label: value" lines names the subject
    of the record's other lines, as an object's ``name`` field does (``claims.blocks.data``):
    ``value`` is a name (capitalised words, no digit, at most eight words) and ``label`` is a
    name label ("Name", "Person"), or, on the ``first`` line of the record, a label that is no
    predicate of ``claims/data/label_predicates.tsv`` and either names the record ("Title:
    Harbour Lights", "Company: Kestrel Robotics") or is the last word of the name ("Bridge:
    Storebælt Bridge").
    A role ("Director: Ingmar Bergman", "Architect: Ove Arup") is an attribute, not the subject.

    >>> names_record("Name", "Storebælt Bridge", False), names_record("Architect", "Ove Arup", True)
    (True, False)
    """
    value = " ".join(value.split()).rstrip(".")
    if not _NAME_VALUE.fullmatch(value) or len(value.split()) > 8:
        return False
    key = " ".join(label.lower().split())
    if key in _NAME_LABELS:
        return True
    if not first or predicate_phrase(key) is not None:
        return False
    return key in _KIND_LABELS or value.lower().split()[-1] == key
