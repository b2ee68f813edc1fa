#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# test.sh [--list] [--extended | --all | --target TARGET... | CASE...]
# test.sh --mutate [MUTATION...]   (scripts/mutate.sh)
# test.sh --sweep N [SEED]         (scripts/sweep.sh)
# test.sh --reuse-window [VERSION...]  (scripts/reuse-window.sh)
# test.sh --bisect [FIRST [LAST]]  (scripts/bisect-series.sh)
#
# The test suite: runs the cases registered below, in order (CI's, the
# extended ones, all of them, or those named and the cases they need),
# prints one line per result, "PASS name (time)", "FAIL name: reason" or
# "SKIP name: reason" (only where a case allows skips: ktap.py
# --allow-skip), and ends with exactly one line "N passed, N failed",
# followed by ", N skipped" when anything was skipped.
# Exit status 1 when anything failed. CASE may be a shell pattern
# ('fips140-tamper-*'); --target runs the cases of kernel targets
# (tests/targets/TARGET.target); either way with the cases they need.
#
# A case is a shell function, run in a subshell with errexit on, after the
# cases it needs (see add_case). Its exit status is its result, unless it
# reports results itself by printing "PASS NAME" / "FAIL NAME: reason"
# lines on stdout (e.g. verdict_target: one result per guest KTAP
# subtest); other stdout lines are shown indented. Logs go to stderr.
set -eu
. "$(dirname "$0")/lib.sh"

S=$TOP/scripts
SERIES=${FIPS140_SERIES:-series}

## Helpers for cases ###########################################################

# Kernel target NAME (built by build.sh NAME ...) lives in $OUT/NAME; its
# boot image is that of its target's architecture.
bzimage() { echo "$OUT/$1/$(image_rel "$(out_arch "$1")")"; }
# The serial log of target NAME's boot LABEL.
boot_log() { echo "$OUT/$1/boot-$2.log"; }

## Kernel targets #############################################################
#
# One file per target in tests/targets (see its README): how to build it,
# boot it, and what to compare it with. add_target registers its cases.
# TARGETS, target_key and target_fragments are in lib.sh.
# target_names: every target, one a line
target_names() {
	for _tf in "$TARGETS"/*.target; do
		basename "$_tf" .target
	done
}
# target_out TARGET: its build directory's name under $OUT
target_out() { target_key "$1" out "$1"; }
# target_outdir TARGET: where its build directory is: $OUT, or for a
# target of another version, that version's out/ (lib.sh, version_dir)
target_outdir() {
	_version=$(target_key "$1" version)
	if [ -n "$_version" ]; then
		echo "$(version_dir "$_version")/out"
	else
		echo "$OUT"
	fi
}
# target_of OUT: the target whose build directory is OUT
target_of() {
	for _t in $(target_names); do
		[ "$(target_out "$_t")" != "$1" ] || { echo "$_t"; return; }
	done
}

# out_arch NAME: the architecture of build directory NAME's target (the
# target's "arch", x86_64 by default)
out_arch() {
	_t=$(target_of "$1")
	if [ -n "$_t" ]; then
		target_key "$_t" arch x86_64
	else
		echo x86_64
	fi
}

# The CPU model QEMU gives build directory NAME: its target's "cpu" ("max"
# where the config has the x86 crypto drivers, so that they register);
# QEMU's default for the fragment kernels, as their stock baseline has it.
qemu_cpu() {
	_t=$(target_of "$1")
	[ -z "$_t" ] || target_key "$_t" cpu
}

# boot_image NAME LABEL IMAGE [KERNEL-ARG...]: boot target NAME with its
# initramfs IMAGE; the log is kept as $OUT/NAME/boot-LABEL.log.
boot_image() {
	_name=$1 _label=$2 _image=$3
	shift 3
	FIPS140_QEMU_CPU=${FIPS140_QEMU_CPU:-$(qemu_cpu "$_name")} \
	FIPS140_ARCH=$(out_arch "$_name") \
		"$S/boot.sh" "$(bzimage "$_name")" "$OUT/$_name/$_image.cpio.gz" \
		"$(boot_log "$_name" "$_label")" "$@"
}

# boot_target NAME LABEL [KERNEL-ARG...]: boot target NAME with its
# initramfs; the log is kept as $OUT/NAME/boot-LABEL.log for later cases.
boot_target() {
	_name=$1 _label=$2
	shift 2
	boot_image "$_name" "$_label" initramfs "$@"
}

# verdict_target NAME LABEL: one result per guest KTAP subtest of that boot,
# plus run-complete and kernel-log-clean. Results are named
# NAME/test/subtest (LABEL default) or NAME@LABEL/test/subtest.
verdict_target() {
	_label=$1
	[ "$2" = default ] || _label=$1@$2
	"$PYTHON" "$S/ktap.py" verdict "$(boot_log "$1" "$2")" --label "$_label"
}

# section NAME LABEL SECTION: a dump section of a boot log (proc-crypto,
# proc-modules, proc-cmdline), for comparisons between boots.
section() {
	"$PYTHON" "$S/ktap.py" section "$(boot_log "$1" "$2")" "$3"
}

## Cases #######################################################################

# The cases of every target (add_target), TARGET as argument.
case_target_build() {
	_version=$(target_key "$1" version)
	case $(target_key "$1" tree)${_version:+ $_version} in
	pristine) _tree=$SRC ;;
	series) _tree=$WORK/$SERIES ;;
	"pristine "*) _tree=$(tree_of_version "$_version") ;;
	"series "*) _tree=$(version_dir "$_version")/series ;;
	package)
		# shellcheck disable=SC2046 # the script and its arguments
		set -- $(target_key "$1" build-script)
		_script=$1
		shift
		"$S/$_script" "$@"
		return ;;
	esac
	_base=
	case $(target_key "$1" config tinyconfig) in
	tinyconfig) ;;
	"debian "*) _base="--debian $(target_key "$1" config | cut -d' ' -f2)" ;;
	*) die "target $1: config is tinyconfig or \"debian FLAVOUR\"" ;;
	esac
	_release=$(target_key "$1" release)
	[ "$_release" != debian ] || _release=${LINUX_IMAGE_PKG#linux-image-}
	_frags=$(target_fragments "$1")
	# shellcheck disable=SC2086 # option and fragment lists
	FIPS140_KERNELRELEASE=$_release FIPS140_OUT=$(target_outdir "$1") \
	FIPS140_ARCH=$(target_key "$1" arch x86_64) \
		"$S/build.sh" "$(target_out "$1")" "$_tree" $_base $_frags
}
case_target_initramfs() {
	FIPS140_ARCH=$(target_key "$1" arch x86_64) \
		"$S/initramfs.sh" "$(target_out "$1")"
}
# case_target_boot TARGET MODE: boot in MODE (default, or fips: fips=1)
case_target_boot() {
	_fips=
	[ "$2" = default ] || _fips=fips=1
	# shellcheck disable=SC2046 # the target's kernel arguments
	boot_target "$(target_out "$1")" "$2" $(target_key "$1" args) $_fips
}
case_target_verdict() { verdict_target "$(target_out "$1")" "$2"; }
# case_target_same TARGET EXT FN: same_as_stock EXT FN for TARGET and the
# target it is compared with
case_target_same() {
	same_as_stock "$2" "$3" "$(target_out "$(target_key "$1" compare)")" \
		"$(target_out "$1")"
}
# In FIPS mode the same self-tests pass as on the kernel compared with
case_target_selftests() {
	"$PYTHON" "$INTEGRITY" selftests \
		"$(boot_log "$(target_out "$(target_key "$1" compare)")" fips)" \
		"$(boot_log "$(target_out "$1")" fips)"
}

case_deps() { "$S/deps.sh" test; }

case_shellcheck() {
	command -v shellcheck >/dev/null || die "shellcheck is not installed"
	shellcheck "$S"/*.sh "$TOP/tests/guest/init" "$TOP"/tests/guest/*.sh \
		"$TOP/.ci/run"
}

case_ktap_parser() { "$PYTHON" "$TOP/tests/host/test_ktap.py" 2>&1 >&2; }

# Stopping a run stops every process it started, orphans included
# (lib.sh's stop_run, which stopped_by uses)
case_harness_stop() { sh "$TOP/tests/host/stop-run.sh"; }

# The series as a maintainer reads it: checkpatch --strict on each patch,
# no error, every warning explained in its commit message.
case_checkpatch() { "$S/checkpatch-series.sh"; }

case_tree() { "$S/tree.sh"; }
# Another Debian version of the tree (a target's "version"), and the
# series applied to it
case_tree_version() { "$S/tree.sh" "$1"; }
case_series_version() {
	FIPS140_SRC=$(tree_of_version "$1") "$S/series-apply.sh" \
		"series-${1%%-*}" "$(version_dir "$1")/series"
}

# The stock kernel: pristine 6.12, base fragment. The baseline.
# The same kernel in FIPS mode: the baseline for fips=1 boots.
# With initcall_debug: the order the crypto initcalls run in.
# An initcall_debug boot of TARGET, with its arguments
case_target_initcalls_boot() {
	# shellcheck disable=SC2046 # the target's kernel arguments
	boot_target "$(target_out "$1")" initcalls initcall_debug \
		$(target_key "$1" args)
}

# The patched kernel: the series in patches/ applied to the pristine tree,
# with the standalone crypto module (base + fips140 fragments).
CHECKS=$TOP/tests/host/fips140_checks.py
# The worktree of the series (FIPS140_SERIES), with the extra patches
# FIPS140_SERIES_EXTRA on top (scripts/mutate.sh: a mutation).
case_series() {
	# shellcheck disable=SC2086 # a list of patch files
	"$S/series-apply.sh" "$SERIES" "$WORK/$SERIES" \
		${FIPS140_SERIES_EXTRA:-}
}
# fips140.ko is embedded byte for byte; the crypto code left in vmlinux is
# exactly the documented list; vmlinux calls the module through trampolines.
# case_target_embedded TARGET: TARGET's fips140.ko is in its vmlinux
case_target_embedded() { "$PYTHON" "$CHECKS" embedded "$OUT/$(target_out "$1")"; }
case_fips140_moved() {
	"$PYTHON" "$CHECKS" moved "$OUT/stock" "$OUT/fips140" \
		"$TOP/tests/host/fips140-vmlinux-crypto.list"
}
# The out-of-tree probe of the read-only placeholders goes in /extra.
# case_target_probe_initramfs TARGET: TARGET's initramfs with them
case_target_probe_initramfs() {
	_out=$(target_out "$1")
	FIPS140_ARCH=$(target_key "$1" arch x86_64) "$S/ro-probe.sh" "$_out"
	FIPS140_ARCH=$(target_key "$1" arch x86_64) \
		"$S/initramfs.sh" "$_out" "$OUT/$_out/extra"
}
case_fips140_initramfs() { case_target_probe_initramfs fips140; }
case_arm64_initramfs() { case_target_probe_initramfs arm64; }
# same_as_stock EXT FN [STOCK TARGET]: FN NAME LABEL prints something of
# a boot; the STOCK (default stock) and TARGET (default fips140) kernels
# print the same (not nothing) in both modes. The outputs are kept as
# $OUT/TARGET/{stock,TARGET}-MODE.EXT.
same_as_stock() {
	_stock=${3:-stock} _target=${4:-fips140}
	for _mode in default fips; do
		_a=$OUT/$_target/stock-$_mode.$1 _b=$OUT/$_target/$_target-$_mode.$1
		"$2" "$_stock" "$_mode" >"$_a"
		"$2" "$_target" "$_mode" >"$_b"
		[ -s "$_a" ]
		diff -u "$_a" "$_b" >&2
		echo "$_mode: $(wc -l <"$_a") lines"
	done
}
# The same algorithms and drivers as the stock kernel, in both modes.
algs() { algs_of_log "$(boot_log "$1" "$2")"; }
# case_initcall_order STOCK FIPS140: the initcalls of the two
# initcall_debug boots run in the same order, level by level
case_initcall_order() {
	"$PYTHON" "$CHECKS" initcall-order "$OUT/$1" "$OUT/$2" \
		"$(boot_log "$1" initcalls)" "$(boot_log "$2" initcalls)"
}

# The module's integrity self-test and self-tests (tests/host/
# fips140_integrity.py): the digest is the HMAC-SHA256 of the embedded
# bytes, printed and shown in sysfs by both boots; in FIPS mode the same
# self-tests pass as on the stock kernel, and the same algorithms are
# refused; /proc/sys/crypto is the stock kernel's.
INTEGRITY=$TOP/tests/host/fips140_integrity.py
case_fips140_digest() {
	"$PYTHON" "$INTEGRITY" digest "$OUT/fips140" \
		"$(boot_log fips140 default)" "$(boot_log fips140 fips)"
}
af_alg_bind() { section "$1" "$2" af-alg-bind; }
proc_sys_crypto() { section "$1" "$2" proc-sys-crypto; }
# The debug hooks are only in a kernel configured for them: none in
# fips140, every one in fips140-m (the control: the check finds them).
case_fips140_no_debug() {
	"$PYTHON" "$INTEGRITY" debug-hooks "$OUT/fips140" no
	"$PYTHON" "$INTEGRITY" debug-hooks "$OUT/fips140-m" yes
}

# The tamper sample: a byte flipped in each region of the embedded module
# (REGIONS in tests/host/fips140_integrity.py: the ELF header, the section
# table, relocations, symbols, strings, .modinfo, code and data) and in
# its stored digest. The loader must refuse each before it parses it.
TAMPER_REGIONS="elf-header section-table rela symtab strtab modinfo text
rodata data digest"

# tamper_boot TARGET WHAT LABEL [KERNEL-ARG...]: boot a copy of TARGET's
# vmlinux with a byte of WHAT flipped, through PVH.
tamper_boot() {
	_target=$1 _img=$OUT/$1/vmlinux-tampered-$2 _label=$3
	"$PYTHON" "$INTEGRITY" tamper "$OUT/$_target" "$2" "$_img"
	shift 3
	FIPS140_QEMU_CPU=${FIPS140_QEMU_CPU:-$(qemu_cpu "$_target")} \
	FIPS140_ARCH=$(out_arch "$_target") \
		"$S/boot.sh" "$_img" "$OUT/$_target/initramfs.cpio.gz" \
		"$(boot_log "$_target" "$_label")" "$@"
}
# fips=1: the kernel panics at once, naming the expected and computed
# digests.
case_tamper_fips() {
	FIPS140_BOOT_EXPECT=panic tamper_boot "$1" "$2" "tamper-$2-fips" \
		fips=1 harness.crypto=fips140
	"$PYTHON" "$INTEGRITY" log-has "$(boot_log "$1" "tamper-$2-fips")" \
		"Kernel panic - not syncing: $(cat "$OUT/$1/vmlinux-tampered-$2.msg"): no crypto module in FIPS mode"
}
# Otherwise the kernel boots without crypto: the guest finds every way
# into it closed (tests/guest/fips140.c, harness.crypto=absent), the log
# has no oops, and the log and sysfs say why.
# On Debian's config IPv6 then fails to come up: seg6's HMAC
# (CONFIG_IPV6_SEG6_HMAC=y) allocates hmac(sha1) in inet6_init, and the
# error path of inet6_init warns, as it would for any other failure:
# icmpv6_cleanup() leaves its per-CPU control sockets in the RAWv6 cache
# (mm/slub.c, then mm/slab_common.c). Exactly these are expected.
absent_verdict() {
	_log=$1 _target=$2
	shift 2
	case $_target in
	debian-*)
		set -- "$@" --expect-warning 'slub\.c:[0-9]+ __kmem_cache_shutdown' \
			--expect-warning 'slab_common\.c:[0-9]+ kmem_cache_destroy'
		;;
	esac
	"$PYTHON" "$S/ktap.py" verdict "$_log" "$@"
}
case_tamper_normal() {
	_log=$(boot_log "$1" "tamper-$2")
	tamper_boot "$1" "$2" "tamper-$2" tests=fips140,indicator,certset \
		harness.crypto=absent
	absent_verdict "$_log" "$1" --label "$1@tamper-$2"
	"$PYTHON" "$INTEGRITY" absent "$_log" \
		"$(cat "$OUT/$1/vmlinux-tampered-$2.msg")"
	"$PYTHON" "$INTEGRITY" never-ran "$_log"
}

# The placeholders are read-only after boot: tests/guest/roprobe oopses on
# purpose, and checks the kernel log itself.
# A parameter of the crypto code on the kernel command line: with the
# code in fips140.ko, cryptomgr.notests=1 still reaches testmgr, under its
# built-in name (tests/guest/param.c; the default boots are the control,
# where it reads N and the self-tests run).
case_param_boot() {
	_crypto=kernel
	[ "$1" = stock ] || _crypto=fips140
	boot_target "$1" param cryptomgr.notests=1 tests=param \
		harness.crypto="$_crypto"
}
case_param_verdict() { verdict_target "$1" param; }

# case_target_ro_boot TARGET, case_target_ro_verdict TARGET
case_target_ro_boot() {
	boot_target "$(target_out "$1")" roprobe tests=roprobe \
		harness.crypto=fips140
}
case_target_ro_verdict() {
	_out=$(target_out "$1")
	"$PYTHON" "$S/ktap.py" verdict "$(boot_log "$_out" roprobe)" \
		--label "$_out@roprobe" --no-log-check
}

# The boots with the out-of-tree test modules of tests/ro-probe in /extra
# (scripts/ro-probe.sh): no module but the embedded one can set the
# status of fips140, and user space cannot write it (tests/guest/forge.c);
# fips140_is_approved_service() agrees with /sys/kernel/fips140/approved
# (tests/guest/service.c); for a target with a "boundary" module, a marked
# module loads in FIPS mode only as built (tests/guest/boundary.c).
# case_probes_boot OUT MODE [TESTS]: boot kernel OUT with those tests
# (default forge,service) in MODE
case_probes_boot() {
	_fips=
	[ "$2" = default ] || _fips=fips=1
	# shellcheck disable=SC2086 # no argument in the default mode
	boot_target "$1" "probes-$2" "tests=${3:-forge,service}" \
		harness.crypto=fips140 $_fips
}
case_probes_verdict() { verdict_target "$1" "probes-$2"; }
# What the stock kernel compared with has built in, tested and (in FIPS
# mode) allowed under a name of the module's table, the approved-service
# indicator of TARGET lists (tests/guest/indicator.c dumps it).
case_target_approved() {
	_stock=$(target_out "$(target_key "$1" compare)")
	for _mode in default fips; do
		"$PYTHON" "$CHECKS" approved "$(boot_log "$_stock" "$_mode")" \
			"$(boot_log "$(target_out "$1")" "$_mode")" \
			"$1-approved-$_mode"
	done
}
# Debian's initramfs has the test modules too, built against its kernel.
case_debian_initramfs() {
	"$S/ro-probe.sh" "$DEBIAN" "$(target_key debian boundary)"
	"$S/initramfs.sh" "$DEBIAN" "$OUT/$DEBIAN/extra"
}

# Reuse of a certified module. A second tree of the series, in another
# directory ($WORK/reuse/series, built in $WORK/reuse/out, the same layout
# as $WORK/series and $WORK/out, so ccache serves what is unchanged); the
# fips140 kernel above is kernel A. The certified module is not A's own
# fips140.ko but one built from A's tree with another version string
# ($OUT/certified): it differs from every module the reuse kernels build,
# so a check that the certified one is embedded or booted can fail.
REUSE=$WORK/reuse
A_MODULE=$OUT/fips140/crypto/fips140/fips140.ko
CERTIFIED_VERSION=1.0-certified
CERTIFIED_BUILD=$OUT/certified
CERTIFIED=$CERTIFIED_BUILD/crypto/fips140/fips140.ko
reuse_tree() { "$S/series-apply.sh" reuse-series "$REUSE/series" "$@"; }
# reuse_build NAME [FRAGMENT...]: build NAME of the reuse tree
reuse_build() {
	_name=$1
	shift
	FIPS140_OUT=$REUSE/out "$S/build.sh" "$_name" "$REUSE/series" \
		"$CONFIGS/base.config" "$CONFIGS/fips140.config" "$@"
}
# prebuilt_config NAME DIR [LINE...]: fragment $REUSE/NAME.config that
# embeds the crypto module of build directory DIR
prebuilt_config() {
	_f=$REUSE/$1.config
	printf 'CONFIG_CRYPTO_FIPS140_EXTMOD_SOURCE=y\n' >"$_f"
	printf 'CONFIG_CRYPTO_FIPS140_EXTMOD_SOURCE_DIR="%s"\n' "$2" >>"$_f"
	shift 2
	for _line in "$@"; do
		echo "$_line" >>"$_f"
	done
	echo "$_f"
}
# same_file NAME A B: PASS when files A and B are identical
same_file() {
	if cmp -s "$2" "$3"; then
		echo "PASS $1 ($(sha256sum <"$2" | cut -c1-16)...)"
	else
		echo "FAIL $1: $2 and $3 differ"
	fi
}
# reuse_boot NAME LABEL [KERNEL-ARG...]: boot NAME of the reuse tree
reuse_boot() {
	_name=$1 _label=$2
	shift 2
	"$S/boot.sh" "$REUSE/out/$_name/arch/x86/boot/bzImage" \
		"$REUSE/out/$_name/initramfs.cpio.gz" \
		"$REUSE/out/$_name/boot-$_label.log" harness.crypto=fips140 "$@"
	"$PYTHON" "$S/ktap.py" verdict "$REUSE/out/$_name/boot-$_label.log" \
		--label "$_name@$_label"
}
# reuse_build_fails RESULT NAME [FRAGMENT...]: the build of NAME must fail;
# prints RESULT/build-fails, and returns 1 when the build succeeded.
reuse_build_fails() {
	_result=$1
	shift
	if reuse_build "$@"; then
		echo "FAIL $_result/build-fails: the build succeeded"
		return 1
	fi
	echo "PASS $_result/build-fails"
}
# image_is NAME LABEL IMAGE DIGEST-OF: that boot loaded IMAGE (fresh or
# prebuilt), whose digest is the HMAC-SHA256 of module file DIGEST-OF
image_is() {
	"$PYTHON" "$INTEGRITY" booted "$REUSE/out/$1/boot-$2.log" "$3" "$4"
}

# Reproducible: the same series, another directory, compiled without
# ccache: the same fips140.ko and vmlinux as kernel A's (the control of
# outside/vmlinux-changed: the same comparison finds no change here).
case_reuse_repro_tree() { reuse_tree; }
case_reuse_repro_build() { FIPS140_NO_CCACHE=1 reuse_build repro; }
case_reuse_reproducible() {
	same_file reproducible/fips140.ko "$A_MODULE" \
		"$REUSE/out/repro/crypto/fips140/fips140.ko"
	same_file reproducible/vmlinux "$OUT/fips140/vmlinux" \
		"$REUSE/out/repro/vmlinux"
}
# The certified module: A's tree, another CONFIG_CRYPTO_FIPS140_VERSION.
case_reuse_certified_build() {
	mkdir -p "$REUSE"
	printf 'CONFIG_CRYPTO_FIPS140_VERSION="%s"\n' "$CERTIFIED_VERSION" \
		>"$REUSE/certified.config"
	"$S/build.sh" certified "$WORK/series" "$CONFIGS/base.config" \
		"$CONFIGS/fips140.config" "$REUSE/certified.config"
	# Else no check below could tell it from a fresh module
	if cmp -s "$A_MODULE" "$CERTIFIED"; then
		echo "FAIL certified/differs-from-A: $CERTIFIED is A's module"
	else
		echo "PASS certified/differs-from-A"
	fi
}
# Kernel B: A and a change outside the module (tests/patches), embedding
# the certified module. First without the prebuilt module: make must stop
# where Makefile.vmlinux looks for it, saying where it looked, before
# vmlinux is linked, and build.sh must fail and leave no image.
case_reuse_outside_tree() {
	reuse_tree "$TOP/tests/patches/outside-boundary.patch"
}
case_reuse_missing_prebuilt() {
	_cfg=$(prebuilt_config missing "$REUSE/no-such-build")
	_log=$REUSE/out/outside/build.log
	reuse_build_fails missing-prebuilt outside "$_cfg" || return 0
	# make's own error line: the file and line of the check, the path
	if grep -qF "scripts/Makefile.vmlinux:$(grep -n 'no prebuilt crypto module' \
		"$REUSE/series/scripts/Makefile.vmlinux" | cut -d: -f1): *** CONFIG_CRYPTO_FIPS140_EXTMOD_SOURCE: no prebuilt crypto module $REUSE/no-such-build/crypto/fips140/fips140.ko: put the certified fips140.ko there" \
		"$_log"; then
		echo "PASS missing-prebuilt/make-stops-at-the-check"
	else
		echo "FAIL missing-prebuilt/make-stops-at-the-check: no such line in $_log"
	fi
	if grep -qx '  LD      vmlinux' "$_log"; then
		echo "FAIL missing-prebuilt/stops-before-vmlinux: vmlinux was linked"
	else
		echo "PASS missing-prebuilt/stops-before-vmlinux"
	fi
	if [ -e "$REUSE/out/outside/arch/x86/boot/bzImage" ]; then
		echo "FAIL missing-prebuilt/no-image: a bzImage is left"
	else
		echo "PASS missing-prebuilt/no-image"
	fi
}
case_reuse_outside_build() {
	reuse_build outside "$(prebuilt_config outside "$CERTIFIED_BUILD")"
}
case_reuse_outside_checks() {
	_b=$REUSE/out/outside
	same_file outside/fresh-fips140.ko-unchanged "$A_MODULE" \
		"$_b/crypto/fips140/fips140.ko"
	same_file outside/embeds-certified "$CERTIFIED" \
		"$_b/crypto/fips140/fips140-embedded.ko"
	if cmp -s "$OUT/fips140/vmlinux" "$_b/vmlinux"; then
		echo "FAIL outside/vmlinux-changed: vmlinux is A's"
	else
		echo "PASS outside/vmlinux-changed"
	fi
	"$PYTHON" "$INTEGRITY" log-has "$_b/crypto/fips140/fips140-abi-check.txt" \
		"fips140-abi-check: compatible"
}
case_reuse_outside_initramfs() {
	FIPS140_OUT=$REUSE/out "$S/initramfs.sh" outside
}
case_reuse_outside_boot() {
	reuse_boot outside default
	image_is outside default prebuilt "$CERTIFIED"
}
case_reuse_outside_fips_boot() {
	reuse_boot outside fips fips=1
	image_is outside fips prebuilt "$CERTIFIED"
}
# Kernel B-m: B with crypto modules (=m), embedding fips140-m's module.
# The prebuilt modules, fips140.ko too, carry a mark (an extra ELF
# section), so that they differ from the ones B-m builds: the marked
# fips140.ko must be the one booted, and modules_install must install the
# marked crypto modules, which must load.
CERTIFIED_M=$REUSE/certified-m
case_reuse_modular_build() {
	rm -rf "$CERTIFIED_M"
	mkdir -p "$CERTIFIED_M/crypto/fips140"
	echo "certified copy" >"$CERTIFIED_M/mark"
	for _m in fips140/fips140 xts md5; do
		objcopy --add-section .note.fips140_certified="$CERTIFIED_M/mark" \
			"$OUT/fips140-m/crypto/$_m.ko" "$CERTIFIED_M/crypto/$_m.ko"
	done
	reuse_build modular "$CONFIGS/fips140-modular.config" \
		"$CONFIGS/fips140-debug.config" \
		"$(prebuilt_config modular "$CERTIFIED_M")"
}
case_reuse_modular_checks() {
	for _m in crypto/xts.ko crypto/md5.ko; do
		_inst=$(find "$REUSE/out/modular/modroot" -path "*/kernel/$_m")
		# modules_install appends a signature: compare what precedes it
		_size=$(stat -c %s "$CERTIFIED_M/$_m")
		head -c "$_size" "$_inst" >"$REUSE/out/modular/installed.ko"
		same_file "modular/installs-prebuilt-$(basename "$_m")" \
			"$CERTIFIED_M/$_m" "$REUSE/out/modular/installed.ko"
	done
}
case_reuse_modular_initramfs() {
	FIPS140_OUT=$REUSE/out "$S/initramfs.sh" modular
}
case_reuse_modular_boot() {
	reuse_boot modular default harness.modules=xts,md5
	image_is modular default prebuilt \
		"$CERTIFIED_M/crypto/fips140/fips140.ko"
}

# Kernel D: B with both modules: fips=1 boots the prebuilt one.
case_reuse_dual_build() {
	reuse_build dual "$(prebuilt_config dual "$CERTIFIED_BUILD" \
		CONFIG_CRYPTO_FIPS140_DUAL_VERSION=y)"
}
case_reuse_dual_initramfs() { FIPS140_OUT=$REUSE/out "$S/initramfs.sh" dual; }
case_reuse_dual_boot() {
	reuse_boot dual default
	image_is dual default fresh "$REUSE/out/dual/crypto/fips140/fips140.ko"
}
case_reuse_dual_fips_boot() {
	reuse_boot dual fips fips=1
	image_is dual fips prebuilt "$CERTIFIED"
}
# Kernel C: A and a change of a symbol the module imports: the ABI check
# names it, and the build stops.
case_reuse_abi_tree() { reuse_tree "$TOP/tests/patches/abi-break.patch"; }
case_reuse_abi_break() {
	_log=$REUSE/out/abi/build.log
	reuse_build_fails abi-break abi \
		"$(prebuilt_config abi "$CERTIFIED_BUILD")" || return 0
	"$PYTHON" "$INTEGRITY" log-has "$_log" \
		"import sg_init_table: not exported by vmlinux" \
		"does not fit this kernel"
}

# A real kernel update: the module certified on Debian's 6.12.117
# (tests/targets/certified.target) carried onto 6.12.118
# (tests/targets/update.target), whose boots must equal the stock 6.12.118
# kernel's. The certified set is what a distribution keeps of the
# certifying build: fips140.ko, its fips140.hmac and the crypto modules.
CERTIFIED_SET=$WORK/certified/6.12.117
CERTIFIED_OUT=$(target_outdir certified)/$(target_out certified)
UPDATE=$(target_out update)
# The release that built the certified module
certified_release() {
	cat "$CERTIFIED_OUT/include/config/kernel.release"
}
case_certified_set() {
	certified_set "$CERTIFIED_OUT" "$CERTIFIED_SET"
	(cd "$CERTIFIED_SET" && find . -type f | sort)
}
case_update_checks() {
	_b=$OUT/$UPDATE _ko=crypto/fips140/fips140.ko
	# Else no check below could tell the certified module from a fresh one
	if cmp -s "$CERTIFIED_SET/$_ko" "$_b/$_ko"; then
		echo "FAIL update/certified-differs-from-fresh: the same file"
	else
		echo "PASS update/certified-differs-from-fresh"
	fi
	same_file update/embeds-certified "$CERTIFIED_SET/$_ko" \
		"$_b/crypto/fips140/fips140-embedded.ko"
	"$PYTHON" "$INTEGRITY" log-has "$_b/crypto/fips140/fips140-abi-check.txt" \
		"note: built by kernel release $(certified_release), this kernel is $(cat "$_b/include/config/kernel.release")" \
		"fips140-abi-check: compatible" || :
	"$PYTHON" "$INTEGRITY" log-has \
		"$_b/crypto/fips140/fips140-modules-check.txt" \
		"modules load with $CERTIFIED_SET/$_ko" || :
	for _m in crypto/xts.ko crypto/md5.ko; do
		_inst=$(find "$_b/modroot" -path "*/kernel/$_m")
		# modules_install appends a signature: compare what precedes it
		head -c "$(stat -c %s "$CERTIFIED_SET/$_m")" "$_inst" \
			>"$_b/installed.ko"
		same_file "update/installs-certified-$(basename "$_m")" \
			"$CERTIFIED_SET/$_m" "$_b/installed.ko"
	done
}
# Both boots list the certified set's crypto modules, which are the ones
# installed (update-checks), with their digests: not those of the modules
# this tree built (their vermagic differs)
case_update_certset() {
	"$PYTHON" "$CHECKS" marked "$OUT/$UPDATE"
	for _mode in default fips; do
		"$PYTHON" "$CHECKS" certset "$OUT/$UPDATE" \
			"$(boot_log "$UPDATE" "$_mode")" "update-certset-$_mode"
	done
}
# Both boots ran the certified module: its digest, and the release that
# built it, in sysfs
case_update_identity() {
	for _mode in default fips; do
		"$PYTHON" "$INTEGRITY" booted "$(boot_log "$UPDATE" "$_mode")" \
			prebuilt "$CERTIFIED_SET/crypto/fips140/fips140.ko"
	done
}
# /proc/sys/crypto as on stock 6.12.118, but for fips_version: in 6.12
# crypto/fips.c, part of the module, reports the release that built it,
# the certified 6.12.117 one
proc_sys_crypto_certified() {
	if [ "$1" = "$(target_out stock)" ]; then
		proc_sys_crypto "$@" |
			sed "s/^fips_version=.*/fips_version=$(certified_release)/"
	else
		proc_sys_crypto "$@"
	fi
}
case_update_same_proc_sys_crypto() {
	same_as_stock proc-sys-crypto proc_sys_crypto_certified stock "$UPDATE"
}
# With both modules: normal boots ran the fresh one, fips=1 the certified
case_update_dual_identity() {
	_b=$OUT/$(target_out update-dual)
	"$PYTHON" "$INTEGRITY" booted "$_b/boot-default.log" fresh \
		"$_b/crypto/fips140/fips140.ko"
	"$PYTHON" "$INTEGRITY" booted "$_b/boot-fips.log" prebuilt \
		"$CERTIFIED_SET/crypto/fips140/fips140.ko"
}
# Sets the build must refuse: the update built again with
# make FIPS140_BUILD=SET must fail with its message and leave no vmlinux.
# In the update's own build directory (a copy would rebuild its tools,
# and then every object), which is built back with its set at the end.
# refused NAME SET TEXT...: the results NAME/... (SET may be a build
# directory: the build must not remake any of its files)
update_build() {
	# shellcheck disable=SC2046 # the fragments of the update target
	"$S/build.sh" "$UPDATE" "$WORK/$SERIES" $(target_fragments update)
}
# flip_byte FILE OFFSET: the byte at OFFSET of FILE, its lowest bit flipped
flip_byte() {
	_v=$(od -An -tu1 -j "$2" -N 1 "$1" | tr -d ' ')
	# shellcheck disable=SC2059 # the format is the byte, in octal
	printf "\\$(printf %o $((_v ^ 1)))" |
		dd of="$1" bs=1 seek="$2" conv=notrunc status=none
}
# set_sums SET: the checksums of the crypto files of SET
set_sums() {
	find "$1" -name '*.ko' -o -name '*.hmac' | LC_ALL=C sort |
		xargs sha256sum
}
refused() {
	_name=$1 _rset=$2 _b=$OUT/$UPDATE
	shift 2
	set_sums "$_rset" >"$_b/refused-$_name.sums"
	if FIPS140_MAKE_ARGS="FIPS140_BUILD=$_rset" update_build \
		>"$_b/refused-$_name.out" 2>&1; then
		echo "FAIL $_name/refused: the build succeeded"
		return
	fi
	# The build reads the set, it never writes it
	if set_sums "$_rset" | cmp -s - "$_b/refused-$_name.sums"; then
		echo "PASS $_name/set-unchanged"
	else
		echo "FAIL $_name/set-unchanged: the build changed files of $_rset"
	fi
	cp "$_b/build.log" "$_b/build-refused-$_name.log"
	"$PYTHON" "$INTEGRITY" log-has "$_b/build-refused-$_name.log" "$@" || :
	if [ -e "$_b/vmlinux" ]; then
		echo "FAIL $_name/no-vmlinux: $_b/vmlinux is left"
	else
		echo "PASS $_name/no-vmlinux"
	fi
}
case_update_refusals() {
	_set=$WORK/refused-sets
	rm -rf "$_set"
	mkdir -p "$_set"
	# The certified module with a digest that is not its own
	cp -a "$CERTIFIED_SET" "$_set/digest"
	flip_byte "$_set/digest/crypto/fips140/fips140.hmac" 5
	refused bad-digest "$_set/digest" \
		"does not match its digest $_set/digest/crypto/fips140/fips140.hmac" \
		"the module or its digest is not the one certified"
	# ... or none
	cp -a "$CERTIFIED_SET" "$_set/no-digest"
	rm "$_set/no-digest/crypto/fips140/fips140.hmac"
	refused no-digest "$_set/no-digest" \
		"no $_set/no-digest/crypto/fips140/fips140.hmac: a prebuilt crypto module comes with the fips140.hmac"
	# A module of another ABI: the fips140 kernel's, without symbol
	# versions
	refused other-abi "$OUT/fips140" \
		"vermagic \"$(cat "$OUT/fips140/include/config/kernel.release") " \
		"(no symbol versions: the release must match too)" \
		"does not fit this kernel"
	# A module whose export xts.ko imports has another CRC, with its
	# own digest: the modules of the set would not load with it
	cp -a "$CERTIFIED_SET" "$_set/crc"
	_sym=$("$PYTHON" "$INTEGRITY" crc-changed \
		"$CERTIFIED_SET/crypto/fips140/fips140.ko" \
		"$CERTIFIED_SET/crypto/xts.ko" "$_set/crc/crypto/fips140/fips140.ko")
	"$OUT/$UPDATE/scripts/fips140-hmac" "$_set/crc/crypto/fips140/fips140.ko" \
		"$_set/crc/crypto/fips140/fips140.hmac"
	refused export-crc "$_set/crc" \
		"$_set/crc/crypto/xts.ko: import $_sym: CRC 0x" \
		"would not load with the crypto module $_set/crc/crypto/fips140/fips140.ko"
	# The update as it was, with the certified set
	update_build >"$OUT/$UPDATE/rebuild.out" 2>&1 ||
		die "update-refusals: the update does not build again with its set"
}

# Real clients, from Debian: kcapi-tools, keyutils, cryptsetup (LUKS2 and
# plain dm-crypt on ramdisks), tcrypt, module signatures; the same payload
# (scripts/clients.sh) on the stock and the fips140 kernel, each result
# checked in the guest (or here) and both kernels' results compared.
CLIENTS=$WORK/clients
# clients_dir NAME: the payload of build directory NAME's kernel (the
# arm64 builds of the clients for an arm64 kernel)
clients_dir() {
	case $(out_arch "$1") in
	arm64) echo "$CLIENTS-arm64" ;;
	*) echo "$CLIENTS" ;;
	esac
}
case_clients_payload() { "$S/clients.sh" "$CLIENTS"; }
case_arm64_clients_payload() {
	FIPS140_ARCH=arm64 "$S/clients.sh" "$CLIENTS-arm64"
}
# clients_initramfs OUT, clients_boot OUT, clients_parity STOCK OUT LABEL:
# the clients' initramfs and boot of build directory OUT, and the results
# of OUT against those of STOCK (report $OUT/LABEL-report.md)
clients_initramfs() {
	FIPS140_ARCH=$(out_arch "$1") \
		"$S/initramfs.sh" "$1" "$(clients_dir "$1")" clients
}
clients_boot() {
	FIPS140_BOOT_TIMEOUT=900 boot_image "$1" clients clients \
		tests=clients,dump test_timeout=800 brd.rd_nr=2 \
		brd.rd_size=32768 "$@"
}
clients_parity() {
	"$PYTHON" "$TOP/tests/host/fips140_clients.py" parity \
		"$(clients_dir "$1")" "$(clients_dir "$1").keys" \
		"$OUT/$3-report.md" \
		"$(boot_log "$1" clients)" "$(boot_log "$2" clients)"
}

# The series with the option off: the same kernel as the stock one.
case_off_same_kernel() {
	"$PYTHON" "$CHECKS" same-functions "$OUT/stock" "$OUT/fips140-off"
	"$PYTHON" "$CHECKS" same-initcalls "$OUT/stock" "$OUT/fips140-off"
}

# Some crypto configured =m: modules that load against fips140.ko.
# With the debug hooks: a self-test failure injected in FIPS mode panics,
# naming the algorithm.
# objtool ran on the trampolines: their ORC data (the debug hooks come
# with the ORC unwinder).
case_modular_trampolines() { "$PYTHON" "$CHECKS" trampolines "$OUT/fips140-m"; }
case_modular_inject_failure() {
	FIPS140_BOOT_EXPECT=panic boot_target fips140-m inject fips=1 \
		fips140.inject_failure=sha256 harness.crypto=fips140
	"$PYTHON" "$INTEGRITY" log-has "$(boot_log fips140-m inject)" \
		"fips140: injecting a failure into the self-test of" \
		"(sha256) failed in fips mode!"
}

# Fault injection (CONFIG_CRYPTO_FIPS140_DEBUG: the fips140-m kernel):
# each step of bringing the module up made to fail in turn, in both
# modes; Documentation/crypto/fips140.rst has the table of outcomes.
FAULT=fips140-m
FAULT_STEPS="alloc relocate plug-in integrity initcall3 initcall4 initcall6
initcall7"
# fault_arg STEP: the boot option that makes STEP fail
fault_arg() {
	case $1 in
	alloc | relocate) echo "module.embedded_fault=$1" ;;
	*) echo "fips140_fault=$1" ;;
	esac
}
# fault_reason STEP: the reason the kernel must give for it
fault_reason() {
	case $1 in
	alloc) echo "fips140: module load failed (-12)" ;;
	relocate) echo "fips140: module load failed (-8)" ;;
	plug-in) echo "fips140: plug-in failed: the crypto module lacks 1" \
		"symbols vmlinux uses" ;;
	integrity) "$PYTHON" "$INTEGRITY" fault-digest-msg "$OUT/$FAULT" ;;
	*) die "fault_reason: no step $1" ;;
	esac
}
# fips=1: the kernel panics at once, naming the reason (the module's own
# integrity test panics with its message).
case_fault_fips() {
	_log=$(boot_log "$FAULT" "fault-$1-fips")
	FIPS140_BOOT_EXPECT=panic boot_target "$FAULT" "fault-$1-fips" fips=1 \
		"$(fault_arg "$1")" harness.crypto=fips140
	case $1 in
	initcall*)
		"$PYTHON" "$INTEGRITY" initcall-failed "$_log" "${1#initcall}" 1 ;;
	integrity)
		"$PYTHON" "$INTEGRITY" log-has "$_log" \
			"Kernel panic - not syncing: $(fault_reason "$1")" ;;
	*)
		"$PYTHON" "$INTEGRITY" log-has "$_log" \
			"Kernel panic - not syncing: $(fault_reason "$1"): no crypto module in FIPS mode" ;;
	esac
}
# Otherwise the kernel boots without crypto, as with a damaged image; a
# failing initcall is reported, and the module runs on, as built-in code
# would.
case_fault_normal() {
	_log=$(boot_log "$FAULT" "fault-$1")
	case $1 in
	initcall*)
		boot_target "$FAULT" "fault-$1" "$(fault_arg "$1")" \
			tests=fips140,dump harness.crypto=fips140
		"$PYTHON" "$S/ktap.py" verdict "$_log" --label "$FAULT@fault-$1"
		"$PYTHON" "$INTEGRITY" initcall-failed "$_log" "${1#initcall}" 0
		;;
	*)
		boot_target "$FAULT" "fault-$1" "$(fault_arg "$1")" \
			tests=fips140,indicator harness.crypto=absent
		"$PYTHON" "$S/ktap.py" verdict "$_log" --label "$FAULT@fault-$1"
		"$PYTHON" "$INTEGRITY" absent "$_log" "$(fault_reason "$1")"
		;;
	esac
}

# A warning from inside the module, reached from the loader through a
# trampoline (fips140_fault=unwind): its stack trace unwinds reliably
# back to the loader.
case_fault_unwind() {
	_log=$(boot_log "$FAULT" fault-unwind)
	boot_target "$FAULT" fault-unwind fips140_fault=unwind \
		tests=fips140,dump harness.crypto=fips140
	"$PYTHON" "$S/ktap.py" verdict "$_log" --label "$FAULT@fault-unwind" \
		--no-log-check
	"$PYTHON" "$INTEGRITY" unwind "$_log"
}

# A module that imports fips140.ko's symbols, loaded while fips140.ko is
# still coming up (fips140_debug_modprobe=md5, after its late level),
# loads at once: no 30 s wait for the end of the module's init.
case_fault_modprobe() {
	_log=$(boot_log "$FAULT" fault-modprobe)
	boot_target "$FAULT" fault-modprobe fips140_debug_modprobe=md5 \
		initcall_debug tests=fips140,dump harness.crypto=fips140
	"$PYTHON" "$S/ktap.py" verdict "$_log" --label "$FAULT@fault-modprobe"
	"$PYTHON" "$INTEGRITY" modprobe-early "$_log" md5 5000
}

# Every x86 driver that has a device table built in (configs/
# fips140-x86.config): fips140.ko links, and with -cpu max each driver
# registers, from fips140.ko, and passes its self-tests.
X86_DRIVERS="aesni ghash-clmulni polyval-clmulni crc32c-intel crc32-pclmul
crct10dif-pclmul sha1-(ssse3|avx|avx2|ni) sha256-(ssse3|avx|avx2|ni)
sha512-(ssse3|avx|avx2)"
case_x86_drivers() {
	for _mode in default fips; do
		section fips140-x86 "$_mode" proc-crypto >"$OUT/fips140-x86/algs-$_mode"
		for _d in $X86_DRIVERS; do
			if grep -Eq "driver=[^ ]*${_d}[^ ]* module=fips140 .*selftest=passed" \
				"$OUT/fips140-x86/algs-$_mode"; then
				echo "PASS x86-drivers@$_mode/$_d"
			else
				echo "FAIL x86-drivers@$_mode/$_d: no $_d driver" \
				     "of fips140 passed its self-test"
			fi
		done
	done
}

# Symbol versions and forced module signatures (configs/fips140-sig.config)
# with crypto modules: the kernel builds and boots, the =m crypto modules
# load signed; fips140-abi-check compares CRCs: the module's own build is
# compatible, the same with one CRC of vmlinux changed is not.
case_sig_abi_crc() {
	"$PYTHON" "$INTEGRITY" abi-crc "$OUT/fips140-sig"
}
case_sig_abi_btf() {
	"$PYTHON" "$INTEGRITY" abi-btf "$OUT/fips140-sig"
}
# Kernel C-sig: fips140-sig's configuration, a changed prototype of a
# function the module imports (tests/patches/abi-prototype.patch), a
# changed layout of a struct vmlinux hands to the module, which no CRC
# covers (tests/patches/abi-struct.patch), and fips140-sig's module: the
# ABI check names both and the build stops.
case_reuse_crc_tree() {
	reuse_tree "$TOP/tests/patches/abi-prototype.patch" \
		"$TOP/tests/patches/abi-struct.patch"
}
case_reuse_crc_break() {
	_log=$REUSE/out/crc/build.log
	reuse_build_fails crc-break crc "$CONFIGS/fips140-modular.config" \
		"$CONFIGS/fips140-sig.config" \
		"$(prebuilt_config crc "$OUT/fips140-sig")" || return 0
	"$PYTHON" "$INTEGRITY" log-has "$_log" "import sg_init_table: CRC 0x" \
		"struct ahash_request: layout differs: member [nbytes @" \
		"does not fit this kernel"
}

# Debian's own config (linux-config-6.12, configs/debian.config lists the
# only trims): the boundary a distribution ships. The stock side is the
# kernel Debian built from the same source and config, its own package
# (scripts/debian-stock.sh), and the crypto objects of its vmlinux a
# golden file from the pristine tree (scripts/golden.sh make debian),
# which must match the installed config.
# The targets are tests/targets/debian{,-stock}.target.
DEBIAN=debian-fips140
GOLDEN=$TOP/tests/golden/debian
case_debian_golden() { "$S/golden.sh" check debian; }
# Debian's kernel was built from the config we start from
config_lines() { grep -E '^(CONFIG_|# CONFIG_)' | LC_ALL=C sort; }
case_debian_stock_config() {
	xz -dc "/usr/src/$LINUX_CONFIG_PKG/config.$(target_key debian config |
		cut -d' ' -f2).xz" |
		config_lines >"$OUT/debian-stock/config.package"
	config_lines <"$OUT/debian-stock/.config" >"$OUT/debian-stock/config.image"
	diff -u "$OUT/debian-stock/config.package" \
		"$OUT/debian-stock/config.image" >&2
	echo "$(wc -l <"$OUT/debian-stock/config.image") option lines"
}
# Nothing of Debian's crypto, keys, integrity, module or kexec options
# differs but the listed trims and the series' own options.
case_debian_boundary() {
	"$PYTHON" "$TOP/tests/host/kconfig_boundary.py" check "$WORK/$SERIES" \
		"$SRC" "$OUT/$DEBIAN/debian.config" "$OUT/$DEBIAN/.config" \
		"$CONFIGS/debian.config" "$CONFIGS/fips140.config" \
		"$OUT/$DEBIAN/signing.config"
}
case_debian_trampolines() { "$PYTHON" "$CHECKS" trampolines "$OUT/$DEBIAN"; }
case_debian_moved() {
	"$PYTHON" "$CHECKS" moved "$GOLDEN/crypto-objects" "$OUT/$DEBIAN" \
		"$TOP/tests/host/fips140-vmlinux-crypto-debian.list"
}
# case_arm64_reach OUT LABEL direct|pointer: how the trampolines of that
# boot reach the module
case_arm64_reach() {
	"$PYTHON" "$INTEGRITY" reach "$(boot_log "$1" "$2")" "$3"
}
case_arm64_far_boot() {
	boot_target arm64-debug far fips140_fault=far harness.crypto=fips140
}
case_arm64_moved() {
	"$PYTHON" "$CHECKS" moved "$OUT/$(target_out arm64-stock)" \
		"$OUT/$(target_out arm64)" \
		"$TOP/tests/host/fips140-vmlinux-crypto-arm64.list"
}
# The =m crypto modules, and only they, carry the crypto-objs-m mark
case_debian_marked() { "$PYTHON" "$CHECKS" marked "$OUT/$DEBIAN"; }
# The certified set each boot shows is the marked modules installed, with
# their digests (tests/guest/certset.c dumps it).
case_debian_certset() {
	for _mode in default fips; do
		"$PYTHON" "$CHECKS" certset "$OUT/$DEBIAN" \
			"$(boot_log "$DEBIAN" "$_mode")" "debian-certset-$_mode"
	done
}
# The same crypto modules (=m) autoloaded by the same guest tests.
crypto_modules() {
	section "$1" "$2" proc-modules | awk '$1 != "fips140" { print $1 }' |
		sort
}
case_debian_same_modules() {
	same_as_stock modules crypto_modules debian-stock "$DEBIAN"
}
case_debian_digest() {
	"$PYTHON" "$INTEGRITY" digest "$OUT/$DEBIAN" \
		"$(boot_log "$DEBIAN" default)" "$(boot_log "$DEBIAN" fips)"
}

## Registry ####################################################################
#
# add_case NAME FUNCTION [NEEDS...]: run FUNCTION as case NAME after the
# cases NEEDS, which must have passed. Cases named on the command line
# bring the cases they need, directly or not. The cases up to TIER=extended
# are CI's (scripts/test.sh with no argument); the rest run with
# --extended (or --all). The fips140 cases above show how to add a kernel
# target.

register_cases() {
	add_case deps case_deps
	add_case shellcheck case_shellcheck deps
	add_case tree case_tree deps
	add_case ktap-parser case_ktap_parser tree
	add_case harness-stop case_harness_stop deps
	add_case checkpatch case_checkpatch tree
	add_target stock
	add_case stock-initcalls-boot case_target_initcalls_boot:stock \
		stock-initramfs
	add_case series case_series tree
	add_target fips140
	add_case fips140-embedded case_target_embedded:fips140 fips140-build
	add_case fips140-moved case_fips140_moved stock-build fips140-build
	add_case fips140-initcalls-boot case_target_initcalls_boot:fips140 \
		fips140-initramfs
	add_case fips140-initcall-order case_initcall_order:stock:fips140 \
		stock-initcalls-boot fips140-initcalls-boot
	for k in stock fips140; do
		add_case "$k-param-boot" "case_param_boot:$k" "$k-initramfs"
		add_case "$k-param-verdict" "case_param_verdict:$k" \
			"~$k-param-boot"
	done
	add_case fips140-digest case_fips140_digest \
		fips140-boot fips140-fips-boot
	for r in $TAMPER_REGIONS; do
		add_case "fips140-tamper-$r" "case_tamper_normal:fips140:$r" \
			fips140-initramfs
		add_case "fips140-tamper-$r-fips" "case_tamper_fips:fips140:$r" \
			fips140-initramfs
	done
	add_case fips140-ro-boot case_target_ro_boot:fips140 fips140-initramfs
	add_case fips140-ro-verdict case_target_ro_verdict:fips140 \
		"~fips140-ro-boot"
	for m in default fips; do
		_n=fips140-probes
		[ $m = default ] || _n=$_n-$m
		add_case "$_n-boot" "case_probes_boot:fips140:$m" fips140-initramfs
		add_case "$_n-verdict" "case_probes_verdict:fips140:$m" "~$_n-boot"
	done
	add_case fips140-approved case_target_approved:fips140 stock-boot \
		stock-fips-boot fips140-boot fips140-fips-boot
	add_case debian-golden case_debian_golden tree
	add_target debian
	add_target debian-stock
	add_case debian-stock-config case_debian_stock_config debian-stock-build
	add_case debian-boundary case_debian_boundary debian-build
	add_case debian-embedded case_target_embedded:debian debian-build
	add_case debian-trampolines case_debian_trampolines debian-build
	add_case debian-moved case_debian_moved debian-golden debian-build
	add_case debian-marked case_debian_marked debian-build
	# The region whose damage made the loader fault before it checked
	add_case debian-tamper-rela case_tamper_normal:debian-fips140:rela \
		debian-initramfs
	add_case debian-tamper-rela-fips case_tamper_fips:debian-fips140:rela \
		debian-initramfs
	add_case debian-same-modules case_debian_same_modules \
		debian-stock-boot debian-stock-fips-boot debian-boot \
		debian-fips-boot
	add_case debian-digest case_debian_digest debian-boot debian-fips-boot
	add_case debian-approved case_target_approved:debian debian-stock-boot \
		debian-stock-fips-boot debian-boot debian-fips-boot
	add_case debian-certset case_debian_certset debian-marked debian-boot \
		debian-fips-boot
	for m in default fips; do
		_n=debian-probes
		[ $m = default ] || _n=$_n-$m
		add_case "$_n-boot" \
			"case_probes_boot:$DEBIAN:$m:forge,service,boundary" \
			debian-initramfs
		add_case "$_n-verdict" "case_probes_verdict:$DEBIAN:$m" \
			"~$_n-boot"
	done
	add_case clients-payload case_clients_payload deps
	add_clients stock stock clients-payload
	add_clients fips140 fips140 clients-payload
	add_case clients-parity clients_parity:stock:fips140:clients \
		stock-clients-boot fips140-clients-boot
	# The same on the debian target, against Debian's own kernel
	add_clients debian-stock debian-stock clients-payload
	add_clients debian "$DEBIAN" clients-payload
	add_case debian-clients-parity \
		"clients_parity:debian-stock:$DEBIAN:debian-clients" \
		debian-stock-clients-boot debian-clients-boot

	# A real update: the module certified on 6.12.117, on 6.12.118
	add_target certified
	add_case certified-set case_certified_set certified-build
	add_target update
	add_case update-checks case_update_checks update-build
	add_case update-identity case_update_identity update-boot \
		update-fips-boot
	add_case update-certset case_update_certset update-boot \
		update-fips-boot
	# The update kernel, with the certified module of 6.12.117
	add_clients update "$UPDATE" clients-payload
	add_case update-clients-parity \
		"clients_parity:stock:$UPDATE:update-clients" \
		stock-clients-boot update-clients-boot
	add_target update-dual
	TIER=extended
	add_case update-dual-identity case_update_dual_identity \
		update-dual-boot update-dual-fips-boot
	TIER=ci
	# Last: it builds the update again, with sets it must refuse
	add_case update-refusals case_update_refusals update-build \
		fips140-build update-identity update-clients-boot

	# arm64: the fragment pair, cross-built, in qemu-system-aarch64
	add_target arm64-stock
	add_target arm64
	add_case arm64-moved case_arm64_moved arm64-stock-build arm64-build
	add_case arm64-embedded "case_target_embedded:arm64" arm64-build
	for t in arm64-stock arm64; do
		add_case "$t-initcalls-boot" "case_target_initcalls_boot:$t" \
			"$t-initramfs"
	done
	add_case arm64-initcall-order case_initcall_order:arm64-stock:arm64 \
		arm64-stock-initcalls-boot arm64-initcalls-boot
	add_case arm64-reach "case_arm64_reach:arm64:default:direct" arm64-boot
	add_case arm64-ro-boot case_target_ro_boot:arm64 arm64-initramfs
	add_case arm64-ro-verdict case_target_ro_verdict:arm64 "~arm64-ro-boot"
	add_case arm64-tamper-text case_tamper_normal:arm64:text arm64-initramfs
	add_case arm64-tamper-text-fips case_tamper_fips:arm64:text \
		arm64-initramfs
	# Debian's arm64 clients on both (deps.sh unpacks them)
	add_case arm64-clients-payload case_arm64_clients_payload deps
	add_clients arm64-stock arm64-stock arm64-clients-payload
	add_clients arm64 arm64 arm64-clients-payload
	add_case arm64-clients-parity clients_parity:arm64-stock:arm64:arm64-clients \
		arm64-stock-clients-boot arm64-clients-boot

	# Outside CI from here (scripts/test.sh --extended), for CI's time:
	# crypto =m next to fips140.ko, with the debug hooks: each step of
	# bringing the module up made to fail, in both modes (the crypto
	# modules of Debian's config, and its trampolines, are CI's)
	TIER=extended
	add_target modular
	add_case modular-trampolines case_modular_trampolines modular-build
	add_case fips140-no-debug case_fips140_no_debug fips140-build \
		modular-build
	add_case modular-inject-failure case_modular_inject_failure \
		modular-initramfs
	for f in $FAULT_STEPS; do
		# The module's integrity self-test runs with fips=1 only (the
		# loader's image check stands for it otherwise: digest cases)
		[ "$f" = integrity ] ||
			add_case "fault-$f" "case_fault_normal:$f" modular-initramfs
		add_case "fault-$f-fips" "case_fault_fips:$f" modular-initramfs
	done
	add_case fault-unwind case_fault_unwind modular-initramfs
	add_case fault-modprobe case_fault_modprobe modular-initramfs

	# The other fragment kernels and the reuse builds, about 45 minutes
	# of builds
	add_target off
	add_case off-same-kernel case_off_same_kernel stock-build off-build
	add_case reuse-repro-tree case_reuse_repro_tree tree
	add_case reuse-repro-build case_reuse_repro_build reuse-repro-tree
	add_case reuse-reproducible case_reuse_reproducible \
		fips140-build reuse-repro-build
	add_case reuse-certified-build case_reuse_certified_build \
		fips140-build
	add_case reuse-outside-tree case_reuse_outside_tree tree
	add_case reuse-missing-prebuilt case_reuse_missing_prebuilt \
		reuse-outside-tree
	add_case reuse-outside-build case_reuse_outside_build \
		reuse-certified-build reuse-outside-tree
	add_case reuse-outside-checks case_reuse_outside_checks \
		reuse-outside-build
	add_case reuse-outside-initramfs case_reuse_outside_initramfs \
		reuse-outside-build
	add_case reuse-outside-boot case_reuse_outside_boot \
		reuse-outside-initramfs
	add_case reuse-outside-fips-boot case_reuse_outside_fips_boot \
		reuse-outside-initramfs
	add_case reuse-modular-build case_reuse_modular_build \
		modular-build reuse-outside-tree
	add_case reuse-modular-checks case_reuse_modular_checks \
		reuse-modular-build
	add_case reuse-modular-initramfs case_reuse_modular_initramfs \
		reuse-modular-build
	add_case reuse-modular-boot case_reuse_modular_boot \
		reuse-modular-initramfs
	add_case reuse-dual-build case_reuse_dual_build \
		reuse-certified-build reuse-outside-tree
	add_case reuse-dual-initramfs case_reuse_dual_initramfs \
		reuse-dual-build
	add_case reuse-dual-boot case_reuse_dual_boot reuse-dual-initramfs
	add_case reuse-dual-fips-boot case_reuse_dual_fips_boot \
		reuse-dual-initramfs
	add_case reuse-abi-tree case_reuse_abi_tree tree
	add_case reuse-abi-break case_reuse_abi_break \
		reuse-certified-build reuse-abi-tree
	add_target x86
	# arm64: every trampoline through its pointer (fips140_fault=far)
	add_target arm64-debug
	add_case arm64-debug-initramfs case_target_initramfs:arm64-debug \
		arm64-debug-build
	add_case arm64-far-boot case_arm64_far_boot arm64-debug-initramfs
	add_case arm64-far-verdict case_target_verdict:arm64-debug:far \
		"~arm64-far-boot"
	add_case arm64-far-reach "case_arm64_reach:arm64-debug:far:pointer" \
		arm64-far-boot
	add_case x86-drivers case_x86_drivers x86-boot x86-fips-boot
	add_target sig
	add_case sig-abi-crc case_sig_abi_crc sig-build
	add_case sig-abi-btf case_sig_abi_btf sig-build
	add_case reuse-crc-tree case_reuse_crc_tree tree
	add_case reuse-crc-break case_reuse_crc_break sig-build reuse-crc-tree
}

## The runner ##################################################################

CASES=
NAMES=' '	# the names of the cases added so far
TIER=ci
# add_case NAME FUNCTION [NEEDS...], in tier $TIER. Cases run in the
# order they are added, so each of NEEDS must have been added before. A
# need ~CASE runs before, but its failure does not stop this case (a
# verdict says what went wrong with a boot that failed).
add_case() {
	_entry="$TIER $*"
	_case=$1
	shift 2
	for _need in "$@"; do
		case $NAMES in *" ${_need#\~} "*) ;; *)
			die "case $_case needs $_need, which is not added before it"
		esac
	done
	CASES="$CASES$_entry
"
	NAMES="$NAMES$_case "
}

# step_fn TARGET CASE GENERIC[:ARG]: the function of TARGET's case
# TARGET-CASE: case_TARGET_CASE ("-" as "_") where test.sh defines it,
# else the generic case_target_GENERIC, with TARGET (and ARG).
step_fn() {
	_fn=case_$(echo "$1-$2" | tr - _)
	if type "$_fn" >/dev/null 2>&1; then
		echo "$_fn"
	else
		_g=$3
		case $_g in
		*:*) echo "case_target_${_g%%:*}:$1:${_g#*:}" ;;
		*) echo "case_target_$_g:$1" ;;
		esac
	fi
}

# add_comparison TARGET: TARGET's boots against those of its "compare"
# target: the same algorithms, refusals, /proc/sys/crypto and FIPS
# self-tests.
add_comparison() {
	_cmp=$(target_key "$1" compare)
	# case, and what same_as_stock compares: EXT:FN
	for _c in same-algs:algs:algs same-refusals:af-alg-bind:af_alg_bind \
		same-proc-sys-crypto:proc-sys-crypto:proc_sys_crypto; do
		add_case "$1-${_c%%:*}" \
			"$(step_fn "$1" "${_c%%:*}" "same:${_c#*:}")" \
			"$_cmp-boot" "$_cmp-fips-boot" "$1-boot" "$1-fips-boot"
	done
	add_case "$1-selftests" "$(step_fn "$1" selftests selftests)" \
		"$_cmp-fips-boot" "$1-fips-boot"
}

# add_target TARGET: the cases of tests/targets/TARGET.target, in its
# tier: build, initramfs, a boot and its verdict per mode (a verdict
# also runs after a failed boot: it says what went wrong), and the
# comparisons with its "compare" target, as soon as both are added.
COMPARING=' '	# targets added whose comparisons wait for the other one
# add_clients NAME OUT PAYLOAD: the cases NAME-clients-{initramfs,boot,
# verdict} of target NAME, whose build directory is OUT, with the clients
# of case PAYLOAD
add_clients() {
	add_case "$1-clients-initramfs" "clients_initramfs:$2" "$1-build" "$3"
	add_case "$1-clients-boot" "clients_boot:$2" "$1-clients-initramfs"
	add_case "$1-clients-verdict" "verdict_target:$2:clients" \
		"~$1-clients-boot"
}

add_target() {
	_tier=$TIER
	TIER=$(target_key "$1" tier ci)
	case $(target_key "$1" tree) in
	pristine) _tree=tree ;;
	series) _tree=series ;;
	package) _tree= ;;
	*) die "$TARGETS/$1.target: tree is pristine, series or package" ;;
	esac
	_version=$(target_key "$1" version)
	if [ -n "$_version" ] && [ -n "$_tree" ]; then
		_v=${_version%%-*}
		case $NAMES in *" tree-$_v "*) ;; *)
			add_case "tree-$_v" "case_tree_version:$_version" deps
			add_case "series-$_v" "case_series_version:$_version" \
				"tree-$_v"
		esac
		_tree=$_tree-$_v
	fi
	# shellcheck disable=SC2046,SC2086 # lists of case names
	add_case "$1-build" "$(step_fn "$1" build build)" $_tree \
		$(target_key "$1" needs)
	_modes=$(target_key "$1" modes "default fips")
	if [ "$_modes" = none ]; then
		TIER=$_tier
		return
	fi
	add_case "$1-initramfs" "$(step_fn "$1" initramfs initramfs)" \
		"$1-build"
	for _mode in $_modes; do
		_c=$1
		[ "$_mode" = default ] || _c=$1-$_mode
		add_case "$_c-boot" \
			"$(step_fn "$1" "${_c#"$1"}-boot" "boot:$_mode")" \
			"$1-initramfs"
		add_case "$_c-verdict" \
			"$(step_fn "$1" "${_c#"$1"}-verdict" "verdict:$_mode")" \
			"~$_c-boot"
	done
	[ -z "$(target_key "$1" compare)" ] || COMPARING="$COMPARING$1 "
	for _t in $COMPARING; do
		case $NAMES in *" $(target_key "$_t" compare)-boot "*) ;; *)
			continue
		esac
		case $NAMES in *" $_t-boot "*) ;; *) continue ;; esac
		add_comparison "$_t"
		COMPARING=$(echo "$COMPARING" | sed "s/ $_t / /")
	done
	TIER=$_tier
}

passed=0
failed=0
skipped=0
ran=' '		# cases run so far
good=' '	# cases passed so far

# result PASS|FAIL NAME [REASON]
result() {
	if [ "$1" = PASS ]; then
		passed=$((passed + 1))
		echo "PASS $2${3:+ ($3)}"
	else
		failed=$((failed + 1))
		echo "FAIL $2: ${3:-failed}"
		echo "FAIL $2: ${3:-failed} (log: $OUT/test/$_name.out)" \
			>>"$OUT/test/failed"
	fi
}

# record NAME STATUS SECONDS RESULTS: the line of case NAME in
# $OUT/test/results.json, after those of its own results (record_result)
record() {
	printf '{"case": "%s", "status": "%s", "seconds": %s, "results": %s}\n' \
		"$@" >>"$OUT/test/results.json"
}
# record_result CASE LINE: a line of $OUT/test/results.json for a result
# CASE printed ("PASS name (detail)", "FAIL name: why", "SKIP ...")
record_result() {
	_status=$(echo "${2%% *}" | tr '[:upper:]' '[:lower:]')
	printf '{"result": "%s", "status": "%s", "case": "%s"}\n' \
		"$(printf '%s' "${2#* }" | sed 's/\\/\\\\/g; s/"/\\"/g; s/\t/ /g')" \
		"$_status" "$1" >>"$OUT/test/results.json"
}

# run_case NAME FUNCTION [NEEDS...]
run_case() {
	_name=$1 _fn=$2
	shift 2
	for _need in "$@"; do
		case $_need in "~"*) continue ;; esac
		case $ran in *" $_need "*) ;; *) continue ;; esac
		case $good in *" $_need "*) continue ;; esac
		ran="$ran$_name "
		result FAIL "$_name" "not run: $_need failed"
		record "$_name" "not-run" 0 0
		return
	done
	log "case $_name"
	_out=$OUT/test/$_name.out
	_start=$(date +%s)
	# In the background, so that errexit applies inside the function
	# (it does not in a subshell that is part of an || list). FUNCTION
	# may be FUNCTION:ARG:...: the function, called with the ARGs.
	# shellcheck disable=SC2046 # the function and its arguments
	(IFS=:; set -- $(printf '%s' "$_fn"); unset IFS; "$@") >"$_out" &
	_rc=0
	wait $! || _rc=$?
	_own=0 _ownfail=0
	while IFS= read -r _line; do
		case $_line in
		"PASS "*)
			passed=$((passed + 1)) _own=$((_own + 1))
			record_result "$_name" "$_line"
			echo "$_line" ;;
		"SKIP "*)
			skipped=$((skipped + 1)) _own=$((_own + 1))
			record_result "$_name" "$_line"
			echo "$_line" ;;
		"FAIL "* | "     |"*)
			case $_line in "FAIL "*)
				failed=$((failed + 1)) _own=$((_own + 1))
				_ownfail=1
				record_result "$_name" "$_line"
				echo "$_line (log: $_out)" >>"$OUT/test/failed" ;;
			esac
			echo "$_line" ;;
		*) echo "    $_line" ;;
		esac
	done <"$_out"
	_took=$(elapsed "$_start")
	if [ "$_own" = 0 ]; then
		if [ "$_rc" = 0 ]; then
			result PASS "$_name" "$_took"
		else
			result FAIL "$_name" "exit status $_rc after $_took"
		fi
	elif [ "$_rc" != 0 ] && [ "$_ownfail" = 0 ]; then
		result FAIL "$_name" "exit status $_rc after $_took"
	else
		log "case $_name: $_own results in $_took"
	fi
	ran="$ran$_name "
	if [ "$_rc" = 0 ] && [ "$_ownfail" = 0 ]; then
		good="$good$_name "
		record "$_name" pass "${_took%s}" "$_own"
	else
		record "$_name" fail "${_took%s}" "$_own"
	fi
}

# with_needs CASE...: the cases named and every case they need, directly
# or not, one a line, in registry order.
with_needs() {
	printf '%s' "$CASES" | awk -v want=" $* " '
	{ line[NR] = $0; name[NR] = $2 }
	END {
		do {
			more = 0
			for (i = NR; i >= 1; i--) {
				if (index(want, " " name[i] " ") == 0)
					continue
				n = split(line[i], f, " ")
				for (j = 4; j <= n; j++) {
					sub(/^~/, "", f[j])
					if (index(want, " " f[j] " ") == 0) {
						want = want f[j] " "
						more = 1
					}
				}
			}
		} while (more)
		for (i = 1; i <= NR; i++)
			if (index(want, " " name[i] " "))
				print name[i]
	}'
}

# One run at a time: a second one would build into the same trees.
# The lock is held on file descriptor 9 until the run ends.
take_lock() {
	mkdir -p "$WORK"
	_lock=$WORK/.test.lock
	exec 9>>"$_lock"
	flock -n 9 ||
		die "another test.sh is running (pid $(cat "$_lock.pid" \
			2>/dev/null || echo unknown), lock $_lock): wait for it," \
		    "or stop it with kill"
	echo $$ >"$_lock.pid"
}

# Ctrl-C, kill or hang-up (lib.sh's stopped_by, after stopping every
# build and guest of this run): the closing line, the case cut short
# counted as failed
stopped_report() {
	echo "$passed passed, $((failed + 1)) failed (stopped by signal $1)"
}

# What a CI run writes under $WORK (2026-12-05: the pristine tree 1.9 GB,
# the series worktree 1.7 GB, the kernels 2.4 GB, Debian's package 0.2
# GB) and ccache's share (about 2 GB cold), with a margin.
NEED_GB=${FIPS140_NEED_GB:-10}
check_disk() {
	mkdir -p "$WORK"
	_free=$(df -Pk "$WORK" | awk 'NR == 2 { print int($4 / 1048576) }')
	[ "$_free" -ge "$NEED_GB" ] ||
		die "$WORK has ${_free} GB free; the suite needs about" \
		    "$NEED_GB GB (FIPS140_NEED_GB overrides): free some space"
}

usage() {
	die "usage: test.sh [--list] [--extended | --all | [--target TARGET |" \
	    "CASE-OR-GLOB]...] | --mutate [MUTATION...] | --sweep N [SEED]" \
	    "| --reuse-window [VERSION...] | --bisect [FIRST [LAST]]"
}

# target_cases TARGET: the cases of TARGET: those named TARGET-..., but
# not those of a target with a longer name (debian-stock-boot is
# debian-stock's, not debian's)
target_cases() {
	_others=$(target_names | awk -v t="$1" 'length($0) > length(t) &&
			substr($0, 1, length(t) + 1) == t "-"')
	printf '%s' "$CASES" | awk -v t="$1" -v others="$_others" '
		BEGIN { n = split(others, o, "\n") }
		substr($2, 1, length(t) + 1) == t "-" {
			for (i = 1; i <= n; i++)
				if (substr($2, 1, length(o[i]) + 1) == o[i] "-")
					next
			print $2
		}'
}

# matching_cases PATTERN: the cases whose names match shell PATTERN
matching_cases() {
	printf '%s' "$CASES" | while read -r _tier _name _rest; do
		# shellcheck disable=SC2254 # PATTERN is a pattern
		case $_name in $1) echo "$_name" ;; esac
	done
}

main() {
	register_cases
	tiers=ci
	list=
	[ "${1:-}" != --list ] || { list=1; shift; }
	case ${1:-} in
	--mutate) shift; exec "$S/mutate.sh" "$@" ;;
	--sweep) shift; exec "$S/sweep.sh" "$@" ;;
	--reuse-window) shift; exec "$S/reuse-window.sh" "$@" ;;
	--bisect) shift; exec "$S/bisect-series.sh" "$@" ;;
	--extended) tiers=extended; shift ;;
	--all) tiers="ci extended"; shift ;;
	-*) usage ;;
	esac
	# CASE-OR-GLOB and --target TARGET, in any order
	_sel=
	_target=
	for _arg in "$@"; do
		if [ "$_arg" = --target ]; then
			_target=1
			continue
		elif [ -n "$_target" ]; then
			[ -r "$TARGETS/$_arg.target" ] || die "no target $_arg" \
				"(tests/targets: $(target_names | tr '\n' ' '))"
			_m=$(target_cases "$_arg")
			_target=
		else
			_m=$(matching_cases "$_arg")
		fi
		[ -n "$_m" ] ||
			die "no case matches $_arg (see scripts/test.sh --list)"
		_sel="$_sel $(echo "$_m" | tr '\n' ' ')"
	done
	[ -z "$_target" ] || usage
	# shellcheck disable=SC2086 # a list of case names
	[ $# = 0 ] || set -- $_sel
	if [ $# = 0 ]; then
		[ -z "$list" ] || tiers="ci extended"
		# shellcheck disable=SC2046 # a list of case names
		set -- $(printf '%s' "$CASES" | awk -v t=" $tiers " \
			'index(t, " " $1 " ") { print $2 }')
	fi
	selected=" $(with_needs "$@" | tr '\n' ' ')"
	if [ -n "$list" ]; then
		printf '%s' "$CASES" | awk -v sel="$selected" '
			index(sel, " " $2 " ") { t = $1; n = $2; $1 = $2 = $3 = ""
			sub(/^ +/, ""); print n " [" t "]" \
				($0 == "" ? "" : "  (needs " $0 ")") }'
		return
	fi
	take_lock
	check_disk
	stop_on_signals test.sh
	mkdir -p "$OUT/test"
	rm -f "$OUT/test/results.json" "$OUT/test/failed"
	start=$(date +%s)
	printf '%s' "$CASES" >"$OUT/test/cases"
	while read -r _tier _name _fn _needs; do
		case $selected in *" $_name "*) ;; *) continue ;; esac
		# shellcheck disable=SC2086 # a list of case names
		run_case "$_name" "$_fn" $_needs </dev/null
	done <"$OUT/test/cases"
	log "test.sh: $(elapsed "$start") in all; per case:" \
	    "$OUT/test/results.json"
	if [ -s "$OUT/test/failed" ]; then
		echo "The failed results:"
		cat "$OUT/test/failed"
	fi
	# A skip is neither a pass nor a failure: counted apart, when any
	_skips=
	[ "$skipped" = 0 ] || _skips=", $skipped skipped"
	echo "$passed passed, $failed failed$_skips"
	[ "$failed" = 0 ]
}

main "$@"
