#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# run.sh [KERNEL-ARG...]
#
# The main job: build the fips140 kernel and boot it.
#   tree.sh -> series-apply.sh series (worktree $WORK/series: base + the
#   series in patches/) -> build.sh fips140 (base + fips140 fragments) ->
#   initramfs.sh fips140 -> boot.sh (log $WORK/out/fips140/boot-run.log,
#   KERNEL-ARGs appended, e.g. fips=1) -> verdict of the guest tests,
# then a short report of what serves the crypto: the fips140 line of
# lsmod and how many /proc/crypto entries come from module fips140, from
# the kernel and from other modules. Exit status 1, saying which step
# failed, when any step fails or fips140 serves nothing.
set -eu
. "$(dirname "$0")/lib.sh"

S=$TOP/scripts
NAME=fips140
LOG=$OUT/$NAME/boot-run.log

step=
failed() {
	echo "run.sh: FAILED at step '$step'${*:+: $*}" >&2
	exit 1
}

# do_step NAME CMD...: run CMD as step NAME; stop the job if it fails.
do_step() {
	step=$1
	shift
	log "run.sh: step $step"
	"$@" || failed
}

build() {
	_err=$WORK/.run-build.$$
	{ rc=0; "$S/build.sh" "$NAME" "$WORK/series" "$CONFIGS/base.config" \
		"$CONFIGS/fips140.config" 2>&1 || rc=$?; echo "$rc" >"$_err.rc"
	} | tee "$_err" >&2
	rc=$(cat "$_err.rc")
	rm -f "$_err.rc"
	if [ "$rc" != 0 ] && grep -q 'unmet: CONFIG_CRYPTO_FIPS140_EXTMOD' "$_err"; then
		rm -f "$_err"
		failed "the tree has no CONFIG_CRYPTO_FIPS140_EXTMOD: the series in" \
		       "patches/ ($(series_count) patches) does not provide the" \
		       "standalone crypto module (yet)"
	fi
	rm -f "$_err"
	return "$rc"
}

series_count() { series_of "$PATCHES" | wc -l; }

report() {
	step=report
	crypto=$("$PYTHON" "$S/ktap.py" section "$LOG" proc-crypto) ||
		failed "no /proc/crypto dump in $LOG"
	modules=$("$PYTHON" "$S/ktap.py" section "$LOG" proc-modules) ||
		failed "no /proc/modules dump in $LOG"
	total=$(echo "$crypto" | grep -c '^name=' || :)
	infips=$(echo "$crypto" | grep -c ' module=fips140 ' || :)
	inkernel=$(echo "$crypto" | grep -c ' module=kernel ' || :)
	other=$((total - infips - inkernel))
	lsmod=$(echo "$modules" | grep '^fips140 ' || :)
	echo "== what serves the crypto ($LOG)"
	echo "lsmod:        ${lsmod:-(no fips140 module loaded)}"
	echo "/proc/crypto: $total entries: $infips module fips140," \
	     "$inkernel kernel, $other other modules"
	if [ -z "$lsmod" ] || [ "$infips" = 0 ]; then
		failed "fips140 serves no crypto in this kernel"
	fi
}

main() {
	start=$(date +%s)
	do_step deps "$S/deps.sh" run
	do_step tree "$S/tree.sh"
	do_step series-apply "$S/series-apply.sh" series
	do_step build build
	do_step initramfs "$S/initramfs.sh" "$NAME"
	do_step boot "$S/boot.sh" "$OUT/$NAME/arch/x86/boot/bzImage" \
		"$OUT/$NAME/initramfs.cpio.gz" "$LOG" harness.crypto=fips140 "$@"
	step=verdict
	verdict=0
	"$PYTHON" "$S/ktap.py" verdict "$LOG" --label "$NAME" >"$LOG.verdict" ||
		verdict=1
	grep -v '^PASS ' "$LOG.verdict" || :
	echo "guest tests: $(grep -c '^PASS ' "$LOG.verdict") passed," \
	     "$(grep -c '^FAIL ' "$LOG.verdict") failed (all: $LOG.verdict)"
	report
	log "run.sh: done in $(elapsed "$start")"
	[ "$verdict" = 0 ] || failed "guest tests failed"
}

run_main run.sh "$@"
