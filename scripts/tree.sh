#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# Install Debian's linux-source-6.12 and extract it into $WORK/linux as a git
# repository with one pristine base commit (tag "base"), so that the series
# in patches/ can be applied with git am and exported with git format-patch.
# Extraction is skipped when the pristine tree is already there. Debian's
# own configs of that tree (linux-config-6.12, the debian targets) are
# installed too, same version.
set -eu
. "$(dirname "$0")/lib.sh"

# install_pinned PACKAGE: PACKAGE=$LINUX_SOURCE_VERSION, or the newest.
install_pinned() {
	if dpkg-query -W -f '${Version}' "$1" 2>/dev/null |
	   grep -qx "$LINUX_SOURCE_VERSION"; then
		return
	fi
	log "installing $1=$LINUX_SOURCE_VERSION"
	if ! apt-get install -y "$1=$LINUX_SOURCE_VERSION"; then
		echo "warning: $LINUX_SOURCE_VERSION is not available;" \
		     "taking the newest $1" >&2
		apt-get install -y "$1"
	fi
}

install_source() {
	install_pinned "$LINUX_SOURCE_PKG"
	install_pinned "$LINUX_CONFIG_PKG"
}

extract() {
	tarball=/usr/src/$LINUX_SOURCE_PKG.tar.xz
	[ -r "$tarball" ] || die "$tarball missing; is $LINUX_SOURCE_PKG installed?"
	tmp=$WORK/linux.tmp
	rm -rf "$tmp"
	mkdir -p "$tmp"
	log "extracting $tarball"
	tar -xf "$tarball" -C "$tmp" --strip-components=1
	git -C "$tmp" init -q -b pristine
	git -C "$tmp" add -A -f
	version=$(dpkg-query -W -f '${Version}' "$LINUX_SOURCE_PKG")
	git -C "$tmp" -c user.name=fips140 -c user.email=fips140@localhost \
		commit -q -m "$LINUX_SOURCE_PKG $version (pristine)"
	git -C "$tmp" tag base
	unignore_debian_rules "$tmp"
	# Only a complete tree gets the final name.
	mv "$tmp" "$SRC"
}

# check_version: the present tree was extracted from the package version
# pinned in lib.sh (its base commit says which), or, where apt no longer
# has that one, from the version installed.
check_version() {
	_tree=$(git -C "$SRC" log -1 --format=%s base |
		sed -n "s/^$LINUX_SOURCE_PKG \(.*\) (pristine)\$/\1/p")
	_installed=$(dpkg-query -W -f '${Version}' "$LINUX_SOURCE_PKG" \
		2>/dev/null) || _installed=none
	[ "$_tree" = "$LINUX_SOURCE_VERSION" ] && return
	[ "$_tree" = "$_installed" ] && [ -n "$_tree" ] && return
	die "$SRC is $LINUX_SOURCE_PKG ${_tree:-(unknown version)}, not" \
	    "$LINUX_SOURCE_VERSION (pinned in scripts/lib.sh; installed:" \
	    "$_installed): remove $SRC and run scripts/tree.sh again"
}

main() {
	if git -C "$SRC" rev-parse -q --verify base >/dev/null 2>&1; then
		check_version
		log "pristine tree present: $SRC ($LINUX_SOURCE_PKG $_tree)"
		install_pinned "$LINUX_CONFIG_PKG"
		return
	fi
	[ ! -e "$SRC" ] || die "$SRC exists but is not a pristine tree; remove it"
	install_source
	mkdir -p "$WORK"
	extract
	log "pristine tree ready: $SRC"
}

main "$@"
