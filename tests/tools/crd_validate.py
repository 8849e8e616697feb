#!/usr/bin/python3
"""Validates the documents of one custom resource kind in a multi-document
YAML stream against its CRD's OpenAPI schema (an extract made by
crd_extract.py), offline, with Debian's python3-jsonschema and
python3-yaml. Strict as `kubectl apply --validate=strict`: an object
schema with properties and neither additionalProperties nor
x-kubernetes-preserve-unknown-fields rejects keys it does not list (the
API server would drop them). The CEL rules (x-kubernetes-validations) and
the defaults are not evaluated. Documents of other kinds are skipped.

Usage: crd_validate.py EXTRACT.json FILE; exit 0 when every document of
the kind is valid and there is at least one, 1 otherwise, the first error
per document on stderr, a count on stdout."""
import json
import sys

import jsonschema
import yaml


def strict(s):
    if isinstance(s, dict):
        s = {k: strict(v) for k, v in s.items()}
        if ("properties" in s and "additionalProperties" not in s
                and not s.get("x-kubernetes-preserve-unknown-fields")):
            s["additionalProperties"] = False
        if s.get("x-kubernetes-int-or-string"):
            s.pop("type", None)
            s.setdefault("anyOf", [{"type": "integer"}, {"type": "string"}])
        return s
    if isinstance(s, list):
        return [strict(v) for v in s]
    return s


def main():
    ext = json.load(open(sys.argv[1]))
    schema = strict(ext["schema"])
    # metadata is {type: object} in a CRD: the API server checks it, not
    # the CRD; keep it open.
    validator = jsonschema.Draft7Validator(schema)
    n = bad = 0
    for doc in yaml.safe_load_all(open(sys.argv[2])):
        if not doc or doc.get("kind") != ext["kind"]:
            continue
        n += 1
        if doc.get("apiVersion") != ext["apiVersion"]:
            print(f"document {n}: apiVersion {doc.get('apiVersion')!r}, want "
                  f"{ext['apiVersion']!r}", file=sys.stderr)
            bad += 1
            continue
        errs = sorted(validator.iter_errors(doc), key=lambda e: list(e.path))
        if errs:
            e = errs[0]
            print(f"document {n}: {'.'.join(str(p) for p in e.path)}: {e.message}",
                  file=sys.stderr)
            bad += 1
    print(f"{n} {ext['kind']} document(s), {bad} invalid")
    sys.exit(1 if bad or n == 0 else 0)


if __name__ == "__main__":
    main()
