# SPDX-License-Identifier: GPL-2.0
# Shared settings of the fips140 harness scripts. Sourced, not run.
# shellcheck shell=sh
# The settings are used by the scripts that source this file.
# shellcheck disable=SC2034

# The Debian package the series is made for. If apt no longer offers this
# exact version, tree.sh takes the newest 6.12 and says so.
LINUX_SOURCE_PKG=linux-source-6.12
LINUX_SOURCE_VERSION=6.12.118-1~deb12u1
# Debian's own configs of that tree (the debian targets), same version,
# and the kernel Debian built from it with its amd64 config (signed
# modules): the stock side of the debian target.
LINUX_CONFIG_PKG=linux-config-6.12
LINUX_IMAGE_PKG=linux-image-6.12.118+deb12-amd64

TOP=$(cd "$(dirname "$0")/.." && pwd)
WORK=${FIPS140_WORK:-$TOP/build}

# The architecture of the kernel a script builds or boots: x86_64 (the
# default) or arm64, from a target's "arch" key (test.sh sets
# FIPS140_ARCH). arm64 kernels are cross-compiled and boot in
# qemu-system-aarch64's virt machine; their guest payloads (busybox) come
# from Debian's arm64 packages, unpacked in $ARM64_ROOT by deps.sh.
KARCH=${FIPS140_ARCH:-x86_64}
ARM64_ROOT=$WORK/arm64-root
case $KARCH in
x86_64)
	SRCARCH=x86
	IMAGE_TARGET=bzImage
	CROSS_COMPILE=
	QEMU=qemu-system-x86_64
	QEMU_MACHINE=
	CONSOLE=ttyS0
	BUSYBOX_DEFAULT=/bin/busybox
	;;
arm64)
	SRCARCH=arm64
	IMAGE_TARGET=Image
	CROSS_COMPILE=aarch64-linux-gnu-
	QEMU=qemu-system-aarch64
	QEMU_MACHINE="-machine virt"
	# earlycon: the PL011 console registers only at arch_initcall, after
	# the loader's earliest failures
	CONSOLE="ttyAMA0 earlycon"
	BUSYBOX_DEFAULT=$ARM64_ROOT/bin/busybox
	;;
*)
	echo "error: FIPS140_ARCH=$KARCH: x86_64 or arm64" >&2
	exit 1
	;;
esac
# image_rel ARCH: the boot image in a build directory of ARCH
image_rel() {
	case $1 in
	arm64) echo arch/arm64/boot/Image ;;
	*) echo arch/x86/boot/bzImage ;;
	esac
}
IMAGE_REL=$(image_rel "$KARCH")

# Debian's clients of the kernel crypto API that the guest test "clients"
# runs (clients.sh); for the arm64 guests, their arm64 builds (deps.sh)
CLIENTS="/usr/bin/kcapi-dgst /usr/bin/kcapi-enc /usr/bin/kcapi-rng
/usr/bin/keyctl /usr/sbin/cryptsetup"
# Pristine tree (a git repo whose first commit is the untouched source).
# FIPS140_SRC names another one, e.g. an older Debian version extracted by
# "tree.sh VERSION" (the reuse tests' certifying tree).
SRC=${FIPS140_SRC:-$WORK/linux}
# Build output directories: $OUT/NAME (one per kernel target);
# FIPS140_OUT puts them elsewhere (the reuse tests' second tree).
OUT=${FIPS140_OUT:-$WORK/out}
# FIPS140_PATCHES: another series directory (bisect-series.sh: a prefix)
PATCHES=${FIPS140_PATCHES:-$TOP/patches}
CONFIGS=$TOP/configs

# series_of DIR: the patch file names DIR/series lists, in order (one a
# line; blank lines and # comments ignored; none without a series file)
series_of() {
	[ -r "$1/series" ] || return 0
	sed -e 's/#.*//' -e 's/[[:space:]]*$//' -e '/^$/d' "$1/series"
}

# The host checks run with Debian's Python, which has the packages deps.sh
# installs (python3-pyelftools, python3-cryptography); FIPS140_PYTHON
# overrides it.
PYTHON=${FIPS140_PYTHON:-/usr/bin/python3}

# Fixed build identity, so that two builds of the same tree are identical.
KBUILD_BUILD_TIMESTAMP='2025-01-01 00:00:00 UTC'
KBUILD_BUILD_USER=fips140
KBUILD_BUILD_HOST=fips140
export KBUILD_BUILD_TIMESTAMP KBUILD_BUILD_USER KBUILD_BUILD_HOST

die() {
	echo "error: $*" >&2
	exit 1
}

log() {
	echo ">>> $*" >&2
}

# Print "Ns" elapsed since $1 (seconds since the epoch).
elapsed() {
	echo "$(($(date +%s) - $1))s"
}

## Stopping a run ##############################################################
#
# A harness command that builds or boots (test.sh, bisect-series.sh,
# sweep.sh, mutate.sh, bench.sh, reuse-window.sh, run.sh) marks its run:
# FIPS140_RUN_<its pid>=1 in its environment, which every process it
# starts inherits, even one whose parent dies first (a run started by
# another carries both marks). On Ctrl-C, kill or hang-up, stop_run stops them all
# by that mark, because the process tree alone misses some: a build whose
# case shell was killed before test.sh ("pkill -f test.sh" signals both)
# is init's child by then, and QEMU and make run under timeout(1), in a
# process group of their own, which the terminal's Ctrl-C does not reach.
mark_run() {
	export "FIPS140_RUN_$$=1"
}

# kill_tree PID: PID and every process under it, deepest first
kill_tree() {
	for _child in $(pgrep -P "$1"); do
		kill_tree "$_child"
	done
	kill -TERM "$1" 2>/dev/null || :
}

# kill_children: the process tree under this shell (kill_tree)
kill_children() {
	for _child in $(pgrep -P $$); do
		kill_tree "$_child"
	done
}

# run_processes: the processes marked as this run's (mark_run), but this
# shell
run_processes() {
	grep -lsxzF "FIPS140_RUN_$$=1" /proc/[0-9]*/environ |
		sed -n 's|^/proc/\([0-9]*\)/environ$|\1|p' | grep -vx "$$" || :
}

# stop_run: TERM the process tree of this shell, then every process
# still marked as this run's; KILL what is left after 3 seconds
stop_run() {
	kill_children
	for _try in 1 2 3; do
		_left=$(run_processes)
		[ -n "$_left" ] || return 0
		# shellcheck disable=SC2086 # a list of process ids
		kill -TERM $_left 2>/dev/null || :
		sleep 1
	done
	_left=$(run_processes)
	# shellcheck disable=SC2086 # a list of process ids
	[ -z "$_left" ] || kill -KILL $_left 2>/dev/null || :
}

# stop_on_signals NAME: mark this run (mark_run) and, on Ctrl-C, kill or
# hang-up, stop it (stop_run), saying so, with exit status 130
stop_on_signals() {
	mark_run
	_stop_name=$1
	trap 'stopped_by INT' INT
	trap 'stopped_by TERM' TERM
	trap 'stopped_by HUP' HUP
}

# run_main NAME ARGS...: the script's main ARGS, stopped on signals as
# NAME (stop_on_signals). main runs in the background and is waited for:
# a shell runs its trap only once the foreground command has ended (a
# build: many minutes), while waiting for a background one ends at once.
run_main() {
	stop_on_signals "$1"
	shift
	main "$@" &
	wait $!
}

# stopped_by SIGNAL: the trap of stop_on_signals; a script that defines
# stopped_report SIGNAL has it say what it had done (test.sh: its closing
# line) once everything is stopped
stopped_by() {
	trap - INT TERM HUP
	log "$_stop_name: stopped by signal $1; stopping its builds and guests"
	stop_run
	! command -v stopped_report >/dev/null || stopped_report "$1"
	exit 130
}

# The Debian tarball's .gitignore ends with rules that ignore everything at
# the top level but debian/, so git would not see new files such as
# crypto/fips140/. The committed file stays as shipped (it is part of the
# pristine tree); only the checked-out copy in work tree $1 loses those
# lines, and skip-worktree keeps that local edit out of every commit.
unignore_debian_rules() {
	sed -i '/^# Debian packaging: ignore everything/,$d' "$1/.gitignore"
	git -C "$1" update-index --skip-worktree .gitignore
}

# Kernel targets, one file each (tests/targets/README)
TARGETS=$TOP/tests/targets

# target_key TARGET KEY [DEFAULT]: the value of KEY in TARGET's file
target_key() {
	_tf=$TARGETS/$1.target
	[ -r "$_tf" ] || die "no target file $_tf"
	_v=$(sed -n "s/^$2=//p" "$_tf" | tail -n 1)
	echo "${_v:-${3:-}}"
}

# target_fragments TARGET: the paths of TARGET's config fragments
target_fragments() {
	for _f in $(target_key "$1" fragments); do
		echo "$CONFIGS/$_f"
	done
}

# version_dir VERSION: the directory of another Debian version of the tree
# (e.g. 6.12.117-1~deb12u1 -> $WORK/v6.12.117), laid out as $WORK is for
# the pinned one: linux/ (tree.sh), series/ (the series applied) and
# out/NAME (its builds). A build there finds its sources at the same
# relative paths (../../series/...) as a build of the pinned version, so
# ccache, whose paths are relative to $WORK (build.sh), can take from the
# cache every object whose preprocessed source the update did not change.
# Few, measured: 6.12.118 changed include/linux/mm.h, which nearly every
# object includes (the certified build of 6.12.117 after the 6.12.118
# ones: about 10% hits).
version_dir() {
	echo "$WORK/v${1%%-*}"
}

# tree_of_version VERSION: where tree.sh extracts linux-source-6.12 of
# Debian version VERSION: $WORK/linux for the pinned one, else
# $(version_dir VERSION)/linux
tree_of_version() {
	if [ "$1" = "$LINUX_SOURCE_VERSION" ]; then
		echo "$WORK/linux"
	else
		echo "$(version_dir "$1")/linux"
	fi
}

# certified_set BUILD-DIR DEST: what a distribution keeps of a certifying
# build, in the layout of a build directory: crypto/fips140/fips140.ko,
# its digest crypto/fips140/fips140.hmac, and the crypto modules (=m);
# DEST appears complete or not at all
certified_set() {
	rm -rf "$2.tmp"
	mkdir -p "$2.tmp"
	(cd "$1" &&
	 find crypto lib/crypto "arch/$SRCARCH/crypto" certs -name '*.ko' \
		! -name 'fips140-*.ko' &&
	 echo crypto/fips140/fips140.hmac) |
		(cd "$1" && xargs cp --parents -t "$2.tmp")
	rm -rf "$2"
	mv "$2.tmp" "$2"
}

# algs_of_log LOG: the /proc/crypto table a boot's dump recorded, as two
# kernels built from the same fragment must both have it (ktap.py algs:
# without the owning module, each template instance once, sorted)
algs_of_log() {
	"$PYTHON" "$TOP/scripts/ktap.py" algs "$1"
}

# git in work tree $1, with a fallback committer identity for git am on a
# machine where none is configured (the author comes from the patch).
git_id() {
	_dir=$1
	shift
	if git -C "$_dir" config user.email >/dev/null 2>&1; then
		git -C "$_dir" "$@"
	else
		git -C "$_dir" -c user.name=fips140 \
			-c user.email=fips140@localhost "$@"
	fi
}
