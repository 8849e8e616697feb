#!/usr/bin/python3
"""Validates Kubernetes manifests (a multi-document YAML stream) against the
Kubernetes OpenAPI types, offline, with Debian's python3-kubernetes: its
model classes are generated from the Kubernetes OpenAPI spec, one class per
definition, with `openapi_types` (field -> type) and `attribute_map`
(field -> JSON name). Every key must be a field of its type (strict: an
unknown or misspelt key fails, as `kubectl apply --validate=strict`
would), every value of its type, and every required field present (the
generated constructors raise ValueError on a missing required field).

Fields newer than the packaged client (python3-kubernetes 22.6 is generated
from Kubernetes 1.22) are listed in NEWER with their type and the release
that added them, and checked for that type.

Usage: k8s_validate.py FILE [KIND...]; exit 0 when valid, 1 with the first
error per document on stderr. KINDs limit the accepted kinds."""
import datetime
import re
import sys

import kubernetes.client as kc
import yaml

# (model, JSON field) -> OpenAPI type, for fields the packaged client lacks.
NEWER = {
    # CronJobSpec.timeZone: beta in 1.25, GA in 1.27
    # (kubernetes/kubernetes CHANGELOG-1.27.md, KEP-3140).
    ("V1CronJobSpec", "timeZone"): "str",
}

# Custom resources planner writes (issue 25): crd_validate.py checks them
# against their CRDs' schemas; here they are only counted.
CRDS = {("jobset.x-k8s.io/v1alpha2", "JobSet"), ("leaderworkerset.x-k8s.io/v1", "LeaderWorkerSet")}

# The API groups whose kinds are V1<Kind> in the client: core, batch,
# apps (Deployment) and RBAC (Role, RoleBinding).
VERSIONS = ("v1", "batch/v1", "apps/v1", "rbac.authorization.k8s.io/v1")

PRIMS = {"str": str, "int": int, "bool": bool, "float": (int, float), "object": object,
         "datetime": (str, datetime.datetime), "date": (str, datetime.date)}


def check(value, typ, path):
    if value is None:
        return
    m = re.match(r"list\[(.*)\]$", typ)
    if m:
        if not isinstance(value, list):
            raise ValueError(f"{path}: want a list, got {type(value).__name__}")
        for i, v in enumerate(value):
            check(v, m.group(1), f"{path}[{i}]")
        return
    m = re.match(r"dict\(str, (.*)\)$", typ)
    if m:
        if not isinstance(value, dict):
            raise ValueError(f"{path}: want a map, got {type(value).__name__}")
        for k, v in value.items():
            if not isinstance(k, str):
                raise ValueError(f"{path}: key {k!r} is not a string")
            check(v, m.group(1), f"{path}.{k}")
        return
    if typ in PRIMS:
        if typ == "int" and isinstance(value, bool) or \
           typ == "str" and not isinstance(value, str) or \
           not isinstance(value, PRIMS[typ]):
            raise ValueError(f"{path}: want {typ}, got {type(value).__name__} {value!r}")
        return
    cls = getattr(kc, typ)
    if not isinstance(value, dict):
        raise ValueError(f"{path}: want a {typ} map, got {type(value).__name__}")
    by_json = {j: p for p, j in cls.attribute_map.items()}
    kwargs = {}
    for k, v in value.items():
        if (typ, k) in NEWER:
            check(v, NEWER[(typ, k)], f"{path}.{k}")
            continue
        if k not in by_json:
            raise ValueError(f"{path}: unknown field {k!r} of {typ}")
        check(v, cls.openapi_types[by_json[k]], f"{path}.{k}")
        kwargs[by_json[k]] = v if not isinstance(v, (dict, list)) else object()
    try:
        cls(**kwargs)  # required fields: the generated setters raise
    except ValueError as e:
        raise ValueError(f"{path}: {e}")


def main():
    kinds = set(sys.argv[2:])
    bad = skipped = 0
    with open(sys.argv[1]) as f:
        docs = [d for d in yaml.safe_load_all(f) if d is not None]
    for i, d in enumerate(docs):
        kind = d.get("kind") if isinstance(d, dict) else None
        try:
            if kinds and kind not in kinds:
                raise ValueError(f"kind {kind!r} not among {sorted(kinds)}")
            version = d.get("apiVersion", "")
            if (version, kind) in CRDS:
                skipped += 1
                continue
            cls = "V1" + kind if version in VERSIONS else None
            if not cls or not hasattr(kc, cls):
                raise ValueError(f"no type for {version} {kind}")
            check(d, cls, f"doc {i + 1}")
        except ValueError as e:
            print(e, file=sys.stderr)
            bad += 1
    print(f"{len(docs)} documents, {bad} invalid" +
          (f", {skipped} custom resource(s) left to crd_validate.py" if skipped else ""))
    sys.exit(1 if bad or not docs else 0)


if __name__ == "__main__":
    main()
