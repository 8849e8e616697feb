#!/usr/bin/python3
"""csv_to_json.py FILE — reads FILE as RFC 4180 CSV with Python's csv
module in strict mode (a stray quote or a bad field is an error) and
prints it as a JSON list of objects keyed by the header row. Exits 1 when
the file is not strict CSV or a row's width differs from the header's."""
import csv
import json
import sys


def main():
    try:
        with open(sys.argv[1], newline="", encoding="utf-8") as f:
            rows = list(csv.reader(f, strict=True))
    except (OSError, csv.Error, UnicodeDecodeError) as e:
        print("csv_to_json: %s" % e, file=sys.stderr)
        return 1
    if not rows:
        print("csv_to_json: empty file", file=sys.stderr)
        return 1
    head = rows[0]
    for n, r in enumerate(rows[1:], 2):
        if len(r) != len(head):
            print("csv_to_json: row %d has %d fields, header %d" % (n, len(r), len(head)),
                  file=sys.stderr)
            return 1
    json.dump([dict(zip(head, r)) for r in rows[1:]], sys.stdout)
    return 0


if __name__ == "__main__":
    sys.exit(main())
