/*
 * evpbench: a Node-API module that times the OpenSSL linked into the Node
 * binary that loads it, through OpenSSL's EVP interface, in a C loop.
 *
 * Node's own crypto calls cost a JavaScript call per buffer and, for
 * update(), a fresh output buffer that is filled and then copied; this
 * module measures the library instead: one context set up with the key,
 * output written into one buffer reused by every call, as a C program
 * linked against that OpenSSL would do. speedtable compiles it against the
 * headers shipped with the Node package and loads it with require().
 *
 * run(alg, size, minNS) returns MB/s: three times, calls double until a
 * window lasts minNS nanoseconds (CLOCK_MONOTONIC); the best window counts.
 * What one call does, per alg:
 *   gcm, chacha20poly1305: IV set, encrypt size bytes (no AAD), final, tag;
 *   ghash: IV set, AES-128-GCM over size bytes of AAD only, final, tag;
 *   ctr, chacha20: one update of size bytes on one streaming context;
 *   sha256, sha512, sha3_256, blake2b: one digest of size bytes;
 *   poly1305: EVP_MAC with the key set, size bytes, tag.
 * The key is set once outside the timed calls (for poly1305 the one-time
 * key is part of each call, as Poly1305 keys are). Keys and IVs are zero,
 * the data byte i is i*7 mod 256, as in speedtable's other columns.
 *
 * once(alg, size) makes one such call and returns its output (the size
 * bytes written, if any, then the tag or digest), so a test can check
 * that the module computes what the other columns compute.
 */
#include <node_api.h>
#include <openssl/evp.h>
#include <openssl/core_names.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

typedef struct {
	const char *alg;
	size_t n;
	unsigned char *in, *out, tag[64];
	EVP_CIPHER_CTX *c;
	EVP_MD_CTX *mdc;
	EVP_MD *md;
	EVP_MAC *mac;
	EVP_MAC_CTX *macc;
	int kind; /* 0 aead, 1 ghash, 2 stream, 3 digest, 4 mac */
} bench;

static const unsigned char key[32], iv[16];

static int one(bench *b) {
	int l = 0, l2 = 0;
	size_t ml = 0;
	switch (b->kind) {
	case 0:
		return EVP_EncryptInit_ex(b->c, NULL, NULL, NULL, iv) &&
		       EVP_EncryptUpdate(b->c, b->out, &l, b->in, (int)b->n) &&
		       EVP_EncryptFinal_ex(b->c, b->out + l, &l2) &&
		       EVP_CIPHER_CTX_ctrl(b->c, EVP_CTRL_AEAD_GET_TAG, 16, b->tag);
	case 1:
		return EVP_EncryptInit_ex(b->c, NULL, NULL, NULL, iv) &&
		       EVP_EncryptUpdate(b->c, NULL, &l, b->in, (int)b->n) &&
		       EVP_EncryptFinal_ex(b->c, b->out, &l2) &&
		       EVP_CIPHER_CTX_ctrl(b->c, EVP_CTRL_AEAD_GET_TAG, 16, b->tag);
	case 2:
		return EVP_EncryptUpdate(b->c, b->out, &l, b->in, (int)b->n);
	case 3:
		return EVP_DigestInit_ex(b->mdc, b->md, NULL) &&
		       EVP_DigestUpdate(b->mdc, b->in, b->n) &&
		       EVP_DigestFinal_ex(b->mdc, b->tag, NULL);
	case 4:
		return EVP_MAC_init(b->macc, key, 32, NULL) &&
		       EVP_MAC_update(b->macc, b->in, b->n) &&
		       EVP_MAC_final(b->macc, b->tag, &ml, 16);
	}
	return 0;
}

static void release(bench *b) {
	EVP_CIPHER_CTX_free(b->c);
	EVP_MD_CTX_free(b->mdc);
	EVP_MD_free(b->md);
	EVP_MAC_CTX_free(b->macc);
	EVP_MAC_free(b->mac);
	free(b->in);
	free(b->out);
}

/* setup returns NULL or an error message. */
static const char *setup(bench *b) {
	const EVP_CIPHER *ci = NULL;
	const char *mdname = NULL;
	int ivlen = 0;
	b->in = malloc(b->n + 1);
	b->out = malloc(b->n + 64);
	if (!b->in || !b->out)
		return "out of memory";
	for (size_t i = 0; i < b->n; i++)
		b->in[i] = (unsigned char)(i * 7);
	if (!strcmp(b->alg, "gcm")) {
		ci = EVP_aes_128_gcm(), ivlen = 12, b->kind = 0;
	} else if (!strcmp(b->alg, "ghash")) {
		ci = EVP_aes_128_gcm(), ivlen = 12, b->kind = 1;
	} else if (!strcmp(b->alg, "chacha20poly1305")) {
		ci = EVP_chacha20_poly1305(), ivlen = 12, b->kind = 0;
	} else if (!strcmp(b->alg, "ctr")) {
		ci = EVP_aes_128_ctr(), b->kind = 2;
	} else if (!strcmp(b->alg, "chacha20")) {
		ci = EVP_chacha20(), b->kind = 2;
	} else if (!strcmp(b->alg, "sha256")) {
		mdname = "SHA256";
	} else if (!strcmp(b->alg, "sha512")) {
		mdname = "SHA512";
	} else if (!strcmp(b->alg, "sha3_256")) {
		mdname = "SHA3-256";
	} else if (!strcmp(b->alg, "blake2b")) {
		mdname = "BLAKE2B-512";
	} else if (!strcmp(b->alg, "poly1305")) {
		b->kind = 4;
		b->mac = EVP_MAC_fetch(NULL, "POLY1305", NULL);
		b->macc = b->mac ? EVP_MAC_CTX_new(b->mac) : NULL;
		return b->macc ? NULL : "no POLY1305 MAC";
	} else {
		return "no such algorithm";
	}
	if (mdname) {
		b->kind = 3;
		b->md = EVP_MD_fetch(NULL, mdname, NULL);
		b->mdc = EVP_MD_CTX_new();
		return b->md && b->mdc ? NULL : "digest not available";
	}
	b->c = EVP_CIPHER_CTX_new();
	if (!b->c || !EVP_EncryptInit_ex(b->c, ci, NULL, NULL, NULL))
		return "cipher not available";
	if (ivlen && !EVP_CIPHER_CTX_ctrl(b->c, EVP_CTRL_AEAD_SET_IVLEN, ivlen, NULL))
		return "cannot set the IV length";
	if (!EVP_EncryptInit_ex(b->c, NULL, NULL, key, iv))
		return "cannot set the key";
	return NULL;
}

static double now(void) {
	struct timespec t;
	clock_gettime(CLOCK_MONOTONIC, &t);
	return (double)t.tv_sec * 1e9 + (double)t.tv_nsec;
}

/* outlen is how many bytes of tag or digest one call leaves in b->tag. */
static size_t outlen(const bench *b) {
	if (b->kind == 3)
		return (size_t)EVP_MD_get_size(b->md);
	return b->kind == 2 ? 0 : 16;
}

/* args reads (alg, size[, minNS]) into b and *minNS; 0 on a thrown error. */
static int args(napi_env env, napi_callback_info info, size_t want, char *alg, size_t alglen, bench *b, double *minNS) {
	size_t argc = 3, len;
	napi_value argv[3];
	double size;
	memset(b, 0, sizeof *b);
	if (napi_get_cb_info(env, info, &argc, argv, NULL, NULL) != napi_ok || argc != want ||
	    napi_get_value_string_utf8(env, argv[0], alg, alglen, &len) != napi_ok ||
	    napi_get_value_double(env, argv[1], &size) != napi_ok ||
	    (want == 3 && napi_get_value_double(env, argv[2], minNS) != napi_ok) || size < 1 || size > 1 << 30) {
		napi_throw_error(env, NULL, want == 3 ? "run(alg, size, minNS)" : "once(alg, size)");
		return 0;
	}
	b->alg = alg;
	b->n = (size_t)size;
	return 1;
}

static napi_value once(napi_env env, napi_callback_info info) {
	char alg[32];
	bench b;
	const char *err;
	void *data;
	size_t w, t;
	napi_value res;
	if (!args(env, info, 2, alg, sizeof alg, &b, NULL))
		return NULL;
	if ((err = setup(&b)) != NULL || !one(&b)) {
		release(&b);
		napi_throw_error(env, NULL, err ? err : "OpenSSL call failed");
		return NULL;
	}
	w = (b.kind == 0 || b.kind == 2) ? b.n : 0;
	t = outlen(&b);
	if (napi_create_buffer(env, w + t, &data, &res) != napi_ok) {
		release(&b);
		napi_throw_error(env, NULL, "cannot allocate the result");
		return NULL;
	}
	memcpy(data, b.out, w);
	memcpy((unsigned char *)data + w, b.tag, t);
	release(&b);
	return res;
}

static napi_value run(napi_env env, napi_callback_info info) {
	napi_value res;
	char alg[32];
	double minNS, best = 0;
	bench b;
	const char *err;
	if (!args(env, info, 3, alg, sizeof alg, &b, &minNS))
		return NULL;
	if ((err = setup(&b)) != NULL) {
		release(&b);
		napi_throw_error(env, NULL, err);
		return NULL;
	}
	for (int r = 0; r < 3; r++) {
		for (long calls = 1;; calls *= 2) {
			double t0 = now(), dt;
			for (long i = 0; i < calls; i++) {
				if (!one(&b)) {
					release(&b);
					napi_throw_error(env, NULL, "OpenSSL call failed");
					return NULL;
				}
			}
			dt = now() - t0;
			if (dt >= minNS) {
				double mbs = (double)b.n * (double)calls / dt * 1e3;
				if (mbs > best)
					best = mbs;
				break;
			}
		}
	}
	release(&b);
	napi_create_double(env, best, &res);
	return res;
}

NAPI_MODULE_INIT() {
	napi_value fn;
	napi_create_function(env, "run", NAPI_AUTO_LENGTH, run, NULL, &fn);
	napi_set_named_property(env, exports, "run", fn);
	napi_create_function(env, "once", NAPI_AUTO_LENGTH, once, NULL, &fn);
	napi_set_named_property(env, exports, "once", fn);
	return exports;
}
