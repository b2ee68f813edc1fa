// SPDX-License-Identifier: GPL-2.0
/*
 * The certified set: the modules built from crypto-objs-m whose SHA-256
 * fips140.ko lists, in /sys/kernel/fips140/modules ("<name> <sha256>" a
 * line). In FIPS mode they are the only marked modules that load (the
 * test boundary tries the others).
 *
 * harness.crypto=fips140: the list is readable, dumped (section
 * fips140-modules, for the host to compare with the modules it built:
 * fips140_checks.py certset), and each line is a module name and 64 hex
 * digits, no name twice. harness.crypto=absent (the tamper boots: the
 * image failed its check, so nothing of it is used): the list is empty.
 * Otherwise (stock): there is no such file.
 */
#include <ctype.h>
#include <unistd.h>

#include "guest.h"
#include "procfs.h"

#define MODULES "/sys/kernel/fips140/modules"
#define MAX_MODULES 512

static char names[MAX_MODULES][64];

static int n_names, n_bad;

/* Each line: "<name> <64 hex digits>", a name not seen before */
static void check_line(const char *line)
{
	char name[64], hex[80];
	int i, ok;

	ok = sscanf(line, "%63s %79s", name, hex) == 2 && strlen(hex) == 64;
	for (i = 0; ok && hex[i]; i++)
		ok = isxdigit((unsigned char)hex[i]) &&
		     !isupper((unsigned char)hex[i]);
	for (i = 0; ok && i < n_names; i++)
		ok = strcmp(names[i], name);
	if (ok && n_names < MAX_MODULES)
		strcpy(names[n_names++], name);
	if (!ok) {
		ksft_print_msg("malformed or repeated: \"%s\"\n", line);
		n_bad++;
	}
}

int main(void)
{
	char crypto[32];
	int n;

	cmdline_value("harness.crypto=", crypto, sizeof(crypto));
	ksft_print_header();
	ksft_set_plan(strcmp(crypto, "fips140") && strcmp(crypto, "absent") ? 1 : 2);
	if (!strcmp(crypto, "fips140")) {
		n = read_lines(MODULES, "fips140-modules", check_line);
		ksft_test_result(n >= 0, "list-readable\n");
		ksft_print_msg("%d modules in the certified set\n", n);
		ksft_test_result(n >= 0 && !n_bad, "list-well-formed\n");
	} else if (!strcmp(crypto, "absent")) {
		n = read_lines(MODULES, "fips140-modules", check_line);
		ksft_test_result(n >= 0, "list-readable\n");
		ksft_test_result(n == 0, "list-empty\n");
	} else {
		ksft_test_result(access(MODULES, F_OK) && errno == ENOENT,
				 "no-certified-set\n");
	}
	ksft_finished();
}
