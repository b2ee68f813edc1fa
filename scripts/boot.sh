#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# boot.sh BZIMAGE INITRAMFS LOGFILE [KERNEL-ARG...]
#
# Boot BZIMAGE with INITRAMFS in qemu-system-x86_64, or for
# FIPS140_ARCH=arm64 an arm64 Image in qemu-system-aarch64's virt machine
# (lib.sh), with one vCPU, no reboot:
# the guest's reboot -f or a panic ends QEMU), serial console saved to
# LOGFILE. Extra arguments are appended to the kernel command line
# (e.g. fips=1, tests=hash,rng, initcall_debug).
# Fails, showing the last 40 lines of the log, when the guest hangs (the
# timeout), panics, never reaches /init, or does not reach the end of run.
# FIPS140_BOOT_EXPECT=panic turns the last checks around: the boot passes
# only when the guest panicked (tests of failure paths).
# BZIMAGE may also be an uncompressed vmlinux (QEMU boots it through PVH,
# CONFIG_PVH in base.config).
# Environment: FIPS140_BOOT_TIMEOUT (seconds, default 120),
# FIPS140_ACCEL (tcg, the default, or kvm), FIPS140_MEM (default 512M),
# FIPS140_SMP (default 1), FIPS140_QEMU_CPU (default: QEMU's on x86_64,
# max on arm64, whose virt machine defaults to a 32-bit CPU),
# FIPS140_QEMU_ARGS (more QEMU options, e.g. "-icount shift=3,sleep=off").
set -eu
. "$(dirname "$0")/lib.sh"

INIT_MARK='fips140-harness: init started'
END_MARK='fips140-harness: end of run'

fail() {
	echo "boot: FAILED: $*" >&2
	echo "--- last 40 lines of $log:" >&2
	tail -n 40 "$log" >&2
	echo "---" >&2
	exit 1
}

main() {
	[ $# -ge 3 ] || die "usage: boot.sh BZIMAGE INITRAMFS LOGFILE [KERNEL-ARG...]"
	bzimage=$1
	initramfs=$2
	log=$3
	shift 3
	[ -r "$bzimage" ] || die "no kernel image $bzimage"
	[ -r "$initramfs" ] || die "no initramfs $initramfs"
	secs=${FIPS140_BOOT_TIMEOUT:-120}
	accel=${FIPS140_ACCEL:-tcg}
	cmdline="console=$CONSOLE panic=-1 $*"
	mkdir -p "$(dirname "$log")"
	: >"$log"
	# shellcheck disable=SC2086 # options, split into words
	set -- $QEMU_MACHINE -accel "$accel" -m "${FIPS140_MEM:-512M}" \
		-smp "${FIPS140_SMP:-1}" -nodefaults -display none -no-reboot \
		-serial "file:$log" -kernel "$bzimage" -initrd "$initramfs" \
		-append "$cmdline"
	cpu=${FIPS140_QEMU_CPU:-}
	[ "$KARCH" != arm64 ] || cpu=${cpu:-max}
	if [ -n "$cpu" ]; then
		set -- "$@" -cpu "$cpu"
	fi
	# shellcheck disable=SC2086 # options, split into words
	set -- "$@" ${FIPS140_QEMU_ARGS:-}
	log "boot: $(basename "$bzimage") [$cmdline] ($accel, timeout ${secs}s) -> $log"
	start=$(date +%s)
	rc=0
	timeout -k 5 "$secs" "$QEMU" "$@" </dev/null \
		>"$log.qemu" 2>&1 || rc=$?
	took=$(elapsed "$start")
	if [ "$rc" = 124 ] || [ "$rc" = 137 ]; then
		fail "guest did not finish within ${secs}s (hang?)"
	fi
	if [ "$rc" != 0 ]; then
		cat "$log.qemu" >&2
		fail "$QEMU exited with status $rc after $took"
	fi
	if [ "${FIPS140_BOOT_EXPECT:-end}" = panic ]; then
		grep -q 'Kernel panic' "$log" ||
			fail "expected a kernel panic, there was none ($took)"
		log "boot: panicked as expected in $took: $(grep -m1 'Kernel panic' "$log")"
		return
	fi
	if grep -q 'Kernel panic' "$log"; then
		fail "kernel panic after $took: $(grep -m1 'Kernel panic' "$log")"
	fi
	grep -q "$INIT_MARK" "$log" || fail "guest never reached /init ($took)"
	grep -q "$END_MARK" "$log" ||
		fail "guest stopped before the end of the test run ($took)"
	log "boot: done in $took"
}

main "$@"
