// SPDX-License-Identifier: GPL-2.0
/*
 * The approved-service indicator, /sys/kernel/fips140/approved
 * ("<driver> <name>" a line) and the module's table of approved
 * algorithms, /sys/kernel/fips140/services ("<name> [(<prefix>*)]
 * <conditions>" a line). Both are dumped (sections fips140-approved and
 * fips140-services).
 *
 * harness.crypto=fips140:
 * - every listed implementation is in /proc/crypto under that driver and
 *   name, registered by fips140, its self-test passed, and in FIPS mode
 *   allowed ("fips: yes"); its name is in the table;
 * - every implementation of fips140 that is so and whose name (and
 *   driver prefix) is in the table is listed;
 * - algorithms that are not approved (md5, des, chacha20, ...) are never
 *   listed, whatever the table says;
 * - a client can check its service and use it: each listed hash,
 *   skcipher, aead or rng binds over AF_ALG by its driver name.
 * harness.crypto=kernel: there is no indicator. harness.crypto=absent
 * (the module did not run): both files exist and are empty.
 */
#include <stdlib.h>

#include "guest.h"
/*
 * alg_bind() copies a name into the 64 bytes of salg_name, cutting it on
 * purpose; gcc warns when the name is not a literal.
 */
#pragma GCC diagnostic ignored "-Wstringop-truncation"
#include "alg.h"
#include "procfs.h"

#define APPROVED "/sys/kernel/fips140/approved"
#define SERVICES "/sys/kernel/fips140/services"
#define MAX_LINES 512

struct service {
	char name[128], prefix[64];
};

static char approved[MAX_LINES][2][128];
static int n_approved;
static struct service table[MAX_LINES];
static int n_table;
static int fips;

static const char *const never[] = {
	"md4", "md5", "des", "des3_ede", "ecb(des)", "cbc(des)",
	"ecb(des3_ede)", "cbc(des3_ede)", "chacha20", "xchacha20",
	"xchacha12", "poly1305", "rfc7539(chacha20,poly1305)", "sm3", "sm4",
	"ecdsa-nist-p192", "dh", "crc32c", "crct10dif", "lzo",
	"jitterentropy_rng", "ghash", "cbcmac(aes)",
};

static void add_approved(const char *line)
{
	if (n_approved < MAX_LINES &&
	    sscanf(line, "%127s %127s", approved[n_approved][0],
		   approved[n_approved][1]) == 2)
		n_approved++;
}

static void add_service(const char *line)
{
	struct service *s = &table[n_table];

	if (n_table >= MAX_LINES || sscanf(line, "%127s", s->name) != 1)
		return;
	s->prefix[0] = 0;
	sscanf(line, "%*s (%63[^*]*)", s->prefix);
	n_table++;
}

static int in_table(const char *name, const char *driver)
{
	int i;

	for (i = 0; i < n_table; i++)
		if (!strcmp(table[i].name, name) &&
		    !strncmp(driver, table[i].prefix, strlen(table[i].prefix)))
			return 1;
	return 0;
}

static int listed(const char *driver, const char *name)
{
	int i;

	for (i = 0; i < n_approved; i++)
		if (!strcmp(approved[i][0], driver) &&
		    (!name || !strcmp(approved[i][1], name)))
			return 1;
	return 0;
}

/* What each approved line found in /proc/crypto, and what it misses */
static struct crypto_entry found[MAX_LINES];
static int missing;

static int approvable(const struct crypto_entry *e)
{
	return !strcmp(e->module, "fips140") &&
	       !strcmp(e->selftest, "passed") &&
	       (!fips || !strcmp(e->fips, "yes"));
}

static void match_entry(const struct crypto_entry *e, void *arg)
{
	int i;

	(void)arg;
	for (i = 0; i < n_approved; i++)
		if (!strcmp(approved[i][0], e->driver) &&
		    !strcmp(approved[i][1], e->name))
			found[i] = *e;
	if (approvable(e) && in_table(e->name, e->driver) &&
	    !listed(e->driver, e->name)) {
		ksft_print_msg("not listed: %s %s (module %s, fips %s)\n",
			       e->driver, e->name, e->module,
			       e->fips[0] ? e->fips : "-");
		missing++;
	}
}

static int check_registered(void)
{
	int i, ok = 1;

	for (i = 0; i < n_approved; i++) {
		const struct crypto_entry *e = &found[i];

		if (!e->driver[0]) {
			ksft_print_msg("%s %s: not in /proc/crypto\n",
				       approved[i][0], approved[i][1]);
			ok = 0;
		} else if (!approvable(e)) {
			ksft_print_msg("%s %s: module %s, selftest %s, fips %s\n",
				       e->driver, e->name, e->module,
				       e->selftest, e->fips[0] ? e->fips : "-");
			ok = 0;
		} else if (!in_table(e->name, e->driver)) {
			ksft_print_msg("%s %s: not in the table\n", e->driver,
				       e->name);
			ok = 0;
		}
	}
	return ok;
}

static int check_never(void)
{
	size_t j;
	int i, ok = 1;

	for (i = 0; i < n_approved; i++)
		for (j = 0; j < sizeof(never) / sizeof(never[0]); j++)
			if (!strcmp(approved[i][1], never[j])) {
				ksft_print_msg("listed, never approved: %s %s\n",
					       approved[i][0], approved[i][1]);
				ok = 0;
			}
	return ok;
}

/* The AF_ALG type of a /proc/crypto type, or NULL */
static const char *af_alg_type(const char *type)
{
	if (!strcmp(type, "shash") || !strcmp(type, "ahash"))
		return "hash";
	if (!strcmp(type, "skcipher") || !strcmp(type, "aead") ||
	    !strcmp(type, "rng"))
		return type;
	return NULL;
}

static int check_usable(void)
{
	int i, bound = 0, ok = 1;

	for (i = 0; i < n_approved; i++) {
		const char *type = af_alg_type(found[i].type);
		int fd;

		if (!type)
			continue;
		fd = alg_bind(type, approved[i][0], NULL, 0);
		if (fd < 0) {
			ok = 0;
			continue;
		}
		close(fd);
		bound++;
	}
	ksft_print_msg("%d approved services bound by driver name\n", bound);
	return ok && bound > 0;
}

int main(void)
{
	char crypto[32];
	int n;

	cmdline_value("harness.crypto=", crypto, sizeof(crypto));
	fips = fips_enabled();
	ksft_print_header();
	if (!strcmp(crypto, "absent")) {
		/* The module did not run: the files exist and list nothing */
		ksft_set_plan(2);
		n = read_lines(APPROVED, "fips140-approved", add_approved);
		ksft_test_result(n == 0, "approved-empty\n");
		n = read_lines(SERVICES, "fips140-services", add_service);
		ksft_test_result(n == 0, "table-empty\n");
		ksft_finished();
	}
	if (strcmp(crypto, "fips140")) {
		ksft_set_plan(1);
		ksft_test_result(access(APPROVED, F_OK) && errno == ENOENT,
				 "no-indicator\n");
		ksft_finished();
	}
	ksft_set_plan(6);
	n = read_lines(SERVICES, "fips140-services", add_service);
	ksft_test_result(n > 0 && n == n_table, "table-readable\n");
	n = read_lines(APPROVED, "fips140-approved", add_approved);
	ksft_test_result(n > 0 && n == n_approved, "approved-readable\n");
	n = crypto_entries(match_entry, NULL);
	ksft_test_result(n > 0 && check_registered(), "approved-registered\n");
	ksft_test_result(n > 0 && !missing, "approved-complete\n");
	ksft_test_result(check_never(), "never-approved-not-listed\n");
	ksft_test_result(check_usable(), "approved-usable\n");
	ksft_finished();
}
