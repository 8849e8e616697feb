#!/usr/bin/python3
"""Extracts the OpenAPI schema of a CustomResourceDefinition's storage
version for tests/tools/crd_validate.py: the version's
schema.openAPIV3Schema with every "description" removed (they are most of
a CRD's bytes and no validation reads them), written as sorted, compact
JSON with the CRD's group, version and kind beside it. Nothing else is
changed, so the extract validates what the CRD does.

Usage: crd_extract.py CRD.yaml OUT.json"""
import json
import sys

import yaml


def strip(o):
    if isinstance(o, dict):
        return {k: strip(v) for k, v in o.items() if k != "description"}
    if isinstance(o, list):
        return [strip(v) for v in o]
    return o


def main():
    crd = yaml.safe_load(open(sys.argv[1]))
    spec = crd["spec"]
    version = [v for v in spec["versions"] if v.get("storage")][0]
    out = {
        "apiVersion": spec["group"] + "/" + version["name"],
        "kind": spec["names"]["kind"],
        "schema": strip(version["schema"]["openAPIV3Schema"]),
    }
    with open(sys.argv[2], "w") as f:
        json.dump(out, f, sort_keys=True, separators=(",", ":"))
        f.write("\n")


if __name__ == "__main__":
    main()
