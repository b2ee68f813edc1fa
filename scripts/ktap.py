#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""Verdict on a guest's serial log: KTAP results and kernel-log failures.

Shaped after the kernel's tools/testing/kunit/kunit_parser.py: the log is
split into kernel lines and KTAP lines, the KTAP lines are parsed into a
tree of Test objects (nested by 4-space indentation), and the verdict is
computed from the tree, not matched line by line.

  ktap.py verdict LOG [--label LABEL] [--no-log-check]
      Print one line per leaf test, "PASS LABEL/test/subtest" or
      "FAIL LABEL/test/subtest: reason" (with the test's diagnostics
      indented below a failure), then the run-level results
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
import enum
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

KTAP_VERSION = re.compile(r'^(KTAP version \d+|TAP version \d+)\s*$')
PLAN = re.compile(r'^1\.\.(\d+)\s*$')
RESULT = re.compile(r'^(ok|not ok) (\d+)(?: (?:- )?([^#]*?))?\s*(?:#\s*(.*))?$')
DIAG = re.compile(r'^#(?: (.*)|$)')
SECTION = re.compile(r'^---- (BEGIN|END) (\S+) ----$')


class TestStatus(enum.Enum):
    SUCCESS = 'ok'
    FAILURE = 'failed'
    SKIPPED = 'skipped'
    TEST_CRASHED = 'crashed'
    NO_TESTS = 'no tests'


class Test:
    """One KTAP test: result line, diagnostics, subtests."""

    def __init__(self, name='', number=0):
        self.name = name
        self.number = number
        self.status = TestStatus.NO_TESTS
        self.directive = ''
        self.expected_count = None
        self.subtests = []
        self.log = []          # diagnostic lines ("# ...") of this test
        self.errors = []       # parse problems found in this test

    def ok(self):
        return self.status in (TestStatus.SUCCESS, TestStatus.SKIPPED)

    def __repr__(self):
        return f'Test({self.name!r}, {self.status}, {len(self.subtests)})'


class Line:
    def __init__(self, lineno, text):
        self.lineno = lineno
        raw = text.rstrip('\r\n')
        self.indent = (len(raw) - len(raw.lstrip(' '))) // 4
        self.text = raw.strip()


class LineStream:
    """Peekable stream of the KTAP lines of a log."""

    def __init__(self, lines):
        self._lines = lines
        self._pos = 0

    def peek(self):
        return self._lines[self._pos] if self._pos < len(self._lines) else None

    def pop(self):
        line = self.peek()
        self._pos += 1
        return line


class Run:
    """A parsed serial log."""

    def __init__(self):
        self.tests = None          # top-level Test (the /init run)
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
            ktap.append(Line(lineno, raw))
    return run, ktap


def subtest_name(diags):
    """The name of a "# Subtest: NAME" line (printed before a subtest)."""
    for d in reversed(diags):
        if d.startswith('Subtest: '):
            return d[len('Subtest: '):].strip()
    return None


def parse_result(test, m):
    test.number = int(m.group(2))
    test.name = (m.group(3) or '').strip() or test.name
    directive = (m.group(4) or '').strip()
    test.directive = directive
    if directive.upper().startswith('SKIP'):
        test.status = TestStatus.SKIPPED
    elif m.group(1) == 'ok':
        test.status = TestStatus.SUCCESS
    else:
        test.status = TestStatus.FAILURE


def parse_test(stream, level, test):
    """Parse the body of test (header, plan, subtests) at indentation level.

    On return the stream is at the first line of a lower level (the
    parent's result line for this test), or at its end."""
    line = stream.peek()
    if line and line.indent == level and KTAP_VERSION.match(line.text):
        stream.pop()
    else:
        test.errors.append('missing KTAP version line')
    line = stream.peek()
    if line and line.indent == level and PLAN.match(line.text):
        test.expected_count = int(PLAN.match(line.text).group(1))
        stream.pop()
    pending_log = []
    while True:
        line = stream.peek()
        if line is None or line.indent < level:
            break
        if line.indent > level:
            if KTAP_VERSION.match(line.text):
                sub = Test(subtest_name(pending_log) or
                           f'test{len(test.subtests) + 1}')
                sub.log = pending_log
                pending_log = []
                parse_test(stream, level + 1, sub)
                # Diagnostics between the subtests and the result line
                # (e.g. /init's "# NAME: exit status 1") are the test's.
                line = stream.peek()
                while line and line.indent == level and \
                        DIAG.match(line.text):
                    sub.log.append(DIAG.match(line.text).group(1) or '')
                    stream.pop()
                    line = stream.peek()
                m = RESULT.match(line.text) if line and \
                    line.indent == level else None
                if m:
                    stream.pop()
                    parse_result(sub, m)
                else:
                    sub.status = TestStatus.TEST_CRASHED
                    sub.errors.append('no result line after its subtests')
                test.subtests.append(sub)
            else:
                stream.pop()    # stray deeper line: keep as diagnostic
                pending_log.append(line.text)
            continue
        stream.pop()
        m = RESULT.match(line.text)
        d = DIAG.match(line.text)
        if m:
            sub = Test()
            sub.log = pending_log
            pending_log = []
            parse_result(sub, m)
            test.subtests.append(sub)
        elif d:
            pending_log.append(d.group(1) or '')
        elif KTAP_VERSION.match(line.text) or PLAN.match(line.text):
            test.errors.append(f'line {line.lineno}: unexpected {line.text!r}')
        else:
            pending_log.append(line.text)
    # Diagnostics after the last result belong to the test itself.
    test.log.extend(pending_log)
    check_counts(test)
    return test


def check_counts(test):
    for i, sub in enumerate(test.subtests, 1):
        if sub.number != i:
            test.errors.append(f'test {sub.name!r} has number {sub.number},'
                               f' expected {i}')
    if test.expected_count is None:
        test.errors.append('missing plan line')
    elif len(test.subtests) != test.expected_count:
        test.errors.append(f'planned {test.expected_count} subtests, '
                           f'{len(test.subtests)} ran')


def bubble_status(test):
    """A test whose subtests failed, or which crashed, fails."""
    for sub in test.subtests:
        bubble_status(sub)
    bad = [s for s in test.subtests if not s.ok()]
    if test.errors and test.status != TestStatus.FAILURE:
        test.status = TestStatus.TEST_CRASHED
    elif bad and test.status == TestStatus.SUCCESS:
        test.status = TestStatus.FAILURE


def parse_log(text):
    run, ktap = split_log(text)
    top = Test('run')
    stream = LineStream(ktap)
    if ktap:
        parse_test(stream, 0, top)
        top.status = TestStatus.SUCCESS
        bubble_status(top)
    else:
        top.status = TestStatus.NO_TESTS
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


def results(run, label, log_check=True, expected=()):
    """(ok, name, reason, diagnostics) for each leaf and run-level check.
    EXPECTED: regexes of kernel failure lines the boot must show."""
    out = []

    def walk(test, path):
        name = f'{path}/{test.name}'
        if not test.subtests:
            if test.status == TestStatus.SKIPPED:
                reason = 'skipped: ' + test.directive
            elif test.ok():
                reason = ''
            else:
                reason = test.status.value
            out.append((test.ok(), name, reason, test.log + test.errors))
            return
        for sub in test.subtests:
            walk(sub, name)
        # A test whose leaves all passed may still have failed: exit
        # status, missing subtests, parse errors.
        leaves_ok = all(s.ok() for s in test.subtests)
        if not test.ok() and leaves_ok:
            why = '; '.join(test.errors) or test.status.value
            out.append((False, name, why, test.log))

    top = run.tests
    for sub in top.subtests:
        walk(sub, label)
    complete = run.init_started and run.ended and not top.errors and \
        top.status != TestStatus.NO_TESTS
    why = []
    if not run.init_started:
        why.append('guest never reached /init')
    elif top.status == TestStatus.NO_TESTS:
        why.append('no KTAP output')
    if not run.ended:
        why.append('no end-of-run marker (guest died or hung)')
    why.extend(top.errors)
    out.append((complete, f'{label}/run-complete', '; '.join(why), []))
    if not log_check:
        return out
    bad = kernel_failures(run)
    if expected:
        matched = [r for r in expected
                   if any(re.search(r, text) for _, _, text in bad)]
        missing = [r for r in expected if r not in matched]
        out.append((not missing, f'{label}/expected-warnings',
                    f'{len(missing)} expected failure line(s) not in the log'
                    if missing else '',
                    [f'not found: {r}' for r in missing]))
        bad = [b for b in bad if not any(re.search(r, b[2])
                                         for r in expected)]
    out.append((not bad, f'{label}/kernel-log-clean',
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
    v.add_argument('--expect-warning', action='append', default=[],
                   metavar='REGEX',
                   help='a kernel failure line the boot must show, not '
                   'held against kernel-log-clean')
    s = sub.add_parser('section', help='print a dump section of a log')
    s.add_argument('log')
    s.add_argument('name')
    args = ap.parse_args(argv)

    text = read(args.log)
    if args.cmd == 'section':
        lines = section(text, args.name)
        if lines is None:
            print(f'ktap.py: no section {args.name} in {args.log}',
                  file=sys.stderr)
            return 1
        for line in lines:
            print(line)
        return 0

    label = args.label or os.path.splitext(os.path.basename(args.log))[0]
    failed = 0
    for ok, name, reason, diag in results(parse_log(text), label,
                                          not args.no_log_check,
                                          args.expect_warning):
        if ok:
            print(f'PASS {name}' + (f' ({reason})' if reason else ''))
            continue
        failed += 1
        print(f'FAIL {name}: {reason}')
        for d in diag:
            print(f'     | {d}')
    return 1 if failed else 0


if __name__ == '__main__':
    sys.exit(main(sys.argv[1:]))
