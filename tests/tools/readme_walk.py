#!/usr/bin/env python3
"""Walks README.md's ```console blocks top to bottom and runs every
`$ planner ...` command as a newcomer would, with the binary on PATH (as
the README says to put it) and a fresh database and HOME (as on a clean
clone), comparing what it prints with what the README shows.

  readme_walk.py --check README BINDIR   exit 1 and a diff when they differ
  readme_walk.py --write README BINDIR   rewrite the blocks with what runs

What is not compared, and why:
  - `planner refresh`: it needs the network; the tests run it on loopback.
  - a command whose file the README does not give (bad.yaml): skipped.
  - a command shown with no output (a pipe into jq): run, must exit 0.
  - "N h ago" / "N d ago": ages of the snapshot, which grow every hour.
  - a line "…": the README shows the head of a long output, and for a
    schedule "  …" stands for the month's grids between the first GPU's
    and "cost by route".
"""
import difflib
import os
import re
import subprocess
import sys
import tempfile

# an age and the padding after it: "46h ago   " and "2d ago    " are one
# column of the same width
AGE = re.compile(r"\b\d+(s|m|h|d) ago\b(\)?) *")


def skip_reason(cmd):
    if " refresh" in cmd:
        return "needs the network"
    if "bad.yaml" in cmd:
        return "its file is not in the repository"
    return None


def run(cmd, bindir, cwd, env):
    path = bindir + os.pathsep + env.get("PATH", "")
    p = subprocess.run(cmd, shell=True, capture_output=True, text=True, cwd=cwd,
                       env=dict(env, PATH=path))
    # the note on standard error comes first, as on a terminal
    return p.returncode, (p.stderr + p.stdout).rstrip("\n").split("\n")


def elide(old, new, cmd):
    """new cut the way the README cut old."""
    if "  …" in old and " schedule " in f" {cmd} ":
        k = old.index("  …")
        tail = next((n for n, x in enumerate(new) if x.startswith("cost by route")), len(new))
        return new[:k] + ["  …", ""] + new[tail:]
    if "…" in old:
        k = old.index("…")
        return new[:k] + ["…"]
    return new


def walk(readme, bindir):
    lines = open(readme).read().split("\n")
    cwd = os.getcwd()  # the clone's top directory, where the README's commands run
    home = tempfile.mkdtemp(prefix="readme-walk-")
    env = {k: v for k, v in os.environ.items()
           if k not in ("PLANNER_DB", "XDG_DATA_HOME", "COLUMNS")}
    env.update(HOME=home, PLANNER_DB=os.path.join(home, "prices.db"))
    out, problems, ran, skipped = [], [], 0, 0
    i, block = 0, False
    while i < len(lines):
        line = lines[i]
        if line.startswith("```console"):
            block = True
        elif block and line.startswith("```"):
            block = False
        elif block and line.startswith("$ planner"):
            cmd = line[2:].split("  #")[0].strip()
            j = i + 1
            while j < len(lines) and not lines[j].startswith(("$ ", "```")):
                j += 1
            old = lines[i + 1:j]
            why = skip_reason(cmd)
            if why:
                skipped += 1
                print(f"skipped: {cmd} ({why})")
                out.append(line)
                out.extend(old)
                i = j
                continue
            rc, new = run(cmd, bindir, cwd, env)
            ran += 1
            if not old:
                if rc != 0:
                    problems.append(f"{cmd}: exit {rc}: " + "\n".join(new))
                out.append(line)
                i = j
                continue
            new = elide(old, new, cmd)
            if [AGE.sub(r"N ago\2 ", x) for x in old] != [AGE.sub(r"N ago\2 ", x) for x in new]:
                problems.append("\n".join(difflib.unified_diff(
                    old, new, f"README.md: {cmd}", f"planner: {cmd}", lineterm="")))
            out.append(line)
            out.extend(new)
            i = j
            continue
        out.append(line)
        i += 1
    return "\n".join(out), problems, ran, skipped


def main():
    if len(sys.argv) != 4 or sys.argv[1] not in ("--check", "--write"):
        sys.exit(__doc__)
    mode, readme, bindir = sys.argv[1:]
    text, problems, ran, skipped = walk(readme, os.path.abspath(bindir))
    print(f"{ran} commands run, {skipped} skipped, {len(problems)} differ")
    if mode == "--write":
        open(readme, "w").write(text)
        return
    for p in problems:
        print(p)
    sys.exit(1 if problems else 0)


if __name__ == "__main__":
    main()
