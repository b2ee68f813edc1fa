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
#
# The cover letter, patches/0000-cover-letter.patch, is format-patch's,
# with docs/cover-letter.txt as its subject (first line) and text, the
# shortlog and diffstat of the series, and the date of the last commit;
# it is not listed in patches/series (git am has nothing to apply).
set -eu
. "$(dirname "$0")/lib.sh"

COVER=$TOP/docs/cover-letter.txt

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
	[ -r "$COVER" ] || die "series-export: no cover letter text $COVER"
	branch=$(git -C "$wt" symbolic-ref --short HEAD) ||
		die "series-export: $wt has no branch checked out"
	git -C "$wt" -c "branch.$branch.description=$(cat "$COVER")" \
		format-patch -q -N --zero-commit --no-signature \
		--cover-letter --cover-from-description=subject \
		-o "$tmp" base..HEAD
	# The cover letter's own date would change at every export; its
	# subject is numbered as a posting's would be.
	n=$(git -C "$wt" rev-list --count base..HEAD)
	sed -i -e "s/^Date: .*/Date: $(git -C "$wt" log -1 --format=%aD HEAD)/" \
		-e "s/^Subject: \[PATCH\]/Subject: [PATCH 00\/$n]/" \
		"$tmp/0000-cover-letter.patch"
	mkdir -p "$PATCHES"
	rm -f "$PATCHES"/*.patch
	: >"$PATCHES/series"
	mv "$tmp/0000-cover-letter.patch" "$PATCHES/"
	for f in "$tmp"/*.patch; do
		[ -e "$f" ] || continue
		mv "$f" "$PATCHES/"
		basename "$f" >>"$PATCHES/series"
	done
	log "series-export: $(wc -l <"$PATCHES/series") patch(es) from" \
	    "$wt (base..$(git -C "$wt" rev-parse --short HEAD)) -> $PATCHES"
}

main "$@"
