#!/usr/bin/env python3
"""Write tests/data/format_swaps.jsonl: the same facts in ten formats, right, with one value
wrong and with two values swapped between subjects.

Usage:
    python tools/make_format_swaps.py [OUTPUT.jsonl]

Thirteen small fact sets, written for claimaudit (no third-party text; the names are invented
or common place names with made-up figures), each about three subjects with two or three
attributes, and one reference paragraph in prose. Each set is rendered as prose, bullets under
a heading per subject, a numbered bold-label list under a heading per subject, the same under a
bold line per subject, a numbered list of subjects with nested "Label: value" bullets, an entity
table (a row per subject), a comparison table (a column per subject), a JSON array of objects
with a name field, a JSON object of objects keyed by name and a fenced YAML list; and each
rendering three ways:

* ``right``: every value as the reference gives it -> no contradicted, no unsupported claim;
* ``wrong``: one value changed to one the reference never states -> that claim, and only it,
  is contradicted;
* ``swap``: one attribute's values exchanged between two subjects (each value is in the
  reference, stated of the other subject) -> both claims, and only they, are contradicted.

Ids: ``fs_<set>_<format>_<variant>`` for the first seven sets (written before the fixes they
measure), ``hs_...`` for the last six (written after them, as a held-out check). The lines
follow the run_cases.py contract (id, kind, references, response, expect).
"""

from __future__ import annotations

import json
import sys
from pathlib import Path

OUT = Path(__file__).resolve().parents[1] / "tests" / "data" / "format_swaps.jsonl"

FIRST = {
    "cities": dict(
        kind_noun="City",
        ref="Oslo has a population of 709,000 and covers an area of 454 square kilometres. "
        "Bergen has a population of 291,000 and covers an area of 465 square kilometres. "
        "Trondheim has a population of 212,000 and covers an area of 342 square kilometres.",
        subjects=["Oslo", "Bergen", "Trondheim"],
        attrs=[
            ("Population", "population", "{v}", lambda s, v: f"{s} has a population of {v}"),
            ("Area", "area", "{v}", lambda s, v: f"{s} covers an area of {v}"),
        ],
        vals={
            "Oslo": ["709,000", "454 square kilometres"],
            "Bergen": ["291,000", "465 square kilometres"],
            "Trondheim": ["212,000", "342 square kilometres"],
        },
        jsonvals={
            "Oslo": [709000, "454 km²"],
            "Bergen": [291000, "465 km²"],
            "Trondheim": [212000, "342 km²"],
        },
        wrong=("Oslo", 0, "290,000", 290000),
        swap=(0, "Oslo", "Bergen"),
    ),
    "companies": dict(
        kind_noun="Company",
        ref="Kestrel Robotics was founded in 2005 by Mara Lind. It is headquartered in Bergen. "
        "Tovik Foods was founded in 1998 by Anders Holm. It is headquartered in Malmö. "
        "Brisa Energy was founded in 2012 by Lena Sørli. It is headquartered in Aarhus.",
        subjects=["Kestrel Robotics", "Tovik Foods", "Brisa Energy"],
        attrs=[
            ("Founded", "founded", "{v}", lambda s, v: f"{s} was founded in {v}"),
            ("Founder", "founder", "{v}", lambda s, v: f"{s} was founded by {v}"),
            ("Headquarters", "headquarters", "{v}", lambda s, v: f"{s} is headquartered in {v}"),
        ],
        vals={
            "Kestrel Robotics": ["2005", "Mara Lind", "Bergen"],
            "Tovik Foods": ["1998", "Anders Holm", "Malmö"],
            "Brisa Energy": ["2012", "Lena Sørli", "Aarhus"],
        },
        jsonvals={
            "Kestrel Robotics": [2005, "Mara Lind", "Bergen"],
            "Tovik Foods": [1998, "Anders Holm", "Malmö"],
            "Brisa Energy": [2012, "Lena Sørli", "Aarhus"],
        },
        wrong=("Tovik Foods", 0, "1994", 1994),
        swap=(0, "Kestrel Robotics", "Brisa Energy"),
    ),
    "books": dict(
        kind_noun="Book",
        ref="The Salt Road was written by Ines Varga and published in 1987. "
        "Harbour Lights was written by Tomas Berg and published in 2003. "
        "Winter Orchard was written by Agnes Holt and published in 1964.",
        subjects=["The Salt Road", "Harbour Lights", "Winter Orchard"],
        attrs=[
            ("Author", "author", "{v}", lambda s, v: f"{s} was written by {v}"),
            ("Published", "published", "{v}", lambda s, v: f"{s} was published in {v}"),
        ],
        vals={
            "The Salt Road": ["Ines Varga", "1987"],
            "Harbour Lights": ["Tomas Berg", "2003"],
            "Winter Orchard": ["Agnes Holt", "1964"],
        },
        jsonvals={
            "The Salt Road": ["Ines Varga", 1987],
            "Harbour Lights": ["Tomas Berg", 2003],
            "Winter Orchard": ["Agnes Holt", 1964],
        },
        wrong=("Winter Orchard", 1, "1946", 1946),
        swap=(1, "The Salt Road", "Harbour Lights"),
    ),
    "planets": dict(
        kind_noun="Planet",
        ref="Mars has a diameter of 6,779 kilometres and two moons. "
        "Neptune has a diameter of 49,244 kilometres and 16 moons. "
        "Uranus has a diameter of 50,724 kilometres and 28 moons.",
        subjects=["Mars", "Neptune", "Uranus"],
        attrs=[
            ("Diameter", "diameter", "{v}", lambda s, v: f"{s} has a diameter of {v}"),
            ("Moons", "moons", "{v}", lambda s, v: f"{s} has {v} moons"),
        ],
        vals={
            "Mars": ["6,779 kilometres", "2"],
            "Neptune": ["49,244 kilometres", "16"],
            "Uranus": ["50,724 kilometres", "28"],
        },
        jsonvals={"Mars": ["6,779 km", 2], "Neptune": ["49,244 km", 16], "Uranus": ["50,724 km", 28]},
        wrong=("Neptune", 1, "14", 14),
        swap=(1, "Neptune", "Uranus"),
    ),
    "people": dict(
        kind_noun="Person",
        ref="Clara Nyberg was born on 12 March 1954 in Uppsala. "
        "Erik Dahl was born on 3 July 1961 in Lund. "
        "Sofia Rask was born on 21 October 1970 in Umeå.",
        subjects=["Clara Nyberg", "Erik Dahl", "Sofia Rask"],
        attrs=[
            ("Born", "born", "{v}", lambda s, v: f"{s} was born on {v}"),
            ("Birthplace", "birthplace", "{v}", lambda s, v: f"{s} was born in {v}"),
        ],
        vals={
            "Clara Nyberg": ["12 March 1954", "Uppsala"],
            "Erik Dahl": ["3 July 1961", "Lund"],
            "Sofia Rask": ["21 October 1970", "Umeå"],
        },
        jsonvals={
            "Clara Nyberg": ["1954-03-12", "Uppsala"],
            "Erik Dahl": ["1961-07-03", "Lund"],
            "Sofia Rask": ["1970-10-21", "Umeå"],
        },
        wrong=("Erik Dahl", 0, "3 July 1966", "1966-07-03"),
        swap=(1, "Clara Nyberg", "Sofia Rask"),
    ),
    "bridges": dict(
        kind_noun="Bridge",
        ref="The Halsa Bridge opened in 1992 and is 1,250 metres long. "
        "The Ness Bridge opened in 2001 and is 840 metres long. "
        "The Korsvik Bridge opened in 1979 and is 615 metres long.",
        subjects=["Halsa Bridge", "Ness Bridge", "Korsvik Bridge"],
        attrs=[
            ("Opened", "opened", "{v}", lambda s, v: f"The {s} opened in {v}"),
            ("Length", "length", "{v}", lambda s, v: f"The {s} is {v} long"),
        ],
        vals={
            "Halsa Bridge": ["1992", "1,250 metres"],
            "Ness Bridge": ["2001", "840 metres"],
            "Korsvik Bridge": ["1979", "615 metres"],
        },
        jsonvals={
            "Halsa Bridge": [1992, "1,250 m"],
            "Ness Bridge": [2001, "840 m"],
            "Korsvik Bridge": [1979, "615 m"],
        },
        wrong=("Korsvik Bridge", 1, "715 metres", "715 m"),
        swap=(1, "Halsa Bridge", "Ness Bridge"),
    ),
    "mountains": dict(
        kind_noun="Mountain",
        ref="Galdtind rises to 2,311 metres and was first climbed in 1876. "
        "Storhorn rises to 1,987 metres and was first climbed in 1902. "
        "Kvitegg rises to 1,717 metres and was first climbed in 1889.",
        subjects=["Galdtind", "Storhorn", "Kvitegg"],
        attrs=[
            ("Height", "height", "{v}", lambda s, v: f"{s} rises to {v}"),
            ("First ascent", "first_ascent", "{v}", lambda s, v: f"{s} was first climbed in {v}"),
        ],
        vals={
            "Galdtind": ["2,311 metres", "1876"],
            "Storhorn": ["1,987 metres", "1902"],
            "Kvitegg": ["1,717 metres", "1889"],
        },
        jsonvals={"Galdtind": ["2,311 m", 1876], "Storhorn": ["1,987 m", 1902], "Kvitegg": ["1,717 m", 1889]},
        wrong=("Galdtind", 1, "1867", 1867),
        swap=(0, "Storhorn", "Kvitegg"),
    ),
}


SECOND = {
    "rivers": dict(
        kind_noun="River",
        ref="The Glomma is 621 kilometres long and drains a basin of 42,000 square kilometres. "
        "The Lagen is 359 kilometres long and drains a basin of 11,500 square kilometres. "
        "The Otra is 245 kilometres long and drains a basin of 3,700 square kilometres.",
        subjects=["Glomma", "Lagen", "Otra"],
        attrs=[("Length", "length", "", None), ("Basin area", "basin_area", "", None)],
        prose=[lambda s, v: f"The {s} is {v} long", lambda s, v: f"The {s} drains a basin of {v}"],
        vals={
            "Glomma": ["621 kilometres", "42,000 square kilometres"],
            "Lagen": ["359 kilometres", "11,500 square kilometres"],
            "Otra": ["245 kilometres", "3,700 square kilometres"],
        },
        jsonvals={
            "Glomma": ["621 km", "42,000 km²"],
            "Lagen": ["359 km", "11,500 km²"],
            "Otra": ["245 km", "3,700 km²"],
        },
        wrong=("Lagen", 0, "395 kilometres", "395 km"),
        swap=(1, "Glomma", "Otra"),
    ),
    "ships": dict(
        kind_noun="Ship",
        ref="MS Nordlys was built in 1994. It carries 691 passengers. "
        "MS Kongsfjord was built in 2002. It carries 590 passengers. "
        "MS Vesteraalen was built in 1983. It carries 510 passengers.",
        subjects=["MS Nordlys", "MS Kongsfjord", "MS Vesteraalen"],
        attrs=[("Built", "built", "", None), ("Passengers", "passengers", "", None)],
        prose=[lambda s, v: f"{s} was built in {v}", lambda s, v: f"{s} carries {v} passengers"],
        vals={
            "MS Nordlys": ["1994", "691"],
            "MS Kongsfjord": ["2002", "590"],
            "MS Vesteraalen": ["1983", "510"],
        },
        jsonvals={"MS Nordlys": [1994, 691], "MS Kongsfjord": [2002, 590], "MS Vesteraalen": [1983, 510]},
        wrong=("MS Vesteraalen", 1, "610", 610),
        swap=(0, "MS Nordlys", "MS Kongsfjord"),
    ),
    "universities": dict(
        kind_noun="University",
        ref="Halden University was founded in 1912 and has 14,500 students. Its rector is Ingrid Moe. "
        "Brekke College was founded in 1968 and has 6,200 students. Its rector is Jonas Aas. "
        "Fjell Institute was founded in 1935 and has 3,100 students. Its rector is Petra Lunde.",
        subjects=["Halden University", "Brekke College", "Fjell Institute"],
        attrs=[
            ("Founded", "founded", "", None),
            ("Students", "students", "", None),
            ("Rector", "rector", "", None),
        ],
        prose=[
            lambda s, v: f"{s} was founded in {v}",
            lambda s, v: f"{s} has {v} students",
            lambda s, v: f"The rector of {s} is {v}",
        ],
        vals={
            "Halden University": ["1912", "14,500", "Ingrid Moe"],
            "Brekke College": ["1968", "6,200", "Jonas Aas"],
            "Fjell Institute": ["1935", "3,100", "Petra Lunde"],
        },
        jsonvals={
            "Halden University": [1912, 14500, "Ingrid Moe"],
            "Brekke College": [1968, 6200, "Jonas Aas"],
            "Fjell Institute": [1935, 3100, "Petra Lunde"],
        },
        wrong=("Brekke College", 1, "7,200", 7200),
        swap=(1, "Halden University", "Fjell Institute"),
    ),
    "stadiums": dict(
        kind_noun="Stadium",
        ref="Ravnsborg Arena opened in 2007 and holds 18,200 spectators. "
        "Kirkeby Park opened in 1956 and holds 9,400 spectators. "
        "Solvang Stadium opened in 1999 and holds 25,000 spectators.",
        subjects=["Ravnsborg Arena", "Kirkeby Park", "Solvang Stadium"],
        attrs=[("Opened", "opened", "", None), ("Capacity", "capacity", "", None)],
        prose=[lambda s, v: f"{s} opened in {v}", lambda s, v: f"{s} holds {v} spectators"],
        vals={
            "Ravnsborg Arena": ["2007", "18,200"],
            "Kirkeby Park": ["1956", "9,400"],
            "Solvang Stadium": ["1999", "25,000"],
        },
        jsonvals={
            "Ravnsborg Arena": [2007, 18200],
            "Kirkeby Park": [1956, 9400],
            "Solvang Stadium": [1999, 25000],
        },
        wrong=("Kirkeby Park", 0, "1965", 1965),
        swap=(1, "Ravnsborg Arena", "Solvang Stadium"),
    ),
    "scientists": dict(
        kind_noun="Scientist",
        ref="Marta Kvist was born in 1931 and died in 2004. She was born in Bergen. "
        "Olav Strand was born in 1945 and died in 2019. He was born in Tromsø. "
        "Hedda Berg was born in 1952 and died in 2020. She was born in Stavanger.",
        subjects=["Marta Kvist", "Olav Strand", "Hedda Berg"],
        attrs=[
            ("Born", "born", "", None),
            ("Died", "died", "", None),
            ("Place of birth", "place_of_birth", "", None),
        ],
        prose=[
            lambda s, v: f"{s} was born in {v}",
            lambda s, v: f"{s} died in {v}",
            lambda s, v: f"{s} was born in {v}",
        ],
        vals={
            "Marta Kvist": ["1931", "2004", "Bergen"],
            "Olav Strand": ["1945", "2019", "Tromsø"],
            "Hedda Berg": ["1952", "2020", "Stavanger"],
        },
        jsonvals={
            "Marta Kvist": [1931, 2004, "Bergen"],
            "Olav Strand": [1945, 2019, "Tromsø"],
            "Hedda Berg": [1952, 2020, "Stavanger"],
        },
        wrong=("Olav Strand", 1, "2017", 2017),
        swap=(2, "Marta Kvist", "Hedda Berg"),
    ),
    "albums": dict(
        kind_noun="Album",
        ref="Blue Hours is an album by Ferris Lane, released in 2011. "
        "Paper Kites is an album by Mona Vik, released in 2015. "
        "Northbound is an album by The Drifts, released in 2008.",
        subjects=["Blue Hours", "Paper Kites", "Northbound"],
        attrs=[("Artist", "artist", "", None), ("Released", "released", "", None)],
        prose=[lambda s, v: f"{s} is an album by {v}", lambda s, v: f"{s} was released in {v}"],
        vals={
            "Blue Hours": ["Ferris Lane", "2011"],
            "Paper Kites": ["Mona Vik", "2015"],
            "Northbound": ["The Drifts", "2008"],
        },
        jsonvals={
            "Blue Hours": ["Ferris Lane", 2011],
            "Paper Kites": ["Mona Vik", 2015],
            "Northbound": ["The Drifts", 2008],
        },
        wrong=("Northbound", 1, "2006", 2006),
        swap=(0, "Blue Hours", "Paper Kites"),
    ),
}


def _prose(attrs):
    return [a[3] for a in attrs]


for _sets in (FIRST, SECOND):
    for _s in _sets.values():
        if "prose" not in _s:
            _s["prose"] = _prose(_s["attrs"])
        _s["attrs"] = [(a[0], a[1]) for a in _s["attrs"]]

FORMATS = [
    "prose",
    "bullets",
    "numbered_bold",
    "bold_sections",
    "nested",
    "table",
    "table_columns",
    "json_array",
    "json_object",
    "yaml",
]


def render(fmt: str, s: dict, vals: dict, jvals: dict) -> str:
    """The facts ``vals`` (``jvals`` in JSON and YAML) of set ``s`` written in format ``fmt``."""
    subs = s["subjects"]
    attrs = s["attrs"]
    if fmt == "prose":
        out = []
        for x in subs:
            out.append(" ".join(f(x, vals[x][i]) + "." for i, f in enumerate(s["prose"])))
        return " ".join(out)
    if fmt == "bullets":
        return "\n\n".join(
            f"## {x}\n\n" + "\n".join(f"- {a[0]}: {vals[x][i]}" for i, a in enumerate(attrs)) for x in subs
        )
    if fmt == "numbered_bold":
        return "\n\n".join(
            f"### {x}\n\n" + "\n".join(f"{i + 1}. **{a[0]}:** {vals[x][i]}" for i, a in enumerate(attrs))
            for x in subs
        )
    if fmt == "bold_sections":
        return "\n\n".join(
            f"**{x}**\n\n" + "\n".join(f"{i + 1}. **{a[0]}:** {vals[x][i]}" for i, a in enumerate(attrs))
            for x in subs
        )
    if fmt == "nested":
        return "\n".join(
            f"{n + 1}. **{x}**\n" + "\n".join(f"   - {a[0]}: {vals[x][i]}" for i, a in enumerate(attrs))
            for n, x in enumerate(subs)
        )
    if fmt == "table":
        head = "| " + s["kind_noun"] + " | " + " | ".join(a[0] for a in attrs) + " |"
        sep = "|" + "---|" * (len(attrs) + 1)
        rows = ["| " + x + " | " + " | ".join(vals[x]) + " |" for x in subs]
        return "\n".join([head, sep, *rows])
    if fmt == "table_columns":
        head = "| Attribute | " + " | ".join(subs) + " |"
        sep = "|" + "---|" * (len(subs) + 1)
        rows = [
            "| " + a[0] + " | " + " | ".join(vals[x][i] for x in subs) + " |" for i, a in enumerate(attrs)
        ]
        return "\n".join([head, sep, *rows])
    if fmt == "json_array":
        arr = [{"name": x, **{a[1]: jvals[x][i] for i, a in enumerate(attrs)}} for x in subs]
        return json.dumps(arr, indent=2, ensure_ascii=False)
    if fmt == "json_object":
        obj = {x: {a[1]: jvals[x][i] for i, a in enumerate(attrs)} for x in subs}
        return json.dumps(obj, indent=2, ensure_ascii=False)
    if fmt == "yaml":
        lines = []
        for x in subs:
            lines.append(f"- name: {x}")
            for i, a in enumerate(attrs):
                v = jvals[x][i]
                lines.append(f"  {a[1]}: {v}")
        return "```yaml\n" + "\n".join(lines) + "\n```"
    raise ValueError(fmt)


def _shown(fmt: str, vals: dict, jvals: dict, x: str, i: int) -> str:
    """How value ``i`` of subject ``x`` reads in a claim of format ``fmt``."""
    return str(jvals[x][i] if fmt.startswith(("json", "yaml")) else vals[x][i])


def _copy(d: dict) -> dict:
    return {k: list(v) for k, v in d.items()}


def cases() -> list[dict]:
    """Every case, in set, format and variant order (module notes)."""
    out = []
    for prefix, sets in (("fs", FIRST), ("hs", SECOND)):
        for name, s in sets.items():
            for fmt in FORMATS:
                base = {"references": [s["ref"]]}
                out.append(
                    dict(
                        base,
                        id=f"{prefix}_{name}_{fmt}_right",
                        kind=f"format swaps: {fmt}, all values right",
                        response=render(fmt, s, s["vals"], s["jsonvals"]),
                        expect={
                            "counts": {"contradicted": [0, 0], "unsupported": [0, 0], "supported": [1, None]}
                        },
                    )
                )
                x, i, wrong, wrong_data = s["wrong"]
                vals, jv = _copy(s["vals"]), _copy(s["jsonvals"])
                vals[x][i], jv[x][i] = wrong, wrong_data
                out.append(
                    dict(
                        base,
                        id=f"{prefix}_{name}_{fmt}_wrong",
                        kind=f"format swaps: {fmt}, one value wrong",
                        response=render(fmt, s, vals, jv),
                        expect={
                            "verdicts": [
                                {
                                    "response_claim_contains": _shown(fmt, vals, jv, x, i),
                                    "verdict": ["contradicted"],
                                }
                            ],
                            "counts": {"contradicted": [1, 1]},
                        },
                    )
                )
                i, a, b = s["swap"]
                vals, jv = _copy(s["vals"]), _copy(s["jsonvals"])
                vals[a][i], vals[b][i] = vals[b][i], vals[a][i]
                jv[a][i], jv[b][i] = jv[b][i], jv[a][i]
                out.append(
                    dict(
                        base,
                        id=f"{prefix}_{name}_{fmt}_swap",
                        kind=f"format swaps: {fmt}, two values swapped between subjects",
                        response=render(fmt, s, vals, jv),
                        expect={
                            "verdicts": [
                                {
                                    "response_claim_contains": _shown(fmt, vals, jv, y, i),
                                    "verdict": ["contradicted"],
                                }
                                for y in (a, b)
                            ],
                            "counts": {"contradicted": [2, 2]},
                        },
                    )
                )
    return out


def main() -> int:
    path = Path(sys.argv[1]) if len(sys.argv) > 1 else OUT
    rows = cases()
    path.write_text("".join(json.dumps(c, ensure_ascii=False) + "\n" for c in rows), encoding="utf-8")
    print(f"{len(rows)} cases -> {path}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
