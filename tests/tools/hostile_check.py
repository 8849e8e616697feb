#!/usr/bin/python3
"""Reads an export written from hostile text (tests/check_export_text.c)
back with a real parser and checks that the text stayed text: no key,
line, event or command came out of it (issue 26).

Usage: hostile_check.py FORMAT FILE EXPECT.json
  skypilot, dstack, k8s  PyYAML reads every document; each is a mapping
                         whose top-level keys are the format's own, and
                         the values in EXPECT ("region", "command") read
                         back unchanged where the format has them
  ics                    python3-icalendar reads the calendar; no control
                         character is left outside the CRLF line ends, and
                         a SUMMARY holds EXPECT's "summary_part"
  slurm                  FILE is run by bash with sbatch a stub that
                         records its words: each call's --job-name and
                         --wrap are EXPECT's "job" and "command", and
                         nothing else ran (no file "pwned")
Exit 0 and "ok N" (the documents, events or calls read), else 1 with why.
Run under /usr/bin/python3 (Debian's python3-yaml, python3-icalendar)."""
import json
import os
import subprocess
import sys
import tempfile

KEYS = {
    "skypilot": {"name", "num_nodes", "resources", "run"},
    "dstack": {"type", "name", "nodes", "image", "commands", "resources",
               "spot_policy", "backends", "regions", "max_duration"},
    "k8s": {"apiVersion", "kind", "metadata", "spec"},
}


def fail(why):
    print(why, file=sys.stderr)
    sys.exit(1)


def check_yaml(fmt, path, expect):
    import yaml
    with open(path, encoding="utf-8") as f:
        docs = [d for d in yaml.safe_load_all(f) if d is not None]
    if not docs:
        fail("no documents")
    for d in docs:
        if not isinstance(d, dict):
            fail("a document is not a mapping: %r" % (d,))
        extra = set(d) - KEYS[fmt]
        if extra:
            fail("extra top-level keys %s in %r" % (sorted(extra), d))
        if fmt == "skypilot" and "rag" in d["name"]:
            r = d.get("resources", {})
            if "region" in expect and r.get("region") != expect["region"]:
                fail("region %r, not %r" % (r.get("region"), expect["region"]))
            if d.get("run") != expect["command"]:
                fail("run %r, not %r" % (d.get("run"), expect["command"]))
        if fmt == "dstack" and "rag" in d["name"]:
            if "region" in expect and d.get("regions") != [expect["region"]]:
                fail("regions %r" % (d.get("regions"),))
            if d.get("commands") != [expect["command"]]:
                fail("commands %r" % (d.get("commands"),))
    return len(docs)


def check_ics(path, expect):
    import icalendar
    raw = open(path, "rb").read()
    for i, b in enumerate(raw):
        if (b < 0x20 and raw[i:i + 2] != b"\r\n" and raw[i - 1:i + 1] != b"\r\n") \
                or b == 0x7f:
            fail("control byte 0x%02x at %d" % (b, i))
    text = raw.decode("utf-8")
    for c in text:
        if 0x80 <= ord(c) <= 0x9f or c in "\u2028\u2029":
            fail("control character U+%04X" % ord(c))
    cal = icalendar.Calendar.from_ical(raw)
    events = [e for e in cal.walk("VEVENT")]
    if not events:
        fail("no events")
    if not any(expect["summary_part"] in str(e["SUMMARY"]) for e in events):
        fail("no summary holds %r" % expect["summary_part"])
    return len(events)


def check_slurm(path, expect):
    with tempfile.TemporaryDirectory() as d:
        stub = os.path.join(d, "sbatch")
        with open(stub, "w") as f:
            f.write('#!/bin/bash\nfor a in "$@"; do printf "%s\\0" "$a"; done '
                    '>> "$CALLS"\nprintf "\\n\\0" >> "$CALLS"\necho 1\n')
        os.chmod(stub, 0o755)
        env = dict(os.environ, PATH=d + ":" + os.environ["PATH"],
                   CALLS=os.path.join(d, "calls"))
        p = subprocess.run(["bash", path], cwd=d, env=env, capture_output=True)
        if p.returncode != 0:
            fail("bash: %s" % p.stderr.decode(errors="replace"))
        if os.path.exists(os.path.join(d, "pwned")):
            fail("the script ran a command out of the text")
        calls = open(env["CALLS"], "rb").read().decode().split("\n\0")[:-1]
    for c in calls:
        words = c.split("\0")[:-1]
        opts = dict(w.split("=", 1) for w in words if w.startswith("--") and "=" in w)
        if opts.get("--job-name") != expect["job"]:
            fail("--job-name %r, not %r" % (opts.get("--job-name"), expect["job"]))
        if opts.get("--wrap") != expect["command"]:
            fail("--wrap %r, not %r" % (opts.get("--wrap"), expect["command"]))
    if not calls:
        fail("no sbatch call")
    return len(calls)


def main():
    fmt, path = sys.argv[1], sys.argv[2]
    expect = json.load(open(sys.argv[3]))
    if fmt in KEYS:
        n = check_yaml(fmt, path, expect)
    elif fmt == "ics":
        n = check_ics(path, expect)
    elif fmt == "slurm":
        n = check_slurm(path, expect)
    else:
        fail("unknown format %s" % fmt)
    print("ok", n)


main()
