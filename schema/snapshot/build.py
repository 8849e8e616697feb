#!/usr/bin/env python3
"""Assembles schema/snapshot.json, the bundled price snapshot, from its inputs.

Inputs, all under schema/snapshot/:
  meta.json          {"as_of": ..., "note": ...}: the snapshot's own date (never the
                     clock, so the output does not drift day to day) and its note
  fx.json            the exchange-rate block, as the snapshot carries it
  sources.json       the catalogue extracts (sources/*.csv): provider, origin
                     (repository@commit path or URL), retrieval date, column mapping,
                     GPU names and whether the rows are list prices or estimates
  rows/<p>.json      hand-transcribed offer rows of provider p (price pages, recorded
                     responses that are not catalogue CSVs), in the snapshot's row format
  api/<p>.json       API price rows of provider p, in the snapshot's api_prices format

Offers: one provider after another in name order; within one, the catalogue
rows (in sources.json's order, then file order) before the hand rows (file
order). API prices likewise by provider name. The output is the JSON the
snapshot has always been written as: indent 1, UTF-8, a final newline.

Standard library only; runs under any Python 3.

  build.py                 write schema/snapshot.json
  build.py --out FILE      write FILE instead
  build.py --check FILE    build in memory, exit 1 unless FILE holds the same bytes

Prints, per provider, the rows dated more than STALE_DAYS before the
snapshot's as_of (planner's compare notes such rows when it uses them).
"""
import csv
import datetime
import glob
import io
import json
import os
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
OUT = os.path.join(os.path.dirname(HERE), "snapshot.json")
# Rows older than this before as_of are reported (issue 29; planner's
# SNAPSHOT_STALE_DAYS in planner/plan.h holds the same figure).
STALE_DAYS = 90
# A catalogue row's fields, in the order snapshot.json writes them.
ROW_KEYS = ("provider", "offer", "region", "gpu", "gpu_count", "vram_gib", "vcpus", "ram_gib",
            "price_per_hour", "currency", "spot", "available", "fetched_at", "source",
            "estimated", "marketplace")


class BuildError(Exception):
    pass


def load(path):
    with open(path, encoding="utf-8") as f:
        return json.load(f)


def number(text, what):
    try:
        v = float(text)
    except ValueError:
        raise BuildError("%s: not a number: %r" % (what, text))
    return int(v) if v == int(v) else v


def catalogue_rows(src):
    """The offer rows of one catalogue extract, as its manifest entry maps them."""
    path = os.path.join(HERE, src["file"])
    cols = src["columns"]
    names = src["gpu_names"]
    where = src["origin"]
    rows = []
    with open(path, encoding="utf-8", newline="") as f:
        for n, rec in enumerate(csv.DictReader(f), start=2):
            what = "%s line %d" % (src["file"], n)
            acc = rec[cols["gpu"]]
            if acc not in names:
                raise BuildError("%s: GPU %r has no name in sources.json" % (what, acc))
            if names[acc] is None:
                continue  # the manifest says why the card is left out
            prices = [(False, rec[cols["price"]])]
            if cols.get("spot_price") and rec[cols["spot_price"]].strip():
                prices.append((True, rec[cols["spot_price"]]))
            for spot, text in prices:
                price = number(text, what)
                if price <= 0:
                    continue
                row = {
                    "provider": src["provider"],
                    "offer": rec[cols["offer"]],
                    "region": rec[cols["region"]] if cols.get("region") else "",
                    "gpu": names[acc],
                    "gpu_count": int(number(rec[cols["gpu_count"]], what)),
                    "vcpus": number(rec[cols["vcpus"]], what) if cols.get("vcpus") else None,
                    "ram_gib": number(rec[cols["ram_gib"]], what) if cols.get("ram_gib") else None,
                    "price_per_hour": price,
                    "currency": src.get("currency"),
                    "spot": spot,
                    "available": True,
                    "fetched_at": src["fetched_at"],
                    "source": "%s, row %s %s%s; %s, retrieved %s" % (
                        where, rec[cols["offer"]],
                        rec[cols["region"]] if cols.get("region") else "",
                        " (spot)" if spot else "",
                        "list price" if src["basis"] == "list" else
                        "estimate: " + src.get("basis_note", "see sources.json"),
                        src["retrieved"]),
                    "estimated": src["basis"] != "list",
                    "marketplace": src["marketplace"],
                }
                rows.append({k: row[k] for k in ROW_KEYS if row.get(k) is not None})
    return rows


def by_provider(pattern):
    """{provider: rows} of every file matching pattern (a rows/ or api/ file)."""
    out = {}
    for path in sorted(glob.glob(os.path.join(HERE, pattern))):
        name = os.path.splitext(os.path.basename(path))[0]
        rows = load(path)
        if not isinstance(rows, list):
            raise BuildError("%s: want a JSON array of rows" % path)
        for r in rows:
            if r.get("provider") != name:
                raise BuildError("%s: a row of provider %r" % (path, r.get("provider")))
        out[name] = rows
    return out


def build():
    meta = load(os.path.join(HERE, "meta.json"))
    fx = load(os.path.join(HERE, "fx.json"))
    sources = load(os.path.join(HERE, "sources.json"))
    offers = {}
    for src in sources["catalogues"]:
        offers.setdefault(src["provider"], []).extend(catalogue_rows(src))
    for name, rows in by_provider(os.path.join("rows", "*.json")).items():
        offers.setdefault(name, []).extend(rows)
    apis = by_provider(os.path.join("api", "*.json"))
    snap = {
        "as_of": meta["as_of"],
        "note": meta["note"],
        "fx": fx,
        "offers": [r for name in sorted(offers) for r in offers[name]],
        "api_prices": [r for name in sorted(apis) for r in apis[name]],
    }
    return snap, json.dumps(snap, indent=1, ensure_ascii=False) + "\n"


def day(stamp):
    return datetime.date(int(stamp[0:4]), int(stamp[5:7]), int(stamp[8:10]))


def stale_report(snap):
    """Lines naming, per provider, the rows older than STALE_DAYS before as_of."""
    as_of = day(snap["as_of"])
    old = {}
    for r in snap["offers"] + snap["api_prices"]:
        age = (as_of - day(r["fetched_at"])).days
        if age > STALE_DAYS:
            old.setdefault(r["provider"], []).append(r["fetched_at"][:10])
    lines = []
    for name in sorted(old):
        dates = sorted(set(old[name]))
        lines.append("stale: %s: %d row%s dated %s (more than %d days before as_of %s)" % (
            name, len(old[name]), "" if len(old[name]) == 1 else "s", ", ".join(dates),
            STALE_DAYS, snap["as_of"][:10]))
    return lines


def main(argv):
    out, check = OUT, None
    args = argv[1:]
    while args:
        a = args.pop(0)
        if a in ("--out", "--check") and args:
            if a == "--out":
                out = args.pop(0)
            else:
                check = args.pop(0)
        else:
            sys.stderr.write("usage: build.py [--out FILE | --check FILE]\n")
            return 2
    try:
        snap, text = build()
    except (BuildError, OSError, ValueError, KeyError) as e:
        sys.stderr.write("build.py: %s\n" % e)
        return 1
    data = text.encode("utf-8")
    if check:
        with open(check, "rb") as f:
            have = f.read()
        if have != data:
            sys.stderr.write("build.py: %s differs from what schema/snapshot/ builds; "
                             "run 'make snapshot'\n" % check)
            return 1
        print("build.py: %s is what schema/snapshot/ builds (%d offers, %d API prices)" % (
            check, len(snap["offers"]), len(snap["api_prices"])))
        return 0
    for line in stale_report(snap):
        print(line)
    with io.open(out + ".tmp", "wb") as f:
        f.write(data)
    os.replace(out + ".tmp", out)
    print("build.py: wrote %s (%d offers, %d API prices)" % (
        out, len(snap["offers"]), len(snap["api_prices"])))
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
