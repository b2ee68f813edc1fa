#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# loader-profile.sh RESULTS-DIR
#
# The boots behind loader-profile.md: the fragment fips140 kernel with
# loader-profile.patch (this directory) on top of the series, built by
# scripts/test.sh in its own work directory (FIPS140_WORK, default
# build/loader-profile: the suite's trees and kernels are left alone),
# booted once with cryptomgr.notests=1 and once with fips=1, under
# "-icount shift=3,sleep=off" with the RTC on the virtual clock
# (boot-icount.sh: each boot is then the same every time). The patch
# prints "profile: STEP: N us" after each step of load_module() and of
# the loader's plug-in; the logs go to RESULTS-DIR.
set -eu
here=$(cd "$(dirname "$0")" && pwd)
cd "$here/../../.."
res=${1:?usage: loader-profile.sh RESULTS-DIR}
work=${FIPS140_WORK:-$PWD/build/loader-profile}

mkdir -p "$res"
FIPS140_WORK=$work FIPS140_SERIES_EXTRA=$here/loader-profile.patch \
	scripts/test.sh stock-initramfs fips140-build
for mode in notests fips; do
	arg=cryptomgr.notests=1
	[ "$mode" = notests ] || arg=fips=1
	FIPS140_QEMU_ARGS="-icount shift=3,sleep=off -rtc base=2025-01-01T00:00:00,clock=vm" \
	FIPS140_BOOT_TIMEOUT=1800 scripts/boot.sh \
		"$work/out/fips140/arch/x86/boot/bzImage" \
		"$work/out/stock/initramfs.cpio.gz" "$res/profile-$mode.log" \
		tests=dump harness.crypto=fips140 "$arg" >/dev/null
	grep -E 'profile:|fips140: (image check|integrity check|loaded)' \
		"$res/profile-$mode.log"
done
