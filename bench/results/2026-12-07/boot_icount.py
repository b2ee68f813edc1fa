#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""boot_icount.py RESULTS-DIR: the figures of boot-icount.md from the logs
of boot-icount.sh, as JSON on stdout: per mode, each kernel's guest time
to "Run /init" per seed, and for fips=1 the time of stock's last
self-test pass (stock starts /init before its self-tests are done).
A mode with no log at all is left out; one with a log missing fails."""
import json
import re
import statistics
import sys
from pathlib import Path

INIT = re.compile(r"\[\s*([\d.]+)\] Run /init")
PASS = re.compile(r"\[\s*([\d.]+)\] alg: self-tests for .* passed")


def times(log):
    text = log.read_text(errors="replace")
    init = INIT.search(text)
    passes = [float(m.group(1)) for m in PASS.finditer(text)]
    return (float(init.group(1)) if init else None,
            max(passes) if passes else None)


def main():
    res = Path(sys.argv[1])
    out = {}
    for mode in ("notests", "normal", "fips"):
        runs = {}
        for kernel in ("stock", "fips140"):
            logs = sorted(res.glob(f"{mode}-{kernel}-*.log"),
                          key=lambda p: int(p.stem.rsplit("-", 1)[1]))
            runs[kernel] = [times(p) for p in logs]
        if not runs["stock"] and not runs["fips140"]:
            continue    # a mode not booted (FIPS140_ICOUNT_MODES)
        stock = [t for t, _ in runs["stock"]]
        fips140 = [t for t, _ in runs["fips140"]]
        if None in stock + fips140 or len(stock) != len(fips140):
            sys.exit(f"{res}: a {mode} boot did not reach /init")
        ratios = [f / s for s, f in zip(stock, fips140)]
        out[mode] = {
            "stock": stock, "fips140": fips140,
            "median": [statistics.median(stock), statistics.median(fips140)],
            "ratio_of_medians":
                statistics.median(fips140) / statistics.median(stock),
            "ratio_per_seed": [statistics.median(ratios), min(ratios),
                               max(ratios)],
        }
        if mode == "fips":
            last = [p for _, p in runs["stock"]]
            out[mode]["stock_last_selftest"] = last
            out[mode]["ratio_to_stock_selftests_done"] = (
                statistics.median(fips140) / statistics.median(last))
    if not out:
        sys.exit(f"{res}: no boot logs")
    json.dump(out, sys.stdout, indent=1)
    print()


if __name__ == "__main__":
    main()
