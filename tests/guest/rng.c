// SPDX-License-Identifier: GPL-2.0
/*
 * Sanity of the kernel's DRBGs (NIST SP 800-90A, crypto/drbg.c) through
 * the AF_ALG "rng" interface: seed (ALG_SET_KEY: the DRBG takes the bytes
 * as personalisation string and seeds itself from the kernel's entropy),
 * then two reads must return the bytes asked for, not all zero, and
 * differ. Output of a seeded DRBG has no known answer; the kernel's own
 * CAVP known-answer tests of the DRBGs run in testmgr at boot.
 */
#include "alg.h"

#define LEN 64

static const char *const rngs[] = {
	"stdrng",			/* the default DRBG */
	"drbg_nopr_hmac_sha256",
	"drbg_nopr_sha256",
	"drbg_nopr_ctr_aes128",
	"drbg_pr_hmac_sha256",		/* prediction resistance */
	"jitterentropy_rng",		/* the DRBGs' entropy source */
};

static int allzero(const unsigned char *p, size_t n)
{
	while (n--)
		if (*p++)
			return 0;
	return 1;
}

static int run(const char *alg)
{
	static const char pers[] = "fips140-harness";
	unsigned char a[LEN], b[LEN];
	int tfm, op, ok = 0;

	tfm = alg_bind("rng", alg, pers, sizeof(pers) - 1);
	if (tfm < 0)
		return 0;
	op = alg_accept(tfm, alg);
	if (op >= 0) {
		if (!alg_read(op, alg, a, LEN) && !alg_read(op, alg, b, LEN)) {
			ok = 1;
			if (allzero(a, LEN) || allzero(b, LEN)) {
				ksft_print_msg("%s: all-zero output\n", alg);
				ok = 0;
			}
			if (!memcmp(a, b, LEN)) {
				ksft_print_msg("%s: two reads gave the same bytes\n",
					       alg);
				ok = 0;
			}
		}
		close(op);
	}
	close(tfm);
	return ok;
}

int main(void)
{
	size_t i, n = sizeof(rngs) / sizeof(rngs[0]);
	char name[64];

	ksft_print_header();
	ksft_set_plan(n);
	for (i = 0; i < n; i++) {
		snprintf(name, sizeof(name), "rng-%s", rngs[i]);
		ksft_test_result(run(rngs[i]), "%s\n", name);
	}
	ksft_finished();
}
