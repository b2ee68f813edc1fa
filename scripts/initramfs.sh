#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# initramfs.sh NAME [EXTRA-DIR [IMAGE]]
#
# Make $WORK/out/NAME/IMAGE.cpio.gz (default initramfs.cpio.gz) for kernel
# target NAME (built by build.sh): busybox-static, /init
# (tests/guest/init), the guest tests (tests/guest/*.c built static into
# $WORK/out/guest, for arm64 (FIPS140_ARCH) cross-built into
# $WORK/out/guest-arm64 with Debian's arm64 busybox, and the tests/guest/*.sh scripts, run in the order of
# tests/guest/tests.list; those of tests-on-demand.list only when named),
# the target's modules from its modroot (signed by modules_install), fresh
# key material for the pkey test (keys.sh, in $WORK/keys; only
# certificates, data and signatures go in) and the files of EXTRA-DIR, if
# given, in /extra.
set -eu
. "$(dirname "$0")/lib.sh"

GUEST=$TOP/tests/guest
BUSYBOX=${FIPS140_BUSYBOX:-$BUSYBOX_DEFAULT}
# The guest tests, built for the guest's architecture
GUEST_OUT=$OUT/guest
[ "$KARCH" = x86_64 ] || GUEST_OUT=$OUT/guest-$KARCH

# The tests of list file $1, checked against the sources.
listed_tests() {
	_list=$(grep -v -e '^#' -e '^$' "$GUEST/$1")
	for _t in $_list; do
		[ -r "$GUEST/$_t.c" ] || [ -r "$GUEST/$_t.sh" ] ||
			die "$1 names $_t, no $_t.c or $_t.sh"
	done
	echo "$_list"
}

# Every test source is in one of the lists.
check_lists() {
	for _c in "$GUEST"/*.c "$GUEST"/*.sh; do
		[ -e "$_c" ] || continue
		_t=$(basename "$(basename "$_c" .c)" .sh)
		printf '%s\n%s\n' "$tests" "$on_demand" | grep -qx "$_t" ||
			die "tests/guest/$_t is in neither tests.list nor tests-on-demand.list"
	done
}

main() {
	case $# in
	1 | 2 | 3) ;;
	*) die "usage: initramfs.sh NAME [EXTRA-DIR [IMAGE]]" ;;
	esac
	name=$1
	extra=${2:-}
	image=${3:-initramfs}
	outdir=$OUT/$name
	modroot=$outdir/modroot
	[ -d "$modroot/lib/modules" ] ||
		die "$modroot/lib/modules missing: run build.sh $name first"
	[ -x "$BUSYBOX" ] ||
		die "$BUSYBOX missing: run scripts/deps.sh test"
	tests=$(listed_tests tests.list)
	on_demand=$(listed_tests tests-on-demand.list)
	check_lists
	[ -z "$extra" ] || [ -d "$extra" ] || die "no directory $extra"

	log "initramfs $name: guest tests -> $GUEST_OUT"
	# The tests' KTAP helpers are the pristine tree's kselftest.h
	[ -r "$SRC/tools/testing/selftests/kselftest.h" ] ||
		die "no $SRC/tools/testing/selftests/kselftest.h: run scripts/tree.sh"
	make -s -C "$GUEST" O="$GUEST_OUT" CC="${CROSS_COMPILE}gcc" \
		KSELFTEST="$SRC/tools/testing/selftests" >&2 ||
		die "guest tests do not build"
	"$TOP/scripts/keys.sh" "$WORK/keys"

	root=$outdir/$image
	rm -rf "$root"
	mkdir -p "$root/bin" "$root/tests" "$root/keys" "$root/lib"
	cp "$BUSYBOX" "$root/bin/busybox"
	cp "$GUEST/init" "$root/init"
	chmod 755 "$root/init"
	for t in $tests $on_demand; do
		cp "$GUEST_OUT/$t" "$root/tests/$t"
	done
	[ -z "$extra" ] || cp -R "$extra" "$root/extra"
	echo "$tests" >"$root/tests/list"
	cp -R "$modroot/lib/modules" "$root/lib/modules"
	# modules_install's links back into the build tree.
	find "$root/lib/modules" -maxdepth 2 \( -name build -o -name source \) \
		-type l -exec rm -f {} +
	for f in data data.sha256 rsa.der rsa.sig ecdsa.der ecdsa.sig; do
		cp "$WORK/keys/$f" "$root/keys/$f"
	done

	img=$outdir/$image.cpio.gz
	(cd "$root" && find . | LC_ALL=C sort |
		cpio --quiet -o -H newc -R 0:0 --reproducible) |
		gzip -n -9 >"$img.tmp"
	mv "$img.tmp" "$img"
	log "initramfs $name: $img ($(du -k "$img" | cut -f1) KiB;" \
	    "tests: $(echo "$tests" | tr '\n' ' ')" \
	    "modules: $(find "$root/lib/modules" -name '*.ko*' | wc -l))"
}

main "$@"
