#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# shellcheck shell=sh
#
# dm-crypt throughput for scripts/bench.sh (not a correctness test):
# cryptsetup from the clients payload (/extra, scripts/clients.sh) maps a
# ramdisk (brd.rd_size on the command line) with plain aes-xts-plain64;
# dd writes BENCH_MIB MiB of zeros through it (fsync'd) and, with the page
# cache dropped, reads them back, timed by /proc/uptime. dm-crypt is vmlinux code: on the fips140
# kernel its crypto calls go through the trampolines. Each figure is a
# line "# bench NAME VALUE UNIT" and a KTAP result.
BENCH_MIB=64

cp -R /extra/root/. /
export DM_DISABLE_UDEV=1
mkdir -p /run/cryptsetup

# now: seconds since boot, from /proc/uptime (busybox dd does not say
# how long it took)
now() {
	cut -d' ' -f1 /proc/uptime
}

# timed_dd NAME TESTNUM DD-ARG...: dd, timed; its MB/s as a figure
timed_dd() {
	_name=$1 _num=$2
	shift 2
	_t0=$(now)
	if ! dd "$@" bs=1M count=$BENCH_MIB 2>/tmp/dd.err; then
		sed 's/^/# /' /tmp/dd.err
		echo "not ok $_num $_name"
		return
	fi
	echo "# bench $_name $(awk -v a="$_t0" -v b="$(now)" -v m="$BENCH_MIB" \
		'BEGIN { printf "%.3f", m * 1048576 / (b - a) / 1e6 }') MB/s"
	echo "ok $_num $_name"
}

echo "KTAP version 1"
echo "1..2"
head -c 64 /extra/inputs/luks.key >/tmp/bench.key
# The kernel has no file locking (tinyconfig): --disable-locks
if ! cryptsetup --disable-locks open --type plain \
	--cipher aes-xts-plain64 --key-size 512 --key-file /tmp/bench.key \
	/dev/ram0 bench; then
	echo "not ok 1 dm-crypt/write"
	echo "not ok 2 dm-crypt/read"
	exit 1
fi
timed_dd dm-crypt/write 1 if=/dev/zero of=/dev/mapper/bench conv=fsync
echo 3 >/proc/sys/vm/drop_caches
timed_dd dm-crypt/read 2 if=/dev/mapper/bench of=/dev/null
cryptsetup --disable-locks close bench
