#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# golden.sh make|check debian
#
# The crypto objects of the stock vmlinux of the debian target, kept as a
# golden file (tests/golden/debian/crypto-objects): the fips140 build must
# hold each of them, in fips140.ko or in the documented exceptions. The
# stock kernel is Debian's own binary (scripts/debian-stock.sh), which
# has no object list; the list comes from the pristine tree built with
# the same config and trims, crypto directories only (about 400 objects,
# not the hour a whole stock build of Debian's config takes).
#
#   make   build crypto/, lib/crypto/, arch/x86/crypto/ and certs/ of the
#          pristine tree with Debian's config and configs/debian.config
#          into $OUT/debian-golden, and write the members of their
#          built-in.a, and "source": what they were made from
#          (linux-config version, SHA-256 of Debian's config and of the
#          trims fragment)
#   check  fail unless "source" matches the installed linux-config and
#          configs/debian.config; then run "golden.sh make debian"
set -eu
. "$(dirname "$0")/lib.sh"

NAME=debian-golden
FLAVOUR=amd64_none_amd64
GOLDEN=$TOP/tests/golden/debian
CRYPTO_DIRS="crypto lib/crypto arch/x86/crypto certs"

# What the golden file is made from, one "key value" a line.
source_of() {
	_xz=/usr/src/$LINUX_CONFIG_PKG/config.$FLAVOUR.xz
	[ -r "$_xz" ] || die "golden: no $_xz: run scripts/tree.sh"
	echo "$LINUX_CONFIG_PKG $(dpkg-query -W -f '${Version}' "$LINUX_CONFIG_PKG")"
	echo "config.$FLAVOUR $(xz -dc "$_xz" | sha256sum | cut -d' ' -f1)"
	echo "configs/debian.config $(sha256sum <"$CONFIGS/debian.config" |
		cut -d' ' -f1)"
}

make_golden() {
	"$TOP/scripts/tree.sh"
	_out=$OUT/$NAME
	"$TOP/scripts/config.sh" "$SRC" "$_out" --debian "$FLAVOUR" \
		"$CONFIGS/debian.config"
	_dirs=
	for _d in $CRYPTO_DIRS; do
		_dirs="$_dirs $_d/"
	done
	log "golden: make$_dirs (log: $_out/build.log)"
	# shellcheck disable=SC2086 # a list of directories
	make -C "$SRC" O="$_out" ARCH=x86_64 -j"$(nproc)" $_dirs \
		>"$_out/build.log" 2>&1 ||
		die "golden: the crypto directories do not build," \
		    "see $_out/build.log"
	mkdir -p "$GOLDEN.tmp"
	# Members of the thin archives, relative to the build directory
	for _d in $CRYPTO_DIRS; do
		(cd "$_out" && ar t "$PWD/$_d/built-in.a")
	done | sed "s|^$_out/||" | LC_ALL=C sort >"$GOLDEN.tmp/crypto-objects"
	[ -s "$GOLDEN.tmp/crypto-objects" ] || die "golden: no objects"
	source_of >"$GOLDEN.tmp/source"
	rm -rf "$GOLDEN"
	mv "$GOLDEN.tmp" "$GOLDEN"
	log "golden: $(wc -l <"$GOLDEN/crypto-objects") crypto objects of" \
	    "the stock vmlinux in $GOLDEN"
}

check_golden() {
	[ -r "$GOLDEN/source" ] ||
		die "golden: $GOLDEN/source missing: run scripts/golden.sh make debian"
	if ! source_of | diff -u "$GOLDEN/source" - >&2; then
		die "golden: $GOLDEN is not from the installed config or" \
		    "configs/debian.config: run scripts/golden.sh make debian"
	fi
	log "golden: $GOLDEN is from $(sed -n 1p "$GOLDEN/source")"
}

main() {
	if [ $# != 2 ] || [ "$2" != debian ]; then
		die "usage: golden.sh make|check debian"
	fi
	case $1 in
	make) make_golden ;;
	check) check_golden ;;
	*) die "usage: golden.sh make|check debian" ;;
	esac
}

main "$@"
