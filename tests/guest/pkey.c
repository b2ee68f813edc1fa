// SPDX-License-Identifier: GPL-2.0
/*
 * Asymmetric keys through the keys syscalls (no libkeyutils): for an RSA
 * 2048 and an ECDSA P-256 self-signed X.509 certificate made on the host
 * with openssl (scripts/keys.sh, put in /keys of the initramfs):
 *  - add_key("asymmetric") parses the certificate (the kernel checks its
 *    self-signature on the way),
 *  - KEYCTL_PKEY_QUERY reports the key size and that it can verify,
 *  - KEYCTL_PKEY_VERIFY accepts the host's signature of /keys/data
 *    (openssl dgst -sha256 -sign; PKCS#1 v1.5 resp. X9.62 DER) over the
 *    SHA-256 digest the host computed,
 *  - and rejects it for a digest with one bit flipped, and the signature
 *    with one bit flipped.
 */
#include <fcntl.h>
#include <linux/keyctl.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <unistd.h>

#include "guest.h"

#define KEYS "/keys/"

struct pkey_case {
	const char *test, *cert, *sig, *info;
	unsigned int bits;
};

static const struct pkey_case cases[] = {
	{ "rsa2048", "rsa.der", "rsa.sig", "enc=pkcs1 hash=sha256", 2048 },
	{ "ecdsa-p256", "ecdsa.der", "ecdsa.sig", "enc=x962 hash=sha256", 256 },
};

static long add_key(const char *type, const char *desc, const void *p,
		    size_t len, long ring)
{
	return syscall(SYS_add_key, type, desc, p, len, ring);
}

static long keyctl(long cmd, long a2, long a3, long a4, long a5)
{
	return syscall(SYS_keyctl, cmd, a2, a3, a4, a5);
}

/* Read a whole file into a malloc'd buffer. */
static unsigned char *slurp(const char *name, size_t *len)
{
	char path[128];
	unsigned char *p = NULL;
	struct stat st;
	int fd;

	snprintf(path, sizeof(path), KEYS "%s", name);
	fd = open(path, O_RDONLY);
	if (fd < 0 || fstat(fd, &st) < 0 || st.st_size == 0 ||
	    !(p = malloc(st.st_size)) ||
	    read(fd, p, st.st_size) != st.st_size) {
		ksft_print_msg("%s: cannot read: %s\n", path, strerror(errno));
		free(p);
		p = NULL;
	}
	*len = p ? (size_t)st.st_size : 0;
	if (fd >= 0)
		close(fd);
	return p;
}

static long verify(long key, const char *info, const unsigned char *digest,
		   size_t dlen, const unsigned char *sig, size_t slen)
{
	struct keyctl_pkey_params params = {
		.key_id = key,
		.in_len = dlen,
		.in2_len = slen,
	};

	return keyctl(KEYCTL_PKEY_VERIFY, (long)&params, (long)info,
		      (long)digest, (long)sig);
}

/*
 * A verification that must fail did: EKEYREJECTED (signature does not
 * match), EBADMSG (bad encoding or padding) or EINVAL (RSA: the decrypted
 * value is malformed).
 */
static int rejected(long ret, const char *what)
{
	if (ret < 0 && (errno == EKEYREJECTED || errno == EBADMSG ||
			errno == EINVAL)) {
		ksft_print_msg("%s: rejected (%s)\n", what, strerror(errno));
		return 1;
	}
	ksft_print_msg("%s: wanted rejection, got %s\n", what,
		       ret < 0 ? strerror(errno) : "success");
	return 0;
}

static void run(const struct pkey_case *c, long ring, unsigned char *digest,
		size_t dlen)
{
	struct keyctl_pkey_query q;
	unsigned char *cert, *sig;
	size_t certlen, siglen;
	char name[96];
	long key = -1;
	int ok;

	cert = slurp(c->cert, &certlen);
	sig = slurp(c->sig, &siglen);

	snprintf(name, sizeof(name), "%s-add-x509-cert", c->test);
	if (cert && ring >= 0) {
		key = add_key("asymmetric", c->test, cert, certlen, ring);
		if (key < 0)
			ksft_print_msg("add_key(asymmetric, %s): %s\n", c->cert,
				       strerror(errno));
	}
	ksft_test_result(key >= 0, "%s\n", name);

	snprintf(name, sizeof(name), "%s-query", c->test);
	memset(&q, 0, sizeof(q));
	ok = key >= 0 && keyctl(KEYCTL_PKEY_QUERY, key, 0, (long)c->info,
				(long)&q) == 0;
	if (key >= 0 && !ok)
		ksft_print_msg("KEYCTL_PKEY_QUERY: %s\n", strerror(errno));
	if (ok && (q.key_size != c->bits ||
		   !(q.supported_ops & KEYCTL_SUPPORTS_VERIFY))) {
		ksft_print_msg("key_size %u (want %u), supported_ops %#x\n",
			       q.key_size, c->bits, q.supported_ops);
		ok = 0;
	}
	ksft_test_result(ok, "%s\n", name);

	snprintf(name, sizeof(name), "%s-verify", c->test);
	ok = key >= 0 && sig && digest &&
	     verify(key, c->info, digest, dlen, sig, siglen) == 0;
	if (key >= 0 && sig && digest && !ok)
		ksft_print_msg("KEYCTL_PKEY_VERIFY (%s): %s\n", c->info,
			       strerror(errno));
	ksft_test_result(ok, "%s\n", name);

	snprintf(name, sizeof(name), "%s-wrong-digest-rejected", c->test);
	ok = 0;
	if (key >= 0 && sig && digest) {
		digest[0] ^= 0x01;
		ok = rejected(verify(key, c->info, digest, dlen, sig, siglen),
			      "other digest");
		digest[0] ^= 0x01;
	}
	ksft_test_result(ok, "%s\n", name);

	snprintf(name, sizeof(name), "%s-bad-sig-rejected", c->test);
	ok = 0;
	if (key >= 0 && sig && digest) {
		sig[siglen / 2] ^= 0x01;
		ok = rejected(verify(key, c->info, digest, dlen, sig, siglen),
			      "corrupted signature");
	}
	ksft_test_result(ok, "%s\n", name);
	free(cert);
	free(sig);
}

int main(void)
{
	size_t i, n = sizeof(cases) / sizeof(cases[0]), dlen;
	unsigned char *digest;
	long ring;

	ksft_print_header();
	ksft_set_plan(5 * n);
	ring = add_key("keyring", "fips140-test", NULL, 0,
		       KEY_SPEC_PROCESS_KEYRING);
	if (ring < 0)
		ksft_print_msg("add_key(keyring): %s\n", strerror(errno));
	digest = slurp("data.sha256", &dlen);
	for (i = 0; i < n; i++)
		run(&cases[i], ring, digest, dlen);
	free(digest);
	ksft_finished();
}
