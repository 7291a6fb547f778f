/* seal.c: AES-128-GCM through the static library lowentc builds from
   stdlib/gcm.lw. Build (see docs/amd64.md):

     lowentc --target amd64 --hw auto --emit lib stdlib/gcm.lw -o libgcm.a
     lowentc --target amd64 --hw auto --emit h   stdlib/gcm.lw -o gcm.h
     gcc -O2 -I. seal.c libgcm.a -o seal

   It seals "hello, lowent" under a fixed key and nonce, prints the
   ciphertext and tag in hex, opens them again and checks the round trip. */
#include <stdio.h>
#include <string.h>
#include "gcm.h"

static void hex(const char *name, const uint8_t *p, size_t n) {
	printf("%s=", name);
	for (size_t i = 0; i < n; i++) printf("%02x", p[i]);
	printf("\n");
}

int main(void) {
	uint8_t key[16], nonce[12], tag[16];
	for (int i = 0; i < 16; i++) key[i] = (uint8_t)i;
	for (int i = 0; i < 12; i++) nonce[i] = (uint8_t)(0xa0 + i);
	const char *aad = "header";
	const char *msg = "hello, lowent";
	size_t n = strlen(msg);
	uint8_t ct[64], pt[64];

	int st = lowentc_gcm_aes128_gcm_seal(key, nonce, (const uint8_t *)aad, strlen(aad),
		(const uint8_t *)msg, n, ct, n, tag);
	if (st != LOWENTC_OK) {
		fprintf(stderr, "seal failed: status %d\n", st);
		return 1;
	}
	hex("ct", ct, n);
	hex("tag", tag, 16);

	uint8_t ok = 0;
	st = lowentc_gcm_aes128_gcm_open(key, nonce, (const uint8_t *)aad, strlen(aad), ct, n, tag, pt, n, &ok);
	if (st != LOWENTC_OK || !ok || memcmp(pt, msg, n) != 0) {
		fprintf(stderr, "open failed: status %d ok %d\n", st, ok);
		return 1;
	}
	/* A length mismatch breaks the export's requires: status 1, nothing written. */
	st = lowentc_gcm_aes128_gcm_seal(key, nonce, NULL, 0, (const uint8_t *)msg, n, ct, n - 1, tag);
	printf("mismatch_status=%d\n", st);
	return 0;
}
