# SPDX-License-Identifier: GPL-2.0
# Shared settings of the fips140 harness scripts. Sourced, not run.
# shellcheck shell=sh

# The Debian package the series is made for. If apt no longer offers this
# exact version, tree.sh takes the newest 6.12 and says so.
LINUX_SOURCE_PKG=linux-source-6.12
LINUX_SOURCE_VERSION=6.12.118-1~deb12u1

TOP=$(cd "$(dirname "$0")/.." && pwd)
WORK=${FIPS140_WORK:-$TOP/build}
# Pristine tree (a git repo whose first commit is the untouched source).
SRC=$WORK/linux
PATCHES=$TOP/patches

die() {
	echo "error: $*" >&2
	exit 1
}

log() {
	echo ">>> $*" >&2
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
