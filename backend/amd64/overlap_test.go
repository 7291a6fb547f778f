package amd64

import (
	"bytes"
	"crypto/aes"
	"crypto/cipher"
	"encoding/hex"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/lowent/lowentc/backend"
	"github.com/lowent/lowentc/internal/backendtest"
	"github.com/lowent/lowentc/internal/testprog"
	"github.com/lowent/lowentc/lang"
	"github.com/lowent/lowentc/vm"
)

// overlapC calls the stdlib's CTR and GCM seal through the C API: in
// place (dst == src) at every CPU level, and with the output starting 1 to
// 64 bytes after or before the input (partial overlap), which must return
// LOWENTC_FAULT and leave the memory as it was.
const overlapC = `#include <stdio.h>
#include <string.h>
#include "aes.h"
#include "gcm.h"

static uint8_t key[16], iv[16], nonce[12], aad[20];
static uint8_t area[64 + 1000 + 64], before[sizeof area];

static void hex(const uint8_t *p, size_t n) {
	for (size_t i = 0; i < n; i++) printf("%02x", p[i]);
}

static void fill(void) {
	for (size_t i = 0; i < sizeof area; i++) area[i] = (uint8_t)(i * 7 + 1);
	memcpy(before, area, sizeof area);
}

int main(void) {
	static const size_t lens[] = {1, 15, 16, 17, 64, 100, 1000};
	for (int i = 0; i < 16; i++) key[i] = (uint8_t)(i + 1), iv[i] = (uint8_t)(0xf0 + i);
	for (int i = 0; i < 12; i++) nonce[i] = (uint8_t)(0x30 + i);
	for (int i = 0; i < 20; i++) aad[i] = (uint8_t)(0x80 + i);
	for (int pass = 0; pass < 2; pass++) {
		if (pass == 1) { lowentc_aes_force_level(0); lowentc_gcm_force_level(0); }
		for (size_t k = 0; k < sizeof lens / sizeof lens[0]; k++) {
			size_t n = lens[k];
			uint8_t *buf = area + 64;
			fill();
			int st = lowentc_aes_aes128_ctr(key, iv, buf, n, buf, n);
			printf("ctr %zu %d ", n, st); hex(buf, n); printf("\n");
			fill();
			uint8_t tag[16];
			st = lowentc_gcm_aes128_gcm_seal(key, nonce, aad, sizeof aad, buf, n, buf, n, tag);
			printf("gcm %zu %d ", n, st); hex(buf, n); hex(tag, 16); printf("\n");
			for (int d = -64; d <= 64; d++) {
				if (d == 0) continue;
				fill();
				st = lowentc_aes_aes128_ctr(key, iv, buf, n, buf + d, n);
				int changed = memcmp(area, before, sizeof area) != 0;
				/* Ranges that do not meet are disjoint: allowed. */
				int over = (d > 0 ? (size_t)d < n : (size_t)-d < n);
				if (over ? (st != 1 || changed) : st != 0) printf("ctr overlap %zu %d: status %d changed %d\n", n, d, st, changed);
				fill();
				st = lowentc_gcm_aes128_gcm_seal(key, nonce, aad, sizeof aad, buf, n, buf + d, n, tag);
				changed = memcmp(area, before, sizeof area) != 0;
				if (over ? (st != 1 || changed) : st != 0) printf("gcm overlap %zu %d: status %d changed %d\n", n, d, st, changed);
				/* The tag partly over the ciphertext. */
				if (d > -16 && (d < 0 || (size_t)d < n)) {
					fill();
					st = lowentc_gcm_aes128_gcm_seal(key, nonce, aad, sizeof aad, buf, n, buf, n, buf + d);
					changed = memcmp(area, before, sizeof area) != 0;
					if (st != 1 || changed) printf("gcm tag overlap %zu %d: status %d changed %d\n", n, d, st, changed);
				}
			}
		}
	}
	return 0;
}
`

// TestInPlaceAndOverlapC: exact in place is the same answer as Go's
// crypto with separate buffers; a partial overlap is refused untouched.
func TestInPlaceAndOverlapC(t *testing.T) {
	aesDir, gcmDir := buildLib(t, "aes"), buildLib(t, "gcm")
	src := filepath.Join(aesDir, "overlap.c")
	if err := os.WriteFile(src, []byte(overlapC), 0o644); err != nil {
		t.Fatal(err)
	}
	bin := filepath.Join(aesDir, "overlap")
	if out, err := exec.Command("gcc", "-O2", "-Wall", "-Werror", "-I", aesDir, "-I", gcmDir, "-o", bin, src,
		filepath.Join(aesDir, "libaes.a"), filepath.Join(gcmDir, "libgcm.a")).CombinedOutput(); err != nil {
		t.Fatalf("gcc: %v\n%s", err, out)
	}
	out, err := exec.Command(bin).Output()
	if err != nil {
		t.Fatal(err)
	}
	var key, iv, nonce, aad [16]byte
	for i := range key {
		key[i], iv[i] = byte(i+1), byte(0xf0+i)
	}
	for i := 0; i < 12; i++ {
		nonce[i] = byte(0x30 + i)
	}
	aadB := make([]byte, 20)
	for i := range aadB {
		aadB[i] = byte(0x80 + i)
	}
	_ = aad
	blk, err := aes.NewCipher(key[:])
	if err != nil {
		t.Fatal(err)
	}
	g, err := cipher.NewGCM(blk)
	if err != nil {
		t.Fatal(err)
	}
	var want bytes.Buffer
	for pass := 0; pass < 2; pass++ {
		for _, n := range []int{1, 15, 16, 17, 64, 100, 1000} {
			msg := make([]byte, n)
			for i := range msg {
				msg[i] = byte((64+i)*7 + 1)
			}
			ct := make([]byte, n)
			cipher.NewCTR(blk, iv[:]).XORKeyStream(ct, msg)
			fmt.Fprintf(&want, "ctr %d 0 %s\n", n, hex.EncodeToString(ct))
			sealed := g.Seal(nil, nonce[:12], msg, aadB)
			fmt.Fprintf(&want, "gcm %d 0 %s\n", n, hex.EncodeToString(sealed))
		}
	}
	if got := string(out); got != want.String() {
		t.Errorf("got\n%s\nwant\n%s", clip(got), clip(want.String()))
	}
}

func clip(s string) string {
	if len(s) > 4000 {
		return s[:4000] + "..."
	}
	return strings.TrimSpace(s)
}

// inplaceC runs inplace.lw's exports in place on inputs of several
// lengths and prints the outputs.
const inplaceC = `#include <stdio.h>
#include "inpl.h"

int main(void) {
	static const size_t lens[] = {1, 5, 16, 33, 100};
	for (size_t k = 0; k < sizeof lens / sizeof lens[0]; k++) {
		size_t n = lens[k];
		uint8_t b[100];
		uint32_t w[100];
		for (size_t i = 0; i < n; i++) b[i] = (uint8_t)(i * 37 + 11), w[i] = (uint32_t)(i * 0x01000193u + 7);
		int st = lowentc_inpl_chain(b, n, b, n);
		printf("chain %zu %d", n, st);
		for (size_t i = 0; i < n; i++) printf(" %u", b[i]);
		st = lowentc_inpl_mix(w, n, w, n);
		printf("\nmix %zu %d", n, st);
		for (size_t i = 0; i < n; i++) printf(" %u", w[i]);
		printf("\n");
	}
	return 0;
}
`

// TestInPlaceLoopsC: loops that read src[i] after writing dst[i-1] give,
// in place, the reference VM's answer with separate buffers.
func TestInPlaceLoopsC(t *testing.T) {
	p := testprog.Load(t, "../testdata/inplace.lw")
	dir := t.TempDir()
	backendtest.WriteLib(t, "amd64", p, backend.Options{}, dir)
	src, bin := filepath.Join(dir, "inpl.c"), filepath.Join(dir, "inpl")
	if err := os.WriteFile(src, []byte(inplaceC), 0o644); err != nil {
		t.Fatal(err)
	}
	if out, err := exec.Command("gcc", "-O2", "-Wall", "-Werror", "-I", dir, "-o", bin, src, filepath.Join(dir, "libinpl.a")).CombinedOutput(); err != nil {
		t.Fatalf("gcc: %v\n%s", err, out)
	}
	out, err := exec.Command(bin).Output()
	if err != nil {
		t.Fatal(err)
	}
	var want strings.Builder
	for _, n := range []int{1, 5, 16, 33, 100} {
		b, w := lang.Value{IsArray: true}, lang.Value{IsArray: true}
		for i := 0; i < n; i++ {
			b.Elems = append(b.Elems, uint64(byte(i*37+11)))
			w.Elems = append(w.Elems, uint64(uint32(i*0x01000193+7)))
		}
		for _, c := range []struct {
			name string
			in   lang.Value
		}{{"chain", b}, {"mix", w}} {
			dst := lang.Value{IsArray: true, Elems: make([]uint64, n)}
			if _, _, err := vm.Run(p, p.Export(c.name), []lang.Value{c.in, dst}, vm.Options{}); err != nil {
				t.Fatal(err)
			}
			fmt.Fprintf(&want, "%s %d 0", c.name, n)
			for _, e := range dst.Elems {
				fmt.Fprintf(&want, " %d", e)
			}
			want.WriteString("\n")
		}
	}
	if string(out) != want.String() {
		t.Errorf("in place:\n%s\nwant (separate buffers, VM):\n%s", clip(string(out)), clip(want.String()))
	}
}
