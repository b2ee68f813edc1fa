#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# ro-probe.sh NAME [MODULE]
#
# Build the out-of-tree test modules of tests/ro-probe against kernel
# target NAME (built by build.sh), sign them with the build's key, and put
# them in $WORK/out/NAME/extra/ with ro-targets: one trampoline (__wrap_*),
# whose jump the loader rewrote at plug-in, and one variable placeholder
# (__crypto_*_ptr) of that kernel's System.map, "KIND SYMBOL ADDRESS" a
# line. The guest tests read them from /extra (initramfs.sh NAME
# $WORK/out/NAME/extra): roprobe loads fips140_ro_probe.ko, forge the two
# modules that try to set the status of fips140 (fips140_forge*.ko),
# service fips140_service.ko.
# With MODULE (a crypto-objs-m module of NAME, as crypto/cmac), also that
# module changed by one byte (.comment) and signed again, as
# extra/boundary.ko, and extra/boundary, "MODNAME PATH" with PATH under
# /lib/modules/RELEASE: the guest test boundary loads both.
# The kernel has no KASLR (base.config; Debian's config keeps it, and
# only roprobe needs the addresses), so System.map addresses are the
# run-time ones.
set -eu
. "$(dirname "$0")/lib.sh"

# The first symbol of System.map matching the pattern, as "SYMBOL ADDR"
placeholder() {
	awk -v re="$1" '$3 ~ re { print $3, $1; exit }' "$outdir/System.map"
}

# sign KO: sign module KO in place with the key modules_install uses
sign() {
	"$outdir/scripts/sign-file" sha256 "$key" \
		"$outdir/certs/signing_key.x509" "$1" ||
		die "cannot sign $1 with $key"
}

# boundary MODULE: the changed copy of MODULE and its names, in extra/
boundary() {
	_ko=$outdir/$1.ko
	[ -r "$_ko" ] || die "$_ko missing: MODULE is not a module of $outdir"
	"$PYTHON" "$TOP/tests/host/fips140_integrity.py" tamper-module \
		"$_ko" "$outdir/extra/boundary.ko" >&2 ||
		die "cannot change $_ko"
	sign "$outdir/extra/boundary.ko"
	printf '%s kernel/%s.ko\n' "$(basename "$1" | tr - _)" "$1" \
		>"$outdir/extra/boundary"
}

main() {
	[ $# = 1 ] || [ $# = 2 ] || die "usage: ro-probe.sh NAME [MODULE]"
	outdir=$OUT/$1
	[ -r "$outdir/System.map" ] ||
		die "$outdir/System.map missing: run build.sh $1 first"
	fn=$(placeholder '^__wrap_')
	var=$(placeholder '^__crypto_.*_ptr$')
	[ -n "$fn" ] || die "no __wrap_* in $outdir/System.map"
	[ -n "$var" ] || die "no __crypto_*_ptr in $outdir/System.map"

	# Kbuild writes its objects next to the sources: build a copy.
	src=$outdir/ro-probe
	rm -rf "$src" "$outdir/extra"
	cp -R "$TOP/tests/ro-probe" "$src"
	make -s -C "$outdir" M="$src" ARCH="$SRCARCH" \
		CROSS_COMPILE="$CROSS_COMPILE" modules >&2 ||
		die "tests/ro-probe does not build against $outdir"
	# The key modules_install signs with (CONFIG_MODULE_SIG_KEY)
	key=$(sed -n 's/^CONFIG_MODULE_SIG_KEY="\(.*\)"$/\1/p' "$outdir/.config")
	case $key in /*) ;; *) key=$outdir/$key ;; esac
	mkdir -p "$outdir/extra"
	for ko in "$src"/*.ko; do
		sign "$ko"
		cp "$ko" "$outdir/extra/"
	done
	[ $# = 1 ] || boundary "$2"
	printf 'fn %s\nvar %s\n' "$fn" "$var" >"$outdir/extra/ro-targets"
	log "ro-probe $1: $outdir/extra ($(tr '\n' ';' <"$outdir/extra/ro-targets"))"
}

main "$@"
