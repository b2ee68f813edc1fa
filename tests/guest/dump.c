// SPDX-License-Identifier: GPL-2.0
/*
 * Dump what serves the crypto, for host-side comparisons of two kernels
 * (scripts/ktap.py section LOG NAME prints a section):
 *
 *   # ---- BEGIN proc-crypto ----
 *   # name=sha256 driver=sha256-generic module=kernel priority=100 type=shash selftest=passed
 *   # ---- END proc-crypto ----
 *   # ---- BEGIN proc-modules ----
 *   # <the lines of /proc/modules>
 *   # ---- END proc-modules ----
 *
 * The entries are in /proc/crypto order (newest registration first).
 */
#include "guest.h"
#include "procfs.h"

static void print_entry(const struct crypto_entry *e, void *arg)
{
	(void)arg;
	ksft_print_msg("name=%s driver=%s module=%s priority=%s type=%s selftest=%s%s%s\n",
		       e->name, e->driver, e->module, e->priority, e->type,
		       e->selftest, e->fips[0] ? " fips=" : "", e->fips);
}

static int dump_file(const char *path, const char *section)
{
	char line[512];
	FILE *f = fopen(path, "r");

	if (!f) {
		ksft_print_msg("%s: %s\n", path, strerror(errno));
		return 0;
	}
	ksft_print_msg("---- BEGIN %s ----\n", section);
	while (fgets(line, sizeof(line), f))
		ksft_print_msg("%.*s\n", (int)strcspn(line, "\n"), line);
	ksft_print_msg("---- END %s ----\n", section);
	fclose(f);
	return 1;
}

int main(void)
{
	int n;

	ksft_print_header();
	ksft_set_plan(3);
	ksft_print_msg("---- BEGIN proc-crypto ----\n");
	n = crypto_entries(print_entry, NULL);
	ksft_print_msg("---- END proc-crypto ----\n");
	ksft_test_result(n > 0, "dump-proc-crypto\n");
	ksft_test_result(dump_file("/proc/modules", "proc-modules"), "dump-proc-modules\n");
	ksft_test_result(dump_file("/proc/cmdline", "proc-cmdline"), "dump-proc-cmdline\n");
	ksft_finished();
}
