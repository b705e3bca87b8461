"""claims.run_diff and service.schedule: claim pairing, score deltas, worse items, gate, cron slots."""

from __future__ import annotations

from datetime import UTC, datetime

import pytest

from claims.run_diff import Gate, ItemClaim, ItemOutcome, check_gate, check_unscored, diff_runs, pair_claims
from service.schedule import check_cron, due_slot, item_body, sample, slot_label


def claim(text: str, verdict: str = "supported", position: int = 0) -> ItemClaim:
    return ItemClaim(position, text, verdict, "", "evidence")


def item(item_id: str, claims: list[ItemClaim], f1: float | None = 1.0, status: str = "done") -> ItemOutcome:
    counts = {"response_claims": len(claims)}
    for c in claims:
        counts[c.verdict] = counts.get(c.verdict, 0) + 1
    return ItemOutcome(item_id, item_id, status, {"claim_f1": f1}, counts, tuple(claims))


@pytest.mark.parametrize(
    ("before", "after", "pairs", "gone", "came"),
    [
        # equal text (case and spaces ignored) pairs first, whatever the order
        (["A b.", "C d."], ["c  D.", "a B."], [(0, 1, 1.0), (1, 0, 1.0)], [], []),
        # a changed year is the same claim: 18 characters each, '98' → '89' is an indel distance of 2
        # over 36 characters, ratio 1 − 2/36 = 0.944 ≥ 0.6
        (["It opened in 1998."], ["It opened in 1989."], [(0, 0, pytest.approx(1 - 2 / 36))], [], []),
        # an unrelated text is new + vanished (ratio < 0.6)
        (["It opened in 1998."], ["Water boils at 100 degrees."], [], [0], [0]),
        ([], ["New claim."], [], [], [0]),
    ],
)
def test_pair_claims(before: list[str], after: list[str], pairs: list, gone: list, came: list) -> None:
    got = pair_claims([claim(t) for t in before], [claim(t) for t in after])
    assert got == (pairs, gone, came)


def test_diff_lists_changed_new_and_vanished_claims_and_worse_items() -> None:
    base = [
        item("a", [claim("The bridge opened in 1998."), claim("It has two towers.", position=1)], f1=1.0),
        item("b", [claim("Water boils at 100 degrees.")], f1=0.5),
        item("gone", [claim("x")]),
    ]
    new = [
        item(
            "a",
            [claim("The bridge opened in 1989.", "contradicted"), claim("It cost 3 million.", "unsupported")],
            0.0,
        ),
        item("b", [claim("Water boils at 100 degrees.")], f1=0.75),
        item("added", [claim("y")]),
    ]
    diff = diff_runs(base, new)
    assert diff.items_compared == 2 and diff.items_added == ("added",) and diff.items_removed == ("gone",)
    assert [
        (c.item_id, c.before.text, c.after.text) for c in diff.changed_claims if c.before and c.after
    ] == [("a", "The bridge opened in 1998.", "The bridge opened in 1989.")]
    assert [c.after.text for c in diff.new_claims if c.after] == ["It cost 3 million."]
    assert [c.before.text for c in diff.vanished_claims if c.before] == ["It has two towers."]
    assert [w.item_id for w in diff.worse_items] == ["a"]
    # deltas new − base: a 0.0 − 1.0 = −1.0, b 0.75 − 0.5 = +0.25
    f1 = diff.score_deltas["claim_f1"]
    assert (f1["n"], f1["mean"], f1["min"], f1["max"], f1["improved"], f1["worsened"]) == (
        2,
        -0.375,
        -1.0,
        0.25,
        1,
        1,
    )
    # contradicted share over the compared items: 0/3 before, 1/3 after
    assert diff.shares["contradicted"]["delta_points"] == pytest.approx(100 / 3)
    assert diff.shares["problem"]["after"] == pytest.approx(2 / 3)


def test_zero_claims_give_null_shares_not_nan() -> None:
    diff = diff_runs([item("a", [])], [item("a", [], f1=None)])
    assert diff.shares["contradicted"] == {"before": None, "after": None, "delta_points": None}
    assert diff.score_deltas["claim_f1"]["mean"] is None and diff.score_deltas["claim_f1"]["n"] == 0
    assert check_gate(diff, Gate(contradicted_share_rise=0.0, f1_drop=0.0, worse_items=0)) == []


def only(**limits: float) -> Gate:
    """A gate with just these limits (every default limit off)."""
    return Gate(**{**dict.fromkeys(Gate().to_dict()), **limits})  # type: ignore[arg-type]


@pytest.mark.parametrize(
    ("gate", "crossed"),
    [
        (
            Gate(),
            [
                "contradicted share rose by 50.0 points (limit 2.0)",
                "problem share rose by 50.0 points (limit 2.0)",
                "100.0% of the items got a worse verdict mix (limit 2.0%)",
            ],
        ),
        (only(worse_items_share=100.0), []),  # not above the limit
        (only(contradicted_share_rise=50.0), []),
        (only(f1_drop=40.0), ["mean claim_f1 fell by 50.0 points (limit 40.0)"]),
        (only(worse_items=0), ["1 items got a worse verdict mix (limit 0)"]),
        (only(worse_items_share=50.0), ["100.0% of the items got a worse verdict mix (limit 50.0%)"]),
    ],
)
def test_gate(gate: Gate, crossed: list[str]) -> None:
    base = [item("a", [claim("One."), claim("Two.", position=1)], f1=1.0)]
    new = [item("a", [claim("One."), claim("Two.", "contradicted", 1)], f1=0.5)]
    assert check_gate(diff_runs(base, new), gate) == crossed


def test_a_comparison_of_disjoint_runs_crosses_the_gate() -> None:
    # every item id changed: 0 compared, so no share or score could rise; the gate must not hold
    base = [item("a", [claim("One.")]), item("b", [claim("Two.")])]
    new = [item("x", [claim("One.", "contradicted")])]
    assert check_gate(diff_runs(base, new), Gate()) == [
        "no item matches an item of the baseline (1 new, 2 gone): nothing was compared"
    ]
    assert check_gate(diff_runs([], new), Gate()) == []  # an empty baseline: nothing to hold against


@pytest.mark.parametrize(
    ("counts", "gate", "crossed"),
    [
        # 8 of 9 lines rejected: 88.9 % unscored against the default 2 %
        ((9, 8, 0), Gate(), ["8 of 9 items were not scored (8 rejected, 0 failed): 88.9% (limit 2.0%)"]),
        ((100, 1, 1), Gate(), []),  # 2 % is not above the 2 % limit
        ((100, 2, 1), Gate(), ["3 of 100 items were not scored (2 rejected, 1 failed): 3.0% (limit 2.0%)"]),
        ((9, 8, 0), Gate(unscored_items_share=None), []),  # switched off
        ((0, 0, 0), Gate(), ["the run has no items: nothing was scored"]),  # an empty run scored nothing
        ((0, 0, 0), Gate(unscored_items_share=None), []),
    ],
)
def test_the_run_s_own_limit_counts_rejected_and_failed_items(
    counts: tuple[int, int, int], gate: Gate, crossed: list[str]
) -> None:
    assert check_unscored(*counts, gate) == crossed


@pytest.mark.parametrize(
    ("data", "message"),
    [
        ({"nope": 1}, "gate.nope: unknown limit"),
        ({"f1_drop": -1}, "gate.f1_drop: must be"),
        ({"f1_drop": True}, "gate.f1_drop"),
        # shares are per cent and rises and drops points of a 0-100 scale (LIMIT_RANGES)
        ({"unscored_items_share": 500}, "gate.unscored_items_share: must be between 0 and 100"),
        ({"worse_items_share": 100.01}, "gate.worse_items_share: must be between 0 and 100"),
        ({"contradicted_share_rise": 101}, "gate.contradicted_share_rise: must be between"),
        ({"problem_share_rise": 1e9}, "gate.problem_share_rise: must be between"),
        ({"precision_drop": 250}, "gate.precision_drop: must be between"),
        ({"worse_items": 2.5}, "gate.worse_items: must be a whole number"),
    ],
)
def test_gate_from_dict_names_the_bad_key(data: dict, message: str) -> None:
    with pytest.raises(ValueError, match=message):
        Gate.from_dict(data)


@pytest.mark.parametrize(
    "data",
    [
        {"unscored_items_share": 0, "worse_items_share": 100, "contradicted_share_rise": 100.0},
        {"worse_items": 0, "f1_drop": 0.5, "precision_drop": 100},
        {"worse_items": 3.0, "unscored_items_share": None},  # a whole number stored as a float
    ],
)
def test_gate_from_dict_takes_the_ends_of_each_range(data: dict) -> None:
    assert {k: v for k, v in Gate.from_dict(data).to_dict().items() if k in data} == data


def test_a_stored_gate_over_a_range_is_read_as_before() -> None:
    # a suite's gate stored before the ranges were checked still finishes its runs: the share
    # over 100 never crosses (no share exceeds 100 %), as before
    gate = Gate.from_dict({"unscored_items_share": 500}, check_range=False)
    assert gate.unscored_items_share == 500
    assert check_unscored(9, 8, 0, gate) == []


@pytest.mark.parametrize(
    ("cron", "now", "slot"),
    [
        ("* * * * *", "2026-11-30T08:41:30", "2026-11-30T08:41:00"),
        ("* * * * *", "2026-11-30T08:41:00", "2026-11-30T08:41:00"),  # on the slot: that slot
        ("0 2 * * *", "2026-11-30T08:41:30", "2026-11-30T02:00:00"),
        ("0 2 * * *", "2026-11-30T01:59:59", "2026-11-29T02:00:00"),
        ("*/15 * * * *", "2026-11-30T08:44:00", "2026-11-30T08:30:00"),
    ],
)
def test_due_slot_is_the_latest_slot_at_or_before_now(cron: str, now: str, slot: str) -> None:
    got = due_slot(cron, datetime.fromisoformat(now).replace(tzinfo=UTC))
    assert got == datetime.fromisoformat(slot).replace(tzinfo=UTC)
    assert slot_label(got) == slot[:16] + "Z"


@pytest.mark.parametrize(
    ("cron", "says"),
    [
        ("* * * *", "has 4 fields"),
        ("* * * * * *", "has 6 fields"),
        ("every day", "has 2 fields"),
        ("61 * * * *", "out of its range"),  # five fields: the message names the range, not the count
    ],
)
def test_check_cron_refuses_and_says_why(cron: str, says: str) -> None:
    with pytest.raises(ValueError, match=says):
        check_cron(cron)


def test_item_body_and_sample() -> None:
    assert item_body({"id": 1, "response": "r", "references": ["x"]}, {"threshold": 0.7}) == (
        "1",
        {"response": "r", "references": ["x"], "config": {"threshold": 0.7}},
    )
    assert "needs a response" in str(item_body({"id": "a", "response": "r", "references": [" "]}, {}))
    assert "config.nope" in str(
        item_body({"id": "a", "response": "r", "references": ["x"], "config": {"nope": 1}}, {})
    )
    assert item_body({"response": "r", "references": ["x"]}, {}) == "row without an id"
    items = list(range(10))
    assert sample(items, 3, "2026-11-30T02:00Z") == sample(
        items, 3, "2026-11-30T02:00Z"
    )  # same slot, same sample
    assert len(sample(items, 3, "x")) == 3 and sample(items, None, "x") == items
