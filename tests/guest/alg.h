/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Thin helpers around the AF_ALG socket interface
 * (Documentation/crypto/userspace-if.rst). Each returns -errno on failure
 * and prints a KTAP diagnostic saying which step failed.
 */
#ifndef ALG_H
#define ALG_H

#include <errno.h>
#include <linux/if_alg.h>
#include <stdint.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/uio.h>
#include <unistd.h>

#include "guest.h"

#ifndef SOL_ALG
#define SOL_ALG 279
#endif

/* Socket bound to algorithm type/name, with key (if keylen) set. */
static inline int alg_bind(const char *type, const char *name,
			   const void *key, size_t keylen)
{
	struct sockaddr_alg sa = { .salg_family = AF_ALG };
	int fd, err;

	strncpy((char *)sa.salg_type, type, sizeof(sa.salg_type) - 1);
	strncpy((char *)sa.salg_name, name, sizeof(sa.salg_name) - 1);
	fd = socket(AF_ALG, SOCK_SEQPACKET | SOCK_CLOEXEC, 0);
	if (fd < 0) {
		err = -errno;
		ksft_print_msg("%s: socket(AF_ALG): %s\n", name, strerror(errno));
		return err;
	}
	if (bind(fd, (struct sockaddr *)&sa, sizeof(sa)) < 0) {
		err = -errno;
		ksft_print_msg("%s: bind(%s): %s\n", name, type, strerror(errno));
		close(fd);
		return err;
	}
	if (key && setsockopt(fd, SOL_ALG, ALG_SET_KEY, key, keylen) < 0) {
		err = -errno;
		ksft_print_msg("%s: ALG_SET_KEY (%zu bytes): %s\n", name, keylen,
			       strerror(errno));
		close(fd);
		return err;
	}
	return fd;
}

/* Operation socket of a bound socket. */
static inline int alg_accept(int tfm, const char *name)
{
	int fd = accept(tfm, NULL, NULL);

	if (fd < 0) {
		int err = -errno;

		ksft_print_msg("%s: accept: %s\n", name, strerror(errno));
		return err;
	}
	return fd;
}

/* Read exactly len bytes (a short read is -EIO). */
static inline int alg_read(int op, const char *name, void *out, size_t len)
{
	ssize_t n = read(op, out, len);

	if (n < 0) {
		int err = -errno;

		ksft_print_msg("%s: read: %s\n", name, strerror(errno));
		return err;
	}
	if ((size_t)n != len) {
		ksft_print_msg("%s: read %zd bytes, wanted %zu\n", name, n, len);
		return -EIO;
	}
	return 0;
}

/*
 * One cipher operation on op socket op: send in (with direction, IV and,
 * for AEAD, the associated data length as control messages), read outlen
 * bytes into out. assoclen < 0: not an AEAD.
 */
static inline int alg_cipher(int op, const char *name, int encrypt,
			     const unsigned char *iv, size_t ivlen,
			     long assoclen, const unsigned char *in,
			     size_t inlen, unsigned char *out, size_t outlen)
{
	char cbuf[CMSG_SPACE(sizeof(uint32_t)) +
		  CMSG_SPACE(sizeof(struct af_alg_iv) + 64) +
		  CMSG_SPACE(sizeof(uint32_t))] = { 0 };
	struct iovec iov = { .iov_base = (void *)in, .iov_len = inlen };
	struct msghdr msg = {
		.msg_control = cbuf,
		.msg_iov = &iov,
		.msg_iovlen = 1,
	};
	struct cmsghdr *c;
	struct af_alg_iv *aiv;
	size_t clen;

	if (ivlen > 64)
		return -EINVAL;
	clen = CMSG_SPACE(sizeof(uint32_t));
	if (ivlen)
		clen += CMSG_SPACE(sizeof(*aiv) + ivlen);
	if (assoclen >= 0)
		clen += CMSG_SPACE(sizeof(uint32_t));
	msg.msg_controllen = clen;

	c = CMSG_FIRSTHDR(&msg);
	c->cmsg_level = SOL_ALG;
	c->cmsg_type = ALG_SET_OP;
	c->cmsg_len = CMSG_LEN(sizeof(uint32_t));
	*(uint32_t *)CMSG_DATA(c) = encrypt ? ALG_OP_ENCRYPT : ALG_OP_DECRYPT;
	if (ivlen) {
		c = CMSG_NXTHDR(&msg, c);
		c->cmsg_level = SOL_ALG;
		c->cmsg_type = ALG_SET_IV;
		c->cmsg_len = CMSG_LEN(sizeof(*aiv) + ivlen);
		aiv = (struct af_alg_iv *)CMSG_DATA(c);
		aiv->ivlen = ivlen;
		memcpy(aiv->iv, iv, ivlen);
	}
	if (assoclen >= 0) {
		c = CMSG_NXTHDR(&msg, c);
		c->cmsg_level = SOL_ALG;
		c->cmsg_type = ALG_SET_AEAD_ASSOCLEN;
		c->cmsg_len = CMSG_LEN(sizeof(uint32_t));
		*(uint32_t *)CMSG_DATA(c) = (uint32_t)assoclen;
	}
	if (sendmsg(op, &msg, 0) != (ssize_t)inlen) {
		int err = -errno;

		ksft_print_msg("%s: sendmsg: %s\n", name, strerror(errno));
		return err;
	}
	return alg_read(op, name, out, outlen);
}

#endif /* ALG_H */
