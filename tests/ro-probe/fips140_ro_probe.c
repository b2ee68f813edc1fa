// SPDX-License-Identifier: GPL-2.0
/*
 * A probe of the placeholders through which vmlinux reaches fips140.ko
 * (the jump of a trampoline __wrap_<sym>, __crypto_<var>_ptr): they must
 * be read-only once the kernel has booted. Built out of tree against the fips140
 * kernel, loaded by the guest test roprobe.
 *
 * Writing "peek ADDR" to /proc/fips140-ro-probe reads the 8 bytes at
 * kernel address ADDR, which a read of the file then returns in hex.
 * Writing "poke ADDR" writes a pattern to ADDR: on a placeholder, the
 * write must fault, killing the writer with an oops in this module.
 */

#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/kernel.h>
#include <linux/kstrtox.h>
#include <linux/mm.h>
#include <linux/module.h>
#include <linux/proc_fs.h>
#include <linux/string.h>
#include <linux/uaccess.h>

#define POKE_PATTERN 0x5afe5afe5afe5afeUL

static unsigned long peeked;

static int parse_addr(const char *arg, unsigned long *addr)
{
	if (kstrtoul(arg, 0, addr))
		return -EINVAL;
	/* A kernel address, where the placeholders are (a jump: unaligned) */
	if (*addr < PAGE_OFFSET)
		return -EINVAL;
	return 0;
}

static noinline void poke(unsigned long addr)
{
	pr_info("poke %lx\n", addr);
	WRITE_ONCE(*(unsigned long *)addr, POKE_PATTERN);
	pr_err("poke %lx: the write did not fault\n", addr);
}

static ssize_t probe_write(struct file *file, const char __user *ubuf,
			   size_t len, loff_t *off)
{
	unsigned long addr;
	char buf[64];
	int err;

	if (len >= sizeof(buf))
		return -EINVAL;
	if (copy_from_user(buf, ubuf, len))
		return -EFAULT;
	buf[len] = '\0';
	strim(buf);

	if (!strncmp(buf, "peek ", 5)) {
		err = parse_addr(buf + 5, &addr);
		if (err)
			return err;
		if (get_kernel_nofault(peeked, (unsigned long *)addr))
			return -EFAULT;
		pr_info("peek %lx: %lx\n", addr, peeked);
	} else if (!strncmp(buf, "poke ", 5)) {
		err = parse_addr(buf + 5, &addr);
		if (err)
			return err;
		poke(addr);
	} else {
		return -EINVAL;
	}
	return len;
}

static ssize_t probe_read(struct file *file, char __user *ubuf, size_t len,
			  loff_t *off)
{
	char buf[32];
	int n = scnprintf(buf, sizeof(buf), "%016lx\n", peeked);

	return simple_read_from_buffer(ubuf, len, off, buf, n);
}

static const struct proc_ops probe_ops = {
	.proc_read = probe_read,
	.proc_write = probe_write,
};

static struct proc_dir_entry *entry;

static int __init probe_init(void)
{
	entry = proc_create("fips140-ro-probe", 0600, NULL, &probe_ops);
	return entry ? 0 : -ENOMEM;
}
module_init(probe_init);

static void __exit probe_exit(void)
{
	proc_remove(entry);
}
module_exit(probe_exit);

MODULE_DESCRIPTION("Probe of the read-only placeholders of fips140");
MODULE_LICENSE("GPL");
