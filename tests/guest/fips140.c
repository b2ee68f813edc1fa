// SPDX-License-Identifier: GPL-2.0
/*
 * The state of the crypto module and of FIPS mode.
 *
 * /proc/sys/crypto/fips_enabled is 1 exactly when the kernel command line
 * has fips=1; /proc/sys/crypto is dumped (section proc-sys-crypto) for the
 * host to compare with the stock kernel's.
 *
 * harness.crypto=fips140: /sys/kernel/fips140/ says the integrity check
 * and the self-tests passed (at least one test, none failed; with fips=1
 * already when /init started, which recorded the state in
 * /tmp/selftest-at-init; otherwise then passed or still pending), with a
 * version, a 20-byte build id, a 32-byte digest and the same fips mode
 * as /proc/sys/crypto/fips_enabled; it is dumped (section sys-fips140)
 * for the host to compare with the build. harness.crypto=kernel: there is
 * no /sys/kernel/fips140.
 *
 * harness.crypto=absent: the module could not run (a damaged image, a
 * loader fault), and the kernel went on without crypto. /sys/kernel/
 * fips140/failure says why (dumped for the host to compare with the
 * log), fips140 is not in /proc/modules, and each way into the crypto
 * code fails with the error its absence gives: no /proc/crypto, no
 * /proc/sys/crypto, no AF_ALG socket family, no asymmetric key type.
 */
#include <dirent.h>
#include <stdlib.h>
#include <sys/socket.h>
#include <sys/syscall.h>
#include <unistd.h>

#include "guest.h"
#include "procfs.h"

#define STATUS_DIR "/sys/kernel/fips140"

/* The first line of a file, without its newline; 0 if unreadable */
static int read_line(const char *path, char *v, size_t size)
{
	FILE *f = fopen(path, "r");
	int ok;

	v[0] = 0;
	if (!f) {
		ksft_print_msg("%s: %s\n", path, strerror(errno));
		return 0;
	}
	ok = fgets(v, size, f) != NULL;
	fclose(f);
	v[strcspn(v, "\n")] = 0;
	return ok;
}

static int dump_dir(const char *dir, const char *section)
{
	char path[512], v[256];
	struct dirent **names;
	int n, i, ok = 1;

	n = scandir(dir, &names, NULL, alphasort);
	if (n < 0) {
		ksft_print_msg("%s: %s\n", dir, strerror(errno));
		return 0;
	}
	ksft_print_msg("---- BEGIN %s ----\n", section);
	for (i = 0; i < n; i++) {
		/*
		 * The lists (approved, services): the test indicator's;
		 * modules: the test certset's
		 */
		if (names[i]->d_name[0] != '.' &&
		    strcmp(names[i]->d_name, "approved") &&
		    strcmp(names[i]->d_name, "services") &&
		    strcmp(names[i]->d_name, "modules")) {
			snprintf(path, sizeof(path), "%s/%s", dir,
				 names[i]->d_name);
			ok &= read_line(path, v, sizeof(v));
			ksft_print_msg("%s=%s\n", names[i]->d_name, v);
		}
		free(names[i]);
	}
	free(names);
	ksft_print_msg("---- END %s ----\n", section);
	return ok;
}

/* STATUS_DIR/NAME is WANT */
static int status_is(const char *name, const char *want)
{
	char path[256], v[256];

	snprintf(path, sizeof(path), STATUS_DIR "/%s", name);
	if (!read_line(path, v, sizeof(v)))
		return 0;
	if (!strcmp(v, want))
		return 1;
	ksft_print_msg("%s: \"%s\", expected \"%s\"\n", path, v, want);
	return 0;
}

/*
 * Without FIPS mode the boot self-tests run on in the background, as on
 * the stock kernel, and selftest is "pending" until the module has
 * counted them: wait for that, a minute at most (the time a test gets).
 */
static void wait_selftests(void)
{
	char v[64];
	int i;

	for (i = 0; i < 600; i++) {
		if (!read_line(STATUS_DIR "/selftest", v, sizeof(v)) ||
		    strcmp(v, "pending"))
			break;
		usleep(100000);
	}
	if (i)
		ksft_print_msg("selftest was pending for %d.%d s\n", i / 10, i % 10);
}

/* STATUS_DIR/NAME is LEN lowercase hex digits */
static int status_is_hex(const char *name, size_t len)
{
	char path[256], v[256];

	snprintf(path, sizeof(path), STATUS_DIR "/%s", name);
	if (!read_line(path, v, sizeof(v)))
		return 0;
	if (strlen(v) == len && strspn(v, "0123456789abcdef") == len)
		return 1;
	ksft_print_msg("%s: \"%s\" is not %zu hex digits\n", path, v, len);
	return 0;
}

static int status_count(const char *name, long *n)
{
	char path[256], v[64], *end;

	snprintf(path, sizeof(path), STATUS_DIR "/%s", name);
	if (!read_line(path, v, sizeof(v)))
		return 0;
	*n = strtol(v, &end, 10);
	if (v[0] && !*end)
		return 1;
	ksft_print_msg("%s: \"%s\" is not a number\n", path, v);
	return 0;
}

static void check_module_status(int fips)
{
	char version[64], release[65] = "", v[64];
	long passed = 0, failed = -1;
	int ok;

	ksft_test_result(dump_dir(STATUS_DIR, "sys-fips140"), "status-readable\n");
	ok = read_line(STATUS_DIR "/version", version, sizeof(version)) &&
	     version[0] && strcmp(version, "unknown");
	ksft_test_result(ok, "version\n");
	ksft_test_result(status_is_hex("build_id", 40), "build-id\n");
	ok = read_line(STATUS_DIR "/release", release, sizeof(release)) &&
	     release[0] >= '0' && release[0] <= '9';
	if (!ok)
		ksft_print_msg("release: \"%s\" is not a kernel release\n", release);
	ksft_test_result(ok, "release\n");
	ksft_test_result(status_is_hex("hmac_digest", 64), "hmac-digest\n");
	ksft_test_result(status_is("integrity", "passed"), "integrity-passed\n");
	/*
	 * In FIPS mode user space starts once they have passed: /init found
	 * them passed. Otherwise they may still run then, as on stock.
	 */
	ok = read_line("/tmp/selftest-at-init", v, sizeof(v)) &&
	     (!strcmp(v, "passed") || (!fips && !strcmp(v, "pending")));
	ksft_print_msg("selftest as /init started: %s\n", v);
	ksft_test_result(ok, "selftests-done-before-init\n");
	if (!fips)
		wait_selftests();
	ok = status_is("selftest", "passed") &&
	     status_count("selftests_passed", &passed) &&
	     status_count("selftests_failed", &failed);
	if (ok && (passed <= 0 || failed != 0)) {
		ksft_print_msg("%ld self-tests passed, %ld failed\n", passed, failed);
		ok = 0;
	}
	ksft_test_result(ok, "selftests-passed\n");
	ksft_test_result(status_is("fips_mode", fips ? "1" : "0"), "fips-mode\n");
}

#ifndef AF_ALG
#define AF_ALG 38
#endif
#define KEY_SPEC_PROCESS_KEYRING (-2)

/* A call that returned RET failed with errno WANT */
static void expect_errno(long ret, int want, const char *name)
{
	int err = errno;

	if (ret < 0 && err == want) {
		ksft_test_result(1, "%s\n", name);
		return;
	}
	if (ret < 0)
		ksft_print_msg("%s: %s, expected %s\n", name, strerror(err),
			       strerror(want));
	else
		ksft_print_msg("%s: succeeded, expected %s\n", name, strerror(want));
	ksft_test_result(0, "%s\n", name);
}

/* Whether /proc/modules lists MOD */
static int module_listed(const char *mod)
{
	char line[256];
	size_t n = strlen(mod);
	FILE *f = fopen("/proc/modules", "r");
	int found = 0;

	if (!f)
		return 0;
	while (fgets(line, sizeof(line), f))
		if (!strncmp(line, mod, n) && line[n] == ' ')
			found = 1;
	fclose(f);
	return found;
}

static int check_absent(void)
{
	static const char key[] = "not a key";
	char failure[256];
	int ok;

	ksft_print_header();
	ksft_set_plan(7);
	ksft_test_result(dump_dir(STATUS_DIR, "sys-fips140"), "status-readable\n");
	ok = read_line(STATUS_DIR "/failure", failure, sizeof(failure)) &&
	     failure[0] && strcmp(failure, "none");
	ksft_print_msg("failure: %s\n", failure);
	ksft_test_result(ok, "failure-reported\n");
	ksft_test_result(!module_listed("fips140"), "not-in-proc-modules\n");
	expect_errno(access("/proc/crypto", F_OK), ENOENT, "no-proc-crypto");
	expect_errno(access("/proc/sys/crypto", F_OK), ENOENT,
		     "no-proc-sys-crypto");
	expect_errno(socket(AF_ALG, SOCK_SEQPACKET, 0), EAFNOSUPPORT,
		     "no-af-alg");
	expect_errno(syscall(SYS_add_key, "asymmetric", "fips140-absent",
			     key, sizeof(key), KEY_SPEC_PROCESS_KEYRING),
		     ENODEV, "no-asymmetric-key-type");
	ksft_finished();
}

int main(void)
{
	char crypto[32], fips_arg[8];
	int fips, dir_exists;

	cmdline_value("harness.crypto=", crypto, sizeof(crypto));
	cmdline_value("fips=", fips_arg, sizeof(fips_arg));
	fips = atoi(fips_arg) != 0;
	if (!strcmp(crypto, "absent"))
		return check_absent();
	dir_exists = access(STATUS_DIR, F_OK) == 0;

	ksft_print_header();
	ksft_set_plan(strcmp(crypto, "fips140") ? 3 : 12);
	ksft_test_result(dump_dir("/proc/sys/crypto", "proc-sys-crypto"), "proc-sys-crypto-readable\n");
	if (fips_enabled() != fips)
		ksft_print_msg("fips_enabled is %d, the command line says fips=%s\n",
			       fips_enabled(), fips_arg);
	ksft_test_result(fips_enabled() == fips, "fips-enabled-matches-cmdline\n");

	if (!strcmp(crypto, "fips140")) {
		ksft_test_result(dir_exists, "status-dir-exists\n");
		if (dir_exists)
			check_module_status(fips);
		else
			ksft_print_msg(STATUS_DIR " is missing\n");
	} else {
		if (dir_exists)
			ksft_print_msg(STATUS_DIR " exists, harness.crypto=%s\n",
				       crypto);
		ksft_test_result(!dir_exists, "no-status-dir\n");
	}
	ksft_finished();
}
