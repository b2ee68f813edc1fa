#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# deps.sh [--list] run|test|bench
#
# The Debian 12 packages the main job (run), the test suite (test) or the
# benchmarks (bench) need:
# installs the missing ones with apt-get (as root), or prints the list
# (--list). linux-source-6.12 itself is installed by tree.sh, pinned.
set -eu
. "$(dirname "$0")/lib.sh"

# Kernel build, guest tests, initramfs, QEMU, verdict (the host checks
# read ELF files with pyelftools and compute reference results with
# cryptography).
RUN_PKGS="git xz-utils make gcc libc6-dev linux-libc-dev bc bison flex
libelf-dev libssl-dev openssl kmod cpio ccache busybox-static
qemu-system-x86 python3 python3-pyelftools python3-cryptography"
# The test suite also lints the scripts, builds a kernel with BTF
# (pahole, from dwarves), runs Debian's crypto clients in the guests, and
# holds a lock (flock, util-linux) and stops its children (pgrep, procps).
# The arm64 targets are cross-built and boot in qemu-system-aarch64.
TEST_PKGS="$RUN_PKGS shellcheck dwarves kcapi-tools keyutils cryptsetup-bin
util-linux procps gcc-aarch64-linux-gnu libc6-dev-arm64-cross qemu-system-arm"
# The benchmarks draw their chart with gnuplot.
BENCH_PKGS="$TEST_PKGS gnuplot-nox"

# The arm64 guests' payloads, unpacked in $ARM64_ROOT, not installed: they
# would replace the amd64 ones. apt learns the arm64 architecture for
# them (dpkg --add-architecture). Debian's busybox-static:arm64, and the
# arm64 builds of the crypto clients (lib.sh, CLIENTS) and of every
# package their libraries come from here (client_packages), glibc's
# libgcc_s too (cryptsetup's threads need it when they exit).
ARM64_DEBS="busybox-static libgcc-s1"

# owner FILE: the package that installed FILE (dpkg knows /bin and /lib
# files by their paths before the /usr merge)
owner() {
	for _p in "$1" "$(readlink -f "$1")"; do
		for _q in "$_p" "${_p#/usr}"; do
			dpkg -S "$_q" 2>/dev/null | sed -n '1s/[:,].*//p' |
				grep . && return
		done
	done
	die "no package has $1"
}

# client_packages: the packages of the clients and of their libraries,
# one a line
client_packages() {
	for _c in $CLIENTS; do
		[ -x "$_c" ] || die "$_c missing: scripts/deps.sh test installs it"
		owner "$_c"
		for _lib in $(ldd "$_c" |
		    awk '/=>/ { print $3 } /^\t\// { print $1 }'); do
			owner "$_lib"
		done
	done | sort -u
}

arm64_payloads() {
	_want=$({ echo "$ARM64_DEBS" | tr ' ' '\n'; client_packages; } |
		sort -u | sed 's/$/:arm64/' | tr '\n' ' ')
	[ "$(cat "$ARM64_ROOT/debs.list" 2>/dev/null)" != "$_want" ] || return 0
	[ "$(id -u)" = 0 ] || die "$ARM64_ROOT lacks arm64 packages: run" \
		"scripts/deps.sh test as root"
	if ! dpkg --print-foreign-architectures | grep -qx arm64; then
		log "adding the arm64 architecture to apt"
		dpkg --add-architecture arm64
		apt-get update
	fi
	rm -rf "$ARM64_ROOT.tmp"
	mkdir -p "$ARM64_ROOT.tmp/debs"
	# shellcheck disable=SC2086 # a list of package names
	(cd "$ARM64_ROOT.tmp/debs" && apt-get download $_want) ||
		die "cannot download $_want"
	for _deb in "$ARM64_ROOT.tmp"/debs/*.deb; do
		dpkg-deb -x "$_deb" "$ARM64_ROOT.tmp"
	done
	[ -x "$ARM64_ROOT.tmp/bin/busybox" ] ||
		die "busybox-static:arm64 has no bin/busybox"
	echo "$_want" >"$ARM64_ROOT.tmp/debs.list"
	rm -rf "$ARM64_ROOT"
	mv "$ARM64_ROOT.tmp" "$ARM64_ROOT"
	log "arm64 payloads in $ARM64_ROOT: $_want"
}

main() {
	list=0
	if [ "${1:-}" = --list ]; then
		list=1
		shift
	fi
	case ${1:-} in
	run) pkgs=$RUN_PKGS ;;
	test) pkgs=$TEST_PKGS ;;
	bench) pkgs=$BENCH_PKGS ;;
	*) die "usage: deps.sh [--list] run|test|bench" ;;
	esac
	if [ "$list" = 1 ]; then
		echo "$pkgs" | tr '\n' ' ' | sed 's/ *$//'
		echo
		return
	fi
	missing=
	for p in $pkgs; do
		dpkg-query -W -f '${Status}\n' "$p" 2>/dev/null |
			grep -q 'install ok installed' || missing="$missing $p"
	done
	if [ -n "$missing" ]; then
		[ "$(id -u)" = 0 ] || die "missing packages:$missing (run as" \
			"root, or apt-get install them)"
		log "installing:$missing"
		apt-get update
		# shellcheck disable=SC2086 # a list of package names
		DEBIAN_FRONTEND=noninteractive apt-get install -y $missing
	fi
	[ "$1" = run ] || arm64_payloads
}

main "$@"
