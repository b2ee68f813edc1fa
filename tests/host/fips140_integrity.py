#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""Host-side checks of the integrity self-test of fips140.ko.

Each command prints "PASS name" / "FAIL name: why" lines (scripts/test.sh
counts them) and exits non-zero when anything failed.

  digest OUT LOG...      the digest of the build (crypto/fips140/
                         fips140.hmac, and the copy in vmlinux) is the
                         HMAC-SHA256 of fips140.ko with the key of its
                         .fips140_hmac_key section, computed here; each
                         boot LOG printed it and shows it, and the
                         module's build id, in /sys/kernel/fips140
  tamper OUT WHAT DEST   write DEST, a copy of OUT's vmlinux with one byte
                         flipped in a region of the embedded module (WHAT:
                         elf-header, section-table, rela, symtab, strtab,
                         modinfo, text, rodata, data) or in the stored
                         digest (WHAT=digest), and DEST.msg, the message
                         the loader must print for it before it parses
                         the module
  absent LOG MSG         the boot LOG went on without the crypto module:
                         it printed MSG and that the kernel runs without
                         crypto, and /sys/kernel/fips140/failure is MSG
  never-ran LOG          the module never ran (no version line)
  initcall-failed LOG LEVEL FIPS
                         the injected failure of an initcall of LEVEL was
                         reported: a panic naming it (FIPS=1), or the log
                         and /sys/kernel/fips140/failure (FIPS=0)
  fault-digest-msg OUT   print the message of the module's integrity test
                         under fips140_fault=integrity
  modprobe-early LOG MODULE LIMIT_MS
                         fips140_debug_modprobe=MODULE loaded MODULE while
                         the crypto module came up, in under LIMIT_MS ms,
                         with no wait for the end of its init
  unwind LOG             the warning fips140_fault=unwind raises in the
                         module unwinds reliably through the trampoline to
                         the loader, kthread and ret_from_fork
  tamper-module KO DEST  write DEST, a copy of module KO (unsigned) with
                         one byte of its .comment section changed: it
                         loads as before, with another SHA-256
  log-has LOG TEXT...    the kernel log of LOG has a line with each TEXT
  debug-hooks OUT yes|no OUT's kernel has every debug hook, or none
  abi-crc OUT            with symbol versions: OUT's fips140-abi-check
                         finds OUT's own module compatible, with CRCs,
                         and names the import whose CRC is changed in a
                         copy of OUT's Module.symvers
  abi-btf OUT            with BTF: OUT's fips140-abi-check --btf, given
                         the types of OUT's module and vmlinux.o (pahole),
                         compares the layouts of the structs they share
                         and finds them all the same
  booted LOG IMAGE MODULE
                         the boot LOG loaded the embedded module IMAGE
                         (fresh or prebuilt), whose digest, printed and
                         in sysfs, is the HMAC-SHA256 of file MODULE, and
                         whose release in sysfs is the one in MODULE's
                         vermagic
  crc-changed KO MODULE DEST
                         write DEST, a copy of crypto module KO in which
                         the CRC (__crc_ symbol) of the first symbol
                         MODULE imports from it is changed, and print that
                         symbol's name: KO as a module whose exports
                         changed type would be
  reach LOG direct|pointer
                         arm64: the boot LOG reached every function of
                         the module with a direct branch (no line about
                         the pointer), or through the trampolines'
                         pointers (fips140_fault=far: all of them)
  selftests STOCK_LOG FIPS140_LOG
                         fips=1 boots: the same self-tests passed in both
                         (testmgr's "passed" lines), and the module counted
                         as many as the stock kernel printed
"""
import hashlib
import hmac
import io
import os
import re
import subprocess
import sys
import tempfile
import zlib

from elftools.elf.elffile import ELFFile

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from fips140_checks import detail, elf_sections, file_offset, result, \
    run, symbols  # noqa: E402
import fips140_checks  # noqa: E402

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)),
                                "..", "..", "scripts"))
import ktap  # noqa: E402

KEY_SECTION = ".fips140_hmac_key"
MODULE = "crypto/fips140/fips140-embedded.ko"


def module_hmac(ko, key_from=None):
    """The HMAC-SHA256 of KO with the key of its .fips140_hmac_key section
    (of KEY_FROM's, for a KO whose headers are damaged)."""
    src = ko if key_from is None else key_from
    off, size, _ = elf_sections(src)[KEY_SECTION]
    return hmac.new(src[off:off + size], ko, hashlib.sha256).digest()


def read(path):
    with open(path, "rb") as f:
        return f.read()


def vmlinux_symbol(out, name):
    for line in run("nm", os.path.join(out, "vmlinux")).splitlines():
        p = line.split()
        if len(p) == 3 and p[2] == name:
            return int(p[0], 16)
    raise KeyError(f"{name} not in {out}/vmlinux")


def build_id(path):
    m = re.search(r"Build ID: ([0-9a-f]+)", run("readelf", "-n", path))
    return m.group(1) if m else None


def kernel_lines(log):
    """The console lines of LOG, without timestamps, up to the dmesg dump
    that repeats them."""
    lines = []
    with open(log, encoding="utf-8", errors="replace") as f:
        for line in f:
            if line.startswith("fips140-harness: ---- BEGIN dmesg"):
                break
            lines.append(re.sub(r"^\[\s*\d+\.\d+\]\s*", "", line.strip()))
    return lines


def status(log):
    """/sys/kernel/fips140 as the guest test fips140 dumped it."""
    with open(log, encoding="utf-8", errors="replace") as f:
        lines = ktap.section(f.read(), "sys-fips140") or []
    return dict(line.split("=", 1) for line in lines if "=" in line)


def boot_digest(log, ko, name):
    """The boot LOG checked the image KO and shows its digest in sysfs:
    the loader's CRC-32 of the image and its digest in every boot; the
    module's integrity self-test (HMAC-SHA256) with fips=1, and only
    then, which read back its working state zeroised."""
    hexd = module_hmac(ko).hex()
    crc = zlib.crc32(ko + bytes.fromhex(hexd))
    st = status(log)
    lines = kernel_lines(log)
    line = f"fips140: image check passed, crc32 {crc:08x}"
    result(line in lines, f"{name}/printed",
           f"no \"{line}\" in the kernel log")
    selftest = f"fips140: integrity check passed, hmac-sha256 {hexd}"
    skipped = ("fips140: integrity self-test: with fips=1 only; "
               "the image check passed")
    zeroised = "fips140: integrity check: hmac-sha256 working state zeroised"
    if st.get("fips_mode") == "1":
        result(selftest in lines, f"{name}/self-test-printed",
               f"no \"{selftest}\" in the kernel log")
        result(zeroised in lines, f"{name}/state-zeroised",
               f"no \"{zeroised}\" in the kernel log")
    else:
        ran = [x for x in lines if x.startswith(
            "fips140: integrity check: hmac-sha256")]
        result(skipped in lines and not ran, f"{name}/not-hashed",
               f"the module hashed its image: {ran}" if ran else
               f"no \"{skipped}\" in the kernel log")
    result(st.get("hmac_digest") == hexd, f"{name}/sysfs",
           f"hmac_digest={st.get('hmac_digest')}, expected {hexd}")
    return st


def digest(out, *logs):
    vmlinux = read(os.path.join(out, "vmlinux"))
    ko = read(os.path.join(out, MODULE))
    try:
        want = module_hmac(ko)
    except (KeyError, ValueError) as e:
        result(False, "digest/key", f"{MODULE}: no {KEY_SECTION}: {e}")
        return
    hexd = want.hex()
    print(f"hmac-sha256 of {MODULE}: {hexd}")
    stored = read(os.path.join(out, "crypto/fips140/fips140.hmac"))
    result(stored == want, "digest/host-tool",
           f"fips140.hmac is {stored.hex()}, expected {hexd}")
    off = file_offset(vmlinux, vmlinux_symbol(out, "__fips140_digest"))
    result(vmlinux[off:off + 32] == want, "digest/in-vmlinux",
           f"__fips140_digest is {vmlinux[off:off + 32].hex()}")
    # The CRC-32 the loader checks: zlib's of the module and digest
    crc = zlib.crc32(ko + want).to_bytes(4, "little")
    stored = read(os.path.join(out, "crypto/fips140/fips140.hmac-crc"))
    result(stored == crc, "digest/crc-host-tool",
           f"fips140.hmac-crc is {stored.hex()}, expected {crc.hex()}")
    off = file_offset(vmlinux, vmlinux_symbol(out, "__fips140_crc"))
    result(vmlinux[off:off + 4] == crc, "digest/crc-in-vmlinux",
           f"__fips140_crc is {vmlinux[off:off + 4].hex()}")
    bid = build_id(os.path.join(out, MODULE))
    for log in logs:
        label = os.path.basename(log)
        st = boot_digest(log, ko, f"digest/{label}")
        result(bid is not None and st.get("build_id") == bid,
               f"digest/{label}/build-id",
               f"build_id={st.get('build_id')}, fips140.ko has {bid}")


# The regions of the embedded module a tamper test flips a byte of:
# REGION -> the offset in fips140.ko of the byte, given the module and its
# sections. The ELF header (e_shoff) and the section table are what the
# loader parses first; relocations, symbols and strings what it trusts
# when it links; .modinfo, code and data the rest.
def _middle(name):
    def offset(ko, sections):
        off, size, _ = sections[name]
        return off + size // 2
    return offset


def _section_table(ko, sections):
    header = ELFFile(io.BytesIO(ko)).header
    return header["e_shoff"] + header["e_shnum"] * header["e_shentsize"] // 2


REGIONS = {
    "elf-header": lambda ko, sections: 0x28,
    "section-table": _section_table,
    "rela": _middle(".rela.text"),
    "symtab": _middle(".symtab"),
    "strtab": _middle(".strtab"),
    "modinfo": _middle(".modinfo"),
    "text": _middle(".text"),
    "rodata": _middle(".rodata"),
    "data": _middle(".data"),
}


def tamper(out, what, dest):
    vmlinux = bytearray(read(os.path.join(out, "vmlinux")))
    start = file_offset(vmlinux, vmlinux_symbol(out, "_binary_fips140_ko_start"))
    size = (vmlinux_symbol(out, "_binary_fips140_ko_end") -
            vmlinux_symbol(out, "_binary_fips140_ko_start"))
    doff = file_offset(vmlinux, vmlinux_symbol(out, "__fips140_digest"))
    ko = bytes(vmlinux[start:start + size])
    if what in REGIONS:
        off = REGIONS[what](ko, elf_sections(ko))
        if not 0 <= off < size:
            sys.exit(f"tamper: {what}: offset {off} outside the module")
        flipped = start + off
        vmlinux[flipped] ^= 0x01
        where = f"byte {off} of {size} ({100 * off // size} %)"
    elif what == "digest":
        flipped = doff
        vmlinux[flipped] ^= 0x80
        where = "byte 0 of the digest"
    else:
        sys.exit(f"tamper: WHAT is digest or one of {', '.join(REGIONS)},"
                 f" not {what}")
    expected = bytes(vmlinux[doff:doff + 32]).hex()
    computed = module_hmac(bytes(vmlinux[start:start + size]), ko).hex()
    image = vmlinux
    if ELFFile(io.BytesIO(bytes(vmlinux))).header["e_machine"] == "EM_AARCH64":
        image = arm64_image(out, vmlinux, flipped)
    with open(dest + ".tmp", "wb") as f:
        f.write(image)
    os.replace(dest + ".tmp", dest)
    # What the loader says, before it parses anything
    msg = (f"fips140: image check failed: expected hmac-sha256 "
           f"{expected}, computed {computed}")
    with open(dest + ".msg", "w") as f:
        f.write(msg + "\n")
    print(f"{dest}: {what} tampered, {where}; the loader must say: {msg}")


def arm64_image(out, vmlinux, flipped):
    """The arm64 Image of out with byte flipped of the (tampered) vmlinux
    copied in: QEMU boots an Image, vmlinux's loaded sections as one
    binary from _text on (objcopy -O binary), not an ELF file."""
    image = bytearray(read(os.path.join(out, "arch/arm64/boot/Image")))
    text = vmlinux_symbol(out, "_text")
    addr = None
    for off, size, start in elf_sections(bytes(vmlinux)).values():
        if start and off <= flipped < off + size:
            addr = start + flipped - off
    if addr is None or not 0 <= addr - text < len(image):
        sys.exit(f"tamper: byte {flipped} of vmlinux is not in the Image")
    pos = addr - text
    if image[pos] ^ vmlinux[flipped] not in (0x01, 0x80):
        sys.exit(f"tamper: the Image at {pos:#x} is not vmlinux's byte "
                 f"{flipped}: is the Image older than vmlinux?")
    image[pos] = vmlinux[flipped]
    return image


def tamper_module(ko, dest):
    data = bytearray(read(ko))
    sections = elf_sections(bytes(data))
    if ".comment" not in sections:
        sys.exit(f"tamper-module: {ko} has no .comment section")
    off, size, _ = sections[".comment"]
    if size < 2:
        sys.exit(f"tamper-module: {ko}: .comment is empty")
    off += size // 2
    # a printable byte stays printable: the section is the compiler's text
    data[off] ^= 0x01
    with open(dest + ".tmp", "wb") as f:
        f.write(data)
    os.replace(dest + ".tmp", dest)
    print(f"{dest}: {ko} with byte {off} changed (.comment), sha256 "
          f"{hashlib.sha256(bytes(data)).hexdigest()}")


def log_has(log, *texts):
    lines = kernel_lines(log)
    for text in texts:
        result(any(text in line for line in lines),
               f"log-has/{os.path.basename(log)}/{text[:60]}",
               f"no \"{text}\" in {log}")


ABSENT = ("fips140: the kernel runs without crypto: crypto requests fail "
          "with -ELIBBAD (-80)")
MODULE_RAN = "fips140: standalone crypto module version "


def absent(log, msg):
    """The boot went on without the crypto module, for the reason MSG."""
    label = f"absent/{os.path.basename(log)}"
    lines = kernel_lines(log)
    result(msg in lines, f"{label}/reason-logged", f"no \"{msg}\" line")
    result(ABSENT in lines, f"{label}/runs-without-crypto",
           f"no \"{ABSENT}\" line")
    failure = status(log).get("failure")
    want = msg.removeprefix("fips140: ")
    result(failure == want, f"{label}/sysfs-failure",
           f"/sys/kernel/fips140/failure is {failure!r}, expected {want!r}")


def never_ran(log):
    """The module never ran: the loader refused it before parsing it."""
    ran = [line for line in kernel_lines(log) if line.startswith(MODULE_RAN)]
    result(not ran, f"never-ran/{os.path.basename(log)}",
           f"the module ran: {ran}")


def initcall_failed(log, level, fips):
    """The boot LOG reported that an initcall of LEVEL failed (-EIO, the
    injected fault): it panicked naming it (FIPS=1), or logged it and
    shows it in /sys/kernel/fips140/failure, the module loaded."""
    label = f"initcall-failed/{os.path.basename(log)}"
    prefix = f"fips140: initcall level {level}: "
    if fips == "1":
        prefix = "Kernel panic - not syncing: " + prefix
        suffix = " returned -5: the crypto module failed in FIPS mode"
    else:
        suffix = " returned -5"
    lines = [line for line in kernel_lines(log)
             if line.startswith(prefix) and line.endswith(suffix)]
    result(len(lines) == 1, f"{label}/reported",
           f"{len(lines)} \"{prefix}...{suffix}\" lines")
    if fips == "1":
        return
    failure = status(log).get("failure")
    want = lines[0].removeprefix("fips140: ") if lines else None
    result(want is not None and failure == want, f"{label}/sysfs-failure",
           f"/sys/kernel/fips140/failure is {failure!r}, expected {want!r}")


def unwind(log):
    """fips140_fault=unwind: the warning from inside the module, reached
    from the loader through a trampoline, has a stack trace whose
    reliable frames go from the module back to the loader, the thread
    that runs it, and the thread's start."""
    label = f"unwind/{os.path.basename(log)}"
    lines = kernel_lines(log)
    at = [i for i, line in enumerate(lines) if line.startswith("WARNING:")
          and "fips140_debug_warn+" in line and "[fips140]" in line]
    result(len(at) == 1, f"{label}/warning",
           f"{len(at)} WARNING lines at fips140_debug_warn [fips140]")
    if not at:
        return
    frames = []
    for line in lines[at[0]:]:
        if line.startswith("---[ end trace"):
            break
        m = re.match(r"(\? )?([A-Za-z_][\w.]*)\+0x[0-9a-f]+/0x[0-9a-f]+", line)
        if m:
            frames.append((m.group(1) is None, m.group(2)))
    reliable = [name for ok, name in frames if ok]
    want = ["fips140_load", "kthread", "ret_from_fork"]
    got = [name for name in reliable if name in want]
    result(got[:3] == want, f"{label}/frames",
           f"reliable frames {reliable}, expected {want} in that order")
    detail(f"{'  ' if ok else '? '}{name}" for ok, name in frames)


def modprobe_early(log, module, limit_ms):
    """fips140_debug_modprobe=MODULE: MODULE, which imports the crypto
    module's symbols, loaded while the crypto module came up, at once
    (under LIMIT_MS ms), without waiting for the end of its init."""
    label = f"modprobe-early/{os.path.basename(log)}"
    pat = re.compile(rf"fips140: debug: modprobe {re.escape(module)} while "
                     r"the module comes up: (-?\d+) in (\d+) ms")
    found = [pat.match(line) for line in kernel_lines(log)]
    found = [m for m in found if m]
    result(len(found) == 1, f"{label}/ran", f"{len(found)} modprobe lines")
    if not found:
        return
    rc, ms = int(found[0].group(1)), int(found[0].group(2))
    result(rc == 0, f"{label}/loaded", f"modprobe {module} exited {rc}")
    result(ms < int(limit_ms), f"{label}/no-wait",
           f"modprobe {module} took {ms} ms, limit {limit_ms} ms")
    waits = [line for line in kernel_lines(log)
             if "gave up waiting for init of module" in line]
    result(not waits, f"{label}/no-gave-up", f"{waits}")
    mods = ktap.section(open(log, encoding="utf-8",
                             errors="replace").read(), "proc-modules") or []
    result(any(line.split()[:1] == [module] for line in mods),
           f"{label}/in-proc-modules", f"{module} not in /proc/modules")


def fault_digest_msg(out):
    """The message of the module's integrity test when fips140_fault=
    integrity flips the first byte of the digest it computed."""
    want = module_hmac(read(os.path.join(out, MODULE)))
    computed = bytes([want[0] ^ 1]) + want[1:]
    print(f"fips140: integrity check failed: expected hmac-sha256 "
          f"{want.hex()}, computed {computed.hex()}")


# The debug hooks (CONFIG_CRYPTO_FIPS140_DEBUG): (where, kind, name)
DEBUG_HOOKS = [
    ("fips140.ko", "param", "inject_failure"),
    ("fips140.ko", "symbol", "fips140_debug_warn"),
    ("vmlinux", "symbol", "fips140_fault_at"),
    ("vmlinux", "symbol", "__param_embedded_fault"),
    ("vmlinux", "symbol", "__setup_fips140_fault_setup"),
    ("vmlinux", "symbol", "__setup_fips140_debug_modprobe_setup"),
]


def debug_hooks(out, want):
    """Each debug hook is in OUT's kernel (WANT "yes": the debug build,
    the control that shows the check finds them) or none is ("no")."""
    ko_path = os.path.join(out, MODULE)
    ko = read(ko_path)
    off, size, _ = elf_sections(ko)[".modinfo"]
    params = {i.decode().split("=", 1)[1].split(":", 1)[0]
              for i in ko[off:off + size].split(b"\0")
              if i.startswith(b"parm=")}
    syms = {"fips140.ko": set(symbols(ko_path)),
            "vmlinux": set(symbols(os.path.join(out, "vmlinux")))}
    found = [f"{where}:{name}" for where, kind, name in DEBUG_HOOKS
             if name in (params if kind == "param" else syms[where])]
    if want == "yes":
        missing = sorted({f"{w}:{n}" for w, _, n in DEBUG_HOOKS} -
                         set(found))
        result(not missing, "debug-hooks/all-found",
               f"not found: {missing}")
    else:
        result(not found, "debug-hooks/none", f"debug hooks: {found}")


def module_release(ko):
    """The kernel release that built module KO: its vermagic's first word."""
    with open(ko, "rb") as f:
        modinfo = ELFFile(f).get_section_by_name(".modinfo").data()
    for entry in modinfo.split(b"\0"):
        if entry.startswith(b"vermagic="):
            return entry[len(b"vermagic="):].decode().split(" ")[0]
    return None


def crc_changed(ko, module, dest):
    data = bytearray(read(ko))
    imports = symbols(module, defined=False)
    with open(ko, "rb") as f:
        elf = ELFFile(f)
        symtab = elf.get_section_by_name(".symtab")
        for sym in symtab.iter_symbols():
            name = sym.name[len("__crc_"):]
            if sym.name.startswith("__crc_") and name in imports:
                sec = elf.get_section(sym["st_shndx"])
                data[sec["sh_offset"] + sym["st_value"]] ^= 0x01
                break
        else:
            sys.exit(f"{module} imports nothing with a CRC from {ko}")
    with open(dest, "wb") as f:
        f.write(data)
    print(name)


def booted(log, image, module):
    label = os.path.basename(os.path.dirname(log)) + "/" + \
        os.path.basename(log)
    log_has(log, f"fips140: loading the embedded crypto module ({image}, ")
    st = boot_digest(log, read(module), f"booted/{label}")
    result(st.get("image") == image, f"booted/{label}/image",
           f"image={st.get('image')}, expected {image}")
    release = module_release(module)
    result(release and st.get("release") == release,
           f"booted/{label}/release",
           f"release={st.get('release')}, {module} was built by {release}")


def abi_crc(out):
    tool = os.path.join(out, "scripts/fips140-abi-check")
    ko = os.path.join(out, "crypto/fips140/fips140.ko")
    res = subprocess.run([tool, ko, out], capture_output=True, text=True)
    print(res.stdout.strip())
    result(res.returncode == 0 and "with symbol versions" in res.stdout,
           "abi-crc/own-build-compatible", f"exit status {res.returncode}")
    # The same build directory, but vmlinux exports the module's first
    # versioned import with another CRC.
    imports = set(symbols(ko, defined=False))
    fake = os.path.join(out, "abi-crc")
    os.makedirs(fake, exist_ok=True)
    lines, changed = [], None
    with open(os.path.join(out, "Module.symvers")) as f:
        for line in f:
            crc, name, owner = line.split("\t")[:3]
            if not changed and owner == "vmlinux" and name in imports:
                changed = name
                line = line.replace(crc, f"0x{int(crc, 16) ^ 1:08x}", 1)
            lines.append(line)
    with open(os.path.join(fake, "Module.symvers"), "w") as f:
        f.writelines(lines)
    for name in ("vmlinux.o", "crypto"):
        link = os.path.join(fake, name)
        if not os.path.lexists(link):
            os.symlink(os.path.join(out, name), link)
    res = subprocess.run([tool, ko, fake], capture_output=True, text=True)
    print(res.stdout.strip())
    result(res.returncode == 1 and f"import {changed}: CRC" in res.stdout,
           "abi-crc/changed-crc-named",
           f"exit status {res.returncode}, {changed} not reported")


LAYOUTS = re.compile(r"struct layouts \(BTF\): (\d+) shared with vmlinux, "
                     r"(\d+) differ")


def abi_btf(out):
    tool = os.path.join(out, "scripts/fips140-abi-check")
    ko = os.path.join(out, "crypto/fips140/fips140.ko")
    with tempfile.TemporaryDirectory() as tmp:
        btf = []
        for obj in (ko, os.path.join(out, "vmlinux.o")):
            btf.append(os.path.join(tmp, os.path.basename(obj) + ".btf"))
            run("pahole", f"--btf_encode_detached={btf[-1]}", obj)
        res = subprocess.run([tool, "--btf", *btf, ko, out],
                             capture_output=True, text=True)
    print(res.stdout.strip())
    m = LAYOUTS.search(res.stdout)
    result(res.returncode == 0 and m and int(m[1]) > 0 and m[2] == "0",
           "abi-btf/own-build-layouts-same",
           f"exit status {res.returncode}, no layouts compared" if not m
           else f"exit status {res.returncode}")


PASSED = re.compile(r"alg: self-tests for (\S+) \((\S+)\) passed$")
READY = re.compile(r"fips140: (\d+) self-tests passed, the module is ready")


def dmesg_lines(log):
    """The kernel log the guest dumped at the end of its run (between
    the BEGIN and END dmesg lines), without timestamps: it also has what
    was printed while the console was quiet."""
    lines, inside = [], False
    with open(log, encoding="utf-8", errors="replace") as f:
        for line in f:
            if line.startswith("fips140-harness: ---- BEGIN dmesg"):
                inside = True
            elif line.startswith("fips140-harness: ---- END dmesg"):
                break
            elif inside:
                lines.append(re.sub(r"^\[\s*\d+\.\d+\]\s*", "",
                                    line.strip()))
    return lines


def selftests(stock_log, fips140_log):
    # Which implementations passed, each once: the stock kernel tests on
    # in the background while the guest runs, and prints the late passes
    # to the kernel log only (the dump), where a template instance made
    # again is tested again
    sets = []
    for log in (stock_log, fips140_log):
        lines = kernel_lines(log) + dmesg_lines(log)
        sets.append(sorted(set(m.groups() for m in map(PASSED.search, lines)
                               if m)))
    stock, ours = sets
    print(f"self-tests passed: stock {len(stock)}, fips140 {len(ours)}")
    result(stock and stock == ours, "selftests/same-passed",
           "the tests that passed differ")
    if stock != ours:
        detail([f"stock only: {t}" for t in sorted(set(stock) - set(ours))] +
               [f"fips140 only: {t}" for t in sorted(set(ours) - set(stock))])
    # The module counts the tests that ran before it was ready; the
    # template instances the guest tests create are tested later.
    before, counts = 0, []
    for line in kernel_lines(fips140_log):
        m = READY.search(line)
        if m:
            counts.append(int(m.group(1)))
            break
        before += bool(PASSED.search(line))
    result(counts == [before], "selftests/module-count",
           f"module reported {counts}, the log has {before} passes "
           "before it")
    # In FIPS mode user space starts once the self-tests have passed: the
    # module's report comes before the kernel runs /init
    lines = kernel_lines(fips140_log)
    ready = [i for i, x in enumerate(lines) if READY.search(x)]
    init = [i for i, x in enumerate(lines)
            if "Run /init as init process" in x]
    result(ready and init and ready[0] < init[0],
           "selftests/ready-before-init",
           "the module reported its self-tests after /init started"
           if ready and init else "no report or no /init in the log")


PLUGGED = re.compile(r"fips140: plugged in (\d+) functions")
THROUGH_PTR = re.compile(r"fips140: (\d+) functions out of a direct "
                         r"branch's reach, called through their trampoline's "
                         r"pointer")


def reach(log, how):
    """How the trampolines of the boot LOG reach the module (arm64)."""
    label = f"reach/{os.path.basename(log)}"
    lines = kernel_lines(log)
    plugged = [int(m.group(1)) for m in map(PLUGGED.match, lines) if m]
    far = [int(m.group(1)) for m in map(THROUGH_PTR.match, lines) if m]
    result(len(plugged) == 1 and plugged[0] > 0, f"{label}/plugged-in",
           f"{len(plugged)} \"plugged in N functions\" lines")
    if how == "direct":
        result(not far, f"{label}/all-direct",
               f"{far and far[0]} functions reached through a pointer")
        return
    if how != "pointer":
        sys.exit("reach: direct or pointer")
    result("fips140: injected fault: far" in lines, f"{label}/fault-injected",
           "no \"injected fault: far\" line")
    result(far == plugged and bool(far), f"{label}/all-through-pointer",
           f"{far} through a pointer of {plugged} plugged in")


def main():
    cmds = {"digest": (digest, 1, True), "tamper": (tamper, 3, False),
            "tamper-module": (tamper_module, 2, False),
            "log-has": (log_has, 2, True), "debug-hooks": (debug_hooks, 2, False),
            "selftests": (selftests, 2, False),
            "booted": (booted, 3, False),
            "crc-changed": (crc_changed, 3, False), "abi-crc": (abi_crc, 1, False),
            "abi-btf": (abi_btf, 1, False), "absent": (absent, 2, False),
            "never-ran": (never_ran, 1, False),
            "initcall-failed": (initcall_failed, 3, False),
            "fault-digest-msg": (fault_digest_msg, 1, False),
            "unwind": (unwind, 1, False), "reach": (reach, 2, False),
            "modprobe-early": (modprobe_early, 3, False)}
    if len(sys.argv) < 2 or sys.argv[1] not in cmds:
        sys.exit(__doc__)
    fn, nargs, more = cmds[sys.argv[1]]
    args = sys.argv[2:]
    if len(args) < nargs or (not more and len(args) != nargs):
        sys.exit(__doc__)
    fn(*args)
    return 1 if fips140_checks.failed else 0


if __name__ == "__main__":
    sys.exit(main())
