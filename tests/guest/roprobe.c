// SPDX-License-Identifier: GPL-2.0
/*
 * The placeholders through which vmlinux reaches fips140.ko are
 * read-only after boot. Run on demand (tests=roprobe) in a boot of its
 * own: it oopses the kernel on purpose.
 *
 * /extra/ro-targets (made by the host from System.map) names one
 * function placeholder and one variable placeholder, "KIND SYMBOL ADDR"
 * a line. /extra/fips140_ro_probe.ko (tests/ro-probe) peeks and pokes
 * kernel addresses through /proc/fips140-ro-probe. For each target: the
 * placeholder is set (not 0), a poke kills the writer with an oops that is
 * a write fault on a present page at that address in the probe module,
 * and a second peek finds the value unchanged. Besides these, the kernel
 * log must hold no other oops, BUG or WARNING.
 */
#define _GNU_SOURCE
#include <fcntl.h>
#include <signal.h>
#include <stdlib.h>
#include <sys/klog.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <unistd.h>

#include "ktap.h"

#define PROBE "/proc/fips140-ro-probe"
#define LOG_SIZE (1 << 20)

static char klog[LOG_SIZE + 1];

static int load_probe(void)
{
	int fd = open("/extra/fips140_ro_probe.ko", O_RDONLY | O_CLOEXEC);
	int ret;

	if (fd < 0) {
		ktap_print("/extra/fips140_ro_probe.ko: %s", strerror(errno));
		return 0;
	}
	ret = syscall(SYS_finit_module, fd, "", 0);
	if (ret)
		ktap_print("finit_module(fips140_ro_probe.ko): %s",
			   strerror(errno));
	close(fd);
	return ret == 0;
}

static int probe_cmd(const char *cmd, unsigned long addr)
{
	char buf[64];
	int fd = open(PROBE, O_WRONLY | O_CLOEXEC), n, ok;

	if (fd < 0) {
		ktap_print(PROBE ": %s", strerror(errno));
		return 0;
	}
	n = snprintf(buf, sizeof(buf), "%s 0x%lx", cmd, addr);
	ok = write(fd, buf, n) == n;
	if (!ok)
		ktap_print("%s 0x%lx: %s", cmd, addr, strerror(errno));
	close(fd);
	return ok;
}

static int peek(unsigned long addr, unsigned long *value)
{
	char buf[32];
	int fd, n;

	if (!probe_cmd("peek", addr))
		return 0;
	fd = open(PROBE, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return 0;
	n = read(fd, buf, sizeof(buf) - 1);
	close(fd);
	if (n <= 0)
		return 0;
	buf[n] = 0;
	*value = strtoul(buf, NULL, 16);
	return 1;
}

/* Poke in a child, which the fault must kill */
static int poke_killed(unsigned long addr)
{
	int status;
	pid_t pid = fork();

	if (pid < 0)
		return 0;
	if (!pid) {
		probe_cmd("poke", addr);
		_exit(0);
	}
	if (waitpid(pid, &status, 0) != pid)
		return 0;
	if (WIFSIGNALED(status))
		return 1;
	ktap_print("poke 0x%lx: the writer exited (status %d), not killed",
		   addr, WEXITSTATUS(status));
	return 0;
}

static int read_klog(void)
{
	int n = klogctl(3 /* SYSLOG_ACTION_READ_ALL */, klog, LOG_SIZE);

	if (n < 0) {
		ktap_print("klogctl: %s", strerror(errno));
		return 0;
	}
	klog[n] = 0;
	return 1;
}

static int count(const char *text, const char *what)
{
	int n = 0;

	for (; (text = strstr(text, what)); text += strlen(what))
		n++;
	return n;
}

/* The oops after "poke ADDR" is a write fault at ADDR in the probe */
static int oops_is_write_fault(unsigned long addr)
{
	char mark[64], want[80];
	const char *oops;

	if (!read_klog())
		return 0;
	snprintf(mark, sizeof(mark), "fips140_ro_probe: poke %lx", addr);
	oops = strstr(klog, mark);
	if (!oops) {
		ktap_print("no \"%s\" in the kernel log", mark);
		return 0;
	}
	snprintf(want, sizeof(want),
		 "BUG: unable to handle page fault for address: %016lx", addr);
	if (!strstr(oops, want) ||
	    !strstr(oops, "#PF: supervisor write access in kernel mode") ||
	    !strstr(oops, "permissions violation") ||
	    !strstr(oops, "[fips140_ro_probe]")) {
		ktap_print("the oops after \"%s\" is not a write fault on a present page at %lx in fips140_ro_probe",
			   mark, addr);
		return 0;
	}
	return 1;
}

static void check_target(const char *kind, const char *sym,
			 unsigned long addr)
{
	unsigned long before = 0, after = 0;
	char name[64];
	int ok;

	ktap_print("%s placeholder %s at 0x%lx", kind, sym, addr);
	ok = peek(addr, &before) && before;
	if (ok)
		ktap_print("%s = 0x%lx", sym, before);
	else
		ktap_print("%s is not set", sym);
	snprintf(name, sizeof(name), "%s-placeholder-set", kind);
	ktap_result(ok, name);

	ok = poke_killed(addr) && oops_is_write_fault(addr);
	snprintf(name, sizeof(name), "%s-write-faults", kind);
	ktap_result(ok, name);

	ok = peek(addr, &after) && after == before;
	if (!ok)
		ktap_print("%s: 0x%lx before the write, 0x%lx after", sym,
			   before, after);
	snprintf(name, sizeof(name), "%s-value-kept", kind);
	ktap_result(ok, name);
}

int main(void)
{
	char kind[16], sym[128];
	unsigned long addr;
	int targets = 0, ok;
	FILE *f;

	ktap_plan(8);
	f = fopen("/extra/ro-targets", "r");
	if (!f)
		ktap_print("/extra/ro-targets: %s", strerror(errno));
	ktap_result(f && load_probe(), "probe-loaded");
	while (f && fscanf(f, "%15s %127s %lx", kind, sym, &addr) == 3) {
		check_target(kind, sym, addr);
		targets++;
	}
	if (f)
		fclose(f);
	if (targets != 2)
		ktap_print("%d targets in /extra/ro-targets, expected 2",
			   targets);

	ok = targets == 2 && read_klog() &&
	     count(klog, "BUG: unable to handle page fault") == 2 &&
	     count(klog, "---[ end trace") == 2 && !count(klog, "WARNING:") &&
	     !count(klog, "kernel BUG at");
	if (!ok)
		ktap_print("the kernel log has other failures than the two expected oopses");
	ktap_result(ok, "no-other-failures");
	return ktap_finish();
}
