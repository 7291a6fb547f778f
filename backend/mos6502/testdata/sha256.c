/* A plain C SHA-256 (FIPS 180-4) for cc65: the peer the 6502 backend is
   compared with. Run under sim65: with an argument it hashes "Hello C64",
   without it it skips the hash; both print the digest, so the difference
   of the two cycle counts is the hash. */
#include <stdio.h>
#include <string.h>
#include <stdint.h>

static const uint32_t k[64] = {
    0x428a2f98UL, 0x71374491UL, 0xb5c0fbcfUL, 0xe9b5dba5UL, 0x3956c25bUL, 0x59f111f1UL, 0x923f82a4UL, 0xab1c5ed5UL,
    0xd807aa98UL, 0x12835b01UL, 0x243185beUL, 0x550c7dc3UL, 0x72be5d74UL, 0x80deb1feUL, 0x9bdc06a7UL, 0xc19bf174UL,
    0xe49b69c1UL, 0xefbe4786UL, 0x0fc19dc6UL, 0x240ca1ccUL, 0x2de92c6fUL, 0x4a7484aaUL, 0x5cb0a9dcUL, 0x76f988daUL,
    0x983e5152UL, 0xa831c66dUL, 0xb00327c8UL, 0xbf597fc7UL, 0xc6e00bf3UL, 0xd5a79147UL, 0x06ca6351UL, 0x14292967UL,
    0x27b70a85UL, 0x2e1b2138UL, 0x4d2c6dfcUL, 0x53380d13UL, 0x650a7354UL, 0x766a0abbUL, 0x81c2c92eUL, 0x92722c85UL,
    0xa2bfe8a1UL, 0xa81a664bUL, 0xc24b8b70UL, 0xc76c51a3UL, 0xd192e819UL, 0xd6990624UL, 0xf40e3585UL, 0x106aa070UL,
    0x19a4c116UL, 0x1e376c08UL, 0x2748774cUL, 0x34b0bcb5UL, 0x391c0cb3UL, 0x4ed8aa4aUL, 0x5b9cca4fUL, 0x682e6ff3UL,
    0x748f82eeUL, 0x78a5636fUL, 0x84c87814UL, 0x8cc70208UL, 0x90befffaUL, 0xa4506cebUL, 0xbef9a3f7UL, 0xc67178f2UL,
};

static uint32_t rotr(uint32_t x, unsigned char n) { return (x >> n) | (x << (32 - n)); }

static uint32_t h[8];
static uint32_t w[64];
static uint8_t block[64];
static uint8_t digest[32];

static void compress(void)
{
    uint32_t a, b, c, d, e, f, g, hh, t1, t2;
    unsigned char t;
    for (t = 0; t < 16; ++t) {
        w[t] = ((uint32_t)block[4 * t] << 24) | ((uint32_t)block[4 * t + 1] << 16) |
               ((uint32_t)block[4 * t + 2] << 8) | block[4 * t + 3];
    }
    for (t = 16; t < 64; ++t) {
        uint32_t s0 = rotr(w[t - 15], 7) ^ rotr(w[t - 15], 18) ^ (w[t - 15] >> 3);
        uint32_t s1 = rotr(w[t - 2], 17) ^ rotr(w[t - 2], 19) ^ (w[t - 2] >> 10);
        w[t] = w[t - 16] + s0 + w[t - 7] + s1;
    }
    a = h[0]; b = h[1]; c = h[2]; d = h[3]; e = h[4]; f = h[5]; g = h[6]; hh = h[7];
    for (t = 0; t < 64; ++t) {
        t1 = hh + (rotr(e, 6) ^ rotr(e, 11) ^ rotr(e, 25)) + ((e & f) ^ (~e & g)) + k[t] + w[t];
        t2 = (rotr(a, 2) ^ rotr(a, 13) ^ rotr(a, 22)) + ((a & b) ^ (a & c) ^ (b & c));
        hh = g; g = f; f = e; e = d + t1; d = c; c = b; b = a; a = t1 + t2;
    }
    h[0] += a; h[1] += b; h[2] += c; h[3] += d; h[4] += e; h[5] += f; h[6] += g; h[7] += hh;
}

static void sha256(const uint8_t *msg, unsigned len)
{
    unsigned i, n;
    uint32_t bits = (uint32_t)len << 3;
    h[0] = 0x6a09e667UL; h[1] = 0xbb67ae85UL; h[2] = 0x3c6ef372UL; h[3] = 0xa54ff53aUL;
    h[4] = 0x510e527fUL; h[5] = 0x9b05688cUL; h[6] = 0x1f83d9abUL; h[7] = 0x5be0cd19UL;
    for (i = 0; i + 64 <= len; i += 64) {
        memcpy(block, msg + i, 64);
        compress();
    }
    n = len - i;
    memset(block, 0, 64);
    memcpy(block, msg + i, n);
    block[n] = 0x80;
    if (n >= 56) {
        compress();
        memset(block, 0, 64);
    }
    block[60] = (uint8_t)(bits >> 24); block[61] = (uint8_t)(bits >> 16);
    block[62] = (uint8_t)(bits >> 8); block[63] = (uint8_t)bits;
    compress();
    for (i = 0; i < 8; ++i) {
        digest[4 * i] = (uint8_t)(h[i] >> 24); digest[4 * i + 1] = (uint8_t)(h[i] >> 16);
        digest[4 * i + 2] = (uint8_t)(h[i] >> 8); digest[4 * i + 3] = (uint8_t)h[i];
    }
}

int main(int argc, char **argv)
{
    static const char msg[] = "Hello C64";
    unsigned char i;
    (void)argv;
    if (argc > 1) {
        sha256((const uint8_t *)msg, sizeof msg - 1);
    }
    for (i = 0; i < 32; ++i) {
        printf("%02x", digest[i]);
    }
    printf("\n");
    return 0;
}
