// SPDX-License-Identifier: GPL-2.0
/*
 * A module that tries to report a status in the crypto module's name:
 * it links against fips140_report_failure() and
 * fips140_report_selftests(), which vmlinux exports to namespace
 * EMBEDDED_MODULE, and imports that namespace. The kernel must refuse to
 * load it (EPERM): only the module embedded in vmlinux may use that
 * namespace. Loaded by the guest test forge, which checks that
 * /sys/kernel/fips140/ still shows what the crypto module reported.
 */

#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/fips140.h>
#include <linux/module.h>

static int __init forge_init(void)
{
	pr_err("loaded: reporting a forged status\n");
	fips140_report_failure("forged by fips140_forge");
	fips140_report_selftests(0, 1);
	return 0;
}
module_init(forge_init);

MODULE_IMPORT_NS(EMBEDDED_MODULE);
MODULE_DESCRIPTION("Forges the status of fips140 (must be refused)");
MODULE_LICENSE("GPL");
