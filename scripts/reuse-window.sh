#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# reuse-window.sh [VERSION...]   (also: test.sh --reuse-window [VERSION...])
#
# How far back a certified fips140.ko carries onto the pinned kernel
# (6.12.118): for each older Debian version of linux-source-6.12 (default:
# every one apt lists), the series applied to that tree, its fips140
# kernel built as the certified.target one is (symbol versions, crypto
# modules), its certified set kept (fips140.ko, fips140.hmac, the crypto
# modules), and the update kernel built again with it
# (make FIPS140_BUILD=SET, in a copy of build/out/fips140-update: run
# "scripts/test.sh update-build" first). A compatible set is booted in
# both modes with the guest tests, and must be the module that ran.
# Results, one a line (PASS/FAIL NAME: why), per version VERSION/...:
#   series      the series applies to that tree
#   certify     its fips140 kernel builds
#   reuse       the 6.12.118 build accepts its certified set (else the
#               refusal, as fips140-abi-check reported it)
#   boot, fips-boot, booted
#               the guest verdicts, and the certified module ran
# and the crypto source files that differ from 6.12.118's. Everything goes
# to $WORK/reuse-window/ (results.txt is the summary). Not in CI: a
# version is a cold build of its own tree, 6 to 10 minutes on two cores.
set -eu
. "$(dirname "$0")/lib.sh"

S=$TOP/scripts
WIN=$WORK/reuse-window
UPDATE_OUT=$OUT/fips140-update

# crypto_diff VERSION: the crypto source files of VERSION's tree that differ
# from the pinned tree's
crypto_diff() {
	_old=$(tree_of_version "$1")
	for _d in crypto lib/crypto arch/x86/crypto certs include/crypto; do
		diff -rq "$_old/$_d" "$WORK/linux/$_d" 2>&1 || :
	done | sed -e "s|$_old/||" -e "s|$WORK/linux/||" |
		awk '/^Files/ { print $2; next } { print }'
}

# certify VERSION: tree, series and the certified set of VERSION, built
# in that version's directory (lib.sh, version_dir)
certify() {
	_v=${1%%-*} _vdir=$(version_dir "$1")
	"$S/tree.sh" "$1" >"$WIN/$_v.log" 2>&1 || {
		echo "FAIL $_v/tree: see $WIN/$_v.log"
		return 1
	}
	if ! FIPS140_SRC=$(tree_of_version "$1") "$S/series-apply.sh" \
		"series-$_v" "$_vdir/series" >>"$WIN/$_v.log" 2>&1; then
		echo "FAIL $_v/series: does not apply: $(grep -m1 'does not apply\|failed' \
			"$WIN/$_v.log" || echo "see $WIN/$_v.log")"
		return 1
	fi
	echo "PASS $_v/series"
	# shellcheck disable=SC2046 # the fragment files
	if ! FIPS140_OUT=$_vdir/out "$S/build.sh" "certified-$_v" \
		"$_vdir/series" $(target_fragments certified) >>"$WIN/$_v.log" 2>&1; then
		echo "FAIL $_v/certify: see $_vdir/out/certified-$_v/build.log"
		return 1
	fi
	echo "PASS $_v/certify"
	certified_set "$_vdir/out/certified-$_v" "$WIN/set-$_v"
}

# update_build [MAKE-VARIABLE...]: the update kernel, in its own build
# directory (a copy of it would rebuild its tools, then every object)
update_build() {
	# shellcheck disable=SC2046 # the fragment files
	FIPS140_MAKE_ARGS="$*" "$S/build.sh" fips140-update "$WORK/series" \
		$(target_fragments update)
}

# reuse VERSION: the pinned update kernel built with VERSION's set; its
# image and initramfs are kept in $WIN/update-VERSION
reuse() {
	_v=${1%%-*} _b=$WIN/update-$_v
	rm -rf "$_b"
	mkdir -p "$_b"
	if ! update_build "FIPS140_BUILD=$WIN/set-$_v" >>"$WIN/$_v.log" 2>&1; then
		cp "$UPDATE_OUT/build.log" "$_b/build.log"
		echo "FAIL $_v/reuse: refused:"
		grep -h -A40 '^INCOMPATIBLE:' "$_b/build.log" | grep '^  ' |
			sed 's/^/    /'
		grep -h '^error: ' "$_b/build.log" | sed 's/^/    /'
		return 1
	fi
	echo "PASS $_v/reuse: $(grep -h '^note: built by' \
		"$UPDATE_OUT/crypto/fips140/fips140-abi-check.txt")"
	"$S/initramfs.sh" fips140-update >>"$WIN/$_v.log" 2>&1
	cp "$UPDATE_OUT/arch/x86/boot/bzImage" "$UPDATE_OUT/initramfs.cpio.gz" \
		"$_b/"
}

# boots VERSION: the update kernel with VERSION's set, both modes
boots() {
	_v=${1%%-*} _b=$WIN/update-$_v
	for _mode in default fips; do
		_arg='' _label=$_v/boot
		[ "$_mode" = default ] || { _arg=fips=1 _label=$_v/fips-boot; }
		"$S/boot.sh" "$_b/bzImage" "$_b/initramfs.cpio.gz" \
			"$_b/boot-$_mode.log" harness.crypto=fips140 \
			harness.modules=xts,md5 $_arg >>"$WIN/$_v.log" 2>&1 || :
		"$PYTHON" "$S/ktap.py" verdict "$_b/boot-$_mode.log" \
			--label "$_label" >"$_b/verdict-$_mode" 2>&1 || :
		_f=$(grep -c '^FAIL ' "$_b/verdict-$_mode" || :)
		_p=$(grep -c '^PASS ' "$_b/verdict-$_mode" || :)
		if [ "$_f" = 0 ] && [ "$_p" -gt 0 ]; then
			echo "PASS $_label ($_p guest results)"
		else
			echo "FAIL $_label: $_f of $((_p + _f)) failed," \
			     "see $_b/verdict-$_mode"
		fi
		"$PYTHON" "$TOP/tests/host/fips140_integrity.py" booted \
			"$_b/boot-$_mode.log" prebuilt \
			"$WIN/set-$_v/crypto/fips140/fips140.ko" | sed "s|^\(....\) |\1 $_v/|"
	done
}

window() {
	_v=${1%%-*}
	certify "$1" && reuse "$1" && boots "$1"
	echo "# $_v: crypto sources that differ from 6.12.118:" \
	     "$(crypto_diff "$1" | tr '\n' ' ')"
}

main() {
	[ -e "$UPDATE_OUT/vmlinux" ] ||
		die "no $UPDATE_OUT/vmlinux: run scripts/test.sh update-build first"
	if [ $# = 0 ]; then
		# shellcheck disable=SC2046 # the versions apt has
		set -- $(apt-cache madison "$LINUX_SOURCE_PKG" | awk '{ print $3 }' |
			grep -vxF "$LINUX_SOURCE_VERSION")
	fi
	mkdir -p "$WIN"
	log "reuse-window: $* onto $LINUX_SOURCE_VERSION -> $WIN/results.txt"
	for _version in "$@"; do
		window "$_version"
	done | tee "$WIN/results.txt"
	log "reuse-window: the update kernel again, with its own set"
	{ update_build && "$S/initramfs.sh" fips140-update; } \
		>"$WIN/restore.log" 2>&1 ||
		die "the update kernel does not build again: see $WIN/restore.log"
	_p=$(grep -c '^PASS ' "$WIN/results.txt" || :)
	_f=$(grep -c '^FAIL ' "$WIN/results.txt" || :)
	echo "$_p passed, $_f failed"
	[ "$_f" = 0 ]
}

run_main reuse-window.sh "$@"
