#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# checkpatch-series.sh [DIR]
#
# Run the pristine tree's scripts/checkpatch.pl --strict on every patch
# that DIR/series lists (default: patches/), as a maintainer would, and
# print one result a patch, "PASS checkpatch/PATCH" or
# "FAIL checkpatch/PATCH: reason". A patch fails on any ERROR, and on a
# WARNING its commit message does not explain: a paragraph starting
# "checkpatch:" explains the warnings of its patch, one starting
# "MAINTAINERS:" the question whether MAINTAINERS needs updating
# (FILE_PATH_CHANGES). CHECKs are listed, not counted against the patch.
# Exit status 1 when a patch failed.
set -eu
. "$(dirname "$0")/lib.sh"

# message PATCH: the commit message of a format-patch file (the lines
# after the header, up to the "---" before the diffstat)
message() {
	awk 'body && /^---$/ { exit } body { print } /^$/ { body = 1 }' "$1"
}

# explains PATCH PREFIX: the commit message has a paragraph starting PREFIX
explains() { message "$1" | grep -q "^$2"; }

# check_patch PATCH: print its result; status 1 when it failed
check_patch() {
	_name=checkpatch/$(basename "$1" .patch)
	# From an empty directory: in a git tree, checkpatch leaves a
	# cache file of CamelCase words behind.
	_out=$(cd "$tmp" && "$SRC/scripts/checkpatch.pl" --no-tree -q \
		--strict --terse --show-types --no-summary "$1" 2>&1) || true
	_errors=$(echo "$_out" | grep -c ': ERROR:' || true)
	_warnings=$(echo "$_out" | grep ': WARNING:' || true)
	if explains "$1" MAINTAINERS:; then
		_warnings=$(echo "$_warnings" | grep -v ':FILE_PATH_CHANGES:' || true)
	fi
	if explains "$1" checkpatch:; then
		_warnings=
	fi
	echo "$_out" | grep -e ': CHECK:' -e ': WARNING:' -e ': ERROR:' |
		sed 's/^[^:]*:\([0-9]*\): /  line \1: /' || true
	if [ "$_errors" -gt 0 ]; then
		echo "FAIL $_name: $_errors error(s)"
		return 1
	fi
	if [ -n "$_warnings" ]; then
		echo "FAIL $_name: $(echo "$_warnings" | wc -l) warning(s) the" \
		     "commit message does not explain (no \"checkpatch:\" paragraph)"
		return 1
	fi
	echo "PASS $_name"
}

main() {
	_dir=${1:-$PATCHES}
	[ -x "$SRC/scripts/checkpatch.pl" ] ||
		die "no $SRC/scripts/checkpatch.pl: run scripts/tree.sh first"
	[ -r "$_dir/series" ] || die "no $_dir/series"
	_dir=$(cd "$_dir" && pwd)
	tmp=$(mktemp -d "${TMPDIR:-/tmp}/checkpatch.XXXXXX")
	trap 'rm -rf "$tmp"' EXIT
	_status=0
	for _p in $(series_of "$_dir"); do
		[ -r "$_dir/$_p" ] || die "$_dir/series lists $_p, no such file"
		check_patch "$_dir/$_p" || _status=1
	done
	return "$_status"
}

main "$@"
