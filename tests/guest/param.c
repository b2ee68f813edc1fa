// SPDX-License-Identifier: GPL-2.0
/*
 * A module parameter of the crypto code, set on the kernel command line.
 *
 * cryptomgr.notests (crypto/testmgr.c) keeps its built-in name when the
 * code is in fips140.ko, so the same command line sets it; only its sysfs
 * file moves: /sys/module/fips140/parameters/cryptomgr.notests with
 * harness.crypto=fips140, /sys/module/cryptomgr/parameters/notests with
 * harness.crypto=kernel. The file must read Y when the command line has
 * cryptomgr.notests=1 and N when it has no cryptomgr.notests, and with
 * cryptomgr.notests=1 and no fips=1 the kernel log must say the self-tests
 * are disabled (testmgr's "alg: self-tests disabled"), proof that the code
 * read the value, not only sysfs.
 */
#include <stdlib.h>
#include <sys/klog.h>

#include "guest.h"
#include "procfs.h"

#define BUILTIN_FILE "/sys/module/cryptomgr/parameters/notests"
#define MODULE_FILE "/sys/module/fips140/parameters/cryptomgr.notests"
#define DISABLED_MSG "alg: self-tests disabled"

static int param_reads(const char *path, char want)
{
	char v[8] = "";
	FILE *f = fopen(path, "r");

	if (!f) {
		ksft_print_msg("%s: %s\n", path, strerror(errno));
		return 0;
	}
	if (!fgets(v, sizeof(v), f))
		v[0] = 0;
	fclose(f);
	if (v[0] != want)
		ksft_print_msg("%s reads '%.1s', want '%c'\n", path, v, want);
	return v[0] == want;
}

/* Whether the kernel log holds msg */
static int log_has(const char *msg)
{
	int size = klogctl(10 /* SYSLOG_ACTION_SIZE_BUFFER */, NULL, 0);
	char *buf;
	int n, found;

	if (size <= 0)
		return 0;
	buf = calloc(1, size + 1);
	if (!buf)
		return 0;
	n = klogctl(3 /* SYSLOG_ACTION_READ_ALL */, buf, size);
	found = n > 0 && strstr(buf, msg) != NULL;
	free(buf);
	return found;
}

int main(void)
{
	char crypto[32], notests[8], fips[8];
	int set, expect_msg;

	cmdline_value("harness.crypto=", crypto, sizeof(crypto));
	cmdline_value("cryptomgr.notests=", notests, sizeof(notests));
	cmdline_value("fips=", fips, sizeof(fips));
	set = atoi(notests) != 0;
	expect_msg = set && atoi(fips) == 0;

	ksft_print_header();
	ksft_set_plan(2);
	ksft_test_result(param_reads(strcmp(crypto, "fips140") ?
				     BUILTIN_FILE : MODULE_FILE,
				     set ? 'Y' : 'N'),
			 "notests-in-sysfs\n");
	if (log_has(DISABLED_MSG) != expect_msg)
		ksft_print_msg("kernel log %s \"" DISABLED_MSG "\"\n",
			       expect_msg ? "lacks" : "has");
	ksft_test_result(log_has(DISABLED_MSG) == expect_msg,
			 "notests-obeyed\n");
	ksft_finished();
}
