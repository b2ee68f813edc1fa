#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# series-export.sh WORKTREE
#
# Export the commits base..HEAD of WORKTREE (a worktree made by
# series-apply.sh) into patches/ with git format-patch: the old *.patch
# files are removed and patches/series is rewritten in commit order.
# Refuses a worktree with uncommitted changes. The patches carry no commit
# ids, numbers in the subject or signature, so re-exporting an unchanged
# commit gives the same file.
set -eu
. "$(dirname "$0")/lib.sh"

main() {
	[ $# = 1 ] || die "usage: series-export.sh WORKTREE"
	wt=$(cd "$1" && pwd)
	git -C "$wt" rev-parse -q --verify base >/dev/null 2>&1 ||
		die "$wt has no tag base: not a worktree of $SRC"
	git -C "$wt" merge-base --is-ancestor base HEAD ||
		die "HEAD of $wt does not descend from base"
	if [ -n "$(git -C "$wt" status --porcelain)" ]; then
		git -C "$wt" status --short | head -n 20 >&2
		die "$wt has uncommitted changes: commit or discard them first"
	fi
	tmp=$(mktemp -d "${TMPDIR:-/tmp}/series-export.XXXXXX")
	trap 'rm -rf "$tmp"' EXIT
	git -C "$wt" format-patch -q -N --zero-commit --no-signature \
		-o "$tmp" base..HEAD
	mkdir -p "$PATCHES"
	rm -f "$PATCHES"/*.patch
	: >"$PATCHES/series"
	for f in "$tmp"/*.patch; do
		[ -e "$f" ] || continue
		mv "$f" "$PATCHES/"
		basename "$f" >>"$PATCHES/series"
	done
	log "series-export: $(wc -l <"$PATCHES/series") patch(es) from" \
	    "$wt (base..$(git -C "$wt" rev-parse --short HEAD)) -> $PATCHES"
}

main "$@"
