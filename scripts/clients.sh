#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# clients.sh DIR
#
# Make DIR, the payload of the guest test "clients" (tests/guest/clients.sh,
# which finds it in /extra: initramfs.sh NAME DIR clients): Debian's
# clients of the kernel crypto API with the shared libraries ldd lists, at
# their paths under DIR/root (kcapi-dgst, kcapi-enc, kcapi-rng, keyctl,
# cryptsetup), and, by tests/host/fips140_clients.py, the inputs, the
# operations (DIR/ops) and the outputs OpenSSL on the host expects. Keys
# are made fresh (keys.sh) in DIR.keys; the private keys stay there, out
# of the guest. Every kernel of one test run must boot the same DIR.
# With FIPS140_ARCH=arm64, the clients and libraries are the arm64 builds
# that deps.sh unpacked in $ARM64_ROOT, at the same paths.
set -eu
. "$(dirname "$0")/lib.sh"

# copy_with_libs FILE: FILE and what it links, at their paths under root
copy_with_libs() {
	[ -x "$1" ] || die "$1 missing: apt-get install $(client_pkg "$1")"
	for _f in "$1" $(ldd "$1" | awk '/=>/ { print $3 } /^\t\// { print $1 }'); do
		mkdir -p "$dir/root$(dirname "$_f")"
		cp -L "$_f" "$dir/root$_f"
	done
}

# copy_arm64 FILE: the arm64 build of client FILE, from the packages
# deps.sh unpacked in $ARM64_ROOT (they may have it without /usr)
copy_arm64() {
	for _f in "$ARM64_ROOT$1" "$ARM64_ROOT${1#/usr}"; do
		[ -x "$_f" ] || continue
		mkdir -p "$dir/root$(dirname "$1")"
		cp "$_f" "$dir/root$1"
		return
	done
	die "no arm64 $1 in $ARM64_ROOT: run scripts/deps.sh test"
}
# arm64_libs: every shared library in $ARM64_ROOT, and the dynamic
# loader. There is no ldd for arm64 binaries here; the packages there are
# the clients' and their libraries' (deps.sh), and busybox has none.
arm64_libs() {
	for _d in lib/aarch64-linux-gnu usr/lib/aarch64-linux-gnu; do
		[ -d "$ARM64_ROOT/$_d" ] || continue
		mkdir -p "$dir/root/$_d"
		# the symbolic links followed: the guest copies the payload
		# with busybox cp
		find "$ARM64_ROOT/$_d" -maxdepth 1 -name '*.so*' \
			-exec cp -L {} "$dir/root/$_d/" \;
	done
	cp -L "$ARM64_ROOT/lib/ld-linux-aarch64.so.1" "$dir/root/lib/" ||
		die "no arm64 dynamic loader in $ARM64_ROOT: run scripts/deps.sh test"
}

# The Debian package of a client, for the error message
client_pkg() {
	case $1 in
	*/kcapi-*) echo kcapi-tools ;;
	*/keyctl) echo keyutils ;;
	*/cryptsetup) echo cryptsetup-bin ;;
	esac
}

main() {
	[ $# = 1 ] || die "usage: clients.sh DIR"
	dir=$1
	rm -rf "$dir" "$dir.keys"
	mkdir -p "$dir/root"
	if [ "$KARCH" = arm64 ]; then
		for c in $CLIENTS; do
			copy_arm64 "$c"
		done
		arm64_libs
	else
		for c in $CLIENTS; do
			copy_with_libs "$c"
		done
		# glibc loads it when a thread exits (cryptsetup's PBKDF
		# threads)
		cp -L /lib/x86_64-linux-gnu/libgcc_s.so.1 \
			"$dir/root/lib/x86_64-linux-gnu/"
	fi
	"$TOP/scripts/keys.sh" "$dir.keys"
	"$PYTHON" "$TOP/tests/host/fips140_clients.py" prepare "$dir" \
		"$dir.keys" >&2 ||
		die "clients: cannot make the operations"
	log "clients: $dir ($(du -sk "$dir" | cut -f1) KiB," \
	    "$(wc -l <"$dir/ops") operations)"
}

main "$@"
