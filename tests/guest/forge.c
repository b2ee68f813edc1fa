// SPDX-License-Identifier: GPL-2.0
/*
 * The status in /sys/kernel/fips140/ is the crypto module's own: no other
 * module can set it, and user space cannot write it. Run on demand
 * (tests=forge), with the out-of-tree modules of tests/ro-probe in /extra.
 *
 * - fips140_forge.ko links against fips140_report_failure() and
 *   fips140_report_selftests() (namespace EMBEDDED_MODULE, which it
 *   imports): finit_module() fails with EPERM, and the kernel log names
 *   the symbol and the namespace.
 * - fips140_forge_get.ko looks fips140_report_failure() up with
 *   symbol_get(): it loads, the lookup is refused, and the log says so.
 * - Either way the status files read as before (a forged report would
 *   set failure and selftest).
 * - Every file of /sys/kernel/fips140 is read-only: no write permission
 *   bit, and open(O_WRONLY) fails with EACCES, even for root.
 */
#define _GNU_SOURCE
#include <dirent.h>
#include <fcntl.h>
#include <stdlib.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <unistd.h>

#include "extra.h"
#include "guest.h"

#define STATUS_DIR "/sys/kernel/fips140"
/* The status files a forged report would change */
static const char *const watched[] = { "failure", "selftest",
				       "selftests_failed" };
#define N_WATCHED (sizeof(watched) / sizeof(watched[0]))

static void read_status(char values[][128])
{
	char path[256];
	size_t i;

	for (i = 0; i < N_WATCHED; i++) {
		FILE *f;

		snprintf(path, sizeof(path), STATUS_DIR "/%s", watched[i]);
		values[i][0] = 0;
		f = fopen(path, "r");
		if (!f) {
			ksft_print_msg("%s: %s\n", path, strerror(errno));
			continue;
		}
		if (!fgets(values[i], 128, f))
			values[i][0] = 0;
		fclose(f);
		values[i][strcspn(values[i], "\n")] = 0;
	}
}

static int same_status(char before[][128], char after[][128])
{
	int same = 1;
	size_t i;

	for (i = 0; i < N_WATCHED; i++) {
		if (!before[i][0]) {
			ksft_print_msg("%s: unreadable\n", watched[i]);
			same = 0;
		} else if (strcmp(before[i], after[i])) {
			ksft_print_msg("%s: was \"%s\", now \"%s\"\n",
				       watched[i], before[i], after[i]);
			same = 0;
		}
	}
	return same;
}

/* Every status file: no write bit, and no opening for write */
static int status_read_only(void)
{
	struct dirent **names;
	int n, i, ok = 1;

	n = scandir(STATUS_DIR, &names, NULL, alphasort);
	if (n < 0) {
		ksft_print_msg(STATUS_DIR ": %s\n", strerror(errno));
		return 0;
	}
	if (n <= 2) {
		ksft_print_msg(STATUS_DIR ": empty\n");
		ok = 0;
	}
	for (i = 0; i < n; i++) {
		char path[512];
		struct stat st;
		int fd;

		if (names[i]->d_name[0] == '.')
			goto next;
		snprintf(path, sizeof(path), STATUS_DIR "/%s",
			 names[i]->d_name);
		if (stat(path, &st) || st.st_mode & 0222) {
			ksft_print_msg("%s: mode %o\n", path,
				       (unsigned int)st.st_mode & 07777);
			ok = 0;
		}
		fd = open(path, O_WRONLY | O_CLOEXEC);
		if (fd >= 0 || errno != EACCES) {
			ksft_print_msg("%s: open for write: %s\n", path,
				       fd >= 0 ? "allowed" : strerror(errno));
			ok = 0;
		}
		if (fd >= 0)
			close(fd);
next:
		free(names[i]);
	}
	free(names);
	return ok;
}

int main(void)
{
	char before[N_WATCHED][128], after[N_WATCHED][128];
	int err;

	ksft_print_header();
	ksft_set_plan(6);
	read_status(before);

	err = load_extra_module("fips140_forge");
	ksft_test_result(err == EPERM, "link-refused\n");
	ksft_test_result(klog_has("fips140_forge: module uses symbol (fips140_report_") &&
			 klog_has("of namespace EMBEDDED_MODULE, which is for modules embedded in vmlinux only"),
			 "link-refusal-logged\n");

	err = load_extra_module("fips140_forge_get");
	ksft_test_result(err == 0, "symbol-get-module-loads\n");
	ksft_test_result(klog_has("failing symbol_get of symbol fips140_report_failure of namespace EMBEDDED_MODULE") &&
			 klog_has("fips140_forge_get: symbol_get(fips140_report_failure) refused"),
			 "symbol-get-refused\n");

	read_status(after);
	ksft_test_result(same_status(before, after), "status-unchanged\n");
	ksft_test_result(status_read_only(), "status-read-only\n");
	ksft_finished();
}
