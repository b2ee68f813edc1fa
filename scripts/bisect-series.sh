#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# bisect-series.sh [FIRST [LAST]]
#
# Every patch of the series builds and boots. Apply patches/series one
# patch at a time (patches FIRST..LAST, numbered from 1; default all) to
# a worktree of the pristine tree, and after each build the fips140
# fragment kernel (configs/base.config + configs/fips140.config) and
# boot it in QEMU with the guest test dump: the boot must reach /init,
# finish its run, pass dump and leave a clean kernel log (ktap.py
# verdict). One result a patch, "PASS bisect/NAME" or
# "FAIL bisect/NAME: reason", then "N passed, N failed"; a failed step
# does not stop the run, and the exit status is 1 when one failed. Each
# step's log is $WORK/bisect/logs/NAME.log (with .make, the make output,
# and .boot.log, the serial log, of a step that failed there).
#
# The steps have a work directory of their own, $WORK/bisect, laid out as
# $WORK is (tree series, on branch bisect of the pristine tree; build
# out/fips140), so that ccache finds the objects of the suite's builds;
# each step rebuilds what its patch changed. Not in CI: up to one build a patch (scripts/test.sh
# --bisect runs it).
set -eu
. "$(dirname "$0")/lib.sh"

S=$TOP/scripts
BISECT=$WORK/bisect

# in_bisect CMD...: CMD with the bisect work directory and its series,
# $BISECT/patches
in_bisect() {
	FIPS140_WORK=$BISECT FIPS140_SRC=$SRC FIPS140_PATCHES=$BISECT/patches \
		"$@"
}

# prefix N: make $BISECT/patches the first N patches of the series
prefix() {
	rm -rf "$BISECT/patches"
	mkdir -p "$BISECT/patches"
	series_of "$PATCHES" | head -n "$1" >"$BISECT/patches/series"
	while read -r _p; do
		ln -s "$PATCHES/$_p" "$BISECT/patches/$_p"
	done <"$BISECT/patches/series"
}

# step N NAME: apply, build, boot and judge the series up to patch N
step() {
	_out=$BISECT/out/fips140 _log=$BISECT/logs/$2.log
	mkdir -p "$BISECT/logs"
	prefix "$1"
	{
		in_bisect "$S/series-apply.sh" bisect "$BISECT/series" &&
		in_bisect "$S/build.sh" fips140 "$BISECT/series" \
			"$CONFIGS/base.config" "$CONFIGS/fips140.config" &&
		in_bisect "$S/initramfs.sh" fips140
	} >"$_log" 2>&1 || {
		[ ! -e "$_out/build.log" ] || cp "$_out/build.log" "$_log.make"
		echo "FAIL bisect/$2: apply or build failed (log: $_log)"
		return 1
	}
	in_bisect "$S/boot.sh" "$_out/arch/x86/boot/bzImage" \
		"$_out/initramfs.cpio.gz" "$_out/boot-bisect.log" \
		tests=dump >>"$_log" 2>&1 || {
		cp "$_out/boot-bisect.log" "$BISECT/logs/$2.boot.log"
		echo "FAIL bisect/$2: boot failed (log: $BISECT/logs/$2.boot.log)"
		return 1
	}
	"$PYTHON" "$S/ktap.py" verdict "$_out/boot-bisect.log" \
		--label "bisect/$2" >"$BISECT/verdict" 2>&1 || {
		echo "FAIL bisect/$2: $(grep -m1 '^FAIL' "$BISECT/verdict")"
		return 1
	}
	echo "PASS bisect/$2"
}

main() {
	_count=$(series_of "$PATCHES" | wc -l)
	_first=${1:-1} _last=${2:-$_count}
	if [ "$_first" -lt 1 ] || [ "$_last" -gt "$_count" ] ||
	    [ "$_first" -gt "$_last" ]; then
		die "usage: bisect-series.sh [FIRST [LAST]]" \
		    "(1 <= FIRST <= LAST <= $_count)"
	fi
	git -C "$SRC" rev-parse -q --verify base >/dev/null 2>&1 ||
		die "no pristine tree at $SRC: run scripts/tree.sh first"
	mkdir -p "$BISECT"
	_passed=0 _failed=0 _n=$_first
	while [ "$_n" -le "$_last" ]; do
		_name=$(series_of "$PATCHES" | sed -n "${_n}p")
		if step "$_n" "${_name%.patch}"; then
			_passed=$((_passed + 1))
		else
			_failed=$((_failed + 1))
		fi
		_n=$((_n + 1))
	done
	echo "$_passed passed, $_failed failed"
	[ "$_failed" = 0 ]
}

run_main bisect-series.sh "$@"
