#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# tree.sh [VERSION]
#
# Install Debian's linux-source-6.12 and extract it into $WORK/linux as a git
# repository with one pristine base commit (tag "base"), so that the series
# in patches/ can be applied with git am and exported with git format-patch.
# Extraction is skipped when the pristine tree is already there. Debian's
# own configs of that tree (linux-config-6.12, the debian targets) are
# installed too, same version.
#
# With VERSION (a Debian version of linux-source-6.12 other than the one
# pinned in lib.sh, e.g. 6.12.117-1~deb12u1), the package of that version
# is downloaded, not installed (apt holds one version of a package), and
# its source extracted the same way into $WORK/v6.12.117/linux: the
# certifying tree of the reuse tests (lib.sh, version_dir).
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

# download VERSION DIR: the source tarball of linux-source-6.12 VERSION,
# unpacked from the package into DIR; prints the tarball's path
download() {
	mkdir -p "$2"
	log "downloading $LINUX_SOURCE_PKG=$1"
	(cd "$2" && apt-get download "$LINUX_SOURCE_PKG=$1" >&2) ||
		die "apt has no $LINUX_SOURCE_PKG=$1 (apt-cache policy" \
		    "$LINUX_SOURCE_PKG lists the versions it has)"
	dpkg-deb -x "$2"/"$LINUX_SOURCE_PKG"_*.deb "$2/root"
	echo "$2/root/usr/src/$LINUX_SOURCE_PKG.tar.xz"
}

# extract TARBALL VERSION DIR: TARBALL as a git repository DIR, its one
# commit tagged base and named for VERSION
extract() {
	[ -r "$1" ] || die "$1 missing; is $LINUX_SOURCE_PKG installed?"
	_tmp=$3.tmp
	rm -rf "$_tmp"
	mkdir -p "$_tmp"
	log "extracting $1"
	tar -xf "$1" -C "$_tmp" --strip-components=1
	git -C "$_tmp" init -q -b pristine
	git -C "$_tmp" add -A -f
	git -C "$_tmp" -c user.name=fips140 -c user.email=fips140@localhost \
		commit -q -m "$LINUX_SOURCE_PKG $2 (pristine)"
	git -C "$_tmp" tag base
	unignore_debian_rules "$_tmp"
	# Only a complete tree gets the final name.
	mv "$_tmp" "$3"
}

# tree_version DIR: the package version DIR was extracted from
tree_version() {
	git -C "$1" log -1 --format=%s base 2>/dev/null |
		sed -n "s/^$LINUX_SOURCE_PKG \(.*\) (pristine)\$/\1/p"
}

# check_version: the present tree was extracted from the package version
# pinned in lib.sh (its base commit says which), or, where apt no longer
# has that one, from the version installed.
check_version() {
	_tree=$(tree_version "$SRC")
	_installed=$(dpkg-query -W -f '${Version}' "$LINUX_SOURCE_PKG" \
		2>/dev/null) || _installed=none
	[ "$_tree" = "$LINUX_SOURCE_VERSION" ] && return
	[ "$_tree" = "$_installed" ] && [ -n "$_tree" ] && return
	die "$SRC is $LINUX_SOURCE_PKG ${_tree:-(unknown version)}, not" \
	    "$LINUX_SOURCE_VERSION (pinned in scripts/lib.sh; installed:" \
	    "$_installed): remove $SRC and run scripts/tree.sh again"
}

# pinned: the tree of the version lib.sh pins, $SRC
pinned() {
	if git -C "$SRC" rev-parse -q --verify base >/dev/null 2>&1; then
		check_version
		log "pristine tree present: $SRC ($LINUX_SOURCE_PKG $_tree)"
		install_pinned "$LINUX_CONFIG_PKG"
		return
	fi
	[ ! -e "$SRC" ] || die "$SRC exists but is not a pristine tree; remove it"
	install_pinned "$LINUX_SOURCE_PKG"
	install_pinned "$LINUX_CONFIG_PKG"
	mkdir -p "$WORK"
	_version=$(dpkg-query -W -f '${Version}' "$LINUX_SOURCE_PKG")
	extract "/usr/src/$LINUX_SOURCE_PKG.tar.xz" "$_version" "$SRC"
	log "pristine tree ready: $SRC"
}

# other VERSION: the tree of another version, beside the pinned one
other() {
	_dir=$(tree_of_version "$1")
	if [ -e "$_dir" ]; then
		_tree=$(tree_version "$_dir")
		[ "$_tree" = "$1" ] ||
			die "$_dir is $LINUX_SOURCE_PKG ${_tree:-(unknown version)}," \
			    "not $1: remove it and run scripts/tree.sh $1 again"
		log "pristine tree present: $_dir ($LINUX_SOURCE_PKG $1)"
		return
	fi
	_dl=$(version_dir "$1")/download
	rm -rf "$_dl"
	extract "$(download "$1" "$_dl")" "$1" "$_dir"
	rm -rf "$_dl"
	log "pristine tree ready: $_dir"
}

main() {
	case ${1:-$LINUX_SOURCE_VERSION} in
	"$LINUX_SOURCE_VERSION") pinned ;;
	*[!0-9a-z.~+-]*) die "usage: tree.sh [DEBIAN-VERSION]" ;;
	*) other "$1" ;;
	esac
}

main "$@"
