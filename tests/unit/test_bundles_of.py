"""How ``POST /audits/batch`` cuts its audits into bundle chains (``workers.pipeline.bundles_of``).

The sizes come from the rule in its docstring: runs of bundleable audits in bundles of 2, 4,
8, ... up to ``BUNDLE_SIZE`` audits and ``BUNDLE_MAX_CHARS`` characters, every other audit (and
one larger than the character limit) alone, order kept."""

from __future__ import annotations

import uuid

import pytest

from workers.pipeline import bundles_of

CHARS = 100_000  # the BUNDLE_MAX_CHARS default (service.settings)


def _ids(n: int) -> list[uuid.UUID]:
    return [uuid.UUID(int=i + 1) for i in range(n)]


def _small(ids: list[uuid.UUID]) -> dict[uuid.UUID, int]:
    return {a: 500 for a in ids}


def test_bundles_grow_by_doubling_up_to_the_bundle_size() -> None:
    ids = _ids(40)
    groups = bundles_of(ids, _small(ids), 16, CHARS)
    assert [len(g) for g in groups] == [2, 4, 8, 16, 10]  # 2+4+8+16 = 30, the rest 10
    assert [a for g in groups for a in g] == ids  # every audit once, in order


def test_audits_that_cannot_be_bundled_go_alone_and_split_no_order() -> None:
    ids = _ids(8)
    sizes = _small(ids)
    del sizes[ids[3]]  # an audit with an LLM component: its own chain
    groups = bundles_of(ids, sizes, 16, CHARS)
    assert groups == [ids[0:2], ids[2:3], [ids[3]], ids[4:8]]


def test_a_bundle_closes_at_the_character_limit_and_a_huge_audit_goes_alone() -> None:
    ids = _ids(6)
    sizes = {ids[0]: 40_000, ids[1]: 40_000, ids[2]: 30_000, ids[3]: 150_000, ids[4]: 60_000, ids[5]: 50_000}
    groups = bundles_of(ids, sizes, 16, CHARS)
    # 40k + 40k fit (the first bundle's limit is 2 audits anyway); 30k starts the next bundle;
    # 150k is over the limit alone; 60k + 50k would be 110k: two bundles
    assert groups == [ids[0:2], [ids[2]], [ids[3]], [ids[4]], [ids[5]]]


@pytest.mark.parametrize("size", [1, 2])
def test_small_bundle_sizes(size: int) -> None:
    ids = _ids(5)
    groups = bundles_of(ids, _small(ids), size, CHARS)
    assert all(len(g) <= max(size, 2) for g in groups)  # the first bundle has room for two
    assert [a for g in groups for a in g] == ids


def test_nothing_bundled() -> None:
    ids = _ids(3)
    assert bundles_of(ids, {}, 16, CHARS) == [[a] for a in ids]
