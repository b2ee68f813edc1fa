#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""Debian's kernel config as a harness base, and its crypto boundary.

    kconfig_boundary.py base SRCDIR DEBIAN-CONFIG OUT-CONFIG FRAGMENT...
        Debian's config with every `=m` option that is not defined in a
        boundary directory turned off (build time), except those a
        FRAGMENT sets (the tests need them).

    kconfig_boundary.py check SRCDIR PRISTINE DEBIAN-CONFIG CONFIG FRAGMENT...
        Every option defined in a boundary directory has Debian's value in
        CONFIG, except those a FRAGMENT sets (the listed trims) and those
        the series adds (defined in SRCDIR, not in the PRISTINE tree).
        Fails naming every option that differs.

The boundary is what Debian decides for its crypto: the Kconfig files of
crypto/, lib/crypto, arch/x86/crypto, certs/, security/keys,
security/integrity, kernel/module and every KEXEC option.
"""
import os
import re
import sys

BOUNDARY_DIRS = ("crypto", "lib/crypto", "arch/x86/crypto", "certs",
                 "security/keys", "security/integrity", "kernel/module")
CONFIG_DEF = re.compile(r"^\s*(?:menu)?config\s+([A-Za-z0-9_]+)")
SET = re.compile(r"^CONFIG_([A-Za-z0-9_]+)=(.*)$")
UNSET = re.compile(r"^# CONFIG_([A-Za-z0-9_]+) is not set$")


def kconfig_symbols(srcdir):
    """Symbols defined by the Kconfig files of the boundary directories,
    and every KEXEC symbol wherever it is defined."""
    syms = set()
    for root, _dirs, files in os.walk(srcdir):
        rel = os.path.relpath(root, srcdir)
        inside = any(rel == d or rel.startswith(d + "/")
                     for d in BOUNDARY_DIRS)
        for name in files:
            if not name.startswith("Kconfig"):
                continue
            with open(os.path.join(root, name), errors="replace") as f:
                for line in f:
                    m = CONFIG_DEF.match(line)
                    if m and (inside or "KEXEC" in m.group(1)):
                        syms.add(m.group(1))
    return syms


def read_config(path):
    """{symbol: value}; 'n' for '# ... is not set'."""
    values = {}
    with open(path) as f:
        for line in f:
            line = line.rstrip("\n")
            m = SET.match(line)
            if m:
                values[m.group(1)] = m.group(2)
                continue
            m = UNSET.match(line)
            if m:
                values[m.group(1)] = "n"
    return values


def base(srcdir, debian, out, fragments):
    inside = kconfig_symbols(srcdir)
    keep = set()
    for frag in fragments:
        keep |= set(read_config(frag))
    dropped = []
    with open(debian) as f, open(out + ".tmp", "w") as o:
        for line in f:
            m = SET.match(line.rstrip("\n"))
            if m and m.group(2) == "m" and m.group(1) not in inside \
               and m.group(1) not in keep:
                dropped.append(m.group(1))
                o.write("# CONFIG_%s is not set\n" % m.group(1))
            else:
                o.write(line)
    os.replace(out + ".tmp", out)
    print("kconfig_boundary: %d modules outside the boundary turned off, "
          "%d boundary options kept as Debian has them" %
          (len(dropped), len(inside)))
    return 0


def check(srcdir, pristine, debian, config, fragments):
    inside = kconfig_symbols(srcdir)
    new = inside - kconfig_symbols(pristine)
    inside -= new
    want = read_config(debian)
    have = read_config(config)
    trimmed = set()
    for frag in fragments:
        trimmed |= set(read_config(frag))
    bad = 0
    same = 0
    for sym in sorted(inside):
        if sym in trimmed:
            continue
        a = want.get(sym, "n")
        b = have.get(sym, "n")
        if a == b:
            same += 1
            continue
        print("differs: CONFIG_%s: Debian %s, this config %s" % (sym, a, b))
        bad += 1
    print("kconfig_boundary: %d boundary options as Debian has them, "
          "%d set by the fragments, %d new with the series, %d differ" %
          (same, len(inside & trimmed), len(new), bad))
    return 1 if bad else 0


def main(argv):
    if len(argv) >= 5 and argv[1] == "base":
        return base(argv[2], argv[3], argv[4], argv[5:])
    if len(argv) >= 6 and argv[1] == "check":
        return check(argv[2], argv[3], argv[4], argv[5], argv[6:])
    sys.stderr.write(__doc__)
    return 2


if __name__ == "__main__":
    sys.exit(main(sys.argv))
