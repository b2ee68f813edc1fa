// SPDX-License-Identifier: GPL-2.0
/*
 * The boundary in FIPS mode: a module built from crypto-objs-m loads only
 * if fips140.ko lists its SHA-256 (/sys/kernel/fips140/modules). Run on
 * demand (tests=boundary), with what scripts/ro-probe.sh puts in /extra
 * for a target with a "tampered" module: /extra/boundary names it ("NAME
 * PATH", PATH under /lib/modules/RELEASE), /extra/boundary.ko is the same
 * module with one byte of its .comment changed, signed again with the
 * build's key, so that only the certified-set check can refuse it.
 *
 * - NAME is listed.
 * - fips=1: finit_module() of the changed module fails with EKEYREJECTED,
 *   and the kernel log names it. Without fips=1 it loads (and is removed
 *   again).
 * - Either way the module as built then loads: its digest is listed, and
 *   the refusal left nothing of the other behind.
 */
#define _GNU_SOURCE
#include <fcntl.h>
#include <sys/syscall.h>
#include <sys/utsname.h>
#include <unistd.h>

#include "extra.h"
#include "guest.h"

#define MODULES "/sys/kernel/fips140/modules"
/* /extra/boundary: the module's name and path under /lib/modules/RELEASE */
static int read_boundary(char *name, char *path, size_t size)
{
	char rel[192];
	struct utsname u;
	FILE *f = fopen("/extra/boundary", "r");
	int ok;

	if (!f) {
		ksft_print_msg("/extra/boundary: %s (scripts/ro-probe.sh NAME MODULE puts it there)\n",
			       strerror(errno));
		return 0;
	}
	ok = fscanf(f, "%63s %191s", name, rel) == 2 && !uname(&u);
	fclose(f);
	if (ok)
		snprintf(path, size, "/lib/modules/%s/%s", u.release, rel);
	return ok;
}

static int listed(const char *name)
{
	char line[256], n[64];
	FILE *f = fopen(MODULES, "r");
	int found = 0;

	if (!f) {
		ksft_print_msg("%s: %s\n", MODULES, strerror(errno));
		return 0;
	}
	while (!found && fgets(line, sizeof(line), f))
		found = sscanf(line, "%63s", n) == 1 && !strcmp(n, name);
	fclose(f);
	if (!found)
		ksft_print_msg("%s is not in %s\n", name, MODULES);
	return found;
}

int main(void)
{
	char name[64], path[320], refusal[160];
	int fips = fips_enabled(), err;

	ksft_print_header();
	ksft_set_plan(4);
	if (!read_boundary(name, path, sizeof(path)))
		ksft_exit_fail_msg("no module to try\n");
	ksft_print_msg("module %s (%s), fips mode %d\n", name, path, fips);
	ksft_test_result(listed(name), "module-listed\n");
	err = load_module_file("/extra/boundary.ko");
	snprintf(refusal, sizeof(refusal),
		 "%s: not in the certified set of the crypto module", name);
	if (fips) {
		ksft_test_result(err == EKEYREJECTED, "changed-refused\n");
		ksft_test_result(klog_has(refusal), "refusal-logged\n");
	} else {
		ksft_test_result(err == 0, "changed-loads\n");
		err = syscall(SYS_delete_module, name, O_NONBLOCK) ? errno : 0;
		if (err)
			ksft_print_msg("delete_module(%s): %s\n", name, strerror(err));
		ksft_test_result(err == 0, "changed-removed\n");
	}
	ksft_test_result(load_module_file(path) == 0, "certified-loads\n");
	ksft_finished();
}
