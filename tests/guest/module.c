// SPDX-License-Identifier: GPL-2.0
/*
 * Who serves the crypto: checks what the kernel command line says to
 * expect, harness.crypto=fips140 (the standalone crypto module) or
 * harness.crypto=kernel (built in), and harness.modules=a,b: crypto
 * modules (=m) to load, which must then serve algorithms that passed
 * their self-tests.
 *
 * fips140: fips140 is in /proc/modules, permanent, cannot be removed,
 * and no /proc/crypto entry is served by "kernel". kernel: there is no
 * fips140 module, and every entry not from a loaded module is "kernel".
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <unistd.h>

#include "guest.h"
#include "procfs.h"

static char expect[32], modules[256];

/* The line of /proc/modules for module NAME, or 0 */
static int module_line(const char *name, char *out, size_t size)
{
	char line[512];
	size_t n = strlen(name);
	FILE *f = fopen("/proc/modules", "r");
	int found = 0;

	if (!f)
		return 0;
	while (fgets(line, sizeof(line), f))
		if (!strncmp(line, name, n) && line[n] == ' ') {
			snprintf(out, size, "%s", line);
			found = 1;
		}
	fclose(f);
	return found;
}

struct served {
	const char *module;	/* count the entries of this module */
	int of_module, of_kernel, of_module_passed, total;
};

static void count(const struct crypto_entry *e, void *arg)
{
	struct served *s = arg;

	s->total++;
	if (!strcmp(e->module, "kernel"))
		s->of_kernel++;
	if (s->module && !strcmp(e->module, s->module)) {
		s->of_module++;
		if (!strcmp(e->selftest, "passed"))
			s->of_module_passed++;
	}
}

static void check_fips140(void)
{
	struct served s = { .module = "fips140" };
	char line[512];
	int present = module_line("fips140", line, sizeof(line));

	ksft_test_result(present, "fips140-loaded\n");
	if (present)
		ksft_print_msg("%.*s\n", (int)strcspn(line, "\n"), line);
	ksft_test_result(present && strstr(line, "[permanent]"), "fips140-permanent\n");

	errno = 0;
	ksft_test_result(syscall(SYS_delete_module, "fips140", O_NONBLOCK) != 0 &&
			 module_line("fips140", line, sizeof(line)), "fips140-cannot-be-removed\n");
	ksft_print_msg("delete_module(fips140): %s\n", strerror(errno));

	crypto_entries(count, &s);
	ksft_print_msg("/proc/crypto: %d entries, %d from fips140, %d from kernel\n",
		       s.total, s.of_module, s.of_kernel);
	ksft_test_result(s.of_module > 0 && s.of_kernel == 0, "crypto-served-by-fips140\n");
}

static void check_kernel(void)
{
	struct served s = { .module = NULL };
	char line[512];

	ksft_test_result(!module_line("fips140", line, sizeof(line)) &&
			 access("/sys/module/fips140", F_OK) != 0, "no-fips140\n");
	crypto_entries(count, &s);
	ksft_print_msg("/proc/crypto: %d entries, %d from kernel\n", s.total,
		       s.of_kernel);
	ksft_test_result(s.of_kernel > 0, "crypto-served-by-kernel\n");
}

static int modprobe(const char *name)
{
	int status;
	pid_t pid = fork();

	if (pid == 0) {
		execl("/sbin/modprobe", "modprobe", name, (char *)NULL);
		_exit(127);
	}
	return pid > 0 && waitpid(pid, &status, 0) == pid &&
	       WIFEXITED(status) && WEXITSTATUS(status) == 0;
}

static void check_module(const char *name)
{
	struct served s = { .module = name };
	char line[512], tname[128];
	int loaded, tries;

	snprintf(tname, sizeof(tname), "module-%s-loads", name);
	loaded = modprobe(name) && module_line(name, line, sizeof(line));
	ksft_test_result(loaded, "%s\n", tname);
	/* The self-tests of new algorithms run in the background: wait 10 s */
	for (tries = 0; tries < 100; tries++) {
		memset(&s, 0, sizeof(s));
		s.module = name;
		crypto_entries(count, &s);
		if (s.of_module && s.of_module == s.of_module_passed)
			break;
		usleep(100000);
	}
	ksft_print_msg("%s: %d /proc/crypto entries, %d passed their self-test\n",
		       name, s.of_module, s.of_module_passed);
	snprintf(tname, sizeof(tname), "module-%s-serves", name);
	ksft_test_result(loaded && s.of_module > 0 && s.of_module == s.of_module_passed, "%s\n",
			 tname);
}

int main(void)
{
	char list[256], *p, *name;
	unsigned int n = 0;

	cmdline_value("harness.crypto=", expect, sizeof(expect));
	cmdline_value("harness.modules=", modules, sizeof(modules));
	snprintf(list, sizeof(list), "%s", modules);
	for (name = strtok_r(list, ",", &p); name; name = strtok_r(NULL, ",", &p))
		n++;

	ksft_print_header();
	if (!strcmp(expect, "fips140")) {
		ksft_set_plan(4 + 2 * n);
		check_fips140();
	} else if (!strcmp(expect, "kernel")) {
		ksft_set_plan(2 + 2 * n);
		check_kernel();
	} else {
		ksft_set_plan(1);
		ksft_print_msg("harness.crypto=fips140|kernel missing on the kernel command line\n");
		ksft_test_result(0, "expectation\n");
		ksft_finished();
	}

	snprintf(list, sizeof(list), "%s", modules);
	for (name = strtok_r(list, ",", &p); name; name = strtok_r(NULL, ",", &p))
		check_module(name);
	ksft_finished();
}
