// SPDX-License-Identifier: GPL-2.0
/*
 * The other way to reach a function of namespace EMBEDDED_MODULE: look it
 * up at run time with symbol_get(), which no link-time check sees. The
 * module loads; the lookup must fail, and then the module reports nothing.
 * Its init says which happened, for the guest test forge.
 */

#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/fips140.h>
#include <linux/module.h>

static int __init forge_get_init(void)
{
	void (*report)(const char *reason) = symbol_get(fips140_report_failure);

	if (!report) {
		pr_info("symbol_get(fips140_report_failure) refused\n");
		return 0;
	}
	pr_err("symbol_get(fips140_report_failure) granted: reporting a forged status\n");
	report("forged by fips140_forge_get");
	symbol_put(fips140_report_failure);
	return 0;
}
module_init(forge_get_init);

MODULE_DESCRIPTION("Forges the status of fips140 at run time (must fail)");
MODULE_LICENSE("GPL");
