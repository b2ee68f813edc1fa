/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Reading /proc/crypto: one struct per entry (blank-line separated); and
 * the line lists of /sys/kernel/fips140, dumped as sections.
 */
#ifndef PROCFS_H
#define PROCFS_H

#include <stdio.h>
#include <string.h>

struct crypto_entry {
	char name[128], driver[128], module[64], type[32], selftest[32];
	char priority[16], internal[16], fips[16];
};

/* Copy the value of "key : value" line into v when the key matches. */
static inline void crypto_field(const char *line, const char *key, char *v,
				size_t size)
{
	size_t n = strlen(key);
	const char *p;

	if (strncmp(line, key, n) || (line[n] != ' ' && line[n] != ':'))
		return;
	p = strchr(line, ':');
	if (!p)
		return;
	p++;
	while (*p == ' ')
		p++;
	snprintf(v, size, "%.*s", (int)strcspn(p, "\n"), p);
}

/*
 * Call fn on every entry of /proc/crypto. Returns the number of entries,
 * or -1 when the file cannot be read.
 */
static inline int crypto_entries(void (*fn)(const struct crypto_entry *,
					    void *), void *arg)
{
	struct crypto_entry e;
	char line[512];
	int n = 0, open_entry = 0;
	FILE *f = fopen("/proc/crypto", "r");

	if (!f)
		return -1;
	memset(&e, 0, sizeof(e));
	for (;;) {
		int eof = !fgets(line, sizeof(line), f);

		if (eof || line[0] == '\n') {
			if (open_entry) {
				fn(&e, arg);
				n++;
			}
			memset(&e, 0, sizeof(e));
			open_entry = 0;
			if (eof)
				break;
			continue;
		}
		open_entry = 1;
		crypto_field(line, "name", e.name, sizeof(e.name));
		crypto_field(line, "driver", e.driver, sizeof(e.driver));
		crypto_field(line, "module", e.module, sizeof(e.module));
		crypto_field(line, "type", e.type, sizeof(e.type));
		crypto_field(line, "selftest", e.selftest, sizeof(e.selftest));
		crypto_field(line, "priority", e.priority, sizeof(e.priority));
		crypto_field(line, "internal", e.internal, sizeof(e.internal));
		crypto_field(line, "fips", e.fips, sizeof(e.fips));
	}
	fclose(f);
	return n;
}

/* The value of KEY (e.g. "harness.crypto=") on the kernel command line, or "" */
static inline void cmdline_value(const char *key, char *v, size_t size)
{
	char line[4096], *p, *tok;
	FILE *f = fopen("/proc/cmdline", "r");

	v[0] = 0;
	if (!f || !fgets(line, sizeof(line), f)) {
		if (f)
			fclose(f);
		return;
	}
	fclose(f);
	for (tok = strtok_r(line, " \n", &p); tok; tok = strtok_r(NULL, " \n", &p))
		if (!strncmp(tok, key, strlen(key)))
			snprintf(v, size, "%s", tok + strlen(key));
}

/* Read FILE, dumped as SECTION; each line to fn. Lines read, or -1. */
static inline int read_lines(const char *file, const char *section,
		      void (*fn)(const char *line))
{
	char line[512];
	FILE *f = fopen(file, "r");
	int n = 0;

	if (!f) {
		ksft_print_msg("%s: %s\n", file, strerror(errno));
		return -1;
	}
	ksft_print_msg("---- BEGIN %s ----\n", section);
	while (fgets(line, sizeof(line), f)) {
		line[strcspn(line, "\n")] = 0;
		ksft_print_msg("%s\n", line);
		fn(line);
		n++;
	}
	ksft_print_msg("---- END %s ----\n", section);
	fclose(f);
	return n;
}

#endif /* PROCFS_H */
