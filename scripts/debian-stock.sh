#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# debian-stock.sh TARGET
#
# The stock side of the debian target: the kernel Debian itself built from
# this source package and this config, its signed linux-image package of
# the pinned version ($LINUX_IMAGE_PKG; fips=1 needs its modules signed).
# Laid out in $OUT/debian-stock like a build of ours, for initramfs.sh and
# boot.sh: arch/x86/boot/bzImage, System.map, .config, and modroot/ with
# the modules that kernel target TARGET (debian-fips140) built, taken from
# Debian's package (decompressed; Debian's signatures stay), indexed with
# depmod. A module of TARGET that Debian's package lacks is an error: the
# two kernels would not have the same config.
set -eu
. "$(dirname "$0")/lib.sh"

NAME=debian-stock

# fetch DIR: download and unpack the package into DIR (once)
fetch() {
	_deb=$1/$LINUX_IMAGE_PKG.deb
	if [ ! -s "$_deb" ]; then
		mkdir -p "$1"
		log "debian-stock: apt-get download $LINUX_IMAGE_PKG=$LINUX_SOURCE_VERSION"
		(cd "$1" && apt-get download -q \
			"$LINUX_IMAGE_PKG=$LINUX_SOURCE_VERSION" >&2) ||
			die "debian-stock: cannot download $LINUX_IMAGE_PKG=$LINUX_SOURCE_VERSION"
		mv "$1/${LINUX_IMAGE_PKG}_"*.deb "$_deb"
	fi
	rm -rf "$1/root"
	dpkg-deb -x "$_deb" "$1/root"
}

main() {
	[ $# = 1 ] || die "usage: debian-stock.sh TARGET"
	ours=$OUT/$1/modroot/lib/modules
	[ -d "$ours" ] || die "debian-stock: $ours missing: build $1 first"
	pkg=$WORK/debian-image
	fetch "$pkg"
	release=$(ls "$pkg/root/lib/modules")
	theirs=$pkg/root/lib/modules/$release
	out=$OUT/$NAME
	rm -rf "$out"
	mkdir -p "$out/arch/x86/boot" "$out/modroot/lib/modules/$release"
	cp "$pkg/root/boot/vmlinuz-$release" "$out/arch/x86/boot/bzImage"
	cp "$pkg/root/boot/System.map-$release" "$out/System.map"
	cp "$pkg/root/boot/config-$release" "$out/.config"
	mods=$out/modroot/lib/modules/$release
	cp "$theirs/modules.order" "$theirs/modules.builtin" \
		"$theirs/modules.builtin.modinfo" "$mods/"
	n=0
	for ko in $(cd "$ours"/* && find kernel -name '*.ko'); do
		# fips140.ko is ours alone: it is embedded in our vmlinux
		[ "${ko##*/}" != fips140.ko ] || continue
		[ -r "$theirs/$ko.xz" ] ||
			die "debian-stock: $LINUX_IMAGE_PKG has no $ko: the configs differ"
		mkdir -p "$mods/${ko%/*}"
		xz -dc "$theirs/$ko.xz" >"$mods/$ko"
		n=$((n + 1))
	done
	depmod -b "$out/modroot" -F "$out/System.map" "$release" ||
		die "debian-stock: depmod failed"
	log "debian-stock: $LINUX_IMAGE_PKG ($release) in $out, $n modules"
}

main "$@"
