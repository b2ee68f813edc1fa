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
set -eu
. "$(dirname "$0")/lib.sh"

CLIENTS="/usr/bin/kcapi-dgst /usr/bin/kcapi-enc /usr/bin/kcapi-rng
/usr/bin/keyctl /usr/sbin/cryptsetup"

# copy_with_libs FILE: FILE and what it links, at their paths under root
copy_with_libs() {
	[ -x "$1" ] || die "$1 missing: apt-get install $(client_pkg "$1")"
	for _f in "$1" $(ldd "$1" | awk '/=>/ { print $3 } /^\t\// { print $1 }'); do
		mkdir -p "$dir/root$(dirname "$_f")"
		cp -L "$_f" "$dir/root$_f"
	done
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
	for c in $CLIENTS; do
		copy_with_libs "$c"
	done
	# glibc loads it when a thread exits (cryptsetup's PBKDF threads)
	cp -L /lib/x86_64-linux-gnu/libgcc_s.so.1 \
		"$dir/root/lib/x86_64-linux-gnu/"
	"$TOP/scripts/keys.sh" "$dir.keys"
	"$PYTHON" "$TOP/tests/host/fips140_clients.py" prepare "$dir" \
		"$dir.keys" >&2 ||
		die "clients: cannot make the operations"
	log "clients: $dir ($(du -sk "$dir" | cut -f1) KiB," \
	    "$(wc -l <"$dir/ops") operations)"
}

main "$@"
