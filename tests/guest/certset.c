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
 * digits, no name twice. harness.crypto=absent: the module did not run,
 * the list is empty. Otherwise (stock): there is no such file.
 */
#include <ctype.h>
#include <unistd.h>

#include "guest.h"
#include "procfs.h"

#define MODULES "/sys/kernel/fips140/modules"
#define MAX_MODULES 512

static char names[MAX_MODULES][64];

/* "<name> <64 hex digits>", a name not seen before */
static int well_formed(const char *line, int n)
{
	char name[64], hex[80];
	int i;

	if (sscanf(line, "%63s %79s", name, hex) != 2 || strlen(hex) != 64)
		return 0;
	for (i = 0; hex[i]; i++)
		if (!isxdigit((unsigned char)hex[i]) || isupper((unsigned char)hex[i]))
			return 0;
	for (i = 0; i < n && i < MAX_MODULES; i++)
		if (!strcmp(names[i], name))
			return 0;
	if (n < MAX_MODULES)
		strcpy(names[n], name);
	return 1;
}

/* Dump the list; lines read (-1 if unreadable), *bad the malformed ones */
static int read_list(int *bad)
{
	char line[256];
	FILE *f = fopen(MODULES, "r");
	int n = 0;

	*bad = 0;
	if (!f) {
		ksft_print_msg("%s: %s\n", MODULES, strerror(errno));
		return -1;
	}
	ksft_print_msg("---- BEGIN fips140-modules ----\n");
	while (fgets(line, sizeof(line), f)) {
		line[strcspn(line, "\n")] = 0;
		ksft_print_msg("%s\n", line);
		if (!well_formed(line, n)) {
			ksft_print_msg("malformed or repeated: \"%s\"\n", line);
			(*bad)++;
		}
		n++;
	}
	ksft_print_msg("---- END fips140-modules ----\n");
	fclose(f);
	return n;
}

int main(void)
{
	char crypto[32];
	int n, bad;

	cmdline_value("harness.crypto=", crypto, sizeof(crypto));
	ksft_print_header();
	ksft_set_plan(strcmp(crypto, "fips140") && strcmp(crypto, "absent") ? 1 : 2);
	if (!strcmp(crypto, "fips140")) {
		n = read_list(&bad);
		ksft_test_result(n >= 0, "list-readable\n");
		ksft_print_msg("%d modules in the certified set\n", n);
		ksft_test_result(n >= 0 && !bad, "list-well-formed\n");
	} else if (!strcmp(crypto, "absent")) {
		n = read_list(&bad);
		ksft_test_result(n >= 0, "list-readable\n");
		ksft_test_result(n == 0, "list-empty\n");
	} else {
		ksft_test_result(access(MODULES, F_OK) && errno == ENOENT,
				 "no-certified-set\n");
	}
	ksft_finished();
}
