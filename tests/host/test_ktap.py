#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""Unit tests of scripts/ktap.py on synthetic serial logs: each kind of
failure the verdict must catch (failing subtest, crashed test, missing
subtests, panic, hang, kernel self-test failure, WARNING) and a clean run.
Run: python3 tests/host/test_ktap.py"""

import os
import sys
import unittest

sys.path.insert(0, os.path.join(os.path.dirname(__file__), '..', '..',
                                'scripts'))
import ktap  # noqa: E402

BOOT = """\
[    0.000000] Linux version 6.12.118+ (fips140@fips140)
[    0.645972] alg: extra crypto tests enabled.  This is intended for developer use only.
[    2.184154] Run /init as init process
"""
INIT = "fips140-harness: init started (6.12.118+)\n"
TAIL = """\
fips140-harness: ---- BEGIN dmesg ----
[    0.000000] Linux version 6.12.118+ (fips140@fips140)
fips140-harness: ---- END dmesg ----
fips140-harness: end of run
"""
HASH_OK = """\
    KTAP version 1
    # Subtest: hash
    1..2
    ok 1 sha1-abc
    ok 2 sha256-abc
    # totals: pass:2 fail:0
ok 1 hash
"""
DUMP_OK = """\
    KTAP version 1
    # Subtest: dump
    1..1
    # ---- BEGIN proc-crypto ----
    # name=sha1 driver=sha1-generic module=kernel priority=100 type=shash
    # ---- END proc-crypto ----
    ok 1 dump-proc-crypto
ok 2 dump
"""


def run(text, **kw):
    return {name: (status, reason, diag) for status, name, reason, diag in
            ktap.results(ktap.parse_log(text), 'k', **kw)}


def log(body, plan=2, boot=BOOT, tail=TAIL):
    return boot + INIT + f"KTAP version 1\n1..{plan}\n" + body + tail


class Verdict(unittest.TestCase):
    def failed(self, res):
        return sorted(n for n, (st, _, _) in res.items() if st == 'FAIL')

    def test_clean_run(self):
        res = run(log(HASH_OK + DUMP_OK))
        self.assertEqual(self.failed(res), [])
        self.assertIn('k/hash/sha1-abc', res)
        self.assertIn('k/dump/dump-proc-crypto', res)
        self.assertIn('k/run-complete', res)
        self.assertIn('k/kernel-log-clean', res)
        self.assertEqual(len(res), 5)

    def test_failing_subtest(self):
        body = HASH_OK.replace('    ok 2 sha256-abc',
                               '    # sha256-abc: result differs\n'
                               '    not ok 2 sha256-abc')
        body = body.replace('ok 1 hash', '# hash: exit status 1\nnot ok 1 hash')
        res = run(log(body + DUMP_OK))
        self.assertEqual(self.failed(res), ['k/hash/sha256-abc'])
        self.assertIn('sha256-abc: result differs', res['k/hash/sha256-abc'][2])

    def test_exit_status_without_failing_subtest(self):
        body = HASH_OK.replace('ok 1 hash', '# hash: exit status 139\n'
                               'not ok 1 hash')
        res = run(log(body + DUMP_OK))
        self.assertEqual(self.failed(res), ['k/hash'])

    def test_missing_subtests(self):
        body = HASH_OK.replace('    ok 2 sha256-abc\n', '')
        res = run(log(body + DUMP_OK))
        self.assertEqual(self.failed(res), ['k/hash'])
        self.assertIn('missing expected subtest', res['k/hash'][1])

    def test_missing_test(self):
        res = run(log(HASH_OK, plan=2))
        self.assertEqual(self.failed(res), ['k/run-complete'])

    def test_guest_dies_mid_test(self):
        body = HASH_OK.split('    ok 2')[0] + \
            '[    3.000000] BUG: kernel NULL pointer dereference, address: 0\n' \
            '[    3.000001] Kernel panic - not syncing: Fatal exception\n'
        res = run(log(body, tail=''))
        self.assertIn('k/run-complete', self.failed(res))
        self.assertIn('k/kernel-log-clean', self.failed(res))
        self.assertIn('k/hash', self.failed(res))

    def test_panic_before_init(self):
        text = BOOT + '[    1.0] Kernel panic - not syncing: No working init found.\n'
        res = run(text)
        self.assertEqual(self.failed(res), ['k/kernel-log-clean',
                                            'k/run-complete'])
        self.assertIn('never reached /init', res['k/run-complete'][1])

    def test_empty_log(self):
        res = run('')
        self.assertEqual(self.failed(res), ['k/run-complete'])

    def test_selftest_failure_in_kernel_log(self):
        boot = BOOT + '[    0.7] alg: self-tests for sha256 using ' \
            'sha256-generic failed (rc=-22)\n'
        res = run(log(HASH_OK + DUMP_OK, boot=boot))
        self.assertEqual(self.failed(res), ['k/kernel-log-clean'])

    def test_warning_in_dmesg_dump(self):
        tail = TAIL.replace('---- END dmesg', '[    5.0] WARNING: CPU: 0 PID: '
                            '1 at crypto/testmgr.c:1 x\nfips140-harness: '
                            '---- END dmesg')
        res = run(log(HASH_OK + DUMP_OK, tail=tail))
        self.assertEqual(self.failed(res), ['k/kernel-log-clean'])

    def test_no_log_check(self):
        # A boot that oopses on purpose: its tests judge the log.
        tail = TAIL.replace('---- END dmesg', '[    5.0] Oops: 0003 [#1] '
                            'PREEMPT\nfips140-harness: ---- END dmesg')
        text = log(HASH_OK + DUMP_OK, tail=tail)
        self.assertEqual(self.failed(run(text)), ['k/kernel-log-clean'])
        res = run(text, log_check=False)
        self.assertNotIn('k/kernel-log-clean', res)
        self.assertEqual(self.failed(res), [])
        self.assertIn('k/run-complete', res)

    def test_expected_warning(self):
        # A warning the boot must show (an upstream error path): not held
        # against kernel-log-clean, and its absence fails.
        warn = '[    5.0] WARNING: CPU: 0 PID: 1 at mm/slab_common.c:548 x\n'
        other = '[    5.1] WARNING: CPU: 0 PID: 1 at crypto/api.c:1 y\n'
        expect = [r'slab_common\.c:[0-9]+ ']
        for tail, failed in ((warn, []),
                             ('', ['k/expected-warnings']),
                             (warn + other, ['k/kernel-log-clean'])):
            text = log(HASH_OK + DUMP_OK, tail=TAIL.replace(
                'fips140-harness: ---- END dmesg',
                tail + 'fips140-harness: ---- END dmesg'))
            res = run(text, expected=expect)
            self.assertEqual(self.failed(res), failed)
            self.assertIn('k/expected-warnings', res)

    def test_no_test_messages_are_fine(self):
        boot = BOOT + '[    0.7] alg: No test for fips(ansi_cprng)\n'
        res = run(log(HASH_OK + DUMP_OK, boot=boot))
        self.assertEqual(self.failed(res), [])

    def test_kernel_line_inside_subtest(self):
        body = HASH_OK.replace('    ok 2', '[    3.1] random: crng init done\n'
                               '    ok 2')
        res = run(log(body + DUMP_OK))
        self.assertEqual(self.failed(res), [])

    def test_diagnostic_mentioning_failure_is_not_kernel_log(self):
        body = HASH_OK.replace('    ok 1', '    # alg: sha1 failed? no\n'
                               '    ok 1')
        res = run(log(body + DUMP_OK))
        self.assertEqual(self.failed(res), [])

    def test_skip(self):
        # A skip fails, unless the boot may skip: then it is a SKIP.
        body = HASH_OK.replace('ok 2 sha256-abc', 'ok 2 sha256-abc # SKIP no')
        res = run(log(body + DUMP_OK))
        self.assertEqual(self.failed(res), ['k/hash/sha256-abc'])
        self.assertIn('must not skip', res['k/hash/sha256-abc'][1])
        res = run(log(body + DUMP_OK), allow_skip=True)
        self.assertEqual(self.failed(res), [])
        self.assertEqual(res['k/hash/sha256-abc'][0], 'SKIP')

    def test_empty_plan(self):
        body = HASH_OK.replace('    1..2\n    ok 1 sha1-abc\n    ok 2 '
                               'sha256-abc\n', '    1..0\n')
        res = run(log(body + DUMP_OK))
        self.assertEqual(self.failed(res), ['k/hash'])
        self.assertEqual(self.failed(run(log('', plan=0))),
                         ['k/run-complete'])

    def test_missing_plan(self):
        body = HASH_OK.replace('    1..2\n', '')
        res = run(log(body + DUMP_OK))
        self.assertEqual(self.failed(res), ['k/hash'])
        self.assertIn('missing plan', res['k/hash'][1])

    def test_malformed(self):
        # The "# Subtest:" line outside the indented block (this
        # harness's layout before kunit_parser): fails, no traceback.
        body = ('# Subtest: hash\n' + HASH_OK.replace('    # Subtest: hash\n',
                                                     ''))
        res = run(log(body + DUMP_OK))
        self.assertIn('k/run-complete', self.failed(res))

    def test_no_ktap_but_exit_zero(self):
        # A test that printed nothing and exited 0 checked nothing.
        res = run(log('    # Subtest: hash\nok 1 hash\n' + DUMP_OK))
        self.assertEqual(self.failed(res), ['k/hash'])
        res = run(log('ok 1 hash\n' + DUMP_OK))
        self.assertEqual(self.failed(res), ['k/hash'])
        self.assertIn('printed no KTAP', res['k/hash'][1])

    def test_section(self):
        text = log(HASH_OK + DUMP_OK)
        self.assertEqual(ktap.section(text, 'proc-crypto'), [
            'name=sha1 driver=sha1-generic module=kernel priority=100 '
            'type=shash'])
        self.assertIsNone(ktap.section(text, 'proc-modules'))

    def test_algs(self):
        # A template instance listed twice (a dead one and the live one)
        # counts once; any other line as often as it is listed; the
        # owning module is left out
        inst = ('name=hmac(sha256) driver=hmac(sha256-generic) '
                'module=kernel priority=100 type=shash')
        dup = ('name=sha1 driver=sha1-generic module=fips140 priority=100 '
               'type=shash')
        body = DUMP_OK.replace(
            '    # ---- END', f'    # {inst}\n    # {inst}\n    # {dup}\n'
            '    # ---- END')
        self.assertEqual(ktap.algs(log(HASH_OK + body)), [
            'name=hmac(sha256) driver=hmac(sha256-generic) priority=100 '
            'type=shash',
            'name=sha1 driver=sha1-generic priority=100 type=shash',
            'name=sha1 driver=sha1-generic priority=100 type=shash'])
        self.assertIsNone(ktap.algs(log(HASH_OK)))

    def test_algs_superseded_instance(self):
        # An instance of a lower priority than another entry of its name
        # is left out, wherever it is; the instance lookups reach, and an
        # instance alone under its name, are kept
        low = ('name=hmac(sha256) driver=hmac(sha256-generic) '
               'module=kernel priority=100 type=shash')
        high = ('name=hmac(sha256) driver=hmac(sha256-avx2) '
                'module=kernel priority=170 type=shash')
        alone = ('name=hmac(sha512) driver=hmac(sha512-generic) '
                 'module=kernel priority=100 type=shash')
        kept = ['name=hmac(sha256) driver=hmac(sha256-avx2) priority=170 '
                'type=shash',
                'name=hmac(sha512) driver=hmac(sha512-generic) '
                'priority=100 type=shash']
        for order in ([low, high, alone], [high, alone, low]):
            body = DUMP_OK.replace('    # ---- END', ''.join(
                f'    # {line}\n' for line in order) + '    # ---- END')
            self.assertEqual(ktap.algs(log(HASH_OK + body)), sorted(
                kept + ktap.algs(log(HASH_OK + DUMP_OK))))
        # Without the higher one, the lower instance is what lookups
        # reach: a kernel that lacks it differs
        body = DUMP_OK.replace('    # ---- END', f'    # {low}\n'
                               '    # ---- END')
        self.assertNotEqual(ktap.algs(log(HASH_OK + body)),
                            ktap.algs(log(HASH_OK + DUMP_OK)))


if __name__ == '__main__':
    unittest.main()
