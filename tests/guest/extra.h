/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The out-of-tree test modules of tests/ro-probe, which
 * scripts/ro-probe.sh builds against the kernel under test and the host
 * puts in /extra (scripts/initramfs.sh NAME EXTRA-DIR).
 */
#ifndef EXTRA_H
#define EXTRA_H

#include <errno.h>
#include <fcntl.h>
#include <sys/klog.h>
#include <sys/syscall.h>
#include <unistd.h>

#include "guest.h"

/* finit_module() of PATH: 0 once loaded, or the errno */
static inline int load_module_file(const char *path)
{
	int fd, err;

	fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0) {
		err = errno;
		ksft_print_msg("%s: %s\n", path, strerror(err));
		return err;
	}
	err = syscall(SYS_finit_module, fd, "", 0) ? errno : 0;
	close(fd);
	ksft_print_msg("finit_module(%s): %s\n", path,
		       err ? strerror(err) : "loaded");
	return err;
}

/* finit_module() of /extra/NAME.ko (scripts/ro-probe.sh puts it there) */
static inline int load_extra_module(const char *name)
{
	char path[128];

	snprintf(path, sizeof(path), "/extra/%s.ko", name);
	return load_module_file(path);
}

#define KLOG_SIZE (1 << 20)

/* Whether the kernel log has WHAT; if not, says so */
static inline int klog_has(const char *what)
{
	static char klog[KLOG_SIZE + 1];
	int n = klogctl(3 /* SYSLOG_ACTION_READ_ALL */, klog, KLOG_SIZE);

	if (n < 0) {
		ksft_print_msg("klogctl: %s\n", strerror(errno));
		return 0;
	}
	klog[n] = 0;
	if (strstr(klog, what))
		return 1;
	ksft_print_msg("not in the kernel log: \"%s\"\n", what);
	return 0;
}

#endif /* EXTRA_H */
