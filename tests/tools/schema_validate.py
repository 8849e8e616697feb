#!/usr/bin/python3
"""Validates documents against JSON schemas, offline, with Debian's
python3-jsonschema (and python3-yaml, PyYAML, for YAML streams).

  schema_validate.py SCHEMA FILE
      every document of the YAML stream FILE against SCHEMA: the SkyPilot
      and dstack exports against the schemas vendored under
      tests/fixtures/schemas/ (see PROVENANCE.md there). Documents that
      are only comments are skipped.
  schema_validate.py --json FILE [COMMAND WORD...]
      the JSON document FILE (planner's --format json) against its
      contract in schema/json/: an object names it in its "schema" member
      ("planner/compare/v1" is schema/json/compare.v1.schema.json); a
      top-level array (offers, gpus, ...) by the command line that printed
      it, COMMAND WORD..., as docs/design.md ("JSON contract") says.
  schema_validate.py --outputs DIR
      every DIR/N.json with its command line in DIR/N.args (one word a
      line), as tests/testutil.c saves them when PLANNER_JSON_LOG is set.

Exit 0 when every document is valid, 1 with the first error per document
on stderr (2 when a file holds no document or names no schema)."""
import json
import os
import pathlib
import sys

import jsonschema

SCHEMA_DIR = pathlib.Path(__file__).resolve().parent.parent.parent / "schema" / "json"
# The top-level arrays, which carry no "schema" member: the command (and
# the flag that changes its output) to the schema published beside them.
ARRAYS = {"offers": "offers", "providers": "providers", "refresh": "refresh", "gpus": "gpus",
          "models": "models"}
ARRAY_FLAGS = {("offers", "--api"): "offers-api"}


def validator(schema_path):
    """A draft 2020-12 validator for schema_path whose relative $refs
    (defs.v1.schema.json#/$defs/route) resolve to the files beside it."""
    path = pathlib.Path(schema_path).resolve()
    with open(path, encoding="utf-8") as f:
        schema = json.load(f)
    cls = jsonschema.validators.validator_for(schema)
    cls.check_schema(schema)
    store = {}
    for other in path.parent.glob("*.json"):
        with open(other, encoding="utf-8") as f:
            store[other.as_uri()] = json.load(f)
    resolver = jsonschema.RefResolver(path.as_uri(), schema, store=store)
    return cls(schema, resolver=resolver)


def first_error(v, doc):
    """The first error (by path) of doc under v as text, or None."""
    errors = sorted(v.iter_errors(doc), key=lambda e: [str(p) for p in e.path])
    if not errors:
        return None
    e = errors[0]
    where = "/".join(str(p) for p in e.path) or "(top)"
    return f"{where}: {e.message}"


def schema_for(doc, argv):
    """The schema file of a planner JSON document and the words of the
    command line that printed it; None when it names none."""
    if isinstance(doc, dict):
        name = doc.get("schema")
        if not isinstance(name, str) or name.count("/") != 2 or not name.startswith("planner/"):
            return None
        _, what, version = name.split("/")
        return SCHEMA_DIR / f"{what}.{version}.schema.json"
    words = [w for w in argv if not w.startswith("-")]
    if not isinstance(doc, list) or not words or words[0] not in ARRAYS:
        return None
    name = ARRAYS[words[0]]
    for (cmd, flag), other in ARRAY_FLAGS.items():
        if words[0] == cmd and flag in argv:
            name = other
    return SCHEMA_DIR / f"{name}.v1.schema.json"


def strict_json(path):
    """The JSON of path; NaN and Infinity, which JSON does not have, fail."""
    def bad(c):
        raise ValueError(f"{c} is not JSON")
    with open(path, encoding="utf-8") as f:
        return json.load(f, parse_constant=bad)


def check_json(path, argv, cache):
    """Validates one planner JSON output; returns an error text or None."""
    try:
        doc = strict_json(path)
    except ValueError as e:
        return f"not JSON: {e}"
    schema = schema_for(doc, argv)
    if schema is None:
        return "names no schema (an object needs \"schema\": \"planner/NAME/vN\")"
    if not schema.exists():
        return f"no schema {schema.relative_to(SCHEMA_DIR.parent.parent)}"
    if schema not in cache:
        cache[schema] = validator(schema)
    err = first_error(cache[schema], doc)
    return f"{schema.name}: {err}" if err else None


def main_json(path, argv):
    err = check_json(path, argv, {})
    if err:
        print(f"{path}: {err}", file=sys.stderr)
        return 1
    print(f"{path}: valid")
    return 0


def main_outputs(folder):
    cache, n, bad = {}, 0, 0
    for path in sorted(pathlib.Path(folder).glob("*.json")):
        args = path.with_suffix(".args")
        argv = args.read_text(encoding="utf-8").split("\n") if args.exists() else []
        n += 1
        err = check_json(path, argv, cache)
        if err:
            bad += 1
            print(f"{path} ({' '.join(argv).strip()}): {err}", file=sys.stderr)
    print(f"{n} JSON output(s) of the tests, {bad} invalid")
    return 1 if bad else 0


def main_yaml(schema_path, path):
    import yaml
    v = validator(schema_path)
    with open(path, encoding="utf-8") as f:
        docs = [d for d in yaml.safe_load_all(f) if d is not None]
    if not docs:
        print(f"{path}: no document", file=sys.stderr)
        return 2
    bad = 0
    for i, doc in enumerate(docs, 1):
        err = first_error(v, doc)
        if err:
            print(f"document {i}: {err}", file=sys.stderr)
            bad += 1
    print(f"{len(docs)} document(s), {bad} invalid")
    return 1 if bad else 0


def main():
    a = sys.argv[1:]
    if len(a) >= 2 and a[0] == "--json":
        return main_json(a[1], a[2:])
    if len(a) == 2 and a[0] == "--outputs":
        return main_outputs(a[1])
    if len(a) == 2:
        return main_yaml(a[0], a[1])
    print(__doc__, file=sys.stderr)
    return 2


if __name__ == "__main__":
    sys.exit(main())
