#!/usr/bin/python3
"""Validates every document of a YAML stream against a JSON schema, offline,
with Debian's python3-jsonschema and python3-yaml (PyYAML, a real YAML
parser). Used for the SkyPilot and dstack exports against the schemas
vendored under tests/fixtures/schemas/ (see PROVENANCE.md there).

Usage: schema_validate.py SCHEMA FILE; exit 0 when every document is
valid, 1 with the first error per document on stderr (2 when FILE holds no
document). Documents that are only comments are skipped."""
import json
import sys

import jsonschema
import yaml


def main():
    schema_path, path = sys.argv[1], sys.argv[2]
    with open(schema_path, encoding="utf-8") as f:
        schema = json.load(f)
    cls = jsonschema.validators.validator_for(schema)
    cls.check_schema(schema)
    validator = cls(schema)
    with open(path, encoding="utf-8") as f:
        docs = [d for d in yaml.safe_load_all(f) if d is not None]
    if not docs:
        print(f"{path}: no document", file=sys.stderr)
        return 2
    bad = 0
    for i, doc in enumerate(docs, 1):
        errors = sorted(validator.iter_errors(doc), key=lambda e: list(e.path))
        if errors:
            e = errors[0]
            where = "/".join(str(p) for p in e.path) or "(top)"
            print(f"document {i}: {where}: {e.message}", file=sys.stderr)
            bad += 1
    print(f"{len(docs)} document(s), {bad} invalid")
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
