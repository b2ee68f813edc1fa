// SPDX-License-Identifier: GPL-2.0
/*
 * /proc/crypto: every entry's self-test passed (crypto/testmgr.c ran with
 * CRYPTO_MANAGER_DISABLE_TESTS off), and the algorithms the target builds
 * in are registered: those of configs/base.config, or the comma-separated
 * list of harness.algs= on the kernel command line (the debian target,
 * whose config builds other algorithms in).
 *
 * In FIPS mode a self-test failure panics the kernel, and testmgr refuses
 * (-EINVAL) a driver whose own test entry is not fips_allowed, e.g. the
 * sha384 DRBGs of 6.12: such an entry stays listed, unusable, with
 * "selftest : unknown". There "unknown" entries are listed but accepted;
 * any other value fails.
 */
#include "guest.h"
#include "procfs.h"

#define MAX_EXPECTED 32

/* Algorithm names (cra_name) that configs/base.config builds in. */
static const char *expected[MAX_EXPECTED] = {
	"aes", "sha1", "sha224", "sha256", "sha384", "sha512",
	"sha3-256", "sha3-512", "ghash", "chacha20", "crc32c",
	"rsa", "ecdsa-nist-p256", "ecdh-nist-p256",
	"stdrng", "jitterentropy_rng",
};
static size_t nr_expected = 16;
static char algs[512];

/* harness.algs=a,b,c replaces the list */
static void expected_from_cmdline(void)
{
	char *name, *p;

	cmdline_value("harness.algs=", algs, sizeof(algs));
	if (!algs[0])
		return;
	nr_expected = 0;
	for (name = strtok_r(algs, ",", &p); name && nr_expected < MAX_EXPECTED;
	     name = strtok_r(NULL, ",", &p))
		expected[nr_expected++] = name;
	ksft_print_msg("expected algorithms from harness.algs: %zu\n", nr_expected);
}

struct state {
	int fips;
	int failed, refused;
	int found[MAX_EXPECTED];
};

static void check(const struct crypto_entry *e, void *arg)
{
	struct state *s = arg;
	size_t i;

	if (s->fips && !strcmp(e->selftest, "unknown")) {
		ksft_print_msg("%s (%s): selftest : unknown (refused in FIPS mode)\n",
			       e->driver, e->name);
		s->refused++;
	} else if (strcmp(e->selftest, "passed")) {
		ksft_print_msg("%s (%s, module %s): selftest : %s\n", e->driver,
			       e->name, e->module, e->selftest[0] ? e->selftest :
			       "(missing)");
		s->failed++;
	}
	for (i = 0; i < nr_expected; i++)
		if (!strcmp(e->name, expected[i]))
			s->found[i] = 1;
}

int main(void)
{
	struct state s = { 0 };
	size_t i, missing = 0;
	int n;

	ksft_print_header();
	ksft_set_plan(3);
	expected_from_cmdline();
	s.fips = fips_enabled();
	n = crypto_entries(check, &s);
	if (n < 0)
		ksft_print_msg("/proc/crypto: %s\n", strerror(errno));
	else
		ksft_print_msg("/proc/crypto has %d entries\n", n);
	ksft_test_result(n > 0, "proc-crypto-readable\n");
	if (s.refused)
		ksft_print_msg("FIPS mode: %d entries refused by the test manager\n",
			       s.refused);
	if (s.failed)
		ksft_print_msg("%d entries did not pass their self-test\n", s.failed);
	ksft_test_result(n > 0 && !s.failed, "all-selftests-passed\n");
	for (i = 0; i < nr_expected; i++) {
		if (!s.found[i]) {
			ksft_print_msg("no /proc/crypto entry named %s\n",
				       expected[i]);
			missing++;
		}
	}
	ksft_test_result(n > 0 && nr_expected > 0 && !missing, "expected-algorithms-registered\n");
	ksft_finished();
}
