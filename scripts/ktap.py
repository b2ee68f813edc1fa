#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""Verdict on a guest's serial log: KTAP results and kernel-log failures.

The log is split into kernel lines and the KTAP lines of the /init run;
the tree's own parser, tools/testing/kunit/kunit_parser.py, turns the
KTAP lines into a tree of tests, and the verdict is computed from the
tree, stricter than kunit.py's: a skipped test fails unless allowed, a
test with subtests needs a plan, and a test of /init that printed no
KTAP fails whatever its exit status.

  ktap.py verdict LOG [--label LABEL] [--no-log-check] [--allow-skip]
                     [--expect-warning REGEX]...
      Print one line per leaf test, "PASS LABEL/test/subtest",
      "FAIL LABEL/test/subtest: reason" (with the test's diagnostics
      indented below a failure) or, with --allow-skip, "SKIP
      LABEL/test/subtest: skipped", then the run-level results
      LABEL/run-complete and LABEL/kernel-log-clean. Exit status 1 when
      anything failed. LABEL defaults to the log's file name.
      --no-log-check leaves out kernel-log-clean, for a boot that oopses
      on purpose and whose tests check the log themselves.
      --expect-warning REGEX (repeatable): kernel failure lines matching
      REGEX are not held against kernel-log-clean; instead the result
      LABEL/expected-warnings requires each REGEX to match one, so an
      expectation that no longer holds fails.
  ktap.py section LOG NAME
      Print the lines of a dump section ("# ---- BEGIN NAME ----" ...
      "# ---- END NAME ----", e.g. proc-crypto, proc-modules, proc-cmdline)
      without indentation and "# ". Exit status 1 when there is none.

As a module: parse_log(text) returns a Run (tests, kernel lines, markers);
section(text, name) returns a section's lines.
"""

import argparse
import os
import re
import sys

INIT_MARK = 'fips140-harness: init started'
END_MARK = 'fips140-harness: end of run'
DMESG_BEGIN = 'fips140-harness: ---- BEGIN dmesg ----'
DMESG_END = 'fips140-harness: ---- END dmesg ----'

# Kernel log lines (PRINTK_TIME is on in every harness config).
KERNEL_LINE = re.compile(r'^\[\s*\d+\.\d+\]')
# Kernel messages that make a run fail wherever they appear.
KERNEL_FAILURES = [
    (re.compile(r'\balg: .*\bfail'), 'crypto self-test failure'),
    (re.compile(r'\bOops\b'), 'oops'),
    (re.compile(r'\bBUG:|kernel BUG at'), 'BUG'),
    (re.compile(r'\bWARNING:'), 'WARNING'),
    (re.compile(r'Kernel panic'), 'panic'),
    (re.compile(r'general protection fault'), 'general protection fault'),
    (re.compile(r'Unable to handle kernel'), 'bad kernel access'),
    (re.compile(r'\b(UBSAN|KASAN|KFENCE):'), 'sanitizer report'),
]

SECTION = re.compile(r'^---- (BEGIN|END) (\S+) ----$')


def load_kunit_parser():
    """The tree's KTAP parser, tools/testing/kunit/kunit_parser.py, quiet:
    its progress output goes nowhere, and the errors it finds are kept
    in each Test's errors list."""
    work = os.environ.get('FIPS140_WORK') or os.path.join(
        os.path.dirname(os.path.abspath(__file__)), '..', 'build')
    path = os.path.join(work, 'linux', 'tools', 'testing', 'kunit')
    if not os.path.isfile(os.path.join(path, 'kunit_parser.py')):
        sys.exit(f'ktap.py: no kunit_parser.py in {path}: run '
                 'scripts/tree.sh first (the pristine tree ships it)')
    sys.path.insert(0, path)
    import kunit_parser
    import kunit_printer
    kunit_parser.stdout = kunit_printer.Printer(open(os.devnull, 'w'))

    def add_error(test, message):
        test.counts.errors += 1
        test.__dict__.setdefault('errors', []).append(message)
    kunit_parser.Test.add_error = add_error
    return kunit_parser


kunit_parser = load_kunit_parser()
TestStatus = kunit_parser.TestStatus


def errors(test):
    return test.__dict__.get('errors', [])


def diagnostics(test):
    """The test's diagnostic lines, without indentation and "# "."""
    return [re.sub(r'^# ?', '', line.strip()) for line in test.log]


class Run:
    """A parsed serial log."""

    def __init__(self):
        self.tests = None          # top-level kunit_parser.Test
        self.kernel_lines = []     # (lineno, text)
        self.init_started = False
        self.ended = False


def split_log(text):
    """KTAP lines (inside the /init run) and kernel lines of a log."""
    run = Run()
    ktap = []
    in_run = in_dmesg = False
    for lineno, raw in enumerate(text.splitlines(), 1):
        stripped = raw.strip()
        if INIT_MARK in stripped:
            run.init_started = in_run = True
            continue
        if stripped == DMESG_BEGIN:
            in_dmesg, in_run = True, False
            continue
        if stripped == DMESG_END:
            in_dmesg = False
            continue
        if stripped == END_MARK:
            run.ended = True
            in_run = False
            continue
        if KERNEL_LINE.match(stripped) or in_dmesg or not in_run:
            run.kernel_lines.append((lineno, stripped))
        else:
            ktap.append(raw.rstrip('\r\n'))
    return run, ktap


def check_plans(test, top=True):
    """What kunit_parser lets pass and a verdict must not: a test with
    subtests but no plan, and a test of /init that printed no KTAP at all
    (a leaf at the top level: it ran no checks, whatever its exit
    status). An empty plan, 1..0, kunit_parser reports itself (no tests)."""
    for sub in test.subtests:
        if top and not sub.subtests and sub.status == TestStatus.SUCCESS:
            sub.add_error('printed no KTAP (no plan, no results)')
            sub.status = TestStatus.TEST_CRASHED
        check_plans(sub, top=False)
    if test.subtests and test.expected_count is None:
        test.add_error('missing plan line')


def parse_log(text):
    run, ktap = split_log(text)
    if ktap:
        try:
            top = kunit_parser.parse_test(
                kunit_parser.extract_tap_lines(ktap), 0, [], False)
        except ValueError as e:     # kunit_parser ran off the end
            top = kunit_parser.Test()
            top.name = 'main'
            top.add_error(f'KTAP output malformed: {e}')
            run.tests = top
            return run
        if top.status != TestStatus.NO_TESTS:
            top.status = top.counts.get_status()
        check_plans(top)
        run.tests = top
    return run


def kernel_failures(run):
    """Unique kernel-log lines matching a failure pattern."""
    seen, found = set(), []
    for lineno, text in run.kernel_lines:
        body = KERNEL_LINE.sub('', text).strip()
        for pattern, what in KERNEL_FAILURES:
            if pattern.search(body):
                if body not in seen:
                    seen.add(body)
                    found.append((lineno, what, text))
                break
    return found


def results(run, label, log_check=True, expected=(), allow_skip=False):
    """(status, name, reason, diagnostics) for each leaf and run-level
    check; status is PASS, FAIL or SKIP. A skipped test fails unless
    ALLOW_SKIP. EXPECTED: regexes of kernel failure lines the boot must
    show."""
    out = []

    def walk(test, path):
        name = f'{path}/{test.name}'
        why = errors(test)
        if not test.name and not test.subtests:
            return      # kunit_parser's stand-in for a missing subtest:
                        # the parent has the error
        if not test.subtests:
            if test.status == TestStatus.SUCCESS and not why:
                out.append(('PASS', name, '', []))
            elif test.status == TestStatus.SKIPPED and not why:
                out.append(('SKIP', name, 'skipped', diagnostics(test))
                           if allow_skip else
                           ('FAIL', name, 'skipped, in a boot that must not '
                            'skip', diagnostics(test)))
            else:
                out.append(('FAIL', name, '; '.join(
                    why or [test.status.name.lower()]), diagnostics(test)))
            return
        before = sum(r[0] == 'FAIL' for r in out)
        for sub in test.subtests:
            walk(sub, name)
        # A test whose leaves all passed may still have failed: exit
        # status, missing subtests, parse errors.
        leaves_ok = sum(r[0] == 'FAIL' for r in out) == before
        if why or (leaves_ok and test.status not in (TestStatus.SUCCESS,
                                                     TestStatus.SKIPPED)):
            out.append(('FAIL', name, '; '.join(
                why or [test.status.name.lower()]), diagnostics(test)))

    top = run.tests
    why = []
    if not run.init_started:
        why.append('guest never reached /init')
    elif top is None:
        why.append('no KTAP output')
    else:
        for sub in top.subtests:
            walk(sub, label)
        if not top.subtests:
            why.append('no tests ran')
        why.extend(errors(top))
    if not run.ended:
        why.append('no end-of-run marker (guest died or hung)')
    out.append(('FAIL' if why else 'PASS', f'{label}/run-complete',
                '; '.join(why), []))
    if not log_check:
        return out
    bad = kernel_failures(run)
    if expected:
        matched = [r for r in expected
                   if any(re.search(r, text) for _, _, text in bad)]
        missing = [r for r in expected if r not in matched]
        out.append(('FAIL' if missing else 'PASS',
                    f'{label}/expected-warnings',
                    f'{len(missing)} expected failure line(s) not in the log'
                    if missing else '',
                    [f'not found: {r}' for r in missing]))
        bad = [b for b in bad if not any(re.search(r, b[2])
                                         for r in expected)]
    out.append(('FAIL' if bad else 'PASS', f'{label}/kernel-log-clean',
                f'{len(bad)} failure message(s) in the kernel log'
                if bad else '',
                [f'line {n}: [{what}] {text}' for n, what, text in bad[:20]]))
    return out


def section(text, name):
    lines, inside, found = [], False, False
    for raw in text.splitlines():
        t = raw.strip()
        body = t[2:] if t.startswith('# ') else t
        m = SECTION.match(body)
        if m and m.group(2) == name:
            if m.group(1) == 'BEGIN':
                inside = found = True
                lines = []
            else:
                inside = False
            continue
        if inside:
            lines.append(body if t.startswith('# ') or t == '#' else t)
    return lines if found else None


def algs(text):
    """The /proc/crypto table of a log's dump (section proc-crypto)
    without the owning module, sorted: what two kernels built from the same
    fragment must have in common; None without the section.

    A template instance (a driver name with "(": hmac(sha256-generic)) is
    made on demand by a lookup, so which instances a table lists depends
    on who looked up what, and when: a lookup made before sha256-avx2
    registered made hmac(sha256-generic), which the registration kills,
    but which stays listed while a user holds it, and which a lookup made
    while sha256-avx2 was still being tested makes again. Such an instance
    is superseded, a lookup by name never reaches it: one with a lower
    priority than another entry of its name is left out, and one listed
    more than once counts once. What lookups reach is compared: every
    other entry, as many times as it is listed (a live driver name is
    unique), and the instances of the highest priority of their name."""
    lines = section(text, 'proc-crypto')
    if lines is None:
        return None
    entries = [re.sub(r' module=\S*', '', line) for line in lines]
    top = {}
    for line in entries:
        name, prio = _field(line, 'name'), _priority(line)
        top[name] = max(top.get(name, prio), prio)
    out, seen = [], set()
    for line in entries:
        if '(' in (_field(line, 'driver') or ''):
            if _priority(line) < top[_field(line, 'name')] or line in seen:
                continue
            seen.add(line)
        out.append(line)
    return sorted(out)


def _field(line, key):
    m = re.search(r'(?:^| )%s=(\S*)' % key, line)
    return m.group(1) if m else None


def _priority(line):
    value = _field(line, 'priority')
    return int(value) if value and value.isdigit() else 0


def read(path):
    with open(path, encoding='utf-8', errors='replace') as f:
        return f.read()


def main(argv):
    ap = argparse.ArgumentParser(description=__doc__.split('\n\n')[0])
    sub = ap.add_subparsers(dest='cmd', required=True)
    v = sub.add_parser('verdict', help='per-test results of a serial log')
    v.add_argument('log')
    v.add_argument('--label')
    v.add_argument('--no-log-check', action='store_true',
                   help='no kernel-log-clean result: the boot fails on '
                   'purpose, and its tests check the log themselves')
    v.add_argument('--allow-skip', action='store_true',
                   help='a skipped test is reported as SKIP, not FAIL')
    v.add_argument('--expect-warning', action='append', default=[],
                   metavar='REGEX',
                   help='a kernel failure line the boot must show, not '
                   'held against kernel-log-clean')
    s = sub.add_parser('section', help='print a dump section of a log')
    s.add_argument('log')
    s.add_argument('name')
    a = sub.add_parser('algs', help='the /proc/crypto table of a log, '
                       'to compare with another kernel\'s')
    a.add_argument('log')
    args = ap.parse_args(argv)

    text = read(args.log)
    if args.cmd in ('algs', 'section'):
        name = args.name if args.cmd == 'section' else 'proc-crypto'
        lines = section(text, name) if args.cmd == 'section' else algs(text)
        if lines is None:
            print(f'ktap.py: no section {name} in {args.log}',
                  file=sys.stderr)
            return 1
        for line in lines:
            print(line)
        return 0

    label = args.label or os.path.splitext(os.path.basename(args.log))[0]
    failed = 0
    for status, name, reason, diag in results(
            parse_log(text), label, not args.no_log_check,
            args.expect_warning, args.allow_skip):
        if status == 'FAIL':
            failed += 1
        print(f'{status} {name}' + (f': {reason}' if reason else ''))
        for d in diag if status != 'PASS' else []:
            print(f'     | {d}')
    return 1 if failed else 0


if __name__ == '__main__':
    sys.exit(main(sys.argv[1:]))
