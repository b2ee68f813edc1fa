// SPDX-License-Identifier: GPL-2.0
/*
 * Benchmarks for scripts/bench.sh (not a correctness test): user space
 * through AF_ALG, and, where the kernel has it
 * (CONFIG_CRYPTO_FIPS140_CALL_BENCH), the cost of a call from vmlinux
 * through a trampoline. Each figure is a line
 *   # bench NAME VALUE UNIT
 * and a KTAP result that says it was measured.
 *
 * First it waits for the CPU to be idle (settle, which it reports). Memory
 * after boot: MemTotal, MemAvailable, the size of fips140 in
 * /proc/modules.
 *
 * AF_ALG: sha256 (one digest per request) and gcm(aes) encryption of
 * 64 B, 4 KiB and 1 MiB requests, as many as fit in BENCH_SECONDS of
 * guest time each; MB/s is 10^6 bytes of request per second.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mount.h>
#include <sys/socket.h>
#include <time.h>
#include <unistd.h>

#include "guest.h"
#include "alg.h"

#define BENCH_SECONDS 0.5
#define MAX_REQUEST (1 << 20)

static const size_t sizes[] = { 64, 4096, MAX_REQUEST };
static unsigned char in[MAX_REQUEST], out[MAX_REQUEST + 16];

static double now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec + ts.tv_nsec / 1e9;
}

/* One request of len bytes on op socket op; 0 or -errno */
typedef int (*request_fn)(int op, size_t len);

static int hash_request(int op, size_t len)
{
	if (send(op, in, len, 0) != (ssize_t)len)
		return -errno;
	return alg_read(op, "sha256", out, 32);
}

static const unsigned char iv[12];

static int gcm_request(int op, size_t len)
{
	return alg_cipher(op, "gcm(aes)", 1, iv, sizeof(iv), 0, in, len, out,
			  len + 16);
}

/* Throughput of requests of each size; prints one figure per size */
static void bench(const char *type, const char *name, const char *label,
		  const void *key, size_t keylen, request_fn request)
{
	int sockbuf = 4 << 20;
	size_t i;

	for (i = 0; i < sizeof(sizes) / sizeof(sizes[0]); i++) {
		int tfm = alg_bind(type, name, key, keylen), op = -1, err = 0;
		double start, elapsed = 0;
		unsigned long n = 0;
		char what[64];

		snprintf(what, sizeof(what), "af_alg/%s/%zu", label, sizes[i]);
		if (tfm >= 0)
			op = alg_accept(tfm, name);
		if (op >= 0) {
			setsockopt(op, SOL_SOCKET, SO_SNDBUF, &sockbuf,
				   sizeof(sockbuf));
			setsockopt(op, SOL_SOCKET, SO_RCVBUF, &sockbuf,
				   sizeof(sockbuf));
		}
		if (op >= 0) {
			start = now();
			do {
				err = request(op, sizes[i]);
				n++;
				elapsed = now() - start;
			} while (!err && elapsed < BENCH_SECONDS);
		}
		if (op >= 0 && !err)
			ksft_print_msg("bench %s %.3f MB/s\n", what,
				       n * sizes[i] / elapsed / 1e6);
		else
			ksft_print_msg("%s: request failed: %s\n", what,
				       strerror(-err));
		ksft_test_result(op >= 0 && !err, "%s\n", what);
		if (op >= 0)
			close(op);
		if (tfm >= 0)
			close(tfm);
	}
}

/* Idle and total jiffies of all CPUs, from /proc/stat */
static void cpu_times(unsigned long long *idle, unsigned long long *total)
{
	unsigned long long v[8] = { 0 };
	FILE *f = fopen("/proc/stat", "r");
	int i;

	*idle = *total = 0;
	if (!f)
		return;
	if (fscanf(f, "cpu %llu %llu %llu %llu %llu %llu %llu %llu", &v[0],
		   &v[1], &v[2], &v[3], &v[4], &v[5], &v[6], &v[7]) == 8) {
		for (i = 0; i < 8; i++)
			*total += v[i];
		*idle = v[3] + v[4];
	}
	fclose(f);
}

/*
 * Wait until the CPU is idle: the self-tests the stock kernel runs in the
 * background after /init would otherwise share the CPU with the first
 * measurements (fips140.ko waits for its own before /init). Reports how
 * long that took.
 */
static void settle(void)
{
	unsigned long long idle0, total0, idle1, total1;
	double start = now(), busy = 1;

	while (now() - start < 60) {
		cpu_times(&idle0, &total0);
		usleep(250000);
		cpu_times(&idle1, &total1);
		busy = total1 > total0 ?
		       1 - (double)(idle1 - idle0) / (total1 - total0) : 1;
		if (busy < 0.1)
			break;
	}
	ksft_print_msg("bench settle/busy-after-init %.3f s\n", now() - start);
	ksft_test_result(busy < 0.1, "settle\n");
}

/* MemTotal and MemAvailable, and the size of fips140 in /proc/modules */
static void memory(void)
{
	char line[256], name[64];
	unsigned long kb;
	int found = 0;
	FILE *f = fopen("/proc/meminfo", "r");

	while (f && fgets(line, sizeof(line), f))
		if (sscanf(line, "%63[^:]: %lu kB", name, &kb) == 2 &&
		    (!strcmp(name, "MemTotal") || !strcmp(name, "MemAvailable"))) {
			ksft_print_msg("bench mem/%s %lu kB\n", name, kb);
			found++;
		}
	if (f)
		fclose(f);
	f = fopen("/proc/modules", "r");
	while (f && fgets(line, sizeof(line), f))
		if (sscanf(line, "fips140 %lu", &kb) == 1)
			ksft_print_msg("bench mem/fips140-module %lu B\n", kb);
	if (f)
		fclose(f);
	ksft_test_result(found == 2, "memory\n");
}

/* The trampoline benchmark of the fips140 kernel, if it has one */
static void call_bench(void)
{
	unsigned long calls, tramp, direct;
	FILE *f;

	mount("debugfs", "/sys/kernel/debug", "debugfs", 0, NULL);
	f = fopen("/sys/kernel/debug/fips140/call_bench", "r");
	if (!f) {
		ksft_test_result_code(KSFT_SKIP, "call-bench", "%s", "no fips140/call_bench in debugfs");
		return;
	}
	if (fscanf(f, "calls=%lu trampoline_ps=%lu direct_ps=%lu", &calls,
		   &tramp, &direct) != 3) {
		fclose(f);
		ksft_test_result(0, "call-bench\n");
		return;
	}
	fclose(f);
	ksft_print_msg("bench call/trampoline %.3f ns\n", tramp / 1000.0);
	ksft_print_msg("bench call/direct %.3f ns\n", direct / 1000.0);
	ksft_test_result(1, "call-bench\n");
}

static void raise_limit(const char *path)
{
	int fd = open(path, O_WRONLY);

	if (fd < 0 || write(fd, "4194304", 7) != 7)
		ksft_print_msg("cannot raise %s\n", path);
	if (fd >= 0)
		close(fd);
}

int main(void)
{
	static const unsigned char key[16] = "bench key 16 b.";

	memset(in, 0x5a, sizeof(in));
	/* A 1 MiB AEAD request must fit in the socket's buffers */
	raise_limit("/proc/sys/net/core/wmem_max");
	raise_limit("/proc/sys/net/core/rmem_max");
	ksft_print_header();
	ksft_set_plan(2 * 3 + 3);
	settle();
	memory();
	bench("hash", "sha256", "sha256", NULL, 0, hash_request);
	bench("aead", "gcm(aes)", "gcm(aes)", key, sizeof(key), gcm_request);
	call_bench();
	ksft_finished();
}
