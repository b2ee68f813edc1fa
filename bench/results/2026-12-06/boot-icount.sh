#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# boot-icount.sh RESULTS-DIR
#
# The boots behind boot-icount.md: the suite's stock and fips140 fragment
# kernels (built by scripts/test.sh in $FIPS140_WORK, default build/),
# booted 9 times each, interleaved, under "-icount shift=3,sleep=off"
# with initcall_debug and the dump guest test, then once each with
# fips=1. The logs go to RESULTS-DIR.
set -eu
cd "$(dirname "$0")/../../.."
out=${FIPS140_WORK:-build}/out
res=${1:?usage: boot-icount.sh RESULTS-DIR}

# boot KERNEL LOG KERNEL-ARG...
boot() {
	_k=$1 _log=$2
	shift 2
	FIPS140_QEMU_ARGS="-icount shift=3,sleep=off" FIPS140_BOOT_TIMEOUT=900 \
		scripts/boot.sh "$out/$_k/arch/x86/boot/bzImage" \
		"$out/$_k/initramfs.cpio.gz" "$_log" "$@" >/dev/null 2>&1 ||
		echo "boot failed: $_log"
}

mkdir -p "$res"
for i in 1 2 3 4 5 6 7 8 9; do
	boot stock "$res/normal-stock-$i.log" initcall_debug tests=dump \
		harness.crypto=kernel
	boot fips140 "$res/normal-fips140-$i.log" initcall_debug tests=dump \
		harness.crypto=fips140
done
boot stock "$res/fips-stock-1.log" initcall_debug tests=dump \
	harness.crypto=kernel fips=1 log_buf_len=4M
boot fips140 "$res/fips-fips140-1.log" initcall_debug tests=dump \
	harness.crypto=fips140 fips=1 log_buf_len=4M
