#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""bench_report.py RESULTS OUT README

The report of scripts/bench.sh: reads RESULTS (times, *.ko.before/after,
logs/) and the build directories of OUT, writes RESULTS/results.json,
RESULTS/report.md and RESULTS/ratios.png (gnuplot), and replaces the part
of README between "<!-- bench:begin -->" and "<!-- bench:end -->" with
the headline table and the chart.

Each figure is stock, fips140 and their ratio (fips140 / stock), as the
median over the runs with min and max.
"""
import json
import os
import re
import statistics
import subprocess
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)),
                                "..", "tests", "host"))
from fips140_checks import module_initcalls  # noqa: E402

DMESG = re.compile(r"fips140-harness: ---- (BEGIN|END) dmesg ----")
STAMP = re.compile(r"^\[\s*(\d+\.\d+)\]\s(.*)$")
RETURNED = re.compile(r"initcall (\w+)\+0x\S+(?: \[\w+\])? returned")
BENCH = re.compile(r"# bench (\S+) ([\d.]+) (\S+)$")
LOADER = re.compile(r"fips140: loaded, relocated and plugged in: (\d+) us")
# The module's integrity self-test (HMAC-SHA256, fips=1) and the loader's
# check of the image before it parses it (CRC-32): both are part of what
# the boot costs
INTEGRITY = re.compile(r"fips140: integrity check: hmac-sha256 of \d+ "
                       r"bytes in (\d+) us")
IMAGE_CHECK = re.compile(r"fips140: image check: crc32 of \d+ bytes and "
                         r"the digest in (\d+) us")
PASSED = re.compile(r"alg: self-tests for \S+ \(\S+\) passed")
KERNELS = ("stock", "fips140")
NOTES = []	# how figures were taken, for the report


def dmesg(log):
    """(seconds, text) of the kernel log the guest printed at the end"""
    lines, inside = [], False
    with open(log, errors="replace") as f:
        for raw in f:
            m = DMESG.search(raw)
            if m:
                inside = m[1] == "BEGIN"
                continue
            m = STAMP.match(raw.strip()) if inside else None
            if m:
                lines.append((float(m[1]), m[2]))
    if not lines:
        sys.exit(f"bench_report: no kernel log in {log}")
    return lines


def boot_figures(log, crypto):
    """Seconds to the last crypto initcall and to /init; loader us"""
    out, last = {}, None
    for t, text in dmesg(log):
        m = RETURNED.search(text)
        if m and m[1] in crypto:
            last = t
        if "Run /init as init process" in text:
            out["init"] = t
        m = LOADER.search(text)
        if m:
            out["loader-plug-in-us"] = int(m[1])
        m = INTEGRITY.search(text)
        if m:
            out["loader-integrity-us"] = int(m[1])
        m = IMAGE_CHECK.search(text)
        if m:
            out["loader-image-check-us"] = int(m[1])
        if PASSED.search(text):
            out["last-selftest-passed"] = t
    if last is None or "init" not in out:
        sys.exit(f"bench_report: {log} lacks initcall_debug lines or /init")
    out["crypto-initcalls-done"] = last
    return out


def bench_lines(log):
    out = {}
    with open(log, errors="replace") as f:
        for raw in f:
            m = BENCH.search(raw.strip())
            if m:
                out[m[1]] = (float(m[2]), m[3])
    return out


def stats(values):
    return {"median": statistics.median(values), "min": min(values),
            "max": max(values), "runs": len(values)}


class Figures:
    """name -> {kernel: [values]}, unit"""

    def __init__(self):
        self.values, self.units = {}, {}

    def add(self, name, kernel, value, unit):
        self.values.setdefault(name, {}).setdefault(kernel, []).append(value)
        self.units[name] = unit

    def table(self):
        rows = {}
        for name, per in self.values.items():
            row = {"unit": self.units[name]}
            for k, v in per.items():
                row[k] = stats(v)
            if all(k in row for k in KERNELS) and row["stock"]["median"]:
                row["ratio"] = row["fips140"]["median"] / \
                    row["stock"]["median"]
            rows[name] = row
        return rows


def boots(res, out, figs):
    crypto = set(module_initcalls(os.path.join(out, "fips140")))
    logs = sorted(os.listdir(os.path.join(res, "logs")))
    for name in logs:
        m = re.match(r"(icount|tcg|icount-fips|icount-noextratests)-"
                     r"(stock|fips140)-\d+\.log$", name)
        if not m:
            continue
        path = os.path.join(res, "logs", name)
        mode, kernel = m[1], m[2]
        for what, v in boot_figures(path, crypto).items():
            if what.endswith("-us"):
                figs.add(f"boot/{mode}/{what[:-3]}", kernel, v, "us")
            else:
                figs.add(f"boot/{mode}/{what}", kernel, v * 1000, "ms")
        if mode == "tcg":
            for what, (v, unit) in bench_lines(path).items():
                figs.add(what, kernel, v, unit)
    for variant in ("retpoline", "off"):
        for what, (v, unit) in bench_lines(
                os.path.join(res, "logs", f"call-{variant}.log")).items():
            if what.startswith("call/"):
                figs.add(f"{what}/spectre_v2={variant}", "fips140", v, unit)


SYMBOL_KINDS = {"text": "tTwW", "rodata": "rR", "data": "dD", "bss": "bB"}


def symbol_sizes(obj):
    """Bytes of the text, rodata, data and bss symbols of an object (nm -S):
    section sizes would count the alignment padding of vmlinux.lds"""
    sizes = dict.fromkeys(SYMBOL_KINDS, 0)
    out = subprocess.run(["nm", "-S", obj], check=True, capture_output=True,
                         text=True).stdout
    for line in out.splitlines():
        f = line.split()
        if len(f) != 4:
            continue
        for kind, types in SYMBOL_KINDS.items():
            if f[2] in types:
                sizes[kind] += int(f[1], 16)
    return sizes


def sizes(out, figs):
    for k in KERNELS:
        d = os.path.join(out, k)
        figs.add("size/bzImage", k,
                 os.path.getsize(os.path.join(d, "arch/x86/boot/bzImage")),
                 "B")
        for kind, n in symbol_sizes(os.path.join(d, "vmlinux")).items():
            figs.add(f"size/vmlinux-{kind}", k, n, "B")
    ko = os.path.join(out, "fips140", "crypto/fips140/fips140.ko")
    figs.add("size/fips140.ko", "fips140", os.path.getsize(ko), "B")
    for kind, n in symbol_sizes(ko).items():
        figs.add(f"size/fips140.ko-{kind}", "fips140", n, "B")
    # Crypto code once: vmlinux's and the module's code, against stock's
    text = sum(figs.values[f"size/{what}-text"]["fips140"][0]
               for what in ("vmlinux", "fips140.ko"))
    figs.add("size/vmlinux+fips140.ko-text", "fips140", text, "B")
    figs.add("size/vmlinux+fips140.ko-text", "stock",
             figs.values["size/vmlinux-text"]["stock"][0], "B")


def builds(res, figs):
    full = {}
    with open(os.path.join(res, "times")) as f:
        for line in f:
            name, secs, *how = line.split()
            kind, kernel = name.split("/")
            if kind == "full":
                full[kernel] = (float(secs), " ".join(how))
                continue
            figs.add(f"build/{kind}", kernel, float(secs), "s")
            if how:
                NOTES.append(f"build/{kind} of {kernel}: {' '.join(how)}")
    # Two full builds compare only without ccache: with it, how warm the
    # cache was decides the time, not what was built
    hows = {how for _, how in full.values()}
    if len(full) == len(KERNELS) and hows == {"ccache=off"}:
        for kernel, (secs, _) in full.items():
            figs.add("build/full", kernel, secs, "s")
    elif full:
        NOTES.append("build/full not compared (only builds without ccache "
                     "compare): " + ", ".join(
                         f"{k} {s:.0f} s {h}" for k, (s, h) in
                         sorted(full.items())))
    relinked = {}
    for k in KERNELS:
        states = []
        for when in ("before", "after"):
            p = os.path.join(res, f"{k}.ko.{when}")
            states.append(open(p).read().split(None, 1) if
                          os.path.getsize(p) else None)
        if states[0]:
            relinked[k] = {"fips140.ko-same-bytes": states[0][0] ==
                           states[1][0], "fips140.ko-rewritten":
                           states[0][1] != states[1][1]}
    return relinked


HEADLINE = ["boot/icount/crypto-initcalls-done", "boot/icount/init",
            "boot/tcg/init", "dm-crypt/write", "dm-crypt/read",
            "af_alg/sha256/4096", "af_alg/gcm(aes)/4096", "size/bzImage",
            "size/vmlinux+fips140.ko-text", "mem/MemAvailable",
            "build/incremental"]


def fmt(v):
    return f"{v:.3f}" if abs(v) < 100 else f"{v:.0f}"


def cell(row, k):
    s = row.get(k)
    if not s:
        return "-"
    return f"{fmt(s['median'])} ({fmt(s['min'])}-{fmt(s['max'])})"


def table(rows, names):
    lines = ["| figure | unit | stock | fips140 | ratio |",
             "| --- | --- | --- | --- | --- |"]
    for name in names:
        row = rows.get(name)
        if not row:
            continue
        ratio = f"{row['ratio']:.3f}" if "ratio" in row else "-"
        lines.append(f"| {name} | {row['unit']} | {cell(row, 'stock')} | "
                     f"{cell(row, 'fips140')} | {ratio} |")
    return lines


def chart(res, rows):
    names = [n for n in HEADLINE if "ratio" in rows.get(n, {})]
    data = os.path.join(res, "ratios.dat")
    with open(data, "w") as f:
        for i, n in enumerate(names):
            f.write(f"{i} \"{n}\" {rows[n]['ratio']:.4f}\n")
    script = f"""
set terminal png size 1100,520 noenhanced
set output '{os.path.join(res, "ratios.png")}'
set title 'fips140 / stock (median of the runs; 1 = no cost)'
set style fill solid 0.6
set boxwidth 0.6
set yrange [0:*]
set xtics rotate by -30
set grid ytics
unset key
plot '{data}' using 1:3:xtic(2) with boxes, 1 with lines dt 2
"""
    subprocess.run(["gnuplot"], input=script, text=True, check=True)
    os.unlink(data)


def main():
    if len(sys.argv) != 4:
        sys.exit(__doc__)
    res, out, readme = sys.argv[1:]
    figs = Figures()
    boots(res, out, figs)
    sizes(out, figs)
    relinked = builds(res, figs)
    rows = figs.table()
    date = os.path.basename(res.rstrip("/"))
    with open(os.path.join(res, "results.json"), "w") as f:
        json.dump({"date": date, "figures": rows, "rebuild": relinked}, f,
                  indent=1, sort_keys=True)
    chart(res, rows)
    head = table(rows, HEADLINE)
    report = [f"# fips140 benchmarks, {date}", "",
              "Median (min-max) over the runs; ratio = fips140 / stock.",
              "", "## Headline", ""] + head + ["", "![ratios](ratios.png)",
                                              "", "## All figures", ""]
    report += table(rows, sorted(rows))
    if os.path.exists(os.path.join(res, "analysis.md")):
        NOTES.append("the causes of the costs, measured: "
                     "[analysis.md](analysis.md)")
    report += ["", "## Notes", ""] + [f"- {n}" for n in NOTES]
    report += ["", "## Rebuild after a change outside the crypto boundary",
               ""]
    for k, r in relinked.items():
        report.append(f"- {k}: fips140.ko bytes unchanged: "
                      f"{r['fips140.ko-same-bytes']}, file rewritten: "
                      f"{r['fips140.ko-rewritten']}")
    with open(os.path.join(res, "report.md"), "w") as f:
        f.write("\n".join(report) + "\n")
    rel = os.path.relpath(res, os.path.dirname(os.path.abspath(readme)))
    with open(readme) as f:
        text = f.read()
    why = (f"; the costs explained: [{rel}/analysis.md]({rel}/analysis.md)"
           if os.path.exists(os.path.join(res, "analysis.md")) else "")
    block = "\n".join(["<!-- bench:begin -->", "",
                       f"Latest: [{rel}/report.md]({rel}/report.md){why}",
                       ""] +
                      head + ["", f"![fips140 / stock]({rel}/ratios.png)",
                              "", "<!-- bench:end -->"])
    text, n = re.subn(r"<!-- bench:begin -->.*<!-- bench:end -->", block,
                      text, flags=re.S)
    if n != 1:
        sys.exit(f"bench_report: no bench markers in {readme}")
    with open(readme, "w") as f:
        f.write(text)
    print("\n".join(head))


if __name__ == "__main__":
    main()
