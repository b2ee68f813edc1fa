#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# shellcheck shell=sh
#
# Real clients of the kernel crypto API, from Debian: kcapi-dgst,
# kcapi-enc, kcapi-rng (libkcapi), keyctl (keyutils), cryptsetup, and the
# kernel's tcrypt module. Runs the operations of /extra/ops, made
# on the host by tests/host/fips140_clients.py with the client binaries
# (scripts/clients.sh), one KTAP result each. Each line of ops is
# "NAME KIND COMMAND": COMMAND runs in /extra, in a subshell that has
# the functions below; KIND exact means the SHA-256 of its output must be
# the one in expect/NAME, same, host and status only that it succeeds. For each operation a line
#   # client NAME kind=KIND status=N sha256=DIGEST-OF-OUTPUT
# lets the host compare the kernels, and for KIND host
#   # client-data NAME HEX-OF-OUTPUT
# lets it check what the guest could not (an RSA encryption).
DIR=/extra

# The binaries and their libraries, at their paths
cp -R "$DIR/root/." /
cd "$DIR" || exit 1
# libdevmapper waits for udev unless told there is none
export DM_DISABLE_UDEV=1
mkdir -p /run/cryptsetup
# Where ramdisks and dm-crypt are modules (the debian target), nothing
# loads them before their device nodes exist: load them (built in, the
# kernel command line sets the ramdisks up and modprobe finds nothing).
modprobe brd rd_nr=2 rd_size=32768 2>/dev/null || :
modprobe dm-crypt 2>/dev/null || :

TCRYPT=$(find /lib/modules -name tcrypt.ko | head -n 1)

# tcrypt ARG...: load tcrypt, which runs testmgr's tests of the algorithms
# of its mode and then refuses to stay (-EAGAIN, by design); no test may
# fail.
tcrypt() {
	_before=$(dmesg | wc -l)
	[ -n "$TCRYPT" ] || { echo "# no tcrypt.ko"; return 1; }
	if insmod "$TCRYPT" "$@" 2>/tmp/tcrypt.err; then
		echo "# tcrypt stayed loaded"
		return 1
	fi
	grep -q 'Resource temporarily unavailable' /tmp/tcrypt.err ||
		{ cat /tmp/tcrypt.err; return 1; }
	! dmesg | tail -n "+$((_before + 1))" |
		grep -E 'alg: .*fail|tcrypt: one or more tests failed'
}

# refused MESSAGE COMMAND...: COMMAND fails, and says MESSAGE (an
# extended regex: the strerror() text of the errno the refusal must give)
# on stderr; any other failure is not the refusal asked for.
refused() {
	_want=$1
	shift
	if "$@" 2>/tmp/refused.err; then
		echo "$1 succeeded; it must fail with: $_want" >&2
		return 1
	fi
	grep -Eq "$_want" /tmp/refused.err && return
	echo "$1 failed, but not with: $_want" >&2
	cat /tmp/refused.err >&2
	return 1
}

# corrupt_signature COPY: a copy of tcrypt.ko with the last byte of its
# signature flipped (before the 12-byte module_signature and the 28-byte
# marker)
corrupt_signature() {
	cp "$TCRYPT" "$1"
	_off=$(($(wc -c <"$1") - 41))
	_byte=$(dd if="$1" bs=1 skip="$_off" count=1 2>/dev/null | od -An -tu1)
	# shellcheck disable=SC2059 # the format is the byte
	printf "\\$(printf %03o $((_byte ^ 1)))" |
		dd of="$1" bs=1 seek="$_off" conv=notrunc 2>/dev/null
}

echo "KTAP version 1"
echo "1..$(grep -c . ops)"
i=0
failed=0
while read -r name kind command; do
	i=$((i + 1))
	(eval "$command") >/tmp/out 2>/tmp/err </dev/null
	status=$?
	sha256=$(sha256sum </tmp/out | cut -d' ' -f1)
	echo "# client $name kind=$kind status=$status sha256=$sha256"
	[ "$kind" != host ] ||
		echo "# client-data $name $(od -An -tx1 -v /tmp/out | tr -d ' \n')"
	ok=1
	[ "$status" = 0 ] || ok=0
	if [ "$kind" = exact ] && [ "$sha256" != "$(cat "expect/$name")" ]
	then
		echo "# $name: output differs from expect/$name" \
			"($(wc -c </tmp/out) bytes)"
		ok=0
	fi
	if [ $ok = 1 ]; then
		echo "ok $i $name"
	else
		sed 's/^/# stderr: /' /tmp/err | head -n 8
		echo "not ok $i $name"
		failed=$((failed + 1))
	fi
done <ops
[ $failed = 0 ]
