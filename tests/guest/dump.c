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
 *
 * The self-tests of the algorithms run asynchronously in the default mode
 * (cryptomgr), so an early read can show a larval entry or a test still
 * running ("selftest : unknown") where a later read shows the algorithm
 * tested. Two kernels are compared only on settled tables: the dump waits
 * until /proc/crypto has no larval entry and reads the same twice,
 * SETTLE_INTERVAL_US apart, and fails after SETTLE_TIMEOUT_S seconds.
 */
#include <time.h>
#include <unistd.h>

#include "guest.h"
#include "procfs.h"

#define SETTLE_INTERVAL_US	500000
#define SETTLE_TIMEOUT_S	120

struct snapshot {
	char text[256 * 1024];
	size_t len;
	int larval;
	int overflow;
};

static void snapshot_entry(const struct crypto_entry *e, void *arg)
{
	struct snapshot *s = arg;
	int n;

	if (!strcmp(e->type, "larval"))
		s->larval++;
	n = snprintf(s->text + s->len, sizeof(s->text) - s->len,
		     "%s %s %s %s %s\n", e->name, e->driver, e->type,
		     e->priority, e->selftest);
	if (n < 0 || (size_t)n >= sizeof(s->text) - s->len) {
		s->overflow = 1;
		return;
	}
	s->len += n;
}

static int take_snapshot(struct snapshot *s)
{
	s->len = 0;
	s->larval = 0;
	s->overflow = 0;
	s->text[0] = 0;
	return crypto_entries(snapshot_entry, s) > 0 && !s->overflow;
}

static double now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec + ts.tv_nsec / 1e9;
}

/* Wait for a settled /proc/crypto; 1 when it settled */
static int settle(void)
{
	static struct snapshot a, b;
	struct snapshot *prev = &a, *cur = &b, *t;
	double start = now();

	if (!take_snapshot(prev))
		return 0;
	while (now() - start < SETTLE_TIMEOUT_S) {
		usleep(SETTLE_INTERVAL_US);
		if (!take_snapshot(cur))
			return 0;
		if (!cur->larval && cur->len == prev->len &&
		    !memcmp(cur->text, prev->text, cur->len)) {
			ksft_print_msg("proc-crypto settled after %.1f s\n",
				       now() - start);
			return 1;
		}
		t = prev;
		prev = cur;
		cur = t;
	}
	ksft_print_msg("proc-crypto not settled after %d s (%d larval entries)\n",
		       SETTLE_TIMEOUT_S, cur->larval);
	return 0;
}

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
	ksft_set_plan(4);
	ksft_test_result(settle(), "proc-crypto-settled\n");
	ksft_print_msg("---- BEGIN proc-crypto ----\n");
	n = crypto_entries(print_entry, NULL);
	ksft_print_msg("---- END proc-crypto ----\n");
	ksft_test_result(n > 0, "dump-proc-crypto\n");
	ksft_test_result(dump_file("/proc/modules", "proc-modules"), "dump-proc-modules\n");
	ksft_test_result(dump_file("/proc/cmdline", "proc-cmdline"), "dump-proc-cmdline\n");
	ksft_finished();
}
