// SPDX-License-Identifier: GPL-2.0
/*
 * Known-answer tests of sha1, sha256, sha512 and hmac(sha256) through the
 * AF_ALG "hash" interface.
 *
 * Vectors:
 *  - SHA: the examples of FIPS 180-2 (appendices A.1-A.3, B.1-B.3,
 *    C.1-C.3: "abc", the 448-bit/896-bit two-block messages, one million
 *    times "a"), which NIST keeps for FIPS 180-4 as "Examples with
 *    Intermediate Values" (csrc.nist.gov, SHA1.pdf, SHA256.pdf,
 *    SHA512.pdf); the empty message from the CAVP SHAVS byte-oriented
 *    ShortMsg files (Len = 0).
 *  - HMAC-SHA-256: RFC 4231 section 4, test cases 1, 2, 3, 4 and 6.
 *
 * In FIPS mode (fips=1) the kernel refuses HMAC keys shorter than 112 bits
 * (crypto/hmac.c); there test case 2 (key "Jefe") passes when the key is
 * refused with EINVAL.
 */
#include "alg.h"

#define MSG448 "abcdbcdecdefdefgefghfghighijhijkijkljklmklmnlmnomnopnopq"
#define MSG896 "abcdefghbcdefghicdefghijdefghijkefghijklfghijklmghijklmn" \
	       "hijklmnoijklmnopjklmnopqklmnopqrlmnopqrsmnopqrstnopqrstu"
#define MILLION 1000000
#define HMAC_FIPS_MIN_KEY 14	/* bytes: 112 bits */

struct hash_vec {
	const char *test;	/* KTAP name */
	const char *alg;	/* AF_ALG algorithm name */
	const char *key;	/* hex, or NULL for unkeyed */
	const char *msg;	/* text message, unless msg_hex */
	const char *msg_hex;	/* hex message */
	int million_a;		/* message: 1,000,000 x "a", sent in pieces */
	const char *md;		/* hex digest */
};

static const struct hash_vec vecs[] = {
	/* FIPS 180-2 A.1, A.2, A.3; CAVP SHA1ShortMsg Len = 0. */
	{ "sha1-abc", "sha1", NULL, "abc", NULL, 0,
	  "a9993e364706816aba3e25717850c26c9cd0d89d" },
	{ "sha1-448bit", "sha1", NULL, MSG448, NULL, 0,
	  "84983e441c3bd26ebaae4aa1f95129e5e54670f1" },
	{ "sha1-million-a", "sha1", NULL, NULL, NULL, 1,
	  "34aa973cd4c4daa4f61eeb2bdbad27316534016f" },
	{ "sha1-empty", "sha1", NULL, "", NULL, 0,
	  "da39a3ee5e6b4b0d3255bfef95601890afd80709" },
	/* FIPS 180-2 B.1, B.2, B.3; CAVP SHA256ShortMsg Len = 0. */
	{ "sha256-abc", "sha256", NULL, "abc", NULL, 0,
	  "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad" },
	{ "sha256-448bit", "sha256", NULL, MSG448, NULL, 0,
	  "248d6a61d20638b8e5c026930c3e6039a33ce45964ff2167f6ecedd419db06c1" },
	{ "sha256-million-a", "sha256", NULL, NULL, NULL, 1,
	  "cdc76e5c9914fb9281a1c7e284d73e67f1809a48a497200e046d39ccc7112cd0" },
	{ "sha256-empty", "sha256", NULL, "", NULL, 0,
	  "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855" },
	/* FIPS 180-2 C.1, C.2, C.3; CAVP SHA512ShortMsg Len = 0. */
	{ "sha512-abc", "sha512", NULL, "abc", NULL, 0,
	  "ddaf35a193617abacc417349ae20413112e6fa4e89a97ea20a9eeee64b55d39a"
	  "2192992a274fc1a836ba3c23a3feebbd454d4423643ce80e2a9ac94fa54ca49f" },
	{ "sha512-896bit", "sha512", NULL, MSG896, NULL, 0,
	  "8e959b75dae313da8cf4f72814fc143f8f7779c6eb9f7fa17299aeadb6889018"
	  "501d289e4900f7e4331b99dec4b5433ac7d329eeb6dd26545e96e55b874be909" },
	{ "sha512-million-a", "sha512", NULL, NULL, NULL, 1,
	  "e718483d0ce769644e2e42c7bc15b4638e1f98b13b2044285632a803afa973eb"
	  "de0ff244877ea60a4cb0432ce577c31beb009c5c2c49aa2e4eadb217ad8cc09b" },
	{ "sha512-empty", "sha512", NULL, "", NULL, 0,
	  "cf83e1357eefb8bdf1542850d66d8007d620e4050b5715dc83f4a921d36ce9ce"
	  "47d0d13c5d85f2b0ff8318d2877eec2f63b931bd47417a81a538327af927da3e" },
	/* RFC 4231 4.2: key 20 x 0x0b, "Hi There". */
	{ "hmac-sha256-rfc4231-1", "hmac(sha256)",
	  "0b0b0b0b0b0b0b0b0b0b0b0b0b0b0b0b0b0b0b0b", "Hi There", NULL, 0,
	  "b0344c61d8db38535ca8afceaf0bf12b881dc200c9833da726e9376c2e32cff7" },
	/* RFC 4231 4.3: key "Jefe". */
	{ "hmac-sha256-rfc4231-2", "hmac(sha256)", "4a656665",
	  "what do ya want for nothing?", NULL, 0,
	  "5bdcc146bf60754e6a042426089575c75a003f089d2739839dec58b964ec3843" },
	/* RFC 4231 4.4: key 20 x 0xaa, data 50 x 0xdd. */
	{ "hmac-sha256-rfc4231-3", "hmac(sha256)",
	  "aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa", NULL,
	  "dddddddddddddddddddddddddddddddddddddddddddddddddd"
	  "dddddddddddddddddddddddddddddddddddddddddddddddddd", 0,
	  "773ea91e36800e46854db8ebd09181a72959098b3ef8c122d9635514ced565fe" },
	/* RFC 4231 4.5: key 0x01..0x19, data 50 x 0xcd. */
	{ "hmac-sha256-rfc4231-4", "hmac(sha256)",
	  "0102030405060708090a0b0c0d0e0f10111213141516171819", NULL,
	  "cdcdcdcdcdcdcdcdcdcdcdcdcdcdcdcdcdcdcdcdcdcdcdcdcd"
	  "cdcdcdcdcdcdcdcdcdcdcdcdcdcdcdcdcdcdcdcdcdcdcdcdcd", 0,
	  "82558a389a443c0ea4cc819899f2083a85f0faa3e578f8077a2e3ff46729665b" },
	/* RFC 4231 4.7: 131-byte key 0xaa (longer than the block size). */
	{ "hmac-sha256-rfc4231-6", "hmac(sha256)",
	  "aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa"
	  "aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa"
	  "aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa"
	  "aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa"
	  "aaaaaa",
	  "Test Using Larger Than Block-Size Key - Hash Key First", NULL, 0,
	  "60e431591ee0b67f0d8a26aacbf5b77f8e0bc6213728c5140546040f0ee37f54" },
};

/* Send the message: whole, or 1,000,000 x "a" in 1000-byte MSG_MORE pieces. */
static int send_msg(int op, const struct hash_vec *v, const unsigned char *msg,
		    size_t len)
{
	if (v->million_a) {
		char piece[1000];
		int i;

		memset(piece, 'a', sizeof(piece));
		for (i = 0; i < MILLION / (int)sizeof(piece); i++) {
			int last = i == MILLION / (int)sizeof(piece) - 1;

			if (send(op, piece, sizeof(piece),
				 last ? 0 : MSG_MORE) != sizeof(piece)) {
				ksft_print_msg("%s: send: %s\n", v->test,
					       strerror(errno));
				return -1;
			}
		}
		return 0;
	}
	/* The empty message: nothing to send, read() finalises. */
	if (len && send(op, msg, len, 0) != (ssize_t)len) {
		ksft_print_msg("%s: send: %s\n", v->test, strerror(errno));
		return -1;
	}
	return 0;
}

static int run(const struct hash_vec *v)
{
	unsigned char *key = NULL, *msg, *md, got[64];
	size_t keylen = 0, len, mdlen;
	int tfm, op, ok = 0;

	if (v->key)
		key = unhex(v->key, &keylen);
	if (v->msg_hex) {
		msg = unhex(v->msg_hex, &len);
	} else {
		msg = (unsigned char *)strdup(v->msg ? v->msg : "");
		len = strlen((char *)msg);
	}
	md = unhex(v->md, &mdlen);

	if (key && keylen < HMAC_FIPS_MIN_KEY && fips_enabled()) {
		/* SP 800-131A: HMAC keys of at least 112 bits. */
		tfm = alg_bind("hash", v->alg, NULL, 0);
		if (tfm < 0)
			goto out;
		ok = setsockopt(tfm, SOL_ALG, ALG_SET_KEY, key, keylen) < 0 &&
		     errno == EINVAL;
		ksft_print_msg("%s: FIPS mode: %zu-byte key %s\n", v->test, keylen,
			       ok ? "refused (EINVAL), as required" :
			       "not refused with EINVAL");
		close(tfm);
		goto out;
	}
	tfm = alg_bind("hash", v->alg, key, keylen);
	if (tfm < 0)
		goto out;
	op = alg_accept(tfm, v->test);
	if (op >= 0) {
		if (!send_msg(op, v, msg, len) &&
		    !alg_read(op, v->test, got, mdlen))
			ok = check_memeq(v->test, got, md, mdlen);
		close(op);
	}
	close(tfm);
out:
	free(key);
	free(msg);
	free(md);
	return ok;
}

int main(void)
{
	size_t i, n = sizeof(vecs) / sizeof(vecs[0]);

	ksft_print_header();
	ksft_set_plan(n);
	for (i = 0; i < n; i++)
		ksft_test_result(run(&vecs[i]), "%s\n", vecs[i].test);
	ksft_finished();
}
