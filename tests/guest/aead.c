// SPDX-License-Identifier: GPL-2.0
/*
 * Known-answer tests of gcm(aes) through the AF_ALG "aead" interface:
 * encrypt (AAD || PT -> AAD || CT || TAG), decrypt (AAD || CT || TAG ->
 * AAD || PT), and decrypt with a corrupted tag, which must fail with
 * EBADMSG.
 *
 * Vectors: McGrew and Viega, "The Galois/Counter Mode of Operation
 * (GCM)", revised 2005 (the specification NIST SP 800-38D is based on),
 * appendix B, test cases 2, 3, 4, 14 and 16.
 */
#include "alg.h"

#define GCM_K "feffe9928665731c6d6a8f9467308308"
#define GCM_IV "cafebabefacedbaddecaf888"
#define GCM_AAD "feedfacedeadbeeffeedfacedeadbeefabaddad2"
#define GCM_P60 "d9313225f88406e5a55909c5aff5269a86a7a9531534f7da2e4c303d" \
		"8a318a721c3c0c95956809532fcf0e2449a6b525b16aedf5aa0de657" \
		"ba637b39"

struct aead_vec {
	const char *test;
	const char *key, *iv, *aad, *pt, *ct, *tag;	/* hex */
};

static const struct aead_vec vecs[] = {
	{ "gcm-aes128-tc2", "00000000000000000000000000000000",
	  "000000000000000000000000", "", "00000000000000000000000000000000",
	  "0388dace60b6a392f328c2b971b2fe78",
	  "ab6e47d42cec13bdf53a67b21257bddf" },
	{ "gcm-aes128-tc3", GCM_K, GCM_IV, "", GCM_P60 "1aafd255",
	  "42831ec2217774244b7221b784d0d49ce3aa212f2c02a4e035c17e2329aca12e"
	  "21d514b25466931c7d8f6a5aac84aa051ba30b396a0aac973d58e091473f5985",
	  "4d5c2af327cd64a62cf35abd2ba6fab4" },
	{ "gcm-aes128-tc4", GCM_K, GCM_IV, GCM_AAD, GCM_P60,
	  "42831ec2217774244b7221b784d0d49ce3aa212f2c02a4e035c17e2329aca12e"
	  "21d514b25466931c7d8f6a5aac84aa051ba30b396a0aac973d58e091",
	  "5bc94fbc3221a5db94fae95ae7121a47" },
	{ "gcm-aes256-tc14",
	  "0000000000000000000000000000000000000000000000000000000000000000",
	  "000000000000000000000000", "", "00000000000000000000000000000000",
	  "cea7403d4d606b6e074ec5d3baf39d18",
	  "d0d1c8a799996bf0265b98b5d48ab919" },
	{ "gcm-aes256-tc16", GCM_K GCM_K, GCM_IV, GCM_AAD, GCM_P60,
	  "522dc1f099567d07f47f37a32a84427d643a8cdcbfe5c0c97598a2bd2555d1aa"
	  "8cb08e48590dbb3da7b08b1056828838c5f61e6393ba7a0abcc9f662",
	  "76fc6ece0f4e1768cddf8853bb2d551b" },
};

enum mode { ENCRYPT, DECRYPT, BADTAG };

static int run(const struct aead_vec *v, enum mode mode)
{
	static const char *const suffix[] = { "enc", "dec", "bad-tag-rejected" };
	unsigned char *key, *iv, *aad, *pt, *ct, *tag, *in, *out, *want;
	size_t keylen, ivlen, alen, ptlen, ctlen, taglen, inlen, outlen;
	char name[96];
	int tfm, op, ok = 0, err;

	snprintf(name, sizeof(name), "%s-%s", v->test, suffix[mode]);
	key = unhex(v->key, &keylen);
	iv = unhex(v->iv, &ivlen);
	aad = unhex(v->aad, &alen);
	pt = unhex(v->pt, &ptlen);
	ct = unhex(v->ct, &ctlen);
	tag = unhex(v->tag, &taglen);
	in = malloc(alen + ctlen + taglen + 1);
	out = malloc(alen + ctlen + taglen + 1);
	want = malloc(alen + ctlen + taglen + 1);
	if (!in || !out || !want || ptlen != ctlen)
		abort();

	/* AF_ALG AEAD buffers: AAD first, then the text (and the tag). */
	memcpy(in, aad, alen);
	memcpy(want, aad, alen);
	if (mode == ENCRYPT) {
		memcpy(in + alen, pt, ptlen);
		inlen = alen + ptlen;
		memcpy(want + alen, ct, ctlen);
		memcpy(want + alen + ctlen, tag, taglen);
		outlen = alen + ctlen + taglen;
	} else {
		memcpy(in + alen, ct, ctlen);
		memcpy(in + alen + ctlen, tag, taglen);
		if (mode == BADTAG)
			in[alen + ctlen] ^= 0x01;
		inlen = alen + ctlen + taglen;
		memcpy(want + alen, pt, ptlen);
		outlen = alen + ptlen;
	}

	tfm = alg_bind("aead", "gcm(aes)", key, keylen);
	if (tfm < 0)
		goto out;
	if (setsockopt(tfm, SOL_ALG, ALG_SET_AEAD_AUTHSIZE, NULL, taglen) < 0) {
		ksft_print_msg("%s: ALG_SET_AEAD_AUTHSIZE: %s\n", name,
			       strerror(errno));
		goto close_tfm;
	}
	op = alg_accept(tfm, name);
	if (op < 0)
		goto close_tfm;
	err = alg_cipher(op, name, mode == ENCRYPT, iv, ivlen, (long)alen,
			 in, inlen, out, outlen);
	if (mode == BADTAG) {
		ok = err == -EBADMSG;
		if (!ok)
			ksft_print_msg("%s: wanted EBADMSG, got %d\n", name, err);
	} else if (!err) {
		ok = check_memeq(name, out, want, outlen);
	}
	close(op);
close_tfm:
	close(tfm);
out:
	ksft_test_result(ok, "%s\n", name);
	free(key); free(iv); free(aad); free(pt); free(ct); free(tag);
	free(in); free(out); free(want);
	return ok;
}

int main(void)
{
	size_t i, n = sizeof(vecs) / sizeof(vecs[0]);

	ksft_print_header();
	ksft_set_plan(3 * n);
	for (i = 0; i < n; i++) {
		run(&vecs[i], ENCRYPT);
		run(&vecs[i], DECRYPT);
		run(&vecs[i], BADTAG);
	}
	ksft_finished();
}
