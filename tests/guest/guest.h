/* SPDX-License-Identifier: GPL-2.0 */
/*
 * What the guest tests share, on top of the kernel's own KTAP helpers,
 * tools/testing/selftests/kselftest.h (the Makefile finds it in the
 * pristine tree):
 *
 *	ksft_print_header(); ksft_set_plan(N);	"TAP version 13", "1..N"
 *	ksft_test_result(ok, "%s\n", name);	"ok 1 name" / "not ok 1 name"
 *	ksft_test_result_code(KSFT_SKIP, name, "%s", why);
 *						"ok 1 name # SKIP why"
 *	ksft_print_msg("fmt\n", ...);		"# diagnostic"
 *	ksft_finished();			exit 0 when all N ran and
 *						passed, else 1
 *
 * Test names have no spaces, so the host can print them as NAME/test.
 */
#ifndef GUEST_H
#define GUEST_H

#include <stdio.h>
#include <string.h>

#include "kselftest.h"

/* Print a "# what: hex" line (for mismatches). */
static inline void print_hex(const char *what, const unsigned char *p,
			     size_t len)
{
	size_t i;

	printf("# %s: ", what);
	for (i = 0; i < len; i++)
		printf("%02x", p[i]);
	printf("\n");
}

/* Compare got with want; on mismatch print both. Returns 1 when equal. */
static inline int check_memeq(const char *name, const unsigned char *got,
			      const unsigned char *want, size_t len)
{
	if (!memcmp(got, want, len))
		return 1;
	ksft_print_msg("%s: result differs from the known answer\n", name);
	print_hex("want", want, len);
	print_hex("got ", got, len);
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

#endif /* GUEST_H */
