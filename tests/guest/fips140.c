// SPDX-License-Identifier: GPL-2.0
/*
 * The state of the crypto module and of FIPS mode.
 *
 * /proc/sys/crypto/fips_enabled is 1 exactly when the kernel command line
 * has fips=1; /proc/sys/crypto is dumped (section proc-sys-crypto) for the
 * host to compare with the stock kernel's.
 *
 * harness.crypto=fips140: /sys/kernel/fips140/ says the integrity check
 * and the self-tests passed (at least one test, none failed), with a
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

#include "ktap.h"
#include "procfs.h"

#define STATUS_DIR "/sys/kernel/fips140"

/* The first line of a file, without its newline; 0 if unreadable */
static int read_line(const char *path, char *v, size_t size)
{
	FILE *f = fopen(path, "r");
	int ok;

	v[0] = 0;
	if (!f) {
		ktap_print("%s: %s", path, strerror(errno));
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
		ktap_print("%s: %s", dir, strerror(errno));
		return 0;
	}
	ktap_print("---- BEGIN %s ----", section);
	for (i = 0; i < n; i++) {
		if (names[i]->d_name[0] != '.') {
			snprintf(path, sizeof(path), "%s/%s", dir,
				 names[i]->d_name);
			ok &= read_line(path, v, sizeof(v));
			ktap_print("%s=%s", names[i]->d_name, v);
		}
		free(names[i]);
	}
	free(names);
	ktap_print("---- END %s ----", section);
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
	ktap_print("%s: \"%s\", expected \"%s\"", path, v, want);
	return 0;
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
	ktap_print("%s: \"%s\" is not %zu hex digits", path, v, len);
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
	ktap_print("%s: \"%s\" is not a number", path, v);
	return 0;
}

static void check_module_status(int fips)
{
	char version[64];
	long passed = 0, failed = -1;
	int ok;

	ktap_result(dump_dir(STATUS_DIR, "sys-fips140"), "status-readable");
	ok = read_line(STATUS_DIR "/version", version, sizeof(version)) &&
	     version[0] && strcmp(version, "unknown");
	ktap_result(ok, "version");
	ktap_result(status_is_hex("build_id", 40), "build-id");
	ktap_result(status_is_hex("hmac_digest", 64), "hmac-digest");
	ktap_result(status_is("integrity", "passed"), "integrity-passed");
	ok = status_is("selftest", "passed") &&
	     status_count("selftests_passed", &passed) &&
	     status_count("selftests_failed", &failed);
	if (ok && (passed <= 0 || failed != 0)) {
		ktap_print("%ld self-tests passed, %ld failed", passed, failed);
		ok = 0;
	}
	ktap_result(ok, "selftests-passed");
	ktap_result(status_is("fips_mode", fips ? "1" : "0"), "fips-mode");
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
		ktap_result(1, name);
		return;
	}
	if (ret < 0)
		ktap_print("%s: %s, expected %s", name, strerror(err),
			   strerror(want));
	else
		ktap_print("%s: succeeded, expected %s", name, strerror(want));
	ktap_result(0, name);
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

	ktap_plan(7);
	ktap_result(dump_dir(STATUS_DIR, "sys-fips140"), "status-readable");
	ok = read_line(STATUS_DIR "/failure", failure, sizeof(failure)) &&
	     failure[0] && strcmp(failure, "none");
	ktap_print("failure: %s", failure);
	ktap_result(ok, "failure-reported");
	ktap_result(!module_listed("fips140"), "not-in-proc-modules");
	expect_errno(access("/proc/crypto", F_OK), ENOENT, "no-proc-crypto");
	expect_errno(access("/proc/sys/crypto", F_OK), ENOENT,
		     "no-proc-sys-crypto");
	expect_errno(socket(AF_ALG, SOCK_SEQPACKET, 0), EAFNOSUPPORT,
		     "no-af-alg");
	expect_errno(syscall(SYS_add_key, "asymmetric", "fips140-absent",
			     key, sizeof(key), KEY_SPEC_PROCESS_KEYRING),
		     ENODEV, "no-asymmetric-key-type");
	return ktap_finish();
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

	ktap_plan(strcmp(crypto, "fips140") ? 3 : 10);
	ktap_result(dump_dir("/proc/sys/crypto", "proc-sys-crypto"),
		    "proc-sys-crypto-readable");
	if (fips_enabled() != fips)
		ktap_print("fips_enabled is %d, the command line says fips=%s",
			   fips_enabled(), fips_arg);
	ktap_result(fips_enabled() == fips, "fips-enabled-matches-cmdline");

	if (!strcmp(crypto, "fips140")) {
		ktap_result(dir_exists, "status-dir-exists");
		if (dir_exists)
			check_module_status(fips);
		else
			ktap_print(STATUS_DIR " is missing");
	} else {
		if (dir_exists)
			ktap_print(STATUS_DIR " exists, harness.crypto=%s",
				   crypto);
		ktap_result(!dir_exists, "no-status-dir");
	}
	return ktap_finish();
}
