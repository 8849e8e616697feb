#!/usr/bin/env python3
"""split.py: the split of tests/calibration/README.md ("How the split was made").

A source (the `source_id` column: one publisher's table or page for one
engine version) is on one side only. Sources that have no side yet (rows
whose `split` cell is empty) are taken in the order their first row appears
in the file; each is held out unless that would raise the held-out share of
one of the kinds it has rows in above a third of that kind's rows in the
file; otherwise it is a fit source. A source keeps its side once it has one,
so adding rows never moves rows already on a side.

  python3 tests/calibration/split.py          # checks the file, exit 1 if not
  python3 tests/calibration/split.py --write  # gives new sources their side
"""
import sys

TSV = "tests/calibration/measurements.tsv"
SHARE = 1.0 / 3.0


def read(path):
    with open(path, encoding="utf-8") as f:
        lines = f.read().split("\n")
    header = lines[0].split("\t")
    rows = [dict(zip(header, l.split("\t"))) for l in lines[1:] if l]
    return header, rows


def assign(rows):
    """The side of every source, old sides kept, new ones by the rule."""
    total, held, side, order = {}, {}, {}, []
    for r in rows:
        total[r["kind"]] = total.get(r["kind"], 0) + 1
        s = r["source_id"]
        if s not in order:
            order.append(s)
        if r["split"]:
            if side.setdefault(s, r["split"]) != r["split"]:
                sys.exit("%s: source %s is on both sides" % (r["id"], s))
    for s in side:
        if side[s] == "holdout":
            for r in rows:
                if r["source_id"] == s:
                    held[r["kind"]] = held.get(r["kind"], 0) + 1
    for s in order:
        if s in side:
            continue
        mine = {}
        for r in rows:
            if r["source_id"] == s:
                mine[r["kind"]] = mine.get(r["kind"], 0) + 1
        ok = all(held.get(k, 0) + n <= SHARE * total[k] for k, n in mine.items())
        side[s] = "holdout" if ok else "fit"
        if ok:
            for k, n in mine.items():
                held[k] = held.get(k, 0) + n
    return side


def main():
    header, rows = read(TSV)
    for r in rows:
        if not r.get("source_id"):
            sys.exit("%s: no source_id" % r["id"])
    side = assign(rows)
    bad = [r["id"] for r in rows if r["split"] and r["split"] != side[r["source_id"]]]
    new = [r for r in rows if not r["split"]]
    if "--write" in sys.argv:
        for r in new:
            r["split"] = side[r["source_id"]]
        with open(TSV, "w", encoding="utf-8") as f:
            f.write("\t".join(header) + "\n")
            for r in rows:
                f.write("\t".join(r[h] for h in header) + "\n")
    elif new or bad:
        sys.exit("%d rows without a side, %d off the rule (%s): run with --write"
                 % (len(new), len(bad), " ".join(bad[:5])))
    kinds = {}
    for r in rows:
        k = kinds.setdefault(r["kind"], [0, 0, set(), set()])
        k[0 if side[r["source_id"]] == "fit" else 1] += 1
        k[2 if side[r["source_id"]] == "fit" else 3].add(r["source_id"])
    print("%-17s %5s %8s %8s %12s" % ("kind", "fit", "holdout", "sources", "held sources"))
    for kind, (f, h, fs, hs) in kinds.items():
        print("%-17s %5d %8d %8d %12d" % (kind, f, h, len(fs | hs), len(hs)))


if __name__ == "__main__":
    main()
