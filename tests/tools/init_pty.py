#!/usr/bin/python3
"""Answers `planner init`'s questions on a pseudo-terminal (tests/check_init.c).

usage: init_pty.py PLANNER OUTFILE ANSWER...

Runs PLANNER init -o OUTFILE with a pseudo-terminal (the standard pty
module) as its stdin and stderr, as a person at a terminal would, and
types the next ANSWER ("" takes the default) each time a question ends in
"]: ". Prints what the terminal showed and exits with planner's status
(125 when planner asked more questions than there were answers).
"""
import os
import pty
import sys


def main():
    planner, outfile, answers = sys.argv[1], sys.argv[2], sys.argv[3:]
    pid, fd = pty.fork()
    if pid == 0:
        os.environ["NO_COLOR"] = "1"
        os.execv(planner, [planner, "init", "-o", outfile])
    shown = b""
    typed = 0
    extra = False
    while True:
        try:
            chunk = os.read(fd, 4096)
        except OSError:  # EIO: the child closed the terminal
            break
        if not chunk:
            break
        shown += chunk
        while shown.count(b"]: ") > typed:
            if typed >= len(answers):
                extra = True
                os.write(fd, b"\x04")  # end of input: planner names the flag
                typed += 1
                continue
            os.write(fd, answers[typed].encode() + b"\n")
            typed += 1
    _, status = os.waitpid(pid, 0)
    sys.stdout.write(shown.decode("utf-8", "replace").replace("\r", ""))
    if extra:
        sys.exit(125)
    sys.exit(os.waitstatus_to_exitcode(status))


if __name__ == "__main__":
    main()
