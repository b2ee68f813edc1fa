// SPDX-License-Identifier: GPL-2.0
/*
 * cipher-ref CIPHER KEY IV [AAD TAGLEN]: the reference encryption the
 * guest's results are compared with, by OpenSSL's libcrypto (the openssl
 * command line does neither AEAD nor XTS). Reads the plaintext on stdin
 * (one XTS data unit), writes the ciphertext, then for an AEAD the tag,
 * on stdout. KEY, IV and AAD in hex (IV "" for none). CIPHER: an OpenSSL
 * name, e.g. aes-128-xts, aes-128-gcm, aes-128-ccm, chacha20-poly1305.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <openssl/evp.h>

static void die(const char *what)
{
	fprintf(stderr, "cipher-ref: %s\n", what);
	exit(1);
}

static unsigned char *unhex(const char *hex, int *len)
{
	size_t n = strlen(hex) / 2, i;
	unsigned char *out = malloc(n + 1);

	if (!out || strlen(hex) % 2)
		die("bad hex argument");
	for (i = 0; i < n; i++)
		if (sscanf(hex + 2 * i, "%2hhx", &out[i]) != 1)
			die("bad hex argument");
	*len = n;
	return out;
}

int main(int argc, char **argv)
{
	static unsigned char in[1 << 20], out[(1 << 20) + 64];
	unsigned char *key, *iv, *aad = NULL;
	int klen, ivlen, aadlen = 0, taglen = 0, inlen, len, fin, aead, ccm;
	const EVP_CIPHER *cipher;
	EVP_CIPHER_CTX *ctx;

	if (argc != 4 && argc != 6)
		die("usage: cipher-ref CIPHER KEY IV [AAD TAGLEN]");
	cipher = EVP_get_cipherbyname(argv[1]);
	if (!cipher)
		die("unknown cipher");
	aead = argc == 6;
	ccm = EVP_CIPHER_get_mode(cipher) == EVP_CIPH_CCM_MODE;
	key = unhex(argv[2], &klen);
	iv = unhex(argv[3], &ivlen);
	if (aead) {
		aad = unhex(argv[4], &aadlen);
		taglen = atoi(argv[5]);
	}
	inlen = fread(in, 1, sizeof(in), stdin);
	ctx = EVP_CIPHER_CTX_new();
	if (!ctx || klen != EVP_CIPHER_get_key_length(cipher) ||
	    !EVP_EncryptInit_ex(ctx, cipher, NULL, NULL, NULL) ||
	    (aead && !EVP_CIPHER_CTX_ctrl(ctx, EVP_CTRL_AEAD_SET_IVLEN, ivlen,
					  NULL)) ||
	    (ccm && !EVP_CIPHER_CTX_ctrl(ctx, EVP_CTRL_AEAD_SET_TAG, taglen,
					 NULL)) ||
	    !EVP_EncryptInit_ex(ctx, NULL, NULL, key, ivlen ? iv : NULL) ||
	    !EVP_CIPHER_CTX_set_padding(ctx, 0))
		die("cannot set up the cipher");
	/* CCM needs the length of the plaintext before the AAD */
	if ((ccm && !EVP_EncryptUpdate(ctx, NULL, &len, NULL, inlen)) ||
	    (aadlen && !EVP_EncryptUpdate(ctx, NULL, &len, aad, aadlen)) ||
	    !EVP_EncryptUpdate(ctx, out, &len, in, inlen) ||
	    !EVP_EncryptFinal_ex(ctx, out + len, &fin))
		die("encryption failed");
	len += fin;
	if (aead && !EVP_CIPHER_CTX_ctrl(ctx, EVP_CTRL_AEAD_GET_TAG, taglen,
					 out + len))
		die("no tag");
	fwrite(out, 1, len + taglen, stdout);
	EVP_CIPHER_CTX_free(ctx);
	return 0;
}
