#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""Real clients of the kernel crypto API, run on the stock and on the
fips140 kernel with the same inputs (scripts/clients.sh, guest test
tests/guest/clients.sh).

  prepare DIR KEYS
                         make DIR/inputs (data, and the certificates and
                         signatures of KEYS, made by scripts/keys.sh),
                         DIR/ops (the operations the guest runs: NAME
                         KIND COMMAND) and DIR/expect/NAME (the SHA-256
                         of what OpenSSL on the host, directly or through
                         python3-cryptography, says an operation must
                         output)
  parity DIR KEYS REPORT STOCK_LOG FIPS140_LOG
                         both boots ran every operation of DIR/ops; the
                         fips140 kernel's results (exit status, output
                         digest, which self-tests ran, /proc/crypto
                         names and drivers) are the stock kernel's; the
                         outputs only the host can check (RSA
                         encryption) decrypt with the private key; the
                         report (markdown) goes to REPORT

Operation kinds: exact (output as DIR/expect/NAME says), same (output
compared between the kernels only), host (output checked here), status
(only the exit status counts; the output is random or none).

Prints "PASS name" / "FAIL name: why" lines; exit status 1 on failure.
"""
import hashlib
import os
import re
import subprocess
import sys

from cryptography.hazmat.primitives.ciphers import Cipher, algorithms, modes
from cryptography.hazmat.primitives.ciphers.aead import AESCCM, AESGCM, \
    ChaCha20Poly1305

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from fips140_checks import detail, result  # noqa: E402
import fips140_checks  # noqa: E402

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)),
                                "..", "..", "scripts"))
import ktap  # noqa: E402

# Input sizes (bytes) of the hash and cipher operations
SIZES = {"64": 64, "4k": 4096, "1m": 1 << 20}
HASHES = ["sha1", "sha224", "sha256", "sha384", "sha512", "sha3-256",
          "sha3-512"]
HMACS = ["sha1", "sha256", "sha512"]
# kernel name, openssl name, key bytes, iv bytes, input sizes
SKCIPHERS = [("ecb(aes)", "aes-128-ecb", 16, 0, ["4k"]),
             ("cbc(aes)", "aes-128-cbc", 16, 16, ["4k", "1m"]),
             ("cbc(aes)", "aes-256-cbc", 32, 16, ["4k"]),
             ("ctr(aes)", "aes-128-ctr", 16, 16, ["4k", "1m"]),
             ("xts(aes)", "aes-128-xts", 32, 16, ["4k"])]
# (kcapi-enc reads at most 32 bytes of key from --keyfd: no aes-256-xts,
# dm-crypt uses it below; and it cuts a long input into several requests,
# each an XTS data unit of its own: XTS only at 4 KiB.)
# kernel name, openssl name, key bytes, iv (nonce) bytes, kcapi iv option
AEADS = [("gcm(aes)", "aes-128-gcm", 16, 12, "--iv"),
         ("gcm(aes)", "aes-256-gcm", 32, 12, "--iv"),
         ("ccm(aes)", "aes-128-ccm", 16, 13, "--ccm-nonce"),
         ("rfc7539(chacha20,poly1305)", "chacha20-poly1305", 32, 12,
          "--iv")]
# tcrypt modes all of whose algorithms base.config has: sha1, sha256,
# sha384, sha512, crc32c, sha224, gcm(aes), ccm(aes), sha3-*, hmac(sha*),
# cmac(aes) (not 8-10: they test lrw() too)
TCRYPT_MODES = [2, 6, 11, 12, 18, 33, 35, 37, 48, 49, 50, 51, 101, 102,
                103, 104, 105, 153]
PATTERN = 1 << 20		# bytes written through LUKS2
PLAIN = 64 << 10		# bytes written through plain dm-crypt
SECTOR = 512
TAG = 16			# bytes of every AEAD tag


def stream(label, n):
    """n deterministic pseudo-random bytes named label"""
    out, i = bytearray(), 0
    while len(out) < n:
        out += hashlib.sha256(f"{label}/{i}".encode()).digest()
        i += 1
    return bytes(out[:n])


def read_bytes(*path):
    with open(os.path.join(*path), "rb") as f:
        return f.read()


def openssl(*args, data=b""):
    return subprocess.run(["openssl", *args], input=data, check=True,
                          capture_output=True).stdout


# The openssl command line does neither AEAD nor XTS: those references
# come from python3-cryptography (OpenSSL's libcrypto too).
SKCIPHER_MODES = {"ecb": lambda iv: modes.ECB(), "cbc": modes.CBC,
                  "ctr": modes.CTR, "xts": modes.XTS}
AEAD_CLASSES = {"gcm": AESGCM,
                "ccm": lambda key: AESCCM(key, tag_length=TAG),
                "chacha20-poly1305": ChaCha20Poly1305}


def reference(cipher, key, iv, data, aad=None):
    """The encryption of data by OpenSSL cipher CIPHER (aes-BITS-MODE or
    chacha20-poly1305), KEY and IV in hex; for an AEAD (AAD in hex, not
    None) the ciphertext and the tag."""
    key, iv = bytes.fromhex(key), bytes.fromhex(iv)
    mode = cipher.rsplit("-", 1)[1] if cipher.startswith("aes-") else cipher
    if cipher.startswith("aes-"):
        bits = int(cipher.split("-")[1])
        want = 2 * bits if mode == "xts" else bits
        if len(key) * 8 != want:
            raise ValueError(f"{cipher}: a key of {len(key) * 8} bits")
    if aad is not None:
        return AEAD_CLASSES[mode](key).encrypt(iv, data, bytes.fromhex(aad))
    enc = Cipher(algorithms.AES(key), SKCIPHER_MODES[mode](iv)).encryptor()
    return enc.update(data) + enc.finalize()


class Plan:
    def __init__(self, d):
        self.dir, self.ops = d, []
        for sub in ("inputs", "expect"):
            os.makedirs(os.path.join(d, sub), exist_ok=True)

    def input(self, name, data):
        with open(os.path.join(self.dir, "inputs", name), "wb") as f:
            f.write(data)
        return f"inputs/{name}"

    def op(self, name, kind, command, expect=None):
        assert " " not in name and kind in ("exact", "same", "host",
                                            "status")
        self.ops.append(f"{name} {kind} {command}")
        if kind == "exact":
            path = os.path.join(self.dir, "expect", name)
            os.makedirs(os.path.dirname(path), exist_ok=True)
            with open(path, "w") as f:
                f.write(hashlib.sha256(expect).hexdigest() + "\n")

    def write(self):
        with open(os.path.join(self.dir, "ops"), "w") as f:
            f.write("\n".join(self.ops) + "\n")


def kcapi_key(plan, name, n):
    """--keyfd option of kcapi-*: the key of n bytes, and its hex"""
    key = stream(f"key/{name}", n)
    return f"--keyfd 3 3<{plan.input(name + '.key', key)}", key.hex()


def hashes(plan, data):
    for alg in HASHES:
        for size, path in data.items():
            plan.op(f"kcapi-dgst/{alg}/{size}", "exact",
                    f"kcapi-dgst -c {alg} <{path}",
                    openssl("dgst", f"-{alg}", "-binary",
                            data=read_bytes(plan.dir, path)))
    for alg in HMACS:
        keyfd, key = kcapi_key(plan, f"hmac-{alg}", 32)
        for size, path in data.items():
            plan.op(f"kcapi-dgst/hmac({alg})/{size}", "exact",
                    f"kcapi-dgst -c 'hmac({alg})' {keyfd} <{path}",
                    openssl("dgst", f"-{alg}", "-mac", "HMAC", "-macopt",
                            f"hexkey:{key}", "-binary",
                            data=read_bytes(plan.dir, path)))
    keyfd, key = kcapi_key(plan, "cmac-aes", 16)
    plan.op("kcapi-dgst/cmac(aes)/4k", "exact",
            f"kcapi-dgst -c 'cmac(aes)' {keyfd} <{data['4k']}",
            openssl("mac", "-cipher", "AES-128-CBC", "-macopt",
                    f"hexkey:{key}", "-binary", "-in",
                    os.path.join(plan.dir, data["4k"]), "CMAC"))


def skciphers(plan, data):
    for kname, oname, klen, ivlen, sizes in SKCIPHERS:
        keyfd, key = kcapi_key(plan, oname, klen)
        iv = stream(f"iv/{oname}", ivlen).hex()
        ivopt = f" --iv {iv}" if ivlen else ""
        base = f"kcapi-enc -c '{kname}'{ivopt} {keyfd}"
        for size in sizes:
            plain = read_bytes(plan.dir, data[size])
            ct = reference(oname, key, iv, plain)
            ct_path = plan.input(f"{oname}-{size}.ct", ct)
            plan.op(f"kcapi-enc/{oname}/encrypt/{size}", "exact",
                    f"{base} -e <{data[size]}", ct)
            plan.op(f"kcapi-enc/{oname}/decrypt/{size}", "exact",
                    f"{base} -d <{ct_path}", plain)


def aeads(plan, data):
    aad = stream("aad", 20).hex()
    for kname, oname, klen, ivlen, ivopt in AEADS:
        keyfd, key = kcapi_key(plan, oname, klen)
        iv = stream(f"iv/{oname}", ivlen).hex()
        base = f"kcapi-enc -c '{kname}' {ivopt} {iv} --aad {aad} {keyfd}"
        plain = read_bytes(plan.dir, data["4k"])
        out = reference(oname, key, iv, plain, aad)
        ct, tag = out[:-16], out[-16:]
        ct_path = plan.input(f"{oname}.ct", ct)
        bad = bytes([tag[0] ^ 1]) + tag[1:]
        # kcapi-enc writes the associated data before its result
        plan.op(f"kcapi-enc/{oname}/encrypt/4k", "exact",
                f"{base} --taglen 16 -e <{data['4k']}",
                bytes.fromhex(aad) + out)
        plan.op(f"kcapi-enc/{oname}/decrypt/4k", "exact",
                f"{base} --tag {tag.hex()} -d <{ct_path}",
                bytes.fromhex(aad) + plain)
        plan.op(f"kcapi-enc/{oname}/decrypt-bad-tag", "status",
                # kcapi-enc's words for EBADMSG from the kernel
                "refused 'decryption failed due to integrity violation' "
                f"{base} --tag {bad.hex()} -d <{ct_path}")


def rng(plan):
    plan.op("kcapi-rng/64", "status",
            "kcapi-rng -b 64 >/tmp/r1 && kcapi-rng -b 64 >/tmp/r2 && "
            "[ $(wc -c </tmp/r1) = 64 ] && ! cmp -s /tmp/r1 /tmp/r2")
    plan.op("kcapi-rng/1m", "status",
            "[ $(kcapi-rng -b 1048576 | wc -c) = 1048576 ]")


def keyctl(plan, keys):
    # The errno of a refused signature: RSA's PKCS#1 check finds no valid
    # padding (EINVAL), ECDSA's the wrong point (EKEYREJECTED)
    for kind, params, refusal in (
            ("rsa", "enc=pkcs1 hash=sha256", "Invalid argument"),
            ("ecdsa", "enc=x962 hash=sha256", "Key was rejected by service")):
        cert = plan.input(f"{kind}.der", read_bytes(keys, f"{kind}.der"))
        sig = read_bytes(keys, f"{kind}.sig")
        sig_path = plan.input(f"{kind}.sig", sig)
        bad = plan.input(f"{kind}.sig.bad", sig[:-1] + bytes([sig[-1] ^ 1]))
        digest = plan.input("data.sha256", read_bytes(keys, "data.sha256"))
        key = f"$(keyctl search @u asymmetric {kind})"
        plan.op(f"keyctl/{kind}/padd", "status",
                f"keyctl padd asymmetric {kind} @u <{cert} >/dev/null")
        plan.op(f"keyctl/{kind}/pkey_query", "same",
                f"keyctl pkey_query {key} 0 {params}")
        plan.op(f"keyctl/{kind}/pkey_verify", "status",
                f"keyctl pkey_verify {key} 0 {digest} {sig_path} {params}")
        plan.op(f"keyctl/{kind}/pkey_verify-bad", "status",
                f"refused '{refusal}' "
                f"keyctl pkey_verify {key} 0 {digest} {bad} {params}")
    secret = plan.input("secret", stream("secret", 32))
    plan.op("keyctl/rsa/pkey_encrypt", "host",
            "keyctl pkey_encrypt $(keyctl search @u asymmetric rsa) 0 "
            f"{secret} enc=pkcs1")


def xts_plain64(key, data):
    """dm-crypt aes-xts-plain64, 512-byte sectors from 0, by openssl"""
    out = b""
    for s in range(len(data) // SECTOR):
        iv = s.to_bytes(16, "little").hex()
        out += reference("aes-128-xts", key.hex(), iv,
                         data[s * SECTOR:(s + 1) * SECTOR])
    return out


def cryptsetup(plan):
    luks_key = plan.input("luks.key", stream("luks-key", 64))
    pattern = plan.input("pattern", stream("pattern", PATTERN))
    # The kernel has no file locking (tinyconfig): --disable-locks
    cs = "cryptsetup --disable-locks"
    fmt = (f"{cs} luksFormat -q --type luks2 --cipher aes-xts-plain64 "
           "--key-size 256 --pbkdf pbkdf2 --pbkdf-force-iterations 1000 "
           f"--key-file {luks_key} /dev/ram0")
    opn = f"{cs} open --key-file {luks_key} /dev/ram0 luks"
    plan.op("cryptsetup/luksFormat", "status", fmt)
    plan.op("cryptsetup/luks-write", "status",
            f"{opn} && dd if={pattern} of=/dev/mapper/luks bs=64k "
            f"conv=fsync 2>/dev/null && {cs} close luks")
    plan.op("cryptsetup/luks-read", "exact",
            f"{opn} && dd if=/dev/mapper/luks bs=64k count={PATTERN >> 16} "
            f"2>/dev/null && {cs} close luks",
            read_bytes(plan.dir, pattern))
    # Plain mode: no header, the key file is the key, so the ciphertext
    # on the device is known: compare it with openssl's.
    key = stream("plain-key", 32)
    key_path = plan.input("plain.key", key)
    data = stream("plain-data", PLAIN)
    data_path = plan.input("plain-data", data)
    plan.op("cryptsetup/plain-xts-ciphertext", "exact",
            f"{cs} open --type plain --cipher aes-xts-plain64 "
            f"--key-size 256 --key-file {key_path} /dev/ram1 plain && "
            f"dd if={data_path} of=/dev/mapper/plain bs=4k conv=fsync "
            f"2>/dev/null && {cs} close plain && "
            f"dd if=/dev/ram1 bs=4k count={PLAIN >> 12} 2>/dev/null",
            xts_plain64(key, data))
    # The numbers vary; which tests ran and which are N/A must not.
    plan.op("cryptsetup/benchmark", "same",
            "cryptsetup benchmark >/tmp/bench && awk "
            "'/^#/ {next} /iterations/ {print $1, \"pbkdf\"; next} "
            "{print $1, $2, (/N\\/A/ ? \"n/a\" : \"ok\")}' "
            "/tmp/bench")


def tcrypt(plan):
    for mode in TCRYPT_MODES:
        plan.op(f"tcrypt/mode={mode}", "status", f"tcrypt mode={mode}")


def module_signature(plan):
    plan.op("module-signature/signed-loads", "status",
            "tcrypt mode=6 && ! dmesg | grep -q 'module verification failed'")
    plan.op("module-signature/corrupted-refused", "status",
            "corrupt_signature /tmp/bad.ko && "
            "refused 'Key was rejected by service' insmod /tmp/bad.ko "
            "mode=6")


def prepare(d, keys):
    plan = Plan(d)
    data = {size: plan.input(f"data-{size}", stream(f"data/{size}", n))
            for size, n in SIZES.items()}
    hashes(plan, data)
    skciphers(plan, data)
    aeads(plan, data)
    rng(plan)
    keyctl(plan, keys)
    cryptsetup(plan)
    tcrypt(plan)
    module_signature(plan)
    plan.write()
    print(f"clients: {len(plan.ops)} operations in {d}/ops")


CLIENT = re.compile(r"^# client (\S+) kind=(\S+) status=(\d+) "
                    r"sha256=(\S+)$")
DATA = re.compile(r"^# client-data (\S+) ([0-9a-f]*)$")


def guest_lines(log):
    """The lines of the clients test in a boot log, without indentation"""
    with open(log, errors="replace") as f:
        return [line.strip() for line in f]


def boot_results(log):
    results, data = {}, {}
    for line in guest_lines(log):
        m = CLIENT.match(line)
        if m:
            results[m[1]] = m.groups()[1:]
        m = DATA.match(line)
        if m:
            data[m[1]] = bytes.fromhex(m[2])
    return results, data


def on_demand(name, driver):
    """A cryptd instance of an internal algorithm (__cbc(serpent) by
    cryptd(__cbc-serpent-avx)): made by the first lookup that found that
    driver. Where several drivers of an algorithm are modules (the debian
    target: serpent sse2, avx, avx2), which ones a lookup found while they
    were still loading depends on when each finished its self-test, on
    any kernel, so these are not compared."""
    return name.startswith("__") and driver.startswith("cryptd(")


def proc_crypto(log):
    """(name, driver) pairs and the self-test states of /proc/crypto,
    without the template instances a lookup by name no longer reaches
    (ktap.algs(): the same-algs cases leave them out too). The
    comparison tests of CRYPTO_MANAGER_EXTRA_TESTS make instances on the
    generic cipher, cbc(aes-generic) for cbc-aes-ce, and the self-test of
    a better cipher of that name (aes-ce) removes the ones it finds when
    it ends: with the self-tests running in parallel, which remain
    differs from boot to boot, on any kernel (arm64, 2026-12-08: stock
    kept both of cbc(aes-generic) and xts(ecb(aes-generic)) in one run,
    fips140 in the next)."""
    entries, states = set(), {}
    for line in ktap.algs(ktap.read(log)) or []:
        fields = dict(f.split("=", 1) for f in line.split() if "=" in f)
        if "name" not in fields or \
           on_demand(fields["name"], fields.get("driver", "")):
            continue
        entries.add((fields["name"], fields.get("driver", "")))
        state = fields.get("selftest", "none")
        states[state] = states.get(state, 0) + 1
    return entries, states


def host_check(name, out, d, keys):
    """The host's check of an output the guest could not check"""
    if name == "keyctl/rsa/pkey_encrypt":
        key = os.path.join(keys, "private", "rsa.key")
        try:
            plain = subprocess.run(
                ["openssl", "pkeyutl", "-decrypt", "-inkey", key],
                input=out, check=True, capture_output=True).stdout
        except subprocess.CalledProcessError:
            return False
        return plain == read_bytes(os.path.join(d, "inputs"), "secret")
    return False


def expected(d, name):
    with open(os.path.join(d, "expect", name)) as f:
        return f.read().strip()


def parity(d, keys, report, stock_log, fips140_log):
    # Results are named for the report: clients/..., debian-clients/...
    label = os.path.basename(report).removesuffix("-report.md")
    with open(os.path.join(d, "ops")) as f:
        ops = [line.split(" ", 2) for line in f.read().splitlines()]
    kernels = {"stock": stock_log, "fips140": fips140_log}
    runs = {k: boot_results(log) for k, log in kernels.items()}
    rows = []
    for name, kind, _ in ops:
        row = [name, kind]
        for k, (results, data) in runs.items():
            r = results.get(name)
            if r is None:
                row.append("not run")
                continue
            status = "ok" if r[1] == "0" else f"status {r[1]}"
            if kind == "exact" and r[2] != expected(d, name):
                status = "wrong output"
            if kind == "host":
                status += (", host-verified" if host_check(
                    name, data.get(name, b""), d, keys) else
                    ", host-REJECTED")
            row.append(status)
        rows.append(row)
    for k, (results, _) in runs.items():
        missing = [n for n, _, _ in ops if n not in results]
        result(not missing, f"{label}/{k}/all-ran",
               f"{len(missing)} not run, e.g. {missing[:3]}")
        bad = [r[0] for r in rows if r[2 + list(runs).index(k)] not in
               ("ok", "ok, host-verified")]
        result(not bad, f"{label}/{k}/all-succeeded", f"failed: {bad[:5]}")
    stock, ours = (runs[k][0] for k in kernels)
    differ = sorted(n for n in set(stock) | set(ours)
                    if stock.get(n) != ours.get(n) and
                    not (stock.get(n) and ours.get(n) and
                         stock[n][0] in ("host", "status") and
                         stock[n][:2] == ours[n][:2]))
    result(not differ, f"{label}/same-results",
           f"{len(differ)} operations differ")
    detail(f"{n}: stock {stock.get(n)}, fips140 {ours.get(n)}"
           for n in differ)
    algs = {k: proc_crypto(log) for k, log in kernels.items()}
    result(algs["stock"][0] == algs["fips140"][0],
           f"{label}/same-proc-crypto-after",
           "/proc/crypto names or drivers differ after the clients ran")
    result(algs["stock"][1] == algs["fips140"][1],
           f"{label}/same-selftests",
           f"self-test states: stock {algs['stock'][1]}, "
           f"fips140 {algs['fips140'][1]}")
    write_report(report, rows, runs, algs, differ)


def write_report(report, rows, runs, algs, differ):
    clients = {}
    for row in rows:
        clients.setdefault(row[0].split("/")[0], []).append(row)
    lines = ["# Clients: stock vs fips140", "",
             "| client | operations | stock ok | fips140 ok |",
             "| --- | --- | --- | --- |"]
    for client, rs in clients.items():
        lines.append(f"| {client} | {len(rs)} | "
                     f"{sum(r[2].startswith('ok') for r in rs)} | "
                     f"{sum(r[3].startswith('ok') for r in rs)} |")
    lines += ["", f"Operations per kernel: {len(rows)}; results that "
              f"differ: {len(differ)}."]
    for k, (entries, states) in algs.items():
        lines.append(f"/proc/crypto after the run, {k}: {len(entries)} "
                     f"entries, self-tests {dict(sorted(states.items()))}.")
    lines += ["", "| operation | kind | stock | fips140 |",
              "| --- | --- | --- | --- |"]
    lines += [f"| {' | '.join(r)} |" for r in rows]
    with open(report, "w") as f:
        f.write("\n".join(lines) + "\n")
    print(f"clients: {len(rows)} operations per kernel, {len(differ)} "
          f"differences; /proc/crypto "
          f"{len(algs['stock'][0])}/{len(algs['fips140'][0])} entries; "
          f"report {report}")


def main():
    cmds = {"prepare": (prepare, 2), "parity": (parity, 5)}
    if len(sys.argv) < 2 or sys.argv[1] not in cmds or \
            len(sys.argv) - 2 != cmds[sys.argv[1]][1]:
        sys.exit(__doc__)
    cmds[sys.argv[1]][0](*sys.argv[2:])
    return 1 if fips140_checks.failed else 0


if __name__ == "__main__":
    sys.exit(main())
