#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# initramfs.sh NAME
#
# Make $WORK/out/NAME/initramfs.cpio.gz for kernel target NAME (built by
# build.sh): busybox-static, /init (tests/guest/init), the guest tests
# (tests/guest/*.c built static into $WORK/out/guest, run in the order of
# tests/guest/tests.list), the target's modules from its modroot (signed by
# modules_install) and fresh key material for the pkey test (keys.sh, in
# $WORK/keys; only certificates, data and signatures go in).
set -eu
. "$(dirname "$0")/lib.sh"

GUEST=$TOP/tests/guest
BUSYBOX=${FIPS140_BUSYBOX:-/bin/busybox}

# The tests of tests.list, checked against the sources.
test_list() {
	_list=$(grep -v -e '^#' -e '^$' "$GUEST/tests.list")
	for _t in $_list; do
		[ -r "$GUEST/$_t.c" ] || die "tests.list names $_t, no $_t.c"
	done
	for _c in "$GUEST"/*.c; do
		_t=$(basename "$_c" .c)
		echo "$_list" | grep -qx "$_t" ||
			die "tests/guest/$_t.c is not in tests.list"
	done
	echo "$_list"
}

main() {
	[ $# = 1 ] || die "usage: initramfs.sh NAME"
	name=$1
	outdir=$OUT/$name
	modroot=$outdir/modroot
	[ -d "$modroot/lib/modules" ] ||
		die "$modroot/lib/modules missing: run build.sh $name first"
	[ -x "$BUSYBOX" ] ||
		die "$BUSYBOX missing: apt-get install busybox-static"
	tests=$(test_list)

	log "initramfs $name: guest tests -> $OUT/guest"
	make -s -C "$GUEST" O="$OUT/guest" >&2 ||
		die "guest tests do not build"
	"$TOP/scripts/keys.sh" "$WORK/keys"

	root=$outdir/initramfs
	rm -rf "$root"
	mkdir -p "$root/bin" "$root/tests" "$root/keys" "$root/lib"
	cp "$BUSYBOX" "$root/bin/busybox"
	cp "$GUEST/init" "$root/init"
	chmod 755 "$root/init"
	for t in $tests; do
		cp "$OUT/guest/$t" "$root/tests/$t"
	done
	echo "$tests" >"$root/tests/list"
	cp -R "$modroot/lib/modules" "$root/lib/modules"
	# modules_install's links back into the build tree.
	find "$root/lib/modules" -maxdepth 2 \( -name build -o -name source \) \
		-type l -exec rm -f {} +
	for f in data data.sha256 rsa.der rsa.sig ecdsa.der ecdsa.sig; do
		cp "$WORK/keys/$f" "$root/keys/$f"
	done

	img=$outdir/initramfs.cpio.gz
	(cd "$root" && find . | LC_ALL=C sort |
		cpio --quiet -o -H newc -R 0:0 --reproducible) |
		gzip -n -9 >"$img.tmp"
	mv "$img.tmp" "$img"
	log "initramfs $name: $img ($(du -k "$img" | cut -f1) KiB;" \
	    "tests: $(echo "$tests" | tr '\n' ' ')" \
	    "modules: $(find "$root/lib/modules" -name '*.ko*' | wc -l))"
}

main "$@"
