#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# keys.sh DIR
#
# Make fresh key material for the guest's asymmetric-key test in DIR (every
# run: nothing is kept or committed): self-signed X.509 certificates (DER)
# for an RSA 2048 and an ECDSA P-256 key, a data file, its SHA-256 digest
# and the data's signatures (openssl dgst -sha256 -sign: PKCS#1 v1.5 and
# X9.62 DER), checked once on the host. Private keys stay in DIR/private.
set -eu
. "$(dirname "$0")/lib.sh"

# cert KIND OPENSSL-NEWKEY-ARGS...
cert() {
	_kind=$1
	shift
	openssl req -x509 -new -nodes -sha256 -days 3650 \
		-subj "/CN=fips140 harness $_kind test key" \
		-keyout "$dir/private/$_kind.key" -outform DER \
		-out "$dir/$_kind.der" "$@" 2>/dev/null
	openssl dgst -sha256 -sign "$dir/private/$_kind.key" \
		-out "$dir/$_kind.sig" "$dir/data"
	openssl x509 -inform DER -in "$dir/$_kind.der" -pubkey -noout \
		>"$dir/private/$_kind.pub"
	openssl dgst -sha256 -verify "$dir/private/$_kind.pub" \
		-signature "$dir/$_kind.sig" "$dir/data" >/dev/null ||
		die "keys: openssl cannot verify its own $_kind signature"
}

main() {
	[ $# = 1 ] || die "usage: keys.sh DIR"
	dir=$1
	command -v openssl >/dev/null || die "keys: openssl is not installed"
	rm -rf "$dir"
	mkdir -p "$dir/private"
	head -c 1000 /dev/urandom >"$dir/data"
	openssl dgst -sha256 -binary -out "$dir/data.sha256" "$dir/data"
	cert rsa -newkey rsa:2048
	cert ecdsa -newkey ec -pkeyopt ec_paramgen_curve:prime256v1
	log "keys: RSA 2048 and ECDSA P-256 certificates and signatures in $dir"
}

main "$@"
