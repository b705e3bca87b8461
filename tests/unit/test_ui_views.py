"""The /ui view models without services: span segmentation and lanes, the audit view built from
an engine-made document (uncovered reference claims against claim_recall), the edit script diff,
the list filters and the timeline."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta
from types import SimpleNamespace

import pytest
from hypothesis import given
from hypothesis import strategies as st

from api.ui.audit_view import build_audit_view
from api.ui.edits import edit_lines, word_diff
from api.ui.list_view import parse_list_query
from api.ui.spans import assign_lanes, segment
from api.ui.templating import render_standalone
from api.ui.timeline import timeline
from claims.audit import audit_texts, report_to_dict

TEXT = st.text(alphabet="ab \n", min_size=0, max_size=30)


@st.composite
def text_and_spans(draw: st.DrawFn) -> tuple[str, list[tuple[int, int]]]:
    text = draw(TEXT)
    n = len(text)
    bounds = st.integers(0, n)
    spans = draw(st.lists(st.tuples(bounds, bounds).map(lambda p: (min(p), max(p))), max_size=8))
    return text, spans


@given(text_and_spans())
def test_segments_join_back_to_the_text_and_to_every_span(case: tuple[str, list[tuple[int, int]]]) -> None:
    text, spans = case
    pieces = segment(text, spans)
    assert "".join(p.text for p in pieces if p.kind == "text") == text
    for sid, (start, end) in enumerate(spans):
        assert "".join(p.text for p in pieces if p.kind == "text" and sid in p.marks) == text[start:end]
        assert sum(1 for p in pieces if p.kind == "end" and sid in p.marks) == 1


@given(text_and_spans())
def test_overlapping_spans_never_share_a_lane(case: tuple[str, list[tuple[int, int]]]) -> None:
    _, spans = case
    lanes = assign_lanes(spans)
    for a, (s1, e1) in enumerate(spans):
        for b, (s2, e2) in enumerate(spans):
            if a < b and s1 < e1 and s2 < e2 and s1 < e2 and s2 < e1:  # both non-empty, sharing a char
                assert lanes[a] != lanes[b]
    # as few lanes as the deepest overlap (greedy colouring of intervals is optimal)
    depth = max((sum(1 for s, e in spans if s <= x < e) for x in range(31)), default=0)
    assert max(lanes, default=-1) + 1 == max(depth, 1 if spans else 0)


def test_a_segment_lists_the_shortest_covering_claim_first() -> None:
    # [0, 10) holds [2, 5): the piece 'cde' is covered by both, the nested (shorter) one first
    pieces = segment("abcdefghij", [(0, 10), (2, 5)])
    assert [(p.text, p.marks) for p in pieces if p.kind == "text"] == [
        ("ab", (0,)),
        ("cde", (1, 0)),
        ("fghij", (0,)),
    ]


REFERENCE = (
    "The Halvorsen Bridge opened to traffic on 12 May 1998. The suspension bridge is 1,420 metres long "
    "and carries four lanes of the E39 motorway across the Sandvik fjord. It was designed by the engineer "
    "Marit Olsen."
)
RESPONSE = (
    "The Halvorsen Bridge opened on 12 May 1989. It is 1,420 metres long and carries six lanes of traffic."
)


@pytest.fixture(scope="module")
def engine_doc() -> dict:
    """examples/02_wrong_date.json through the in-memory engine (the document the API serves)."""
    report = audit_texts(RESPONSE, [REFERENCE])
    return report_to_dict(report, [REFERENCE], RESPONSE)


def test_uncovered_reference_claims_are_the_complement_of_claim_recall(engine_doc: dict) -> None:
    view = build_audit_view(engine_doc, RESPONSE, [REFERENCE])
    material = [rc for rc in view.reference_claims if rc.kind == "material"]
    recall = engine_doc["scores"]["claim_recall"]
    assert recall is not None and material
    # claim_recall = covered / m (claims.score), so uncovered = m - recall * m
    assert len(view.uncovered) == round(len(material) * (1 - recall))
    for rc in view.reference_claims:  # every span is cut out of its reference text
        assert REFERENCE[rc.start : rc.end]


def test_evidence_targets_are_reference_claims_at_that_locator(engine_doc: dict) -> None:
    view = build_audit_view(engine_doc, RESPONSE, [REFERENCE])
    assert len(view.claims) == sum(1 for c in engine_doc["claims"] if c["role"] == "response")
    for claim in view.claims:
        for e in claim.evidence:
            assert e.targets, "each evidence locator is a stored reference claim"
            for j in e.targets:
                rc = view.reference_claims[j]
                assert (rc.reference, rc.start, rc.end) == (e.reference, e.start, e.end)


def test_the_standalone_report_needs_no_other_file(engine_doc: dict) -> None:
    html = render_standalone(build_audit_view(engine_doc, RESPONSE, [REFERENCE]), title="report")
    assert "<style>" in html and "<script>" in html
    assert 'src="' not in html and 'rel="stylesheet"' not in html and "http" not in html.split("</head>")[0]
    assert html.count('class="badge ') == len(view_claims(engine_doc))


def view_claims(doc: dict) -> list[dict]:
    return [c for c in doc["claims"] if c["role"] == "response"]


def test_word_diff_marks_only_the_changed_words() -> None:
    old, new = word_diff("The bridge opened in 1989.", "The bridge opened in 1998.")
    assert [t for changed, t in old if changed] == ["1989."]
    assert [t for changed, t in new if changed] == ["1998."]
    assert "".join(t for _, t in old) == "The bridge opened in 1989."


def test_edit_lines_keep_the_op_sides() -> None:
    lines = edit_lines(
        [
            {"op": "delete", "response_claim": "a", "reference_claim": None, "reason": "unsupported"},
            {"op": "insert", "response_claim": None, "reference_claim": "b", "reason": "not covered"},
        ]
    )
    assert [(e.op, e.old, e.new) for e in lines] == [
        ("delete", ((False, "a"),), ()),
        ("insert", (), ((False, "b"),)),
    ]


def test_list_query_reads_a_form_and_reports_bad_values() -> None:
    q = parse_list_query(
        {"status": "done", "since": "2026-11-30T08:00", "verdict": "", "score": "claim_f1",
         "score_min": "0.5", "metadata_key": "suite", "metadata_value": "nightly", "limit": "10",
         "offset": "20"}
    )  # fmt: skip
    assert q.errors == []
    f = q.filters
    assert (f.status, f.verdict, f.score, f.score_min, f.score_max) == ("done", None, "claim_f1", 0.5, None)
    assert f.since == datetime(2026, 11, 30, 8, 0, tzinfo=UTC)  # no offset: UTC
    assert (f.metadata_key, f.metadata_value, q.limit, q.offset) == ("suite", "nightly", 10, 20)
    assert "offset=30" in q.link(offset=30) and "limit=10" in q.link(offset=30)

    bad = parse_list_query({"status": "finished", "score_min": "nan", "until": "yesterday"})
    assert bad.errors == [
        "score_min: 'nan' is not a finite number",
        "status: 'finished' is not one of "
        "queued, decomposing, embedding, matching, scoring, done, failed, rejected",
        "until: 'yesterday' is not a date or date and time (YYYY-MM-DD[THH:MM])",
    ]
    assert bad.filters.status is None and bad.filters.until is None


def test_timeline_of_a_running_and_of_a_failed_audit() -> None:
    t0 = datetime(2026, 11, 30, 8, 0, tzinfo=UTC)
    running = SimpleNamespace(
        status="embedding", stage="embedding", created_at=t0, decomposing_at=t0 + timedelta(seconds=1),
        embedding_at=t0 + timedelta(seconds=3), matching_at=None, scoring_at=None, finished_at=None,
    )  # fmt: skip
    steps = timeline(running)
    assert [(s.name, s.state) for s in steps] == [
        ("queued", "done"),
        ("decomposing", "done"),
        ("embedding", "current"),
        ("matching", "waiting"),
        ("scoring", "waiting"),
        ("done", "waiting"),
    ]
    assert [s.seconds for s in steps[:2]] == [1.0, 2.0]  # t0 -> +1 s -> +3 s
    failed = SimpleNamespace(
        **{**vars(running), "status": "failed", "finished_at": t0 + timedelta(seconds=4)}
    )
    assert [s.state for s in timeline(failed)] == ["done", "done", "failed", "waiting", "waiting", "failed"]


def test_histogram_counts_each_value_once_and_closes_the_last_bin() -> None:
    from api.ui.charts import histogram

    svg = str(histogram([0.0, 0.05, 0.1, 0.95, 1.0, None], bins=10, name="claim_f1"))
    counts = [int(n) for n in svg.split('data-counts="')[1].split('"')[0].split()]
    # 0.0 and 0.05 in [0, 0.1); 0.1 in [0.1, 0.2); 0.95 and 1.0 in [0.9, 1]; None skipped
    assert counts == [2, 1, 0, 0, 0, 0, 0, 0, 0, 2]
    assert 'aria-label="claim_f1: 5 audits in 10 bins"' in svg


def test_verdict_bar_segments_are_proportional_and_labelled() -> None:
    from api.ui.charts import verdict_bar

    svg = str(verdict_bar({"supported": 3, "contradicted": 1}, width=400))
    # 3 of 4 claims: 300 of 400 px; 1 of 4: 100 px
    assert 'data-verdict="supported" x="0.00" y="0" width="300.00"' in svg
    assert 'data-verdict="contradicted" x="300.00" y="0" width="100.00"' in svg
    assert 'aria-label="3 supported, 1 contradicted"' in svg and "✗ 1" in svg
