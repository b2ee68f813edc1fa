#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# golden.sh make|check debian
#
# The stock side of the debian target, kept as a golden file: building
# the stock kernel of Debian's full config takes most of an hour on two
# cores, so CI builds only the fips140 one and compares it with what a
# real stock build of the same config and trims recorded.
#
#   make   build debian-stock (the pristine tree, Debian's config and
#          configs/debian.config), boot it in normal and fips=1 mode, and
#          write tests/golden/debian/: the crypto objects of its vmlinux,
#          both boot logs (gzip), and "source", what it was made from
#          (linux-config version, SHA-256 of Debian's config and of the
#          trims fragment)
#   check  fail unless "source" matches the installed linux-config and
#          configs/debian.config (then run "golden.sh make debian"), and
#          unpack the boot logs as $OUT/debian-stock/boot-LABEL.log, where
#          the suite reads the stock kernel's boots
set -eu
. "$(dirname "$0")/lib.sh"

NAME=debian-stock
FLAVOUR=amd64_none_amd64
GOLDEN=$TOP/tests/golden/debian
LABELS="default fips"

# What the golden files are made from, one "key value" a line.
source_of() {
	_xz=/usr/src/$LINUX_CONFIG_PKG/config.$FLAVOUR.xz
	[ -r "$_xz" ] || die "golden: no $_xz: run scripts/deps.sh test"
	echo "$LINUX_CONFIG_PKG $(dpkg-query -W -f '${Version}' "$LINUX_CONFIG_PKG")"
	echo "config.$FLAVOUR $(xz -dc "$_xz" | sha256sum | cut -d' ' -f1)"
	echo "configs/debian.config $(sha256sum <"$CONFIGS/debian.config" |
		cut -d' ' -f1)"
}

make_golden() {
	"$TOP/scripts/tree.sh"
	"$TOP/scripts/build.sh" "$NAME" "$SRC" --debian "$FLAVOUR" \
		"$CONFIGS/debian.config"
	"$TOP/scripts/initramfs.sh" "$NAME"
	for _label in $LABELS; do
		_args=harness.crypto=kernel
		[ "$_label" = default ] || _args="$_args fips=1"
		# shellcheck disable=SC2086 # kernel arguments
		FIPS140_QEMU_CPU=max "$TOP/scripts/boot.sh" \
			"$OUT/$NAME/arch/x86/boot/bzImage" \
			"$OUT/$NAME/initramfs.cpio.gz" \
			"$OUT/$NAME/boot-$_label.log" $_args
	done
	mkdir -p "$GOLDEN.tmp"
	# The crypto objects of the stock vmlinux (a thin archive)
	(cd "$OUT/$NAME" && ar t "$PWD/vmlinux.a") |
		sed "s|^$OUT/$NAME/||" |
		grep -E '^(crypto|lib/crypto|arch/x86/crypto|certs)/' |
		LC_ALL=C sort >"$GOLDEN.tmp/crypto-objects"
	for _label in $LABELS; do
		gzip -n -9 <"$OUT/$NAME/boot-$_label.log" \
			>"$GOLDEN.tmp/boot-$_label.log.gz"
	done
	source_of >"$GOLDEN.tmp/source"
	rm -rf "$GOLDEN"
	mv "$GOLDEN.tmp" "$GOLDEN"
	log "golden: $GOLDEN made from $(tr '\n' ' ' <"$GOLDEN/source")"
}

check_golden() {
	[ -r "$GOLDEN/source" ] ||
		die "golden: $GOLDEN/source missing: run scripts/golden.sh make debian"
	if ! source_of | diff -u "$GOLDEN/source" - >&2; then
		die "golden: $GOLDEN is not from the installed config or" \
		    "configs/debian.config: run scripts/golden.sh make debian"
	fi
	mkdir -p "$OUT/$NAME"
	for _label in $LABELS; do
		gzip -dc "$GOLDEN/boot-$_label.log.gz" \
			>"$OUT/$NAME/boot-$_label.log"
	done
	log "golden: stock boots of $(sed -n 1p "$GOLDEN/source") in $OUT/$NAME"
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
