// SPDX-License-Identifier: GPL-2.0
/*
 * A client of fips140_is_approved_service(), the in-kernel side of the
 * approved-service indicator of fips140.ko. Writing a name to
 * /proc/fips140-service asks the module about it; reading the file then
 * gives the answer, "1" (approved) or "0". Loaded by the guest test
 * service.
 */

#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/fips140.h>
#include <linux/module.h>
#include <linux/proc_fs.h>
#include <linux/string.h>
#include <linux/uaccess.h>

static bool answer;

static ssize_t service_write(struct file *file, const char __user *ubuf,
			     size_t len, loff_t *off)
{
	char name[128];

	if (len >= sizeof(name))
		return -EINVAL;
	if (copy_from_user(name, ubuf, len))
		return -EFAULT;
	name[len] = '\0';
	answer = fips140_is_approved_service(strim(name));
	return len;
}

static ssize_t service_read(struct file *file, char __user *ubuf, size_t len,
			    loff_t *off)
{
	char buf[4];
	int n = scnprintf(buf, sizeof(buf), "%d\n", answer);

	return simple_read_from_buffer(ubuf, len, off, buf, n);
}

static const struct proc_ops service_ops = {
	.proc_read = service_read,
	.proc_write = service_write,
};

static struct proc_dir_entry *entry;

static int __init service_init(void)
{
	entry = proc_create("fips140-service", 0600, NULL, &service_ops);
	return entry ? 0 : -ENOMEM;
}
module_init(service_init);

static void __exit service_exit(void)
{
	proc_remove(entry);
}
module_exit(service_exit);

MODULE_DESCRIPTION("Asks fips140.ko whether algorithms are approved services");
MODULE_LICENSE("GPL");
