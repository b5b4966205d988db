#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-or-later
"""report-inputs.py: large inputs for clyde-report made from a real run.

  report-inputs.py csv LINE_FILE N OUT    N copies of the last line of
                                          LINE_FILE (a clyde CSV line)
  report-inputs.py json DOC N OUT         DOC (a clyde --json document
                                          with --log-interval) with the
                                          intervals of its first logged
                                          test repeated to N, written
                                          compact (about 160 bytes each)

The intervals repeat the run's own in order, each copy shifted by the
run's logged time, so that they stay in time order and every value is
one the run wrote.
"""

import json
import sys


def csv_lines(src, n, out):
    with open(src, encoding="utf-8") as f:
        line = [x for x in f.read().splitlines() if x.strip()][-1]
    with open(out, "w", encoding="utf-8") as f:
        f.write((line + "\n") * n)


def json_doc(src, n, out):
    with open(src, encoding="utf-8") as f:
        doc = json.load(f)
    for run in doc["runs"]:
        for test in run.get("tests", {}).values():
            iv = test.get("intervals")
            if not iv:
                continue
            span = iv[-1]["end"]
            grown = []
            for k in range(n):
                one = dict(iv[k % len(iv)])
                one["end"] = round(one["end"] + span * (k // len(iv)), 9)
                grown.append(one)
            test["intervals"] = grown
            with open(out, "w", encoding="utf-8") as f:
                json.dump(doc, f, separators=(",", ":"))
            return
    sys.exit("report-inputs.py: %s: no test with intervals" % src)


def main():
    if len(sys.argv) != 5 or sys.argv[1] not in ("csv", "json"):
        sys.exit(__doc__.strip().split("\n\n")[1])
    kind, src, n, out = sys.argv[1:]
    (csv_lines if kind == "csv" else json_doc)(src, int(n), out)


if __name__ == "__main__":
    main()
