// SPDX-License-Identifier: GPL-2.0
/*
 * Known-answer tests of cbc(aes), ctr(aes) and xts(aes) through the
 * AF_ALG "skcipher" interface, each vector encrypted and decrypted.
 *
 * Vectors:
 *  - NIST SP 800-38A appendix F: F.2.1/F.2.2 (CBC-AES128), F.2.5/F.2.6
 *    (CBC-AES256), F.5.1/F.5.2 (CTR-AES128), F.5.5/F.5.6 (CTR-AES256).
 *  - IEEE Std 1619-2007 appendix B (XTS-AES-128 vectors 2, 3 and 15, the
 *    last one with ciphertext stealing). Vector 1 has key1 == key2, which
 *    the kernel refuses in FIPS mode, so it is left out.
 */
#include "alg.h"

#define SP800_38A_PT "6bc1bee22e409f96e93d7e117393172a" \
		     "ae2d8a571e03ac9c9eb76fac45af8e51" \
		     "30c81c46a35ce411e5fbc1191a0a52ef" \
		     "f69f2445df4f9b17ad2b417be66c3710"
#define XTS_PT_44 "4444444444444444444444444444444444444444444444444444444444444444"

struct cipher_vec {
	const char *test;	/* KTAP name prefix; "-enc"/"-dec" added */
	const char *alg;
	const char *key, *iv, *pt, *ct;	/* hex */
};

static const struct cipher_vec vecs[] = {
	{ "cbc-aes128-sp800-38a-f2.1", "cbc(aes)",
	  "2b7e151628aed2a6abf7158809cf4f3c",
	  "000102030405060708090a0b0c0d0e0f", SP800_38A_PT,
	  "7649abac8119b246cee98e9b12e9197d5086cb9b507219ee95db113a917678b2"
	  "73bed6b8e3c1743b7116e69e222295163ff1caa1681fac09120eca307586e1a7" },
	{ "cbc-aes256-sp800-38a-f2.5", "cbc(aes)",
	  "603deb1015ca71be2b73aef0857d77811f352c073b6108d72d9810a30914dff4",
	  "000102030405060708090a0b0c0d0e0f", SP800_38A_PT,
	  "f58c4c04d6e5f1ba779eabfb5f7bfbd69cfc4e967edb808d679f777bc6702c7d"
	  "39f23369a9d9bacfa530e26304231461b2eb05e2c39be9fcda6c19078c6a9d1b" },
	{ "ctr-aes128-sp800-38a-f5.1", "ctr(aes)",
	  "2b7e151628aed2a6abf7158809cf4f3c",
	  "f0f1f2f3f4f5f6f7f8f9fafbfcfdfeff", SP800_38A_PT,
	  "874d6191b620e3261bef6864990db6ce9806f66b7970fdff8617187bb9fffdff"
	  "5ae4df3edbd5d35e5b4f09020db03eab1e031dda2fbe03d1792170a0f3009cee" },
	{ "ctr-aes256-sp800-38a-f5.5", "ctr(aes)",
	  "603deb1015ca71be2b73aef0857d77811f352c073b6108d72d9810a30914dff4",
	  "f0f1f2f3f4f5f6f7f8f9fafbfcfdfeff", SP800_38A_PT,
	  "601ec313775789a5b7a7f504bbf3d228f443e3ca4d62b59aca84e990cacaf5c5"
	  "2b0930daa23de94ce87017ba2d84988ddfc9c58db67aada613c2dd08457941a6" },
	/* Key = key1 || key2; IV = data unit sequence number, little endian. */
	{ "xts-aes128-ieee1619-2", "xts(aes)",
	  "1111111111111111111111111111111122222222222222222222222222222222",
	  "33333333330000000000000000000000", XTS_PT_44,
	  "c454185e6a16936e39334038acef838bfb186fff7480adc4289382ecd6d394f0" },
	{ "xts-aes128-ieee1619-3", "xts(aes)",
	  "fffefdfcfbfaf9f8f7f6f5f4f3f2f1f022222222222222222222222222222222",
	  "33333333330000000000000000000000", XTS_PT_44,
	  "af85336b597afc1a900b2eb21ec949d292df4c047e0b21532186a5971a227a89" },
	{ "xts-aes128-ieee1619-15", "xts(aes)",
	  "fffefdfcfbfaf9f8f7f6f5f4f3f2f1f0bfbebdbcbbbab9b8b7b6b5b4b3b2b1b0",
	  "9a785634120000000000000000000000",
	  "000102030405060708090a0b0c0d0e0f10",
	  "6c1625db4671522d3d7599601de7ca09ed" },
};

/* Encrypt (or decrypt) in, compare with want. */
static int run(const struct cipher_vec *v, int encrypt)
{
	unsigned char *key, *iv, *pt, *ct, *got;
	size_t keylen, ivlen, ptlen, ctlen;
	char name[96];
	int tfm, op, ok = 0;

	snprintf(name, sizeof(name), "%s-%s", v->test, encrypt ? "enc" : "dec");
	key = unhex(v->key, &keylen);
	iv = unhex(v->iv, &ivlen);
	pt = unhex(v->pt, &ptlen);
	ct = unhex(v->ct, &ctlen);
	got = malloc(ptlen);
	if (!got || ptlen != ctlen)
		abort();
	tfm = alg_bind("skcipher", v->alg, key, keylen);
	if (tfm >= 0) {
		op = alg_accept(tfm, name);
		if (op >= 0) {
			if (!alg_cipher(op, name, encrypt, iv, ivlen, -1,
					encrypt ? pt : ct, ptlen, got, ptlen))
				ok = check_memeq(name, got, encrypt ? ct : pt,
						 ptlen);
			close(op);
		}
		close(tfm);
	}
	ksft_test_result(ok, "%s\n", name);
	free(key);
	free(iv);
	free(pt);
	free(ct);
	free(got);
	return ok;
}

int main(void)
{
	size_t i, n = sizeof(vecs) / sizeof(vecs[0]);

	ksft_print_header();
	ksft_set_plan(2 * n);
	for (i = 0; i < n; i++) {
		run(&vecs[i], 1);
		run(&vecs[i], 0);
	}
	ksft_finished();
}
