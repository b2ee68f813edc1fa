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
#include "ktap.h"
#include "procfs.h"

static void print_entry(const struct crypto_entry *e, void *arg)
{
	(void)arg;
	ktap_print("name=%s driver=%s module=%s priority=%s type=%s selftest=%s%s%s",
		   e->name, e->driver, e->module, e->priority, e->type,
		   e->selftest, e->fips[0] ? " fips=" : "", e->fips);
}

static int dump_file(const char *path, const char *section)
{
	char line[512];
	FILE *f = fopen(path, "r");

	if (!f) {
		ktap_print("%s: %s", path, strerror(errno));
		return 0;
	}
	ktap_print("---- BEGIN %s ----", section);
	while (fgets(line, sizeof(line), f))
		ktap_print("%.*s", (int)strcspn(line, "\n"), line);
	ktap_print("---- END %s ----", section);
	fclose(f);
	return 1;
}

int main(void)
{
	int n;

	ktap_plan(3);
	ktap_print("---- BEGIN proc-crypto ----");
	n = crypto_entries(print_entry, NULL);
	ktap_print("---- END proc-crypto ----");
	ktap_result(n > 0, "dump-proc-crypto");
	ktap_result(dump_file("/proc/modules", "proc-modules"),
		    "dump-proc-modules");
	ktap_result(dump_file("/proc/cmdline", "proc-cmdline"),
		    "dump-proc-cmdline");
	return ktap_finish();
}
