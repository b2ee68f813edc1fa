#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""Host-side checks of the fips140 kernel build and boots.

Each command prints "PASS name" / "FAIL name: why" lines (scripts/test.sh
counts them) and exits non-zero when anything failed.

  embedded OUT                 fips140.ko is embedded, byte for byte
  moved STOCK OUT EXCEPTIONS   crypto code left in vmlinux is exactly the
                               documented list, the rest of the stock
                               kernel's is in fips140.ko; moved symbols
                               are gone (STOCK: the stock build directory,
                               or a file listing its crypto objects)
  marked OUT                   the crypto modules (=m) of OUT's modroot, and
                               only they, carry the crypto-objs-m mark
                               (section .fips140_crypto_module); their
                               list goes to OUT/marked-modules
  same-functions STOCK OTHER   same set of function symbols in vmlinux
  same-initcalls STOCK OTHER   same initcalls, same order (System.map)
  initcall-order STOCK OUT STOCK_LOG FIPS140_LOG
                               crypto initcalls: same level, same order
  trampolines OUT              each trampoline one jmp rel32 to its stub;
                               objtool ran on them: ORC data, ENDBR kept,
                               none sealed
  certset OUT LOG LABEL        the certified set boot LOG shows (section
                               fips140-modules of the guest test certset)
                               is OUT's marked modules (OUT/marked-modules,
                               from the marked command), each with the
                               SHA-256 of its installed file less the
                               signature, computed here
  approved STOCK_LOG LOG LABEL every implementation the stock kernel
                               built in, tested and allowed (in FIPS mode)
                               whose name is in the module's table is an
                               approved service of fips140 in boot LOG
                               (sections fips140-services and
                               fips140-approved of the guest test
                               indicator)
"""
import bisect
import hashlib
import io
import os
import re
import struct
import subprocess
import sys

from elftools.common.exceptions import ELFError
from elftools.elf.elffile import ELFFile

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)),
                                "..", "..", "scripts"))
import ktap  # noqa: E402

failed = 0


def result(ok, name, why=""):
    global failed
    if ok:
        print(f"PASS {name}")
    else:
        failed += 1
        print(f"FAIL {name}: {why or 'failed'}")


def detail(lines, limit=40):
    for line in list(lines)[:limit]:
        print(f"     | {line}")


def run(*cmd):
    return subprocess.run(cmd, check=True, capture_output=True,
                          text=True).stdout


def symbols(path, defined=True):
    """{name: type} of an object's symbol table (nm)."""
    out = run("nm", "--defined-only" if defined else "-u", path)
    syms = {}
    for line in out.splitlines():
        parts = line.split()
        if len(parts) == 3:
            syms[parts[2]] = parts[1]
        elif len(parts) == 2:
            syms[parts[1]] = parts[0]
    return syms


def elf_sections(data):
    """{name: (offset, size, addr)} of an ELF image (pyelftools)."""
    try:
        elf = ELFFile(io.BytesIO(data))
        return {sec.name: (sec["sh_offset"], sec["sh_size"], sec["sh_addr"])
                for sec in elf.iter_sections()}
    except ELFError as e:
        raise ValueError(f"not an ELF file: {e}") from e


def file_offset(vmlinux, addr):
    """The file offset of virtual address addr in vmlinux."""
    for name, (off, size, start) in elf_sections(vmlinux).items():
        if name and start <= addr < start + size and off:
            return off + addr - start
    raise KeyError(f"address {addr:#x} is in no section of vmlinux")


def embedded(out):
    vmlinux = os.path.join(out, "vmlinux")
    module = os.path.join(out, "crypto/fips140/fips140.ko")
    addrs = {}
    for line in run("nm", vmlinux).splitlines():
        p = line.split()
        if len(p) == 3 and p[2] in ("_binary_fips140_ko_start",
                                    "_binary_fips140_ko_end"):
            addrs[p[2]] = int(p[0], 16)
    result(len(addrs) == 2, "embedded/symbols",
           "_binary_fips140_ko_start or _end missing from vmlinux")
    if len(addrs) != 2:
        return
    size = addrs["_binary_fips140_ko_end"] - addrs["_binary_fips140_ko_start"]
    with open(module, "rb") as f:
        ko = f.read()
    result(size == len(ko), "embedded/size",
           f"embedded {size} bytes, fips140.ko has {len(ko)}")
    with open(vmlinux, "rb") as f:
        image = f.read()
    # Read the bytes from vmlinux through the section that holds them.
    found = ".fips140_embedded" in elf_sections(image)
    result(found, "embedded/section", "no .fips140_embedded")
    if not found:
        return
    off = file_offset(image, addrs["_binary_fips140_ko_start"])
    result(image[off:off + len(ko)] == ko, "embedded/bytes",
           "the embedded bytes differ from fips140.ko")


def crypto_dir(path):
    return re.match(r"(crypto|lib/crypto|arch/[^/]+/crypto|certs)/", path)


def archive(out):
    """Members of vmlinux.a, relative to the build directory."""
    # Thin archives list their members relative to where ar runs
    return [os.path.relpath(o, out) for o in
            run("ar", "t", os.path.abspath(os.path.join(
                out, "vmlinux.a"))).split()]


def moved(stock, out, exceptions):
    vmlinux_objs = archive(out)
    module_objs = open(os.path.join(out, "crypto/fips140/fips140.mod")
                       ).read().split()
    left = sorted(o for o in vmlinux_objs if crypto_dir(o))
    want = sorted(line.split("#")[0].strip() for line in open(exceptions)
                  if line.split("#")[0].strip())
    result(left == want, "moved/vmlinux-crypto-objects",
           "crypto objects in vmlinux differ from " +
           os.path.basename(exceptions))
    if left != want:
        detail([f"in vmlinux, not listed: {o}" for o in left if o not in want]
               + [f"listed, not in vmlinux: {o}" for o in want
                  if o not in left])
    both = sorted(set(vmlinux_objs) & set(module_objs))
    result(not both, "moved/no-object-twice",
           f"{len(both)} objects in both vmlinux and fips140.ko")
    detail(both)
    if os.path.isdir(stock):
        stock_objs = sorted(o for o in archive(stock) if crypto_dir(o))
    else:
        stock_objs = open(stock).read().split()
    result(len(stock_objs) > 0, "moved/stock-crypto-objects",
           f"no crypto objects in the stock kernel ({stock})")
    lost = sorted(set(stock_objs) - set(module_objs) - set(left))
    result(not lost, "moved/every-crypto-object",
           f"{len(lost)} crypto objects of the stock vmlinux are in neither "
           "fips140.ko nor vmlinux")
    detail(lost)
    print(f"# fips140.ko: {len(module_objs)} objects; "
          f"vmlinux keeps {len(left)} crypto objects")

    vsyms = symbols(os.path.join(out, "vmlinux"))
    for sym in ("crypto_alloc_base", "crypto_register_alg", "aes_expandkey",
                "crypto_sha256_update", "crypto_alloc_shash",
                "crypto_shash_finup", "sha1_init"):
        result(sym not in vsyms, f"moved/{sym}",
               f"{sym} is still defined in vmlinux ({vsyms.get(sym)})")
    wraps = sorted(s for s in vsyms if s.startswith("__wrap_"))
    result(len(wraps) > 0, "moved/trampolines", "no __wrap_ symbols")
    undefined = set(symbols(os.path.join(out, "vmlinux.o"), False))
    ko_syms = symbols(os.path.join(out, "crypto/fips140/fips140.ko"))
    exports = {s[len("__ksymtab_"):] for s in ko_syms
               if s.startswith("__ksymtab_")}
    unwrapped = sorted((undefined & exports) -
                       {w[len("__wrap_"):] for w in wraps})
    result(not unwrapped, "moved/every-call-wrapped",
           f"{len(unwrapped)} functions vmlinux calls have no trampoline")
    detail(unwrapped)
    print(f"# {len(wraps)} trampolines, {len(exports)} module exports")


# The code of the trampolines: each one, and its stub
TRAMPOLINE_PREFIXES = ("__wrap_", "__fips140_fn_unplugged_")
ENDBR64 = bytes.fromhex("f30f1efa")


def kconfig(out):
    """{option: value} of OUT's .config."""
    opts = {}
    with open(os.path.join(out, ".config")) as f:
        for line in f:
            name, eq, value = line.strip().partition("=")
            if eq and name.startswith("CONFIG_"):
                opts[name] = value
    return opts


def relative_table(data, sections, name, ordered=False):
    """The addresses a table of 32-bit self-relative offsets points to
    (.orc_unwind_ip, .retpoline_sites, .ibt_endbr_seal), as a set or, if
    ORDERED, as a list in the table's order."""
    off, size, addr = sections[name]
    values = struct.unpack_from(f"<{size // 4}i", data, off)
    addrs = [addr + 4 * i + v for i, v in enumerate(values)]
    return addrs if ordered else set(addrs)


# The ORC state at a function's entry (arch/x86/include/asm/orc_types.h):
# the return address is at SP + 8 (sp_reg ORC_REG_SP, type ORC_TYPE_CALL).
ORC_REG_SP = 5
ORC_TYPE_CALL = 2
ORC_AT_ENTRY = (8, ORC_REG_SP, ORC_TYPE_CALL)


def orc_lookup(data, sections):
    """A function giving the ORC entry the unwinder finds for an address:
    the one of the greatest .orc_unwind_ip address at or below it, as
    (address, (sp_offset, sp_reg, type)). An object objtool did not see
    has no entries, so its code gets the entry its predecessor ends with."""
    ips = relative_table(data, sections, ".orc_unwind_ip", ordered=True)
    off, size, _ = sections[".orc_unwind"]
    states = []
    for i in range(size // 6):
        sp_offset, _, bits = struct.unpack_from("<hhH", data, off + 6 * i)
        states.append((sp_offset, bits & 0xf, (bits >> 8) & 0x7))
    table = sorted(zip(ips, states))
    keys = [ip for ip, _ in table]

    def lookup(addr):
        i = bisect.bisect_right(keys, addr)
        return table[i - 1] if i else (0, None)
    return lookup


def trampolines(out):
    """Each trampoline is one direct jmp rel32 (after its ENDBR with IBT),
    built going to its own stub, which the loader rewrites at plug-in:
    no indirect branch, whatever the mitigations. objtool ran on them, as
    on the rest of vmlinux: each function of
    crypto/fips140/fips140-fn-redirect.o has its ORC entry, each keeps
    its ENDBR and none is sealed (with IBT)."""
    path = os.path.join(out, "vmlinux")
    with open(path, "rb") as f:
        data = f.read()
    sections = elf_sections(data)
    cfg = kconfig(out)
    funcs = {}
    for line in run("nm", "-S", "--defined-only", path).splitlines():
        p = line.split()
        if len(p) == 4 and p[3].startswith(TRAMPOLINE_PREFIXES):
            funcs[p[3]] = (int(p[0], 16), int(p[1], 16))
    wraps = [n for n in funcs if n.startswith("__wrap_")]
    result(len(wraps) > 0 and len(funcs) == 2 * len(wraps),
           "trampolines/found",
           f"{len(wraps)} trampolines, {len(funcs)} functions")
    print(f"# {len(wraps)} trampolines, {len(funcs)} functions; "
          f"options: " + " ".join(o for o in (
              "CONFIG_UNWINDER_ORC", "CONFIG_MITIGATION_RETPOLINE",
              "CONFIG_X86_KERNEL_IBT") if cfg.get(o) == "y"))
    if cfg.get("CONFIG_UNWINDER_ORC") == "y":
        lookup = orc_lookup(data, sections)
        # The entry must be one made for the trampolines' object (from
        # its first function's padding on): the state the code before
        # it ends with would be no proof, even if it matched.
        start = min(a for a, _ in funcs.values()) - \
            int(cfg.get("CONFIG_FUNCTION_PADDING_BYTES", "0"))
        missing = sorted(n for n, (a, _) in funcs.items()
                         if lookup(a)[0] < start
                         or lookup(a)[1] != ORC_AT_ENTRY)
        result(not missing, "trampolines/orc",
               f"{len(missing)} functions the unwinder cannot unwind "
               "from their entry")
        detail(missing)
    jmp_at = 4 if cfg.get("CONFIG_X86_KERNEL_IBT") == "y" else 0
    bad = []
    for name in sorted(wraps):
        addr, size = funcs[name]
        code = data[file_offset(data, addr):][:size]
        stub = "__fips140_fn_unplugged_" + name[len("__wrap_"):]
        target = None
        if size == jmp_at + 5 and code[jmp_at] == 0xE9:
            rel = struct.unpack_from("<i", code, jmp_at + 1)[0]
            target = addr + jmp_at + 5 + rel
        if stub not in funcs or target != funcs[stub][0]:
            bad.append(f"{name}: {code.hex()}")
    result(not bad, "trampolines/direct-jump",
           f"{len(bad)} trampolines are not one jmp rel32 to their stub")
    detail(bad)
    if cfg.get("CONFIG_X86_KERNEL_IBT") == "y":
        bad = sorted(n for n, (a, _) in funcs.items()
                     if data[file_offset(data, a):][:4] != ENDBR64)
        result(not bad, "trampolines/endbr", f"{len(bad)} without ENDBR")
        detail(bad)
        sealed = relative_table(data, sections, ".ibt_endbr_seal")
        bad = sorted(n for n, (a, _) in funcs.items() if a in sealed)
        result(not bad, "trampolines/not-sealed",
               f"{len(bad)} ENDBR to be sealed")
        detail(bad)


def has_section(path, name):
    with open(path, "rb") as f:
        return name in elf_sections(f.read())


def marked(out):
    root = os.path.join(out, "modroot", "lib", "modules")
    mods = sorted(os.path.relpath(os.path.join(d, f), root)
                  for d, _, files in os.walk(root) for f in files
                  if f.endswith(".ko") and f != "fips140.ko")
    wrong, marks = [], []
    for rel in mods:
        path = rel.split("/", 2)[2]          # RELEASE/kernel/PATH
        want = crypto_dir(path) is not None
        have = has_section(os.path.join(root, rel), ".fips140_crypto_module")
        if have:
            marks.append(path)
        if have != want:
            wrong.append(f"{path}: {'marked' if have else 'not marked'}")
    result(len(mods) > 0, "marked/modules", f"no modules in {root}")
    result(len(marks) > 0, "marked/some-crypto-modules",
           "no module carries the mark")
    result(not wrong, "marked/exactly-the-crypto-modules",
           f"{len(wrong)} modules marked wrongly")
    detail(wrong)
    with open(os.path.join(out, "marked-modules"), "w") as f:
        f.write("".join(m + "\n" for m in marks))
    print(f"# {len(marks)} of {len(mods)} modules carry the mark")


SIG_MAGIC = b"~Module signature appended~\n"


def unsigned(data):
    """A module file less its appended signature (struct module_signature:
    12 bytes, the last 4 the signature's length, big-endian)"""
    if not data.endswith(SIG_MAGIC):
        return data
    end = len(data) - len(SIG_MAGIC)
    sig_len = struct.unpack(">I", data[end - 4:end])[0]
    return data[:end - 12 - sig_len]


def certset(out, log, label):
    root = os.path.join(out, "modroot", "lib", "modules")
    release = os.listdir(root)[0] if os.path.isdir(root) else ""
    with open(os.path.join(out, "marked-modules")) as f:
        marks = f.read().split()
    want = {}
    for path in marks:
        with open(os.path.join(root, release, "kernel", path), "rb") as f:
            data = f.read()
        name = os.path.basename(path)[:-len(".ko")].replace("-", "_")
        want[name] = hashlib.sha256(unsigned(data)).hexdigest()
    lines = ktap.section(ktap.read(log), "fips140-modules")
    got = dict(line.split()[:2] for line in lines or [] if " " in line)
    result(lines is not None, f"{label}/list-dumped",
           f"no fips140-modules section in {log}")
    missing = sorted(set(want) - set(got))
    result(not missing, f"{label}/every-marked-module-listed",
           f"{len(missing)} of {len(want)} not listed")
    detail(missing)
    extra = sorted(set(got) - set(want))
    result(not extra, f"{label}/only-marked-modules-listed",
           f"{len(extra)} listed that are not marked modules of {out}")
    detail(extra)
    wrong = sorted(f"{n}: listed {got[n]}, installed {want[n]}"
                   for n in set(want) & set(got) if got[n] != want[n])
    result(not wrong, f"{label}/digests-of-installed-modules",
           f"{len(wrong)} digests differ")
    detail(wrong)
    print(f"# {len(got)} modules listed, {len(want)} marked modules installed")


def functions(out):
    return {s for s, t in symbols(os.path.join(out, "vmlinux")).items()
            if t in "tTwW"}


def same_functions(stock, other):
    a, b = functions(stock), functions(other)
    result(a == b, "same-functions",
           f"{len(a - b)} only in stock, {len(b - a)} only in "
           f"{os.path.basename(other)}")
    detail([f"- {s}" for s in sorted(a - b)] + [f"+ {s}" for s in sorted(b - a)])
    print(f"# {len(a)} function symbols")


def map_initcalls(out):
    """Initcall functions of a System.map in link order, with their level."""
    calls = []
    for line in open(os.path.join(out, "System.map")):
        m = re.search(r" __initcall__kmod_\w+?__\d+_\d+_(\w+?)(early|rootfs|"
                      r"con|[0-7]s?)$", line)
        if m:
            calls.append((m.group(1), m.group(2)))
    return calls


def same_initcalls(stock, other):
    a, b = map_initcalls(stock), map_initcalls(other)
    result(a == b, "same-initcalls", "initcalls differ in set or order")
    if a != b:
        import difflib
        detail(difflib.unified_diff([f"{f} {l}" for f, l in a],
                                    [f"{f} {l}" for f, l in b], lineterm=""))
    print(f"# {len(a)} initcalls")


def module_initcalls(out):
    """{function: level} of fips140.ko's initcall sections."""
    levels = {}
    for sym in symbols(os.path.join(out, "crypto/fips140/fips140.ko")):
        m = re.match(r"__fips140_initcall_(\w+?)(rootfs|[0-7]s?)$", sym)
        if m:
            levels[m.group(1)] = m.group(2)
    return levels


def called(log, names):
    order = []
    for line in open(log, errors="replace"):
        m = re.search(r"calling  (\w+)\+0x", line)
        if m and m.group(1) in names and m.group(1) not in order:
            order.append(m.group(1))
    return order


def object_initcalls(out, objs):
    calls = set()
    for obj in objs:
        for sym in symbols(os.path.join(out, obj)):
            m = re.match(r"__initcall__kmod_\w+?__\d+_\d+_(\w+?)"
                         r"(rootfs|[0-7]s?)$", sym)
            if m:
                calls.add(m.group(1))
    return calls


def initcall_order(stock, out, stock_log, fips_log):
    mod = module_initcalls(out)
    stock_levels = dict(map_initcalls(stock))
    # The crypto initcalls of the stock kernel, but those that stay in
    # vmlinux, must all be in the module.
    want = object_initcalls(stock, [o for o in archive(stock)
                                    if crypto_dir(o)]) - \
        object_initcalls(out, [o for o in archive(out) if crypto_dir(o)])
    result(set(mod) == want, "initcalls/collected",
           f"fips140.ko has {len(mod)} initcalls, the stock kernel's "
           f"crypto code {len(want)}")
    detail([f"missing: {f}" for f in sorted(want - set(mod))] +
           [f"extra: {f}" for f in sorted(set(mod) - want)])
    wrong = sorted(f"{f}: stock {stock_levels.get(f)}, fips140 {lvl}"
                   for f, lvl in mod.items() if stock_levels.get(f) != lvl)
    result(not wrong, "initcalls/same-level",
           f"{len(wrong)} crypto initcalls at another level")
    detail(wrong)
    for want in ("cryptomgr_init", "crypto_algapi_init"):
        result(want in mod, f"initcalls/{want}-kept",
               f"{want} not in fips140.ko")
    a, b = called(stock_log, set(mod)), called(fips_log, set(mod))
    result(len(b) == len(mod), "initcalls/all-ran",
           f"{len(mod) - len(b)} module initcalls never called: "
           + " ".join(sorted(set(mod) - set(b))))
    result(a == b, "initcalls/same-order",
           "crypto initcalls ran in another order")
    if a != b:
        print("# stock order / fips140 order:")
        import difflib
        detail(difflib.unified_diff(a, b, lineterm=""), 80)
    print(f"# {len(b)} crypto initcalls ran in fips140.ko, levels: " +
          ", ".join(f"{lvl}:{list(mod.values()).count(lvl)}"
                    for lvl in sorted(set(mod.values()))))


def table_of(text):
    """The module's table of approved algorithms: (name, driver prefix)"""
    table = []
    for line in ktap.section(text, "fips140-services") or []:
        m = re.match(r"(\S+)(?: \((\S*)\*\))?", line)
        if m:
            table.append((m.group(1), m.group(2) or ""))
    return table


def approved(stock_log, log, label):
    """What stock offers as approved under a name of the table, fips140
    lists. Of the template instances (a driver name with "("), only those
    of the highest priority of their name: lower ones are superseded,
    kept alive only by their users (ktap.algs())."""
    with open(log, encoding="utf-8", errors="replace") as f:
        text = f.read()
    with open(stock_log, encoding="utf-8", errors="replace") as f:
        stock = ktap.section(f.read(), "proc-crypto") or []
    table = table_of(text)
    listed = set(tuple(line.split()[:2]) for line in
                 ktap.section(text, "fips140-approved") or [] if " " in line)
    fields = [dict(kv.split("=", 1) for kv in line.split() if "=" in kv)
              for line in stock]
    top = {}
    for e in fields:
        top[e.get("name")] = max(top.get(e.get("name"), 0),
                                 int(e.get("priority", "0")))
    fips = any(e.get("fips") for e in fields)
    want = set()
    for e in fields:
        name, driver = e.get("name", ""), e.get("driver", "")
        if e.get("module") != "kernel" or e.get("selftest") != "passed" or \
           (fips and e.get("fips") != "yes"):
            continue
        if not any(name == n and driver.startswith(p) for n, p in table):
            continue
        if "(" in driver and int(e.get("priority", "0")) < top[name]:
            continue
        want.add((driver, name))
    result(bool(table), f"{label}/table-dumped",
           f"no fips140-services section in {log}")
    result(bool(want), f"{label}/stock-has-approved",
           f"no built-in, tested algorithm of the table in {stock_log}")
    missing = sorted(want - listed)
    result(not missing, f"{label}/stock-approved-listed",
           f"{len(missing)} of {len(want)} not listed")
    detail(f"{d} {n}" for d, n in missing)
    print(f"     | {len(want)} built-in approved implementations on stock, "
          f"{len(listed)} listed")


def main():
    cmds = {"embedded": (embedded, 1), "moved": (moved, 3),
            "marked": (marked, 1),
            "same-functions": (same_functions, 2),
            "same-initcalls": (same_initcalls, 2),
            "initcall-order": (initcall_order, 4),
            "trampolines": (trampolines, 1),
            "approved": (approved, 3),
            "certset": (certset, 3)}
    if len(sys.argv) < 2 or sys.argv[1] not in cmds or \
       len(sys.argv) - 2 != cmds[sys.argv[1]][1]:
        sys.exit(__doc__)
    fn, _ = cmds[sys.argv[1]]
    fn(*sys.argv[2:])
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
