#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# stop-run.sh: the unit test of lib.sh's stop_run (case harness-stop).
#
# A run (a shell that called mark_run, as test.sh does) starts a case
# shell, which starts a long "build" in the background; the case shell is
# then killed before the run is, as "pkill -f test.sh" does, so the build
# is no longer in the run's process tree. The run is then stopped:
#   orphan-outlives-tree    stopped with kill_tree alone (what test.sh did
#                           before), the build survives: the failure
#                           stop_run is for exists (without it, the next
#                           result would prove nothing)
#   stop-run-stops-orphan   stopped with stop_run, the build is gone
#   stop-run-spares-others  a process outside the run lives on
# One line a result, "PASS harness-stop/NAME" or "FAIL harness-stop/NAME:
# why"; exit status 1 when one failed.
#
# stop-run.sh run MODE DIR is the run itself (MODE tree or stop).
set -eu
. "$(dirname "$0")/../../scripts/lib.sh"

# The run: mark it, start the case shell and its build, and on TERM stop
# with MODE's way
run() {
	mark_run
	if [ "$1" = tree ]; then
		# what test.sh did before stop_run: the process tree only
		trap 'kill_children; exit 130' TERM
	else
		trap 'stop_run; exit 130' TERM
	fi
	sh -c 'sleep 600 & echo $! >"$1.tmp"; mv "$1.tmp" "$1"; wait' \
		case "$2/build.pid" >/dev/null 2>&1 &
	echo $! >"$2/case.pid"
	# Until a signal comes, as test.sh waits: a bare "wait" would return
	# when the case shell is killed, and the run could end before
	# stop_with signals it (seen under load: "kill: No such process")
	sleep 600 &
	wait $!
}

alive() {
	kill -0 "$1" 2>/dev/null
}

# stop_with MODE: start a run, kill its case shell, then stop the run;
# prints the pid of the build it had started
stop_with() {
	rm -f "$dir/build.pid" "$dir/case.pid"
	# not on stdout, which the caller reads to its end
	sh "$0" run "$1" "$dir" >/dev/null &
	_run=$!
	_n=0
	while [ ! -s "$dir/build.pid" ]; do
		_n=$((_n + 1))
		[ "$_n" -lt 100 ] || die "stop-run: the run started no build"
		sleep 0.1
	done
	kill -KILL "$(cat "$dir/case.pid")"
	kill -TERM "$_run"
	wait "$_run" || :
	cat "$dir/build.pid"
}

result() {
	if [ "$2" = 0 ]; then
		echo "PASS harness-stop/$1"
	else
		echo "FAIL harness-stop/$1: $3"
		failed=1
	fi
}

main() {
	if [ "${1:-}" = run ]; then
		run "$2" "$3"
		return
	fi
	dir=$(mktemp -d)
	trap 'rm -rf "$dir"' EXIT
	failed=0
	sleep 600 >/dev/null &
	other=$!

	build=$(stop_with tree)
	alive "$build"
	result orphan-outlives-tree $? \
		"the orphaned build $build died with the process tree"
	kill "$build" 2>/dev/null || :

	build=$(stop_with stop)
	_s=0
	! alive "$build" || _s=1
	result stop-run-stops-orphan $_s \
		"the orphaned build $build outlived stop_run"
	[ "$_s" = 0 ] || kill "$build" 2>/dev/null || :

	alive "$other"
	result stop-run-spares-others $? \
		"stop_run stopped $other, which is not the run's"
	kill "$other" 2>/dev/null || :
	return "$failed"
}

main "$@"
