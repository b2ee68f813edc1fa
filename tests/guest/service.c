// SPDX-License-Identifier: GPL-2.0
/*
 * fips140_is_approved_service(), the in-kernel side of the approved-service
 * indicator, agrees with /sys/kernel/fips140/approved. Run on demand
 * (tests=service), with /extra/fips140_service.ko (tests/ro-probe), which
 * answers through /proc/fips140-service: each listed driver name and
 * algorithm name is approved; algorithms that are never approved (md5,
 * des, chacha20, ...) and unknown names are not.
 */
#define _GNU_SOURCE
#include <fcntl.h>
#include <stdlib.h>
#include <sys/syscall.h>
#include <unistd.h>

#include "extra.h"
#include "guest.h"

#define APPROVED "/sys/kernel/fips140/approved"
#define PROC "/proc/fips140-service"
#define MAX_LINES 512

static char approved[MAX_LINES][2][128];
static int n_approved;

static const char *const never[] = {
	"md5", "md5-generic", "des", "des3_ede", "cbc(des3_ede)", "chacha20",
	"chacha20-generic", "poly1305", "ecdsa-nist-p192", "crc32c",
	"no-such-algorithm",
};
#define N_NEVER (sizeof(never) / sizeof(never[0]))

/* The module's answer for NAME: 1, 0, or -1 if it could not be asked */
static int ask(const char *name)
{
	char buf[8];
	int fd, n;

	fd = open(PROC, O_WRONLY | O_CLOEXEC);
	if (fd < 0 || write(fd, name, strlen(name)) != (ssize_t)strlen(name)) {
		ksft_print_msg("%s: asking %s: %s\n", PROC, name, strerror(errno));
		if (fd >= 0)
			close(fd);
		return -1;
	}
	close(fd);
	fd = open(PROC, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return -1;
	n = read(fd, buf, sizeof(buf) - 1);
	close(fd);
	if (n <= 0)
		return -1;
	buf[n] = 0;
	return atoi(buf);
}

static int read_approved(void)
{
	char line[512];
	FILE *f = fopen(APPROVED, "r");

	if (!f) {
		ksft_print_msg(APPROVED ": %s\n", strerror(errno));
		return 0;
	}
	while (n_approved < MAX_LINES && fgets(line, sizeof(line), f))
		if (sscanf(line, "%127s %127s", approved[n_approved][0],
			   approved[n_approved][1]) == 2)
			n_approved++;
	fclose(f);
	return n_approved > 0;
}

/* Every listed column COL (0: driver, 1: name) is approved */
static int listed_approved(int col)
{
	int i, ok = 1;

	for (i = 0; i < n_approved; i++) {
		int a = ask(approved[i][col]);

		if (a != 1) {
			ksft_print_msg("%s: listed, module answers %d\n",
				       approved[i][col], a);
			ok = 0;
		}
	}
	return ok && n_approved > 0;
}

static int never_approved(void)
{
	size_t i;
	int ok = 1;

	for (i = 0; i < N_NEVER; i++) {
		int a = ask(never[i]);

		if (a != 0) {
			ksft_print_msg("%s: module answers %d, expected 0\n",
				       never[i], a);
			ok = 0;
		}
	}
	return ok;
}

int main(void)
{
	int loaded;

	ksft_print_header();
	ksft_set_plan(5);
	ksft_test_result(read_approved(), "approved-readable\n");
	loaded = load_extra_module("fips140_service") == 0;
	ksft_test_result(loaded, "client-module-loads\n");
	ksft_test_result(loaded && listed_approved(0), "listed-drivers-approved\n");
	ksft_test_result(loaded && listed_approved(1), "listed-names-approved\n");
	ksft_test_result(loaded && never_approved(), "never-approved-refused\n");
	ksft_finished();
}
