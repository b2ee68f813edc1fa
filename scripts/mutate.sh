#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# mutate.sh [MUTATION...]   (also: test.sh --mutate [MUTATION...])
#
# Shows that the suite catches what it guards. Each tests/mutations/NAME.patch
# is a kernel patch that breaks one guarantee (the digest comparison, a
# placeholder left NULL, ...); its "Caught-by:" line names the cases that
# must catch it. For each mutation (all, or those named): the series plus
# the mutation in worktree $WORK/mutant, the named cases and what they
# need run by test.sh into $WORK/mutant-out (log: mutate-NAME.log there),
# and the mutation is killed when every named case failed itself: a case
# not run because a need failed, or a mutant that does not build, does
# not count. Prints "KILLED NAME" or "SURVIVED NAME: why" per mutation and
# ends with "N killed, N survived"; exit status 1 unless all were killed.
# Not in CI: each mutation rebuilds the fips140 kernel.
set -eu
. "$(dirname "$0")/lib.sh"

MUTATIONS=$TOP/tests/mutations
MUTANT_OUT=$WORK/mutant-out

# case_status RESULTS CASE: the status results.json records for CASE
case_status() {
	sed -n "s/^{\"case\": \"$2\", \"status\": \"\([a-z-]*\)\".*/\1/p" "$1"
}

# mutate NAME: run the cases of mutation NAME; 0 when it was killed.
mutate() {
	_patch=$MUTATIONS/$1.patch
	[ -r "$_patch" ] || die "no mutation $_patch"
	_cases=$(sed -n 's/^Caught-by: //p' "$_patch")
	[ -n "$_cases" ] || die "$_patch has no Caught-by: line"
	_log=$MUTANT_OUT/mutate-$1.log
	mkdir -p "$MUTANT_OUT"
	log "mutation $1: $_cases (log: $_log)"
	_start=$(date +%s)
	# shellcheck disable=SC2086 # a list of case names
	FIPS140_SERIES=mutant FIPS140_SERIES_EXTRA=$_patch \
		FIPS140_OUT=$MUTANT_OUT "$S/test.sh" $_cases >"$_log" 2>&1 || :
	_missed=
	for _case in $_cases; do
		_st=$(case_status "$MUTANT_OUT/test/results.json" "$_case")
		[ "$_st" = fail ] || _missed="$_missed $_case (${_st:-not run})"
	done
	if [ -z "$_missed" ]; then
		echo "KILLED $1 (by $_cases, $(elapsed "$_start"))"
		return 0
	fi
	echo "SURVIVED $1: not failed by$_missed ($(elapsed "$_start"))"
	return 1
}

main() {
	S=$TOP/scripts
	if [ $# = 0 ]; then
		for _p in "$MUTATIONS"/*.patch; do
			set -- "$@" "$(basename "$_p" .patch)"
		done
	fi
	killed=0 survived=0
	for _m in "$@"; do
		if mutate "$_m"; then
			killed=$((killed + 1))
		else
			survived=$((survived + 1))
		fi
	done
	echo "$killed killed, $survived survived"
	[ "$survived" = 0 ]
}

run_main mutate.sh "$@"
