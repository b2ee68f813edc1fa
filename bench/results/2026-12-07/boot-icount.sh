#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# boot-icount.sh RESULTS-DIR [SEEDS]
#
# The boots behind boot-icount.md: the suite's stock and fips140 fragment
# kernels (built by scripts/test.sh in $FIPS140_WORK, default build/),
# each booted with the same initramfs (stock's: fips140's also holds a
# copy of fips140.ko, 400 KiB more to unpack), under
# "-icount shift=3,sleep=off" with the RTC on the virtual clock from a
# fixed base ("-rtc base=...,clock=vm"). Each boot is then the same every
# time (QEMU's RTC otherwise starts from the host's clock, and the boots
# vary by a second). The seconds of the base, 0 to SEEDS-1 (default 8),
# vary the start as the host's clock does, one boot per seed, kernel and
# mode: cryptomgr.notests=1, normal, fips=1. The logs go to RESULTS-DIR;
# boot_icount.py reads them.
# Other kernels (loader-profile.md's Debian figures): FIPS140_ICOUNT_PAIR
# "STOCK FIPS140", two build directories (default "stock fips140"), each
# then booting its own initramfs (Debian's modules are built for their
# own kernel); FIPS140_ICOUNT_MODES (default "notests normal fips");
# FIPS140_QEMU_CPU as for boot.sh.
set -eu
cd "$(dirname "$0")/../../.."
out=${FIPS140_WORK:-build}/out
res=${1:?usage: boot-icount.sh RESULTS-DIR [SEEDS]}
seeds=${2:-8}
pair=${FIPS140_ICOUNT_PAIR:-stock fips140}
modes=${FIPS140_ICOUNT_MODES:-notests normal fips}
stock_out=${pair%% *}
fips140_out=${pair#* }

mkdir -p "$res"
s=0
while [ "$s" -lt "$seeds" ]; do
	for mode in $modes; do
		case $mode in
		notests) arg=cryptomgr.notests=1 ;;
		normal) arg= ;;
		fips) arg=fips=1 ;;
		esac
		for k in stock fips140; do
			crypto=fips140 dir=$fips140_out
			[ "$k" != stock ] || crypto=kernel dir=$stock_out
			initramfs=$out/$stock_out/initramfs.cpio.gz
			[ "$pair" = "stock fips140" ] ||
				initramfs=$out/$dir/initramfs.cpio.gz
			# shellcheck disable=SC2086 # no argument in normal mode
			FIPS140_QEMU_ARGS="-icount shift=3,sleep=off -rtc base=2025-01-01T00:00:$(printf %02d "$s"),clock=vm" \
			FIPS140_BOOT_TIMEOUT=1800 scripts/boot.sh \
				"$out/$dir/arch/x86/boot/bzImage" \
				"$initramfs" "$res/$mode-$k-$s.log" \
				tests=dump harness.crypto=$crypto $arg >/dev/null 2>&1 ||
				echo "boot failed: $res/$mode-$k-$s.log"
		done
	done
	s=$((s + 1))
done
