/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Minimal KTAP output for the guest tests, in the shape of the kernel's
 * tools/testing/selftests/kselftest.h:
 *
 *	ktap_plan(N);			"KTAP version 1" and "1..N"
 *	ktap_result(ok, "name");	"ok 1 name" / "not ok 1 name"
 *	ktap_skip("name", "why");	"ok 1 name # SKIP why"
 *	ktap_print("fmt", ...);		"# diagnostic"
 *	return ktap_finish();		0 when all N ran and passed, else 1
 *
 * Test names have no spaces, so the host can print them as NAME/test.
 */
#ifndef KTAP_H
#define KTAP_H

#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static unsigned int ktap_planned, ktap_done, ktap_failed;

static inline void ktap_plan(unsigned int n)
{
	/* The output goes through a pipe: keep lines whole and in order. */
	setvbuf(stdout, NULL, _IOLBF, 0);
	ktap_planned = n;
	printf("KTAP version 1\n1..%u\n", n);
}

static inline void __attribute__((format(printf, 1, 2)))
ktap_print(const char *fmt, ...)
{
	va_list ap;

	printf("# ");
	va_start(ap, fmt);
	vprintf(fmt, ap);
	va_end(ap);
	printf("\n");
}

static inline void ktap_result(int ok, const char *name)
{
	ktap_done++;
	if (!ok)
		ktap_failed++;
	printf("%sok %u %s\n", ok ? "" : "not ", ktap_done, name);
}

static inline void ktap_skip(const char *name, const char *why)
{
	ktap_done++;
	printf("ok %u %s # SKIP %s\n", ktap_done, name, why);
}

static inline int ktap_finish(void)
{
	if (ktap_done != ktap_planned)
		ktap_print("planned %u tests, ran %u", ktap_planned, ktap_done);
	ktap_print("totals: pass:%u fail:%u", ktap_done - ktap_failed,
		   ktap_failed);
	fflush(stdout);
	return ktap_failed || ktap_done != ktap_planned;
}

/* Print a "# what: hex" line (for mismatches). */
static inline void ktap_hex(const char *what, const unsigned char *p,
			    size_t len)
{
	size_t i;

	printf("# %s: ", what);
	for (i = 0; i < len; i++)
		printf("%02x", p[i]);
	printf("\n");
}

/* Compare got with want; on mismatch print both. Returns 1 when equal. */
static inline int ktap_memeq(const char *name, const unsigned char *got,
			     const unsigned char *want, size_t len)
{
	if (!memcmp(got, want, len))
		return 1;
	ktap_print("%s: result differs from the known answer", name);
	ktap_hex("want", want, len);
	ktap_hex("got ", got, len);
	return 0;
}

/* 1 when the kernel runs in FIPS mode (fips=1), else 0. */
static inline int fips_enabled(void)
{
	FILE *f = fopen("/proc/sys/crypto/fips_enabled", "r");
	int on = 0;

	if (f) {
		if (fscanf(f, "%d", &on) != 1)
			on = 0;
		fclose(f);
	}
	return on;
}

/*
 * Decode the hex string s into a malloc'd buffer; *len gets its length.
 * The vectors are compiled in, so a bad string is a bug: abort.
 */
static inline unsigned char *unhex(const char *s, size_t *len)
{
	size_t n = strlen(s), i;
	unsigned char *p;

	if (n % 2)
		abort();
	p = malloc(n / 2 + 1);
	if (!p)
		abort();
	for (i = 0; i < n / 2; i++) {
		unsigned int b;

		if (sscanf(s + 2 * i, "%2x", &b) != 1)
			abort();
		p[i] = (unsigned char)b;
	}
	*len = n / 2;
	return p;
}

#endif /* KTAP_H */
