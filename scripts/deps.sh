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
TEST_PKGS="$RUN_PKGS shellcheck dwarves kcapi-tools keyutils cryptsetup-bin
util-linux procps"
# The benchmarks draw their chart with gnuplot.
BENCH_PKGS="$TEST_PKGS gnuplot-nox"

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
	[ -n "$missing" ] || return 0
	[ "$(id -u)" = 0 ] || die "missing packages:$missing (run as root, or" \
		"apt-get install them)"
	log "installing:$missing"
	apt-get update
	# shellcheck disable=SC2086 # a list of package names
	DEBIAN_FRONTEND=noninteractive apt-get install -y $missing
}

main "$@"
