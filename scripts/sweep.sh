#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# sweep.sh N [FIRST-SEED]   (also: test.sh --sweep N [FIRST-SEED])
#
# N random configurations of the crypto options, each built as a stock
# kernel (pristine tree) and a fips140 kernel (the series, plus
# fips140.config) and booted in both modes. Seeds FIRST-SEED (default: the
# time) to FIRST-SEED+N-1; "sweep.sh 1 SEED" replays one. For a seed, each
# tristate crypto option with a prompt (crypto/, lib/crypto/,
# arch/x86/crypto/ Kconfig), except those base.config sets and the few
# the harness needs as they are (POOL_SKIP), is set to y, m or n at random
# on top of base.config; Kconfig resolves what depends on what on the
# stock tree, and the resolved values are the fragment both kernels are
# built with (config.sh checks that the fips140 kernel got them all).
# Per seed, results NAME/SEED/...: both builds, both boots' verdicts, the
# same /proc/crypto (names, drivers, priorities, types, self-test states)
# on both kernels in both modes, and every built-in algorithm served by
# fips140.ko (no "module=kernel" entry) on the fips140 kernel.
# Kernels go to $WORK/sweep-out/SEED-{stock,fips140} (removed when the
# seed passed, kept when it failed); ends with "N passed, N failed".
# Not in CI: a seed is two builds, 13 to 16 minutes on two cores (2026-12-06).
set -eu
. "$(dirname "$0")/lib.sh"

SWEEP_OUT=$WORK/sweep-out
# Left as base.config or the kernel sets them: the test module (tcrypt
# runs its whole suite when built in), the module itself, the test
# manager and the user-space interfaces the guest tests use.
POOL_SKIP='CRYPTO_TEST CRYPTO_FIPS140_EXTMOD CRYPTO_MANAGER CRYPTO_MANAGER2
CRYPTO_USER CRYPTO_USER_API_HASH CRYPTO_USER_API_SKCIPHER
CRYPTO_USER_API_RNG CRYPTO_USER_API_AEAD CRYPTO_BENCHMARK'

# pool: the option names a seed sets, one a line
pool() {
	awk -v skip=" $(echo "$POOL_SKIP" | tr '\n' ' ') " '
	/^config / { name = $2; next }
	/^[ \t]+tristate[ \t]+"/ && name != "" {
		if (index(skip, " " name " ") == 0)
			print name
		name = ""
	}
	/^[ \t]*$/ { name = "" }' "$SRC/crypto/Kconfig" "$SRC/lib/crypto/Kconfig" \
		"$SRC/arch/x86/crypto/Kconfig" |
		grep -vxF -f "$SWEEP_OUT/base-options" | LC_ALL=C sort -u
}

# random_fragment SEED: y, m or n for each pool option
random_fragment() {
	pool | awk -v seed="$1" 'BEGIN { srand(seed) }
	{
		r = int(rand() * 3)
		if (r == 0)
			print "CONFIG_" $1 "=y"
		else if (r == 1)
			print "CONFIG_" $1 "=m"
		else
			print "# CONFIG_" $1 " is not set"
	}'
}

# resolve SEED: the fragment of the pool options as Kconfig resolves the
# random choice on the stock tree (tinyconfig, base.config, the choice)
resolve() {
	_dir=$SWEEP_OUT/$1-resolve
	rm -rf "$_dir"
	mkdir -p "$_dir"
	random_fragment "$1" >"$_dir/random.config"
	make -s -C "$SRC" O="$_dir" ARCH=x86_64 tinyconfig >/dev/null
	(cd "$_dir" && "$SRC/scripts/kconfig/merge_config.sh" -m -O "$_dir" \
		"$_dir/.config" "$CONFIGS/base.config" "$_dir/random.config") \
		>/dev/null
	make -s -C "$SRC" O="$_dir" ARCH=x86_64 olddefconfig >/dev/null
	pool | while read -r _opt; do
		_line=$(grep -E "^CONFIG_$_opt=" "$_dir/.config" || :)
		echo "${_line:-# CONFIG_$_opt is not set}"
	done >"$SWEEP_OUT/$1.config"
	rm -rf "$_dir"
}

# build_seed SEED KIND TREE FRAGMENT...: build SEED-KIND; a result
build_seed() {
	_seed=$1 _kind=$2 _tree=$3
	shift 3
	if FIPS140_OUT=$SWEEP_OUT "$S/build.sh" "$_seed-$_kind" "$_tree" \
		"$CONFIGS/base.config" "$@" "$SWEEP_OUT/$_seed.config" \
		>"$SWEEP_OUT/$_seed-$_kind.log" 2>&1 &&
	   FIPS140_OUT=$SWEEP_OUT "$S/initramfs.sh" "$_seed-$_kind" \
		>>"$SWEEP_OUT/$_seed-$_kind.log" 2>&1; then
		echo "PASS sweep/$_seed/$_kind-build"
		return 0
	fi
	echo "FAIL sweep/$_seed/$_kind-build: see $SWEEP_OUT/$_seed-$_kind.log"
	return 1
}

# boot_seed SEED KIND MODE ARG...: boot SEED-KIND in MODE, its verdict
boot_seed() {
	_dir=$SWEEP_OUT/$1-$2 _label=sweep/$1/$2@$3 _log=$SWEEP_OUT/$1-$2/boot-$3.log
	shift 3
	FIPS140_QEMU_CPU=max \
		"$S/boot.sh" "$_dir/arch/x86/boot/bzImage" "$_dir/initramfs.cpio.gz" \
		"$_log" tests=dump "$@" >>"$_dir/boot.out" 2>&1 || :
	"$PYTHON" "$S/ktap.py" verdict "$_log" --label "$_label"
}

# compare SEED MODE: the same algorithms on both kernels, and the fips140
# kernel's built-in ones all from fips140.ko
compare() {
	_a=$SWEEP_OUT/$1-stock/boot-$2.log
	_b=$SWEEP_OUT/$1-fips140/boot-$2.log
	if [ ! -s "$_a" ] || [ ! -s "$_b" ]; then
		echo "FAIL sweep/$1/same-algs@$2: a boot log is missing"
		return
	fi
	if algs_of_log "$_a" >"$_a.algs" && algs_of_log "$_b" >"$_b.algs" &&
	   [ -s "$_a.algs" ] && diff -u "$_a.algs" "$_b.algs" >"$_b.diff"; then
		echo "PASS sweep/$1/same-algs@$2 ($(wc -l <"$_a.algs") entries)"
	else
		echo "FAIL sweep/$1/same-algs@$2: see $_b.diff"
	fi
	_kernel=$("$PYTHON" "$S/ktap.py" section "$_b" proc-crypto |
		grep -c ' module=kernel ' || :)
	if [ "$_kernel" = 0 ]; then
		echo "PASS sweep/$1/served-by-fips140@$2"
	else
		echo "FAIL sweep/$1/served-by-fips140@$2: $_kernel entries" \
			"from vmlinux"
	fi
}

# sweep_seed SEED: every result of one seed; 0 when all passed
sweep_seed() {
	log "sweep: seed $1 ($(grep -c =y "$SWEEP_OUT/$1.config") =y," \
	    "$(grep -c =m "$SWEEP_OUT/$1.config") =m of $(wc -l \
	    <"$SWEEP_OUT/$1.config") options: $SWEEP_OUT/$1.config)"
	build_seed "$1" stock "$SRC" || return 1
	build_seed "$1" fips140 "$WORK/series" "$CONFIGS/fips140.config" ||
		return 1
	for _mode in default fips; do
		_arg=
		[ "$_mode" = default ] || _arg=fips=1
		boot_seed "$1" stock "$_mode" harness.crypto=kernel $_arg
		boot_seed "$1" fips140 "$_mode" harness.crypto=fips140 $_arg
		compare "$1" "$_mode"
	done
}

main() {
	case ${1:-} in
	'' | 0 | *[!0-9]*) die "usage: sweep.sh N [FIRST-SEED]" ;;
	esac
	S=$TOP/scripts
	[ -d "$WORK/series" ] ||
		die "no series tree $WORK/series: run scripts/test.sh series first"
	first=${2:-$(date +%s)}
	mkdir -p "$SWEEP_OUT"
	grep -E '^CONFIG_[A-Z0-9_]+=' "$CONFIGS/base.config" |
		sed 's/^CONFIG_//; s/=.*//' >"$SWEEP_OUT/base-options"
	log "sweep: $1 seeds from $first (replay one: scripts/sweep.sh 1 SEED);" \
	    "$(pool | wc -l) options"
	passed=0 failed=0
	seed=$first
	while [ "$seed" -lt $((first + $1)) ]; do
		resolve "$seed"
		sweep_seed "$seed" >"$SWEEP_OUT/$seed.results" 2>&1 || :
		cat "$SWEEP_OUT/$seed.results"
		_p=$(grep -c '^PASS ' "$SWEEP_OUT/$seed.results" || :)
		_f=$(grep -c '^FAIL ' "$SWEEP_OUT/$seed.results" || :)
		passed=$((passed + _p)) failed=$((failed + _f))
		if [ "$_f" = 0 ] && [ "$_p" -gt 0 ]; then
			echo "PASS sweep/$seed"
			rm -rf "$SWEEP_OUT/$seed-stock" "$SWEEP_OUT/$seed-fips140"
		else
			echo "FAIL sweep/$seed: kept in $SWEEP_OUT/$seed-*"
		fi
		seed=$((seed + 1))
	done
	echo "$passed passed, $failed failed"
	[ "$failed" = 0 ]
}

run_main sweep.sh "$@"
