#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# config.sh SRCDIR OUTDIR [--debian FLAVOUR] FRAGMENT...
#
# Make OUTDIR/.config for the kernel tree SRCDIR: tinyconfig, the fragments
# merged on top with merge_config.sh -m, then olddefconfig. With --debian,
# the base is Debian's own config for this tree instead of tinyconfig
# (linux-config-6.12: config.FLAVOUR.xz, e.g. amd64_none_amd64), with the
# modules outside the crypto boundary turned off (kconfig_boundary.py
# base; the fragments keep what they name). Then check that
# every option line of the fragments ("CONFIG_X=val" and "# CONFIG_X is not
# set"; the last fragment wins) really is set as asked, because Kconfig
# drops options whose dependencies are unmet without a word. Fails naming
# every unmet option. An unchanged .config keeps its timestamp, so that the
# next make stays incremental; with unchanged inputs the config is not
# made again at all (only checked).
set -eu
. "$(dirname "$0")/lib.sh"

# check_config CONFIG FRAGMENT...: print every unmet request, fail if any.
check_config() {
	_config=$1
	shift
	awk '
	# Requests, from the fragments (the last one for an option wins).
	FILENAME != config {
		if ($0 ~ /^CONFIG_[A-Za-z0-9_]+=/) {
			name = $0; sub(/=.*/, "", name)
			val = $0; sub(/^[^=]*=/, "", val)
		} else if ($0 ~ /^# CONFIG_[A-Za-z0-9_]+ is not set$/) {
			name = $2; val = "n"
		} else
			next
		if (!(name in want))
			order[++n] = name
		want[name] = val
		from[name] = FILENAME
		next
	}
	# The result.
	/^CONFIG_[A-Za-z0-9_]+=/ {
		name = $0; sub(/=.*/, "", name)
		val = $0; sub(/^[^=]*=/, "", val)
		have[name] = val
	}
	END {
		bad = 0
		for (i = 1; i <= n; i++) {
			name = order[i]
			got = (name in have) ? have[name] : "n"
			if (got == want[name])
				continue
			w = want[name] == "n" ? "is not set" : "=" want[name]
			g = got == "n" ? "not set" : "=" got
			printf "unmet: %s%s%s (from %s) but .config has it %s\n", \
				name, want[name] == "n" ? " " : "", w, from[name], g
			bad++
		}
		if (bad)
			printf "%d requested option(s) not set as asked\n", bad
		exit bad != 0
	}' config="$_config" "$@" "$_config" >&2
}

# Debian's config of flavour $1, from the installed linux-config package.
debian_config() {
	_xz=/usr/src/$LINUX_CONFIG_PKG/config.$1.xz
	[ -r "$_xz" ] || die "config: no $_xz: apt-get install" \
		"$LINUX_CONFIG_PKG=$LINUX_SOURCE_VERSION (scripts/deps.sh test)"
	echo "$_xz"
}

main() {
	[ $# -ge 3 ] || die "usage: config.sh SRCDIR OUTDIR [--debian FLAVOUR] FRAGMENT..."
	srcdir=$(cd "$1" && pwd)
	mkdir -p "$2"
	outdir=$(cd "$2" && pwd)
	shift 2
	debian=
	if [ "$1" = --debian ]; then
		debian=$(debian_config "$2")
		shift 2
	fi
	for f in "$@"; do
		[ -r "$f" ] || die "no such fragment: $f"
	done
	cfg=$outdir/.config
	# Making the config is skipped when its inputs (source tree, fragment
	# list) are those of last time and no fragment, Kconfig file or the
	# .config changed since (FIPS140_RECONFIG=1: make it anyway).
	stamp=$outdir/.config.stamp
	inputs=$(printf '%s\n' "$srcdir" "$debian" "$@")
	if [ "${FIPS140_RECONFIG:-0}" != 1 ] && [ -e "$stamp" ] &&
	   [ -e "$cfg" ] && [ "$(cat "$stamp")" = "$inputs" ] &&
	   [ -z "$(find "$@" ${debian:+"$debian"} "$cfg" -newer "$stamp")" ] &&
	   [ -z "$(find "$srcdir" -path "$srcdir/.git" -prune -o \
		-name 'Kconfig*' -newer "$stamp" -print | head -n 1)" ]; then
		log "config: $cfg is up to date"
	else
		rm -f "$stamp"
		make_config "$srcdir" "$outdir" "$debian" "$@"
		echo "$inputs" >"$stamp"
	fi
	check_config "$cfg" "$@" || die "config: $cfg lacks requested options"
	log "config: all $(grep -chE '^(CONFIG_[A-Za-z0-9_]+=|# CONFIG_[A-Za-z0-9_]+ is not set$)' "$@" |
		awk '{ s += $1 } END { print s }') requested option lines are set as asked"
}

# base_config SRCDIR OUTDIR DEBIAN-XZ FRAGMENT...: the .config to merge
# onto: tinyconfig, or Debian's config (DEBIAN-XZ) with the modules outside
# the crypto boundary off.
base_config() {
	if [ -z "$3" ]; then
		make -s -C "$1" O="$2" ARCH="$KARCH" tinyconfig
		return
	fi
	_debian=$2/debian.config
	xz -dc "$3" >"$_debian"
	_srcdir=$1 _outdir=$2
	shift 3
	"$PYTHON" "$TOP/tests/host/kconfig_boundary.py" base "$_srcdir" \
		"$_debian" "$_outdir/.config" "$@"
}

# make_config SRCDIR OUTDIR DEBIAN-XZ FRAGMENT...: base, merge, olddefconfig.
make_config() {
	srcdir=$1 outdir=$2 debian=$3
	shift 3
	cfg=$outdir/.config
	if [ -e "$cfg" ]; then
		mv "$cfg" "$cfg.prev"
	fi
	mk="make -s -C $srcdir O=$outdir ARCH=$KARCH"
	log "config: ${debian:-tinyconfig} + $* -> $cfg"
	if ! base_config "$srcdir" "$outdir" "$debian" "$@" \
		>"$outdir/config.log" 2>&1 ||
	   ! KCONFIG_CONFIG=$cfg "$srcdir/scripts/kconfig/merge_config.sh" \
		-m -Q -O "$outdir" "$cfg" "$@" >>"$outdir/config.log" 2>&1 ||
	   ! $mk olddefconfig >>"$outdir/config.log" 2>&1; then
		tail -n 40 "$outdir/config.log" >&2
		die "config: make failed, see $outdir/config.log"
	fi
	if [ -e "$cfg.prev" ]; then
		if cmp -s "$cfg" "$cfg.prev"; then
			# Same result: keep the old file and its timestamp.
			mv "$cfg.prev" "$cfg"
		else
			rm -f "$cfg.prev"
		fi
	fi
}

main "$@"
