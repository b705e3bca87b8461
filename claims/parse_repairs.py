"""Mends of the misreadings of spaCy's small English model that changed the meaning of
decomposed claims (``repair``, ``repair_many``), applied to every parse of ``claims.parses``
and of the decomposition's ``nlp.pipe``.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from typing import Any

from claims.spacy_pipeline import entity_type, recognise

__all__ = ["repair", "repair_many"]


def repair(doc: Any) -> Any:
    """Mend, in place, the misreadings of spaCy's small English model that changed the meaning
    of decomposed claims, and return ``doc``: ``_REPAIRS`` in turn (prefixed verbs split at the
    hyphen, a main verb read as a second participle, lists of names read as appositions, lists
    of verb phrases read as participles). Each step leaves a parse it does not recognise alone."""
    return repair_many([doc])[0]


def repair_many(docs: list[Any]) -> list[Any]:
    """``repair`` each of ``docs`` (in place; returned), with the entity recogniser run once over
    those whose titles ``_merge_titles`` will ask it about (``recognise``), at the point where
    it would have asked: after the prefixed verbs are merged."""
    first, *rest = _REPAIRS  # the prefixed verbs: their merges change the tokens it reads
    for doc in docs:
        first(doc)
    recognise([doc for doc in docs if next(_title_joins(doc), None) is not None])
    for step in rest:
        for doc in docs:
            step(doc)
    return docs


def _repair_verb_lists(doc: Any) -> None:
    """ "He purchased sports teams, published books, and served as host of a TV show": a later
    verb set off by a comma is read as a participle on the object before it ("teams, published
    books": ``acl``) or left unattached (``dep``). Such a verb (past tense or participle, with a
    direct object) becomes a conjunct (``conj``) of the clause's verb, so the decomposition gives
    each verb phrase its own claim with the subject. Only when the list ends with a plain finite
    verb ("and served as ...") that hangs from it: without that verb, "bought apples, baked pies
    and bread" may be a list of things."""
    for tok in doc:
        if not (
            tok.dep_ in ("acl", "dep")
            and tok.tag_ in ("VBD", "VBN")
            and tok.i > 0
            and doc[tok.i - 1].text == ","
            and any(k.dep_ == "dobj" for k in tok.children)
            and any(k.dep_ == "conj" and k.tag_ == "VBD" and k.i > tok.i for k in tok.children)
        ):
            continue
        verb = next((a for a in tok.ancestors if a.tag_ in ("VBD", "VBZ", "VBP") and a.i < tok.i), None)
        if verb is not None and verb.dep_ in ("ROOT", "conj"):
            tok.head = verb
            tok.dep_ = "conj"


#: wh-words' tags: a clause that opens with one is a question or a noun clause
_WH = frozenset({"WDT", "WP", "WP$", "WRB"})

#: prefixes that spaCy's tokenizer splits off a verb at its hyphen ("co-founded")
_VERB_PREFIXES = frozenset(
    {
        "co",
        "pre",
        "re",
        "de",
        "ex",
        "self",
        "post",
        "mid",
        "semi",
        "sub",
        "inter",
        "multi",
        "anti",
        "counter",
        "cross",
    }
)


def _merge_prefixed_verbs(doc: Any) -> None:
    """ "Steve Jobs co-founded Apple": the tokenizer splits "co", "-", "founded", and the small
    model reads "co" as a verb with "founded" as its conjunct (the decomposition then gave
    "Steve Jobs co-." and "Steve Jobs founded Apple"). A prefix of ``_VERB_PREFIXES``, a hyphen
    and a verb written without spaces become one token, with the parse of the span's head
    ("re-elected", "pre-ordered", "co-authored"). "non-" and "un-" stay apart: the negative
    prefix check reads them (``claims.verdict.lexical``). Chained prefixes ("re-re-elected",
    "co-re-wrote") join the verb too: the span from each verb's first prefix, and of spans that
    overlap (a prefix read as a verb itself) only the longest (spaCy's ``filter_spans``; merging
    both raised E102 and failed the whole batch of texts)."""
    from spacy.util import filter_spans

    spans = []
    for t in doc:
        if not t.tag_.startswith("VB"):
            continue
        start = t.i
        while (
            start >= 2
            and doc[start - 1].text == "-"
            and doc[start - 2].lower_ in _VERB_PREFIXES
            and not doc[start - 2].whitespace_
            and not doc[start - 1].whitespace_
        ):
            start -= 2
        if start < t.i:
            spans.append(doc[start : t.i + 1])
    spans = filter_spans(spans)
    if spans:
        with doc.retokenize() as retokenizer:
            for span in spans:
                retokenizer.merge(span, attrs={"TAG": span[-1].tag_, "POS": span[-1].pos_})
        # the name before such a verb was read as a compound of it ("Wozniak co-designed"):
        # a noun modifying a verb is its subject
        for t in doc:
            if t.dep_ == "compound" and t.pos_ == "PROPN" and t.head.tag_.startswith("VB") and t.i < t.head.i:
                t.dep_ = "nsubj"
        # "Halvor Moen was re-elected in 2004 and wrote a book": the subject stays on the
        # auxiliary that headed the sentence before the merge; it belongs to the merged verb,
        # where a coordinated verb finds it (the second claim had no subject: "Wrote a book.")
        for t in doc:
            aux = t.head
            if t.dep_ in ("nsubj", "nsubjpass") and aux.dep_ in ("aux", "auxpass") and aux.head.i > t.i:
                verb = aux.head
                # not in a clause that is itself a subject ("What Moen was re-elected for is
                # unclear"): the verb's conjunct there is the sentence's own verb
                if any(k.tag_ in _WH or k.lower_ == "whether" for k in verb.subtree if k.i < t.i):
                    continue
                t.head = verb
                if aux.dep_ == "auxpass" or any(k.dep_ == "auxpass" for k in verb.children):
                    t.dep_ = "nsubjpass"  # "Moen was re-appointed": Moen did not re-appoint


#: entity types whose names may contain "and" ("Pride and Prejudice", "Procter & Gamble")
_TITLED = frozenset({"WORK_OF_ART", "ORG", "EVENT", "LAW", "PRODUCT", "FAC"})


def _merge_titles(doc: Any) -> None:
    """ "Tolstoy wrote War and Peace": the parser reads a title or a company name with "and" in
    it as two objects, and the decomposition gave "Tolstoy wrote War." and "Tolstoy wrote
    Peace.". Where "and" or "&" joins two capitalised words, the entity recogniser is asked
    (``entity_type``); a name of a work, organisation, event, law, product or building that
    spans the "and" becomes one token (a proper noun, with the parse of the name's head). So
    does a title opened by a capitalised "The" inside the sentence and closed by "and the" and
    a capitalised noun ("wrote The Old Man and the Sea"), which the recogniser misses. People
    and places stay apart ("Romeo and Juliet" are two persons to it; "France and Spain")."""
    spans: list[Any] = []
    for t, nxt in _title_joins(doc):
        span = _title_span(doc, t, nxt)
        if span is not None and not any(s.start < span.end and span.start < s.end for s in spans):
            spans.append(span)
    if spans:
        with doc.retokenize() as retokenizer:
            for span in spans:
                retokenizer.merge(span, attrs={"TAG": "NNP", "POS": "PROPN"})


def _title_joins(doc: Any) -> Iterator[tuple[Any, Any]]:
    """("and" or "&" between two capitalised words, the capitalised word after it, past a "the"):
    where ``_merge_titles`` asks the entity recogniser."""
    for t in doc:
        if t.lower_ not in ("and", "&") or not 0 < t.i < len(doc) - 1 or not doc[t.i - 1].text[:1].isupper():
            continue
        nxt = doc[t.i + 2] if doc[t.i + 1].lower_ == "the" and t.i + 2 < len(doc) else doc[t.i + 1]
        if nxt.text[:1].isupper():
            yield t, nxt


def _title_span(doc: Any, conj: Any, last: Any) -> Any | None:
    """The title or name around the "and" ``conj`` (``_merge_titles``), or None."""
    if entity_type(conj) in _TITLED and conj.ent_iob_ == "I":
        return next((e for e in doc.ents if e.start < conj.i < e.end - 1), None)
    start = conj.i - 1
    while start > 0 and doc[start].text[:1].isupper() and doc[start].lower_ != "the":
        start -= 1
    opened = doc[start].text == "The" and start > 0 and not doc[start - 1].is_sent_start
    if opened and conj.i + 2 == last.i and last.pos_ in ("NOUN", "PROPN"):
        return doc[start : last.i + 1]
    return None


def _repair_name_lists(doc: Any) -> None:
    """ "They include Erik Hersman, Juliana Rotich, Ory Okolloh, and David Kobia": the small
    model reads the middle names as appositions of the first (``appos``), and only the last as
    a conjunct. A name set off by a comma as the apposition of another name, in a chain that
    ends with "and"/"or" and a conjunct, is a list member (``conj``). Places keep their
    apposition ("Austin, Texas and Denver, Colorado")."""
    for tok in doc:
        if not (
            tok.dep_ == "appos"
            and tok.pos_ == "PROPN"
            and not any(k.dep_ == "prep" for k in tok.children)  # "Barack Obama, President of ..."
            and tok.head.pos_ == "PROPN"
            and tok.left_edge.i > 0
            and doc[tok.left_edge.i - 1].text == ","
        ):
            continue
        first = tok.head
        while first.dep_ in ("appos", "conj") and first.head.pos_ == "PROPN":
            first = first.head
        chain = [first, *(t for t in first.subtree if t.dep_ in ("appos", "conj") and t.pos_ == "PROPN")]
        listed = any(k.dep_ == "cc" and k.lower_ in ("and", "or") for t in chain for k in t.children) and any(
            k.dep_ == "conj" for t in chain for k in t.children
        )
        if listed and not {entity_type(tok), entity_type(tok.head)} & {"GPE", "LOC"}:
            tok.dep_ = "conj"


def _repair_main_verb(doc: Any) -> None:
    """ "The bridge, designed by Rosa Feld, opened in 1998": the small model reads the main verb
    as a second participle on the subject (root "bridge", two ``acl``). When a noun root has a
    comma-set participial clause and, after its closing comma, another "-ed" participle that no
    comma follows, that one is the clause's finite verb (past tense, same form): it becomes the
    root with the noun as its subject."""
    for root in [t for t in doc if t.dep_ == "ROOT" and t.pos_ in ("NOUN", "PROPN")]:
        acls = [k for k in root.children if k.dep_ == "acl" and k.tag_ == "VBN" and k.i > root.i]
        if len(acls) < 2:
            continue
        first, last = acls[0], acls[-1]
        before, after = (
            doc[first.i - 1],
            doc[first.right_edge.i + 1] if first.right_edge.i + 1 < len(doc) else None,
        )
        if not (
            before.text == ","
            and after is not None
            and after.text == ","
            and after.i + 1 == last.i
            and last.text.endswith("ed")
            and not any(k.text == "," and k.i > last.i for k in last.children)
        ):
            continue
        last.head = last
        last.dep_ = "ROOT"
        last.tag_ = "VBD"
        root.head = last
        root.dep_ = "nsubj"


def _repair_verb_after_relative(doc: Any) -> None:
    """ "Marie Curie, who was born in Warsaw, studied physics and won two Nobel Prizes": after a
    relative clause set off by commas, the small model reads the main verb ("studied", a past
    form that is also a participle) as a participle on the subject (``acl``) or as an adjective
    of its object, which becomes an apposition of the subject or of a noun in the clause
    ("studied physics": ``amod`` + ``appos``); the sentence's root is then the subject noun, and
    the decomposition gave "Won two Nobel Prizes." with no subject. When a noun root has a
    relative clause opened by a comma and, after a later comma inside or closing it, such a past
    form, that form is the clause's finite verb (``VBD``, the root), the noun its subject, the
    apposition its object; the verbs after it that hang on the noun or the relative clause as
    conjuncts, their "and" and the final punctuation move to it, and the comma before it closes the
    relative clause. A root that is a verb, or a
    relative clause not opened by a comma, is left alone."""
    for root in [t for t in doc if t.dep_ == "ROOT" and t.pos_ in ("NOUN", "PROPN")]:
        rel = next((k for k in root.children if k.dep_ == "relcl" and k.i > root.i), None)
        if rel is None or rel.left_edge.i == 0 or doc[rel.left_edge.i - 1].text != ",":
            continue
        verb = next((v for v in doc[rel.i + 1 : rel.right_edge.i + 3] if _main_verb_misread(v, root)), None)
        if verb is None:
            continue
        obj = verb.head if verb.dep_ == "amod" else None
        moved = [
            k
            for k in doc[verb.i + 1 :]
            if (k.dep_ in ("conj", "cc") and k.head.i in (root.i, rel.i))
            or (k.dep_ == "punct" and k.head.i == root.i)
        ]
        verb.head, verb.dep_, verb.tag_ = verb, "ROOT", "VBD"
        root.head, root.dep_ = verb, "nsubj"
        if obj is not None:
            obj.head, obj.dep_ = verb, "dobj"
        for k in moved:
            k.head = verb if (k.dep_ != "conj" or k.pos_ in ("VERB", "AUX") or obj is None) else obj
        doc[verb.i - 1].head = root  # the comma closing the relative clause


def _main_verb_misread(verb: Any, root: Any) -> bool:
    """``verb`` follows a comma and is a past form (or an "-ed" word tagged as an adjective) read
    as a participle on ``root`` or as an adjective of a later noun read as an apposition
    (``_repair_verb_after_relative``)."""
    if verb.i == 0 or verb.doc[verb.i - 1].text != ",":
        return False
    if verb.tag_ not in ("VBN", "VBD") and not (verb.tag_ == "JJ" and verb.lower_.endswith("ed")):
        return False
    if verb.dep_ == "acl":
        return bool(verb.head.i == root.i)
    return bool(verb.dep_ == "amod" and verb.head.dep_ == "appos" and verb.head.i > verb.i)


def _repair_relative_object(doc: Any) -> None:
    """ "Jobs, who co-founded Apple, introduced the iPhone": the small model reads the relative
    clause's object ("Apple") as a second subject of the main verb, and the comma after it as
    its punctuation (the decomposition gave "Jobs, who co-founded died in 2011."). When a verb
    has two subjects, the first with a comma-opened relative clause whose verb has no object and
    ends right before the second, and a comma follows the second, the second is that verb's
    object (``dobj``) and the comma closes the clause."""
    for verb in doc:
        subjects = [k for k in verb.children if k.dep_ == "nsubj"]
        if len(subjects) != 2:
            continue
        first, second = subjects
        rel = next((k for k in first.children if k.dep_ == "relcl" and k.i > first.i), None)
        after = max(t.i for t in second.subtree if t.dep_ != "punct") + 1
        if (
            rel is None
            or doc[rel.left_edge.i - 1].text != ","
            or rel.right_edge.i + 1 != second.left_edge.i
            or any(k.dep_ in ("dobj", "attr", "prep", "agent") for k in rel.children if k.i > rel.i)
            or after >= verb.i
            or doc[after].text != ","
        ):
            continue
        second.head, second.dep_ = rel, "dobj"
        doc[after].head = first


def _repair_parenthetical_after_cc(doc: Any) -> None:
    """ "The firm makes engines and, since 1990, has exported them": the phrase set off by
    commas right after the conjunction belongs to the coordinated clause, but the small model
    often hangs it (and its commas) on the first verb, which then gave "The firm makes engines
    since 1990.". The phrase, with both commas, moves to the coordinated verb. Only a short
    phrase without a verb of its own (at most ``_PARENTHETICAL_MAX`` tokens)."""
    for verb in doc:
        if verb.dep_ != "conj" or verb.pos_ not in ("VERB", "AUX"):
            continue
        end = verb.left_edge.i - 1  # the closing comma, if any
        if end < 2 or doc[end].text != ",":
            continue
        cc = next(
            (k for k in range(end - 1, max(end - _PARENTHETICAL_MAX, 0) - 1, -1) if doc[k].dep_ == "cc"),
            None,
        )
        if cc is None or doc[cc + 1].text != ",":
            continue
        gap = range(cc + 1, end + 1)  # no "cc" in it: ``cc`` is the last one before ``end``
        if any(doc[k].pos_ in ("VERB", "AUX") for k in gap):
            continue
        if any(doc[k].text == "," for k in range(cc + 2, end)):
            # "prevents flu and, in older adults, pneumonia, costs $20": a second object set
            # off too, which stays with the first verb
            continue
        for k in gap:
            if doc[k].head.i not in gap:
                doc[k].head = verb


#: the longest phrase ``_repair_parenthetical_after_cc`` moves, its commas included
_PARENTHETICAL_MAX = 10


#: subordinating conjunctions that open an adverbial clause ("Before the canal was dug, ...")
_SUBORDINATORS = frozenset(
    ["before", "after", "until", "till", "since", "once", "while", "when", "whenever", "because"]
    + ["although", "though", "if", "unless", "whereas", "as"]
)


def _repair_fronted_clause(doc: Any) -> None:
    """ "Before the canal was dug, the town traded by road": the small model reads the fronted
    adverbial clause's verb as the sentence's root (its conjunction a ``mark`` of it), the main
    clause's subject as an apposition or object of that clause ("canal, the town": ``appos``) and
    the main verb as a participle on it ("town traded": ``acl``, its "by" an ``agent``); the
    decomposition gave "The canal was traded by road." and "The canal is the town.". A root with
    a subordinating ``mark`` is no main clause (a sentence is not a bare adverbial clause): when a
    comma set off from the root is followed by a noun phrase whose participle or verb runs to the
    sentence's end, that verb is the root (``VBD``), the noun its subject, the fronted verb its
    adverbial clause (``advcl``), and an ``agent`` "by" of it a preposition."""
    for sent in doc.sents:
        root = sent.root
        mark = next((k for k in root.lefts if k.dep_ == "mark" and k.lower_ in _SUBORDINATORS), None)
        comma = next((k for k in root.rights if k.text == ","), None)
        if mark is None or comma is None or comma.i + 1 >= sent.end:
            continue
        noun = next((t for t in doc[comma.i + 1 : sent.end] if t.pos_ in ("NOUN", "PROPN")), None)
        if noun is None or noun.left_edge.i != comma.i + 1 or noun.dep_ not in ("appos", "dobj", "npadvmod"):
            continue
        verb = next((k for k in noun.rights if k.dep_ in ("acl", "relcl") and k.pos_ == "VERB"), None)
        if verb is None or verb.left_edge.i != noun.i + 1 or not _runs_to_end(verb, sent):
            continue
        final = [k for k in root.rights if k.dep_ == "punct" and k.i > verb.right_edge.i]
        verb.head, verb.dep_, verb.tag_ = verb, "ROOT", "VBD"
        noun.head, noun.dep_ = verb, "nsubj"
        root.head, root.dep_ = verb, "advcl"
        comma.head = verb
        for k in final:
            k.head = verb
        for k in verb.children:
            if k.dep_ == "agent":
                k.dep_ = "prep"


def _runs_to_end(verb: Any, sent: Any) -> bool:
    """``verb``'s phrase ends the sentence (only punctuation after it)."""
    return all(t.is_punct for t in sent.doc[verb.right_edge.i + 1 : sent.end])


#: the steps of ``repair``, in order (the merges first: they change the tokens the others read)
_REPAIRS: tuple[Callable[[Any], None], ...] = (
    _merge_prefixed_verbs,
    _merge_titles,
    _repair_main_verb,
    _repair_verb_after_relative,
    _repair_relative_object,
    _repair_name_lists,
    _repair_verb_lists,
    _repair_parenthetical_after_cc,
    _repair_fronted_clause,
)
