#!/usr/bin/env python3
"""Scales a provider's loopback fixture to a realistic size (bench only):

  scale_fixture.py IN OUT N

JSON: the largest array or object-of-objects in the body (an offer list,
a price table) is repeated until it holds N elements; copy k of an element
gets "-bk" appended to its id-like string fields ("name", "offer", "model",
"armSkuName", "skuId", "meterId"; a string "id" with a slash, a model id;
an object's key) and k * 10**7 added to an integer "id", so that the rows stay distinct where the feed keys them so.
CSV: the data rows after the header are repeated until there are N.
Anything else (the ECB's XML) is copied unchanged. The shape, units and
paging fields of the recorded fixture are kept as they are.
"""
import json
import sys

ID_KEYS = ("name", "offer", "model", "armSkuName", "skuId", "meterId")


def biggest(v, best=None):
    """The largest list, or dict whose values are dicts, inside v."""
    size = lambda c: len(c) if c is not None else -1
    if isinstance(v, list):
        if size(v) > size(best):
            best = v
        for x in v:
            best = biggest(x, best)
    elif isinstance(v, dict):
        if v and all(isinstance(x, dict) for x in v.values()) and size(v) > size(best):
            best = v
        for x in v.values():
            best = biggest(x, best)
    return best


def relabel(x, k):
    x = json.loads(json.dumps(x))
    if isinstance(x, dict):
        for key in ID_KEYS:
            if isinstance(x.get(key), str):
                x[key] += "-b%d" % k
        if isinstance(x.get("id"), int):
            x["id"] += k * 10**7
        elif isinstance(x.get("id"), str) and "/" in x["id"]:
            x["id"] += "-b%d" % k  # a model id (vendor/model), not a GPU name
    return x


def scale_json(text, n):
    d = json.loads(text)
    c = biggest(d)
    if not c:
        return text
    if isinstance(c, list):
        base = list(c)
        k = 1
        while len(c) < n:
            c.extend(relabel(x, k) for x in base[:n - len(c)])
            k += 1
    else:
        base = list(c.items())
        k = 1
        while len(c) < n:
            for key, x in base[:n - len(c)]:
                c["%s-b%d" % (key, k)] = relabel(x, k)
            k += 1
    return json.dumps(d)


def scale_csv(text, n):
    lines = text.splitlines(keepends=True)
    head = next((i for i, l in enumerate(lines) if "TermType" in l or "SKU" in l), 0)
    body = lines[head + 1:] or [""]
    out = lines[:head + 1]
    while len(out) - head - 1 < n:
        out.extend(body[:n - (len(out) - head - 1)])
    return "".join(out)


def main():
    src, dst, n = sys.argv[1], sys.argv[2], int(sys.argv[3])
    with open(src, encoding="utf-8") as f:
        text = f.read()
    if src.endswith(".json"):
        text = scale_json(text, n)
    elif src.endswith(".csv"):
        text = scale_csv(text, n)
    with open(dst, "w", encoding="utf-8") as f:
        f.write(text)


if __name__ == "__main__":
    main()
