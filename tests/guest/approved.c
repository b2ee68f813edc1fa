// SPDX-License-Identifier: GPL-2.0
/*
 * Which algorithms user space can use, by AF_ALG bind(): in FIPS mode
 * (fips=1) the approved ones bind and the others are refused (ENOENT: the
 * test manager fails them, so no such algorithm exists), as testmgr
 * decides (fips_allowed); otherwise all bind. Each result is also dumped
 * (section af-alg-bind: type, name, errno) for the host to compare the
 * two kernels in the same mode: the standalone module must refuse exactly
 * what the stock kernel refuses.
 */
#include <stdlib.h>

#include "guest.h"
#include "alg.h"

static const struct {
	const char *type, *name;
	int approved;
} algs[] = {
	{ "hash", "sha1", 1 },
	{ "hash", "sha256", 1 },
	{ "hash", "sha512", 1 },
	{ "hash", "sha3-256", 1 },
	{ "hash", "hmac(sha256)", 1 },
	{ "hash", "cmac(aes)", 1 },
	{ "skcipher", "cbc(aes)", 1 },
	{ "skcipher", "ctr(aes)", 1 },
	{ "skcipher", "xts(aes)", 1 },
	{ "aead", "gcm(aes)", 1 },
	{ "aead", "ccm(aes)", 1 },
	{ "rng", "drbg_nopr_hmac_sha256", 1 },
	{ "skcipher", "chacha20", 0 },
	{ "skcipher", "xchacha20", 0 },
	{ "aead", "rfc7539(chacha20,poly1305)", 0 },
	{ "hash", "poly1305", 0 },
};

#define N_ALGS (sizeof(algs) / sizeof(algs[0]))

int main(void)
{
	int err[N_ALGS];
	char name[160];
	int fips = fips_enabled();
	size_t i;

	ksft_print_header();
	ksft_set_plan(N_ALGS);
	for (i = 0; i < N_ALGS; i++) {
		int fd = alg_bind(algs[i].type, algs[i].name, NULL, 0);

		err[i] = fd < 0 ? -fd : 0;
		if (fd >= 0)
			close(fd);
	}
	ksft_print_msg("---- BEGIN af-alg-bind ----\n");
	for (i = 0; i < N_ALGS; i++)
		ksft_print_msg("%s %s %s\n", algs[i].type, algs[i].name,
			       err[i] ? strerror(err[i]) : "bound");
	ksft_print_msg("---- END af-alg-bind ----\n");

	for (i = 0; i < N_ALGS; i++) {
		int want_bound = algs[i].approved || !fips;
		/* A refusal is the test manager's: no such algorithm */
		int want = want_bound ? 0 : ENOENT;

		if (err[i] != want)
			ksft_print_msg("%s: %s, expected %s (%s mode)\n",
				       algs[i].name,
				       err[i] ? strerror(err[i]) : "bound",
				       want ? strerror(want) : "bound",
				       fips ? "FIPS" : "normal");
		snprintf(name, sizeof(name), "%s-%s", want_bound ? "bound" :
			 "refused", algs[i].name);
		ksft_test_result(err[i] == want, "%s\n", name);
	}
	ksft_finished();
}
