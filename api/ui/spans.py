"""Cut a text into segments at every claim boundary, so that overlapping claim spans render
correctly (pure functions, no I/O).

A claim span ``[start, end)`` in Unicode code points (Python ``str`` indices, the API's
convention) may overlap others in any way (nested, crossing, identical). HTML cannot nest
crossing elements, so the text is cut at every start and end: each segment is covered by a
fixed set of spans, and each span is drawn on its own *lane* (a vertical offset of its
underline) so that two overlapping spans never share one line.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

__all__ = ["Piece", "assign_lanes", "segment"]


@dataclass(frozen=True, slots=True)
class Piece:
    """One item of a segmented text: a run of text, or a marker placed after span ends.

    ``kind`` is ``"text"`` (``text``, ``start``, ``end``, ``marks``: the ids of the spans
    covering it, shortest span first) or ``"end"`` (``marks``: the ids of the spans ending at
    ``start``, in id order; ``text`` empty).
    """

    kind: str
    start: int
    end: int
    text: str
    marks: tuple[int, ...]


def _clip(span: tuple[int, int], n: int) -> tuple[int, int]:
    start, end = span
    start = min(max(start, 0), n)
    return start, min(max(end, start), n)


def segment(text: str, spans: Sequence[tuple[int, int]]) -> list[Piece]:
    """``text`` cut at every boundary of ``spans``; span ids are their indices in ``spans``.

    Spans are clipped to ``[0, len(text)]``; an empty span covers no text but still gets its
    ``"end"`` piece. Joining the ``"text"`` pieces gives back ``text``.

    >>> [(p.kind, p.text, p.marks) for p in segment("abcdef", [(0, 4), (2, 6)])]
    [('text', 'ab', (0,)), ('text', 'cd', (0, 1)), ('end', '', (0,)), ('text', 'ef', (1,)), ('end', '', (1,))]
    """
    n = len(text)
    clipped = [_clip(s, n) for s in spans]
    cuts = sorted({0, n, *(p for s in clipped for p in s)})
    starts: dict[int, list[int]] = {}
    ends: dict[int, list[int]] = {}
    for sid, (start, end) in enumerate(clipped):
        starts.setdefault(start, []).append(sid)
        ends.setdefault(end, []).append(sid)
    length = [end - start for start, end in clipped]
    active: set[int] = set()  # spans covering the current piece (a sweep over the cuts)
    pieces: list[Piece] = []
    if 0 in ends:
        pieces.append(Piece("end", 0, 0, "", tuple(ends[0])))
    for a, b in zip(cuts, cuts[1:], strict=False):
        active.difference_update(ends.get(a, ()))
        active.update(s for s in starts.get(a, ()) if length[s] > 0)
        covering = tuple(sorted(active, key=lambda s: (length[s], s)))
        pieces.append(Piece("text", a, b, text[a:b], covering))
        if b in ends:
            pieces.append(Piece("end", b, b, "", tuple(ends[b])))
    return pieces


def assign_lanes(spans: Sequence[tuple[int, int]]) -> list[int]:
    """A lane (0, 1, ...) per span such that spans sharing any character get different lanes.

    Greedy interval colouring in order of start (longest first on ties), which uses the fewest
    lanes possible: as many as the most spans covering one character. An empty span gets lane 0.

    >>> assign_lanes([(0, 4), (2, 6), (5, 9), (10, 12)])
    [0, 1, 0, 0]
    """
    order = sorted(range(len(spans)), key=lambda s: (spans[s][0], -(spans[s][1] - spans[s][0]), s))
    lane_end: list[int] = []  # lane -> end of the last span placed on it
    lanes = [0] * len(spans)
    for sid in order:
        start, end = spans[sid]
        if end <= start:  # an empty span draws no underline
            continue
        free = next((lane for lane, last in enumerate(lane_end) if last <= start), None)
        if free is None:
            free = len(lane_end)
            lane_end.append(end)
        else:
            lane_end[free] = end
        lanes[sid] = free
    return lanes
