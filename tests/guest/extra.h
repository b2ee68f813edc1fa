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
#include <sys/syscall.h>
#include <unistd.h>

#include "guest.h"

/* finit_module() of /extra/NAME.ko: 0 once loaded, or the errno */
static inline int load_extra_module(const char *name)
{
	char path[128];
	int fd, err;

	snprintf(path, sizeof(path), "/extra/%s.ko", name);
	fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0) {
		err = errno;
		ksft_print_msg("%s: %s (scripts/ro-probe.sh puts it there)\n",
			       path, strerror(err));
		return err;
	}
	err = syscall(SYS_finit_module, fd, "", 0) ? errno : 0;
	close(fd);
	ksft_print_msg("finit_module(%s): %s\n", path,
		       err ? strerror(err) : "loaded");
	return err;
}

#endif /* EXTRA_H */
