#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# shellcheck shell=sh
#
# dm-crypt throughput for scripts/bench.sh (not a correctness test):
# cryptsetup from the clients payload (/extra, scripts/clients.sh) maps a
# ramdisk (brd.rd_size on the command line) with plain aes-xts-plain64;
# dd writes BENCH_MIB MiB of zeros through it (fsync'd) and, with the page
# cache dropped, reads them back. dm-crypt is vmlinux code: on the fips140
# kernel its crypto calls go through the trampolines. Each figure is a
# line "# bench NAME VALUE UNIT" and a KTAP result.
BENCH_MIB=64

cp -R /extra/root/. /
export DM_DISABLE_UDEV=1
mkdir -p /run/cryptsetup

# seconds OUTPUT-OF-DD: the seconds busybox dd reports
seconds() {
	sed -n 's/.* copied, \([0-9.]*\) seconds.*/\1/p' "$1"
}

# figure NAME DD-OUTPUT: MB/s of BENCH_MIB MiB in the seconds dd reports
figure() {
	_s=$(seconds "$2")
	if [ -z "$_s" ]; then
		sed 's/^/# /' "$2"
		echo "not ok $3 $1"
		return
	fi
	echo "# bench $1 $(awk -v s="$_s" -v m="$BENCH_MIB" \
		'BEGIN { printf "%.3f", m * 1048576 / s / 1e6 }') MB/s"
	echo "ok $3 $1"
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
dd if=/dev/zero of=/dev/mapper/bench bs=1M count=$BENCH_MIB conv=fsync \
	2>/tmp/dd.write
figure dm-crypt/write /tmp/dd.write 1
echo 3 >/proc/sys/vm/drop_caches
dd if=/dev/mapper/bench of=/dev/null bs=1M count=$BENCH_MIB 2>/tmp/dd.read
figure dm-crypt/read /tmp/dd.read 2
cryptsetup --disable-locks close bench
