#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# series-apply.sh NAME [DIR [EXTRA-PATCH...]]
#
# (Re)create git worktree DIR (default $WORK/NAME) of the pristine tree on
# branch NAME, starting at tag base, and git am every patch listed in
# patches/series (one file name a line; blank lines and # comments
# ignored; no series file or an empty one: the worktree is just base),
# then the EXTRA-PATCH files (test changes on top). A patch that does not
# apply: its name and the rejected files are printed, the half-made
# worktree is removed, exit status 1.
# An existing worktree is reset in place to the last commit whose patch,
# and every patch before it, is the one applied last time (recorded in
# its git directory), and only the patches after it are applied again:
# files that no changed patch touches keep their timestamps, so builds
# stay incremental. One with uncommitted changes is refused, and its
# branch head is kept as refs/series-backup/NAME.
set -eu
. "$(dirname "$0")/lib.sh"

remove_worktree() {
	git -C "$SRC" worktree remove --force "$wt" 2>/dev/null || rm -rf "$wt"
	git -C "$SRC" worktree prune
}

# The patch files to apply, with their paths: the series, then the extra
# patches; each checked to exist.
patch_files() {
	for _p in $(series_of "$PATCHES"); do
		[ -r "$PATCHES/$_p" ] ||
			die "series-apply: patches/series lists $_p, no such file"
		echo "$PATCHES/$_p"
	done
	for _p in "$@"; do
		[ -r "$_p" ] || die "series-apply: no extra patch $_p"
		echo "$_p"
	done
}

# kept FILE...: "COMMIT N": the longest prefix of FILE... that the last
# run applied (recorded as "SHA256 COMMIT" lines in $record), N patches,
# the last one's commit; "base 0" if none.
kept() {
	_at=base _n=0
	for _p in "$@"; do
		[ -r "$record" ] || break
		_sum=$(sha256sum <"$_p" | cut -d' ' -f1)
		_line=$(sed -n "$((_n + 1))p" "$record")
		[ "${_line% *}" = "$_sum" ] || break
		git -C "$wt" merge-base --is-ancestor "${_line#* }" HEAD \
			2>/dev/null || break
		_at=${_line#* } _n=$((_n + 1))
	done
	echo "$_at $_n"
}

# apply PATCH-FILE: git am one patch and record it, or report it and fail.
apply() {
	_p=$1
	_err=$WORK/.series-apply.$$
	if git_id "$wt" am -q "$_p" >"$_err" 2>&1; then
		rm -f "$_err"
		echo "$(sha256sum <"$_p" | cut -d' ' -f1) $(git -C "$wt" rev-parse HEAD)" \
			>>"$record"
		return
	fi
	echo "series-apply: patch $(basename "$_p") does not apply to $name" >&2
	sed -n -e 's/^error: \(.*\): patch does not apply$/  rejected file: \1/p' \
		-e 's/^error: \(.*\): does not exist in index$/  rejected file (missing): \1/p' \
		-e 's/^error: \(.*\): already exists in working directory$/  rejected file (exists): \1/p' \
		-e 's/^error: patch failed: \(.*\)$/  failed hunk at: \1/p' \
		"$_err" >&2
	echo "--- git am said:" >&2
	sed 's/^/  /' "$_err" >&2
	rm -f "$_err"
	git -C "$wt" am --abort >/dev/null 2>&1 || :
	remove_worktree
	die "series-apply: removed $wt; fix $(basename "$_p") (see patches/series)"
}

main() {
	[ $# -ge 1 ] || die "usage: series-apply.sh NAME [DIR [EXTRA-PATCH...]]"
	name=$1
	wt=${2:-$WORK/$name}
	[ $# -lt 2 ] || shift
	shift
	case $name in
	linux | out | keys | *[!A-Za-z0-9._-]* | .*)
		die "series-apply: bad worktree name '$name'" ;;
	esac
	git -C "$SRC" rev-parse -q --verify base >/dev/null 2>&1 ||
		die "no pristine tree at $SRC: run scripts/tree.sh"
	patch_files "$@" >/dev/null

	if [ -e "$wt" ]; then
		top=$(git -C "$wt" rev-parse --show-toplevel 2>/dev/null) || top=
		common=$(git -C "$wt" rev-parse --path-format=absolute \
			--git-common-dir 2>/dev/null) || common=
		if [ "$top" != "$wt" ] || [ "$common" != "$SRC/.git" ]; then
			die "$wt exists and is not a worktree of $SRC"
		fi
		if [ -n "$(git -C "$wt" status --porcelain)" ]; then
			git -C "$wt" status --short | head -n 20 >&2
			die "$wt has uncommitted changes: commit them (and run" \
			    "series-export.sh $wt) or discard them first"
		fi
		old=$(git -C "$wt" rev-parse HEAD)
		if [ "$old" != "$(git -C "$SRC" rev-parse "base^{commit}")" ]; then
			git -C "$SRC" update-ref "refs/series-backup/$name" "$old"
			log "series-apply: old head of $name kept as" \
			    "refs/series-backup/$name ($(git -C "$SRC" log -1 --format='%h %s' "$old"))"
		fi
		record=$(git -C "$wt" rev-parse --absolute-git-dir)/fips140-applied
		# Reset in place rather than check out anew, to the last
		# patch that did not change: files no changed patch touches
		# keep their timestamps, so builds stay incremental.
		# shellcheck disable=SC2046 # a list of file names
		at=$(kept $(patch_files "$@"))
		nkept=${at#* } at=${at% *}
		log "series-apply: worktree $wt: branch $name reset to" \
		    "$nkept unchanged patch(es) ($(git -C "$wt" log -1 --format=%h "$at"))"
		git -C "$wt" reset -q --hard "$at"
		touch "$record"
		head -n "$nkept" "$record" >"$record.tmp"
		mv "$record.tmp" "$record"
	else
		git -C "$SRC" worktree prune
		log "series-apply: worktree $wt on branch $name from base"
		git -C "$SRC" worktree add -q -B "$name" "$wt" base
		record=$(git -C "$wt" rev-parse --absolute-git-dir)/fips140-applied
		: >"$record"
		nkept=0
	fi
	unignore_debian_rules "$wt"

	n=0
	# shellcheck disable=SC2046 # a list of file names
	for p in $(patch_files "$@"); do
		n=$((n + 1))
		[ "$n" -gt "$nkept" ] || continue
		apply "$p"
	done
	if [ "$n" = 0 ]; then
		log "series-apply: empty series; $name is base"
	else
		log "series-apply: $n patch(es), $((n - nkept)) applied now;" \
		    "$name is at $(git -C "$wt" log -1 --format='%h %s')"
	fi
}

main "$@"
