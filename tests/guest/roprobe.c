// SPDX-License-Identifier: GPL-2.0
/*
 * The placeholders through which vmlinux reaches fips140.ko are
 * read-only after boot. Run on demand (tests=roprobe) in a boot of its
 * own: it oopses the kernel on purpose.
 *
 * /extra/ro-targets (made by the host from System.map) names one
 * trampoline and one variable placeholder, "KIND SYMBOL ADDR" a line.
 * /extra/fips140_ro_probe.ko (tests/ro-probe) peeks and pokes kernel
 * addresses through /proc/fips140-ro-probe. For each target: the
 * placeholder is set (the variable's pointer not 0; the trampoline's
 * jump lands in fips140.ko, whose place /proc/modules gives: on x86_64
 * a jmp rel32, after its ENDBR64 with IBT; on arm64 a b, after its "bti
 * c" with BTI, or a NOP and the pointer after it when the module is out
 * of a branch's reach), a poke kills the writer with an oops that is a
 * write fault on a read-only page at that address in the probe module,
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

#include "extra.h"
#include "guest.h"

#define PROBE "/proc/fips140-ro-probe"
#define LOG_SIZE (1 << 20)

static char klog[LOG_SIZE + 1];

static int probe_cmd(const char *cmd, unsigned long addr)
{
	char buf[64];
	int fd = open(PROBE, O_WRONLY | O_CLOEXEC), n, ok;

	if (fd < 0) {
		ksft_print_msg(PROBE ": %s\n", strerror(errno));
		return 0;
	}
	n = snprintf(buf, sizeof(buf), "%s 0x%lx", cmd, addr);
	ok = write(fd, buf, n) == n;
	if (!ok)
		ksft_print_msg("%s 0x%lx: %s\n", cmd, addr, strerror(errno));
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
	ksft_print_msg("poke 0x%lx: the writer exited (status %d), not killed\n",
		       addr, WEXITSTATUS(status));
	return 0;
}

static int read_klog(void)
{
	int n = klogctl(3 /* SYSLOG_ACTION_READ_ALL */, klog, LOG_SIZE);

	if (n < 0) {
		ksft_print_msg("klogctl: %s\n", strerror(errno));
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

/* Where fips140.ko is, from /proc/modules: "fips140 SIZE ... ADDR" */
static int module_range(unsigned long *start, unsigned long *size)
{
	char line[256], name[64];
	int found = 0;
	FILE *f = fopen("/proc/modules", "r");

	if (!f)
		return 0;
	while (!found && fgets(line, sizeof(line), f))
		found = sscanf(line, "%63s %lu %*s %*s %*s %lx", name, size,
			       start) == 3 && !strcmp(name, "fips140");
	fclose(f);
	if (!found || !*start)
		ksft_print_msg("/proc/modules gives no address of fips140\n");
	return found && *start;
}

static int in_module(unsigned long dest)
{
	unsigned long start, size;

	if (!module_range(&start, &size))
		return 0;
	ksft_print_msg("it goes to 0x%lx; fips140 at 0x%lx, %lu bytes\n",
		       dest, start, size);
	return dest >= start && dest < start + size;
}

#if defined(__x86_64__)
#define ENDBR64 0xfa1e0ff3UL	/* f3 0f 1e fa, little-endian */
#define JMP32 0xe9

/*
 * The trampoline at *addr: move *addr past its ENDBR64, if any, to its
 * jump, and check that the jump is a jmp rel32 into fips140.ko
 */
static int jumps_into_module(unsigned long *addr, unsigned long *insn)
{
	if ((*insn & 0xffffffffUL) == ENDBR64) {
		*addr += 4;
		if (!peek(*addr, insn))
			return 0;
	}
	if ((*insn & 0xff) != JMP32) {
		ksft_print_msg("0x%lx: %016lx is not a jmp rel32\n", *addr, *insn);
		return 0;
	}
	ksft_print_msg("0x%lx: jmp rel32\n", *addr);
	return in_module(*addr + 5 + (long)(int)(*insn >> 8));
}

/* How the oops of a write to a read-only page begins, and what it says */
#define WRITE_FAULT "BUG: unable to handle page fault for address: "
static const char *const write_fault_lines[] = {
	"#PF: supervisor write access in kernel mode",
	"permissions violation",
};
#elif defined(__aarch64__)
#define BTI_C 0xd503245fU
#define NOP 0xd503201fU
#define B_MASK 0xfc000000U
#define B_OP 0x14000000U
/* From the branch to the pointer: FIPS140_FN_PTR_OFFSET, asm/fips140.h */
#define FN_PTR_OFFSET 12

/*
 * The trampoline at *addr: move *addr past its "bti c", if any, to its
 * branch, and check that the branch is a "b" into fips140.ko, or a NOP
 * followed by the jump through a pointer into it (when the module is out
 * of a branch's reach)
 */
static int jumps_into_module(unsigned long *addr, unsigned long *insn)
{
	unsigned long ptr;
	unsigned int b;

	if ((unsigned int)*insn == BTI_C) {
		*addr += 4;
		if (!peek(*addr, insn))
			return 0;
	}
	b = (unsigned int)*insn;
	if ((b & B_MASK) == B_OP) {
		ksft_print_msg("0x%lx: b (%08x)\n", *addr, b);
		/* imm26, in instructions, sign-extended */
		return in_module(*addr + ((long)((int)(b << 6) >> 6) << 2));
	}
	if (b != NOP) {
		ksft_print_msg("0x%lx: %08x is neither a b nor a nop\n", *addr, b);
		return 0;
	}
	if (!peek(*addr + FN_PTR_OFFSET, &ptr))
		return 0;
	ksft_print_msg("0x%lx: nop, then through the pointer at +%d\n", *addr,
		       FN_PTR_OFFSET);
	return in_module(ptr);
}

#define WRITE_FAULT "Unable to handle kernel write to read-only memory at virtual address "
static const char *const write_fault_lines[] = {
	"Internal error: Oops:",
};
#else
#error "roprobe: x86_64 or arm64"
#endif

/* The oops after "poke ADDR" is a write fault at ADDR in the probe */
static int oops_is_write_fault(unsigned long addr)
{
	char mark[64], want[128];
	const char *oops;
	unsigned int i;
	int ok;

	if (!read_klog())
		return 0;
	snprintf(mark, sizeof(mark), "fips140_ro_probe: poke %lx", addr);
	oops = strstr(klog, mark);
	if (!oops) {
		ksft_print_msg("no \"%s\" in the kernel log\n", mark);
		return 0;
	}
	snprintf(want, sizeof(want), WRITE_FAULT "%016lx", addr);
	ok = strstr(oops, want) && strstr(oops, "[fips140_ro_probe]");
	for (i = 0; ok && i < ARRAY_SIZE(write_fault_lines); i++)
		ok = !!strstr(oops, write_fault_lines[i]);
	if (!ok)
		ksft_print_msg("the oops after \"%s\" is not a write fault on a read-only page at %lx in fips140_ro_probe\n",
			       mark, addr);
	return ok;
}

static void check_target(const char *kind, const char *sym,
			 unsigned long addr)
{
	unsigned long before = 0, after = 0;
	char name[64];
	int ok;

	ksft_print_msg("%s placeholder %s at 0x%lx\n", kind, sym, addr);
	ok = peek(addr, &before) && before;
	if (ok && !strcmp(kind, "fn"))
		ok = jumps_into_module(&addr, &before);
	if (ok)
		ksft_print_msg("%s = 0x%lx\n", sym, before);
	else
		ksft_print_msg("%s is not set\n", sym);
	snprintf(name, sizeof(name), "%s-placeholder-set", kind);
	ksft_test_result(ok, "%s\n", name);

	ok = poke_killed(addr) && oops_is_write_fault(addr);
	snprintf(name, sizeof(name), "%s-write-faults", kind);
	ksft_test_result(ok, "%s\n", name);

	ok = peek(addr, &after) && after == before;
	if (!ok)
		ksft_print_msg("%s: 0x%lx before the write, 0x%lx after\n", sym,
			       before, after);
	snprintf(name, sizeof(name), "%s-value-kept", kind);
	ksft_test_result(ok, "%s\n", name);
}

int main(void)
{
	char kind[16], sym[128];
	unsigned long addr;
	int targets = 0, ok;
	FILE *f;

	ksft_print_header();
	ksft_set_plan(8);
	f = fopen("/extra/ro-targets", "r");
	if (!f)
		ksft_print_msg("/extra/ro-targets: %s\n", strerror(errno));
	ksft_test_result(f && load_extra_module("fips140_ro_probe") == 0, "probe-loaded\n");
	while (f && fscanf(f, "%15s %127s %lx", kind, sym, &addr) == 3) {
		check_target(kind, sym, addr);
		targets++;
	}
	if (f)
		fclose(f);
	if (targets != 2)
		ksft_print_msg("%d targets in /extra/ro-targets, expected 2\n",
			       targets);

	ok = targets == 2 && read_klog() &&
	     count(klog, WRITE_FAULT) == 2 &&
	     count(klog, "---[ end trace") == 2 && !count(klog, "WARNING:") &&
	     !count(klog, "kernel BUG at");
	if (!ok)
		ksft_print_msg("the kernel log has other failures than the two expected oopses\n");
	ksft_test_result(ok, "no-other-failures\n");
	ksft_finished();
}
