#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# bench.sh [--no-builds] [RUNS]
#
# What the standalone crypto module costs, side by side with the stock
# kernel of the same fragment (configs/base.config), measured in one run
# on this machine. Writes bench/results/DATE/ (DATE.2, ... for a later run
# of the same day; report.md, results.json,
# ratios.png, and the boot logs in logs/, not committed) and updates the
# headline table of README.md. Never fails on a number: it fails only when
# something cannot be built, booted or measured.
#
# 1. builds: stock and fips140 as the suite builds them (up-to-date
#    builds are reused; build.sh recorded the time of their full build,
#    full-build.time), and the incremental rebuild after
#    tests/patches/outside-boundary.patch (a one-line change in
#    kernel/sched/), with whether fips140.ko changed; that change is made
#    in copies of the trees ($WORK/bench-trees/, git worktrees, built as
#    bench-incr-stock and bench-incr-fips140): the pristine and series
#    trees are never modified. The benchmark kernel
#    bench-call: fips140 + configs/fips140-bench.config +
#    configs/retpoline.config (mitigations as distributions ship them),
#    for the trampoline call, built from its own worktree of the series
#    with tests/patches/call-bench.patch on top (the debugfs benchmark is
#    not part of the series).
# 2. boots: RUNS (default 5) of each kernel, interleaved, under
#    "-icount shift=3,sleep=off" (guest time counts instructions: the same
#    every run) and under plain TCG; initcall_debug, with the console
#    quiet, for the time the last crypto initcall returned. The TCG boots
#    also run the guest benchmarks bench (AF_ALG, memory) and dmbench
#    (dm-crypt on a ramdisk). bench-call boots with spectre_v2=retpoline
#    and with spectre_v2=off (the same kernel, its retpolines patched out).
#    One more icount boot of each with fips=1 and one with
#    cryptomgr.noextratests=1 tell what the boot overhead is made of.
# 3. scripts/bench_report.py: medians, min/max, ratios, the chart.
#
# --no-builds boots the kernels as they are and keeps the build figures of
# today's earlier run.
set -eu
. "$(dirname "$0")/lib.sh"

S=$TOP/scripts
CLIENTS=$WORK/bench-clients

# timed NAME CMD...: run CMD, append "NAME SECONDS" to $res/times
timed() {
	_what=$1
	shift
	_t0=$(date +%s.%N)
	"$@"
	echo "$_what $(echo "$(date +%s.%N) $_t0" | awk '{ printf "%.1f", $1 - $2 }')" \
		>>"$res/times"
}

build_kernels() {
	"$S/series-apply.sh" series
	"$S/build.sh" stock "$SRC" "$CONFIGS/base.config"
	"$S/build.sh" fips140 "$WORK/series" "$CONFIGS/base.config" \
		"$CONFIGS/fips140.config"
	"$S/series-apply.sh" series-bench "$WORK/series-bench" \
		"$TOP/tests/patches/call-bench.patch"
	"$S/build.sh" bench-call "$WORK/series-bench" "$CONFIGS/base.config" \
		"$CONFIGS/fips140.config" "$CONFIGS/fips140-bench.config" \
		"$CONFIGS/retpoline.config"
	for k in stock fips140; do
		[ -r "$OUT/$k/full-build.time" ] ||
			die "no $OUT/$k/full-build.time: remove $OUT/$k to build it again"
		echo "full/$k $(cat "$OUT/$k/full-build.time")" >>"$res/times"
	done
}

# ko_state FILE: "SHA256 MTIME" of a fips140.ko, nothing if there is none
ko_state() {
	[ ! -e "$1" ] || echo "$(sha256sum <"$1" | cut -c1-64) $(stat -c %y "$1")"
}

# copy_tree KIND DIR: a fresh copy of the tree of KIND (stock: the
# pristine tree; fips140: the series) as a git worktree DIR, so that the
# change is never made in the trees the suite builds
copy_tree() {
	git -C "$SRC" worktree remove --force "$2" 2>/dev/null || rm -rf "$2"
	git -C "$SRC" worktree prune
	if [ "$1" = stock ]; then
		git -C "$SRC" worktree add -q --detach "$2" base
		unignore_debian_rules "$2"
	else
		"$S/series-apply.sh" "bench-$1" "$2"
	fi
}

# incremental KIND FRAGMENT...: KIND built from a copy of its tree
# (bench-incr-KIND), the outside-boundary change applied to the copy,
# and the rebuild timed
incremental() {
	_kind=$1 _name=bench-incr-$1 _tree=$WORK/bench-trees/$1
	shift
	_ko=$OUT/$_name/crypto/fips140/fips140.ko
	copy_tree "$_kind" "$_tree"
	"$S/build.sh" "$_name" "$_tree" "$@"
	ko_state "$_ko" >"$res/$_kind.ko.before"
	git -C "$_tree" apply "$TOP/tests/patches/outside-boundary.patch"
	timed incremental/"$_kind" "$S/build.sh" "$_name" "$_tree" "$@" ||
		die "incremental rebuild of $_name failed"
	ko_state "$_ko" >"$res/$_kind.ko.after"
}

builds() {
	build_kernels
	incremental stock "$CONFIGS/base.config"
	incremental fips140 "$CONFIGS/base.config" "$CONFIGS/fips140.config"
}

images() {
	"$S/clients.sh" "$CLIENTS"
	for k in stock fips140 bench-call; do
		"$S/initramfs.sh" "$k" "$CLIENTS" bench
	done
}

# boot_once KERNEL LOG QEMU-ARGS KERNEL-ARG...
boot_once() {
	_k=$1 _log=$2 _qemu=$3
	shift 3
	FIPS140_QEMU_ARGS=$_qemu FIPS140_BOOT_TIMEOUT=600 "$S/boot.sh" \
		"$OUT/$_k/arch/x86/boot/bzImage" "$OUT/$_k/bench.cpio.gz" \
		"$_log" "$@"
}

boots() {
	icount="-icount shift=3,sleep=off"
	i=1
	while [ "$i" -le "$runs" ]; do
		for k in stock fips140; do
			boot_once "$k" "$res/logs/icount-$k-$i.log" "$icount" \
				initcall_debug tests=dump
			boot_once "$k" "$res/logs/tcg-$k-$i.log" "" \
				initcall_debug tests=bench,dmbench,dump \
				test_timeout=300 brd.rd_nr=1 brd.rd_size=81920
		done
		i=$((i + 1))
	done
	# What the boot overhead is made of: fips=1 (each self-test prints
	# when it passed) and without testmgr's extra tests
	for k in stock fips140; do
		boot_once "$k" "$res/logs/icount-fips-$k-1.log" "$icount" \
			initcall_debug tests=dump fips=1 log_buf_len=4M
		boot_once "$k" "$res/logs/icount-noextratests-$k-1.log" \
			"$icount" initcall_debug tests=dump \
			cryptomgr.noextratests=1
	done
	for v in retpoline off; do
		boot_once bench-call "$res/logs/call-$v.log" "" tests=bench \
			"spectre_v2=$v"
	done
}

main() {
	do_builds=1
	if [ "${1:-}" = --no-builds ]; then
		do_builds=0
		shift
	fi
	runs=${1:-5}
	case $runs in
	'' | *[!0-9]* | 0 | 1 | 2 | 3 | 4)
		die "usage: bench.sh [--no-builds] [RUNS >= 5]" ;;
	esac
	"$S/deps.sh" bench
	# A new directory per run: results of earlier runs, committed or
	# not, are never overwritten (--no-builds reuses the newest one's
	# build figures, in a new directory too).
	day=$TOP/bench/results/$(date -u +%Y-%m-%d)
	res=$day
	n=1
	while [ -e "$res" ]; do
		prev=$res
		n=$((n + 1))
		res=$day.$n
	done
	if [ $do_builds = 0 ]; then
		[ -r "${prev:-}/times" ] ||
			die "--no-builds: no build figures of today in bench/results (run bench.sh first)"
		mkdir -p "$res"
		find "$prev" -maxdepth 1 -type f -exec cp {} "$res/" \;
	fi
	mkdir -p "$res/logs"
	log "bench: $runs runs per kernel -> $res"
	[ $do_builds = 0 ] || builds
	images
	boots
	"$PYTHON" "$S/bench_report.py" "$res" "$OUT" "$TOP/README.md"
	log "bench: $res/report.md"
}

run_main bench.sh "$@"
