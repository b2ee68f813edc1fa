#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# build.sh NAME SRCDIR FRAGMENT...
#
# Build kernel target NAME from tree SRCDIR into O=$WORK/out/NAME: config
# (config.sh: tinyconfig + fragments, checked), make bzImage (arm64:
# Image) modules, for FIPS140_ARCH (lib.sh), then
# make modules_install into $WORK/out/NAME/modroot (modules are signed
# there). ccache is used when installed, with CCACHE_BASEDIR=$WORK: paths
# are hashed relative to the build directory, so a checkout elsewhere (or
# a recreated worktree) hits the cache. The pristine and the series tree
# share no objects (the series changes headers every file includes, and
# the relative paths ../../linux/, ../../series/ differ); the trees of
# another Debian version sit at the same relative paths from their builds
# (lib.sh, version_dir), so there ccache finds the objects whose
# preprocessed source did not change (few, when an update changes a
# header as common as mm.h).
# Every build signs its modules with the same key, made once in
# $WORK/signing (CONFIG_MODULE_SIG_KEY), as a distribution does: the
# certificate is built into fips140.ko (certs/ is in the crypto
# boundary), which must be the same in every build of the same sources.
# The key's path is relative to the build directory: autoconf.h, which
# every object includes, holds it, and an absolute path would make a
# clone elsewhere (CI's) miss ccache's direct mode for every object.
# FIPS140_NO_CCACHE=1 builds without it (the reproducibility test must
# compile, not fetch from the cache). When make fails, vmlinux and
# bzImage are removed, so that no image of an older build looks valid.
# The make output goes to $WORK/out/NAME/build.log (FIPS140_VERBOSE=1: also
# to the terminal). FIPS140_KERNELRELEASE sets the kernel release string
# (make KERNELRELEASE=), as distributions do; FIPS140_MAKE_ARGS adds make
# variables (e.g. FIPS140_BUILD=DIR, the prebuilt crypto module).
# A build that compiles everything (no init/main.o yet) writes its time to
# $WORK/out/NAME/full-build.time: "SECONDS ccache=on|off" (bench.sh).
set -eu
. "$(dirname "$0")/lib.sh"

# The longest a build may take: a cold build of Debian's config takes
# about 65 minutes on two cores (README).
BUILD_TIMEOUT=${FIPS140_BUILD_TIMEOUT:-7200}

# run_logged LOG CMD...: run CMD, output to LOG (and the terminal if
# FIPS140_VERBOSE=1); on failure show the first errors and the tail.
run_logged() {
	_log=$1
	shift
	_rc=0
	if [ "${FIPS140_VERBOSE:-0}" = 1 ]; then
		{ "$@" 2>&1 || echo "exit status $?" >"$_log.rc"; } | tee "$_log"
		[ ! -e "$_log.rc" ] || { rm -f "$_log.rc"; _rc=1; }
	else
		"$@" >"$_log" 2>&1 || _rc=$?
	fi
	if [ "$_rc" != 0 ]; then
		echo "--- first errors in $_log:" >&2
		grep -m 20 -E 'error:|Error [0-9]|undefined reference|\*\*\*' \
			"$_log" >&2 || :
		echo "--- last 30 lines of $_log:" >&2
		tail -n 30 "$_log" >&2
	fi
	return "$_rc"
}

# signing_fragment OUTDIR [--debian]: the fragment OUTDIR/signing.config
# that sets the harness's module signing key, made once with the kernel's
# own key configuration (certs/default_x509.genkey): RSA, or with --debian
# an ECDSA P-384 key like the one Debian builds its kernel with, so that
# loading the key at boot uses (and self-tests) the same algorithms as
# Debian's kernel.
signing_fragment() {
	_dir=$WORK/signing _newkey=
	if [ "${2:-}" = --debian ]; then
		_dir=$WORK/signing/debian
		_newkey="-newkey ec -pkeyopt ec_paramgen_curve:secp384r1"
	fi
	if [ ! -s "$_dir/signing_key.pem" ]; then
		mkdir -p "$_dir"
		# shellcheck disable=SC2086 # options
		openssl req -new -nodes -utf8 -sha256 -days 36500 -batch -x509 \
			-config "$srcdir/certs/default_x509.genkey" $_newkey \
			-outform PEM -out "$_dir/signing_key.pem.tmp" \
			-keyout "$_dir/signing_key.pem.tmp" 2>/dev/null ||
			die "build: cannot make the module signing key"
		mv "$_dir/signing_key.pem.tmp" "$_dir/signing_key.pem"
	fi
	# Relative to OUTDIR, where make runs (certs/Makefile and
	# scripts/Makefile.modinst read it from there). Rewritten only when
	# it changes: a newer fragment makes config.sh make the .config
	# again (the stamp), about 10 s each build
	mkdir -p "$1"
	printf 'CONFIG_MODULE_SIG_KEY="%s"\n' \
		"$(realpath --relative-to="$1" "$_dir/signing_key.pem")" \
		>"$1/signing.config.tmp"
	if cmp -s "$1/signing.config.tmp" "$1/signing.config"; then
		rm "$1/signing.config.tmp"
	else
		mv "$1/signing.config.tmp" "$1/signing.config"
	fi
	echo "$1/signing.config"
}

main() {
	[ $# -ge 3 ] || die "usage: build.sh NAME SRCDIR FRAGMENT..."
	name=$1
	srcdir=$(cd "$2" && pwd)
	shift 2
	outdir=$OUT/$name
	start=$(date +%s)

	"$TOP/scripts/config.sh" "$srcdir" "$outdir" "$@" \
		"$(signing_fragment "$outdir" "$1")"

	set -- -C "$srcdir" O="$outdir" ARCH="$KARCH"
	[ -z "$CROSS_COMPILE" ] || set -- "$@" CROSS_COMPILE="$CROSS_COMPILE"
	# The release string a distribution gives its build (uname -r,
	# /lib/modules/RELEASE, /proc/sys/crypto/fips_version)
	if [ -n "${FIPS140_KERNELRELEASE:-}" ]; then
		set -- "$@" KERNELRELEASE="$FIPS140_KERNELRELEASE"
	fi
	# More make variables, e.g. FIPS140_BUILD=DIR (the prebuilt module)
	# shellcheck disable=SC2086 # a list of VAR=VALUE words
	set -- "$@" ${FIPS140_MAKE_ARGS:-}
	if [ "${FIPS140_NO_CCACHE:-0}" != 1 ] &&
	    command -v ccache >/dev/null 2>&1; then
		# Paths relative to $WORK, and no working directory in the
		# hash: a tree made again at the same place hits the cache.
		# ccache's own mode, not depend mode (CCACHE_DEPEND): that
		# one stores the objects that embed a file with .incbin
		# (certs/system_certificates.S, piggy.S, fips140-embed.S),
		# keyed without the file, and returned them after the file
		# changed: the kernels of a new clone trusted the signing
		# key of the clone before. The default mode sees .incbin in
		# the preprocessed source and always compiles those.
		CCACHE_BASEDIR=$WORK CCACHE_NOHASHDIR=1
		export CCACHE_BASEDIR CCACHE_NOHASHDIR
		unset CCACHE_DEPEND
		set -- "$@" CC="ccache ${CROSS_COMPILE}gcc" HOSTCC="ccache gcc"
	fi
	jobs=$(nproc)
	# A build that compiles everything records its time, for bench.sh
	fresh=
	if [ ! -e "$outdir/init/main.o" ]; then
		fresh=ccache=off
		case $* in *ccache*) fresh=ccache=on ;; esac
	fi
	log "build $name: make -j$jobs $IMAGE_TARGET modules (log: $outdir/build.log)"
	_rc=0
	run_logged "$outdir/build.log" timeout -k 30 "$BUILD_TIMEOUT" \
		make "$@" -j"$jobs" "$IMAGE_TARGET" modules || _rc=$?
	if [ "$_rc" != 0 ]; then
		rm -f "$outdir/vmlinux" "$outdir/$IMAGE_REL"
		[ "$_rc" != 124 ] ||
			die "build $name: make ran out of its ${BUILD_TIMEOUT}s" \
			    "(FIPS140_BUILD_TIMEOUT) and was stopped"
		die "build $name: make failed after $(elapsed "$start")"
	fi
	rm -rf "$outdir/modroot"
	run_logged "$outdir/modules_install.log" make "$@" \
		INSTALL_MOD_PATH="$outdir/modroot" modules_install ||
		die "build $name: modules_install failed"
	[ -z "$fresh" ] || echo "$(($(date +%s) - start)) $fresh" \
		>"$outdir/full-build.time"
	kver=$(cat "$outdir/include/config/kernel.release")
	nmod=$(find "$outdir/modroot" -name '*.ko*' | wc -l)
	log "build $name: $outdir/$IMAGE_REL ($kver, $nmod modules)" \
	    "in $(elapsed "$start")"
}

main "$@"
