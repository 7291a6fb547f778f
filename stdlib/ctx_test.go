package stdlib_test

import (
	"fmt"
	"math/rand"
	"slices"
	"testing"

	"github.com/lowent/lowentc/internal/testprog"
	"github.com/lowent/lowentc/lang"
	"github.com/lowent/lowentc/stdlib/golden"
	"github.com/lowent/lowentc/vm"
)

// TestInitThenCtxIsOneShot chains the calls a user makes on the VM: an
// _init export fills a context, which is passed on as it came back to the
// _ctx export; its outputs equal the one-shot export's on the same key
// and inputs (GCM seal and open, CTR, GHASH).
func TestInitThenCtxIsOneShot(t *testing.T) {
	rng := rand.New(rand.NewSource(golden.Seed(t)))
	rnd := func(n int) []byte {
		b := make([]byte, n)
		rng.Read(b)
		return b
	}
	call := func(mod, export string, args ...lang.Value) []lang.Value {
		t.Helper()
		p := testprog.Stdlib(t, mod)
		fn := p.Export(export)
		if fn == nil {
			t.Fatalf("%s has no export %s", mod, export)
		}
		res, _, err := vm.Run(p, fn, args, vm.Options{})
		if err != nil {
			t.Fatalf("%s.%s: %v", mod, export, err)
		}
		return res
	}
	b, w := golden.Bytes, golden.Words
	same := func(what string, x, y lang.Value) {
		t.Helper()
		if !slices.Equal(x.Elems, y.Elems) {
			t.Errorf("%s: with a context %x, one-shot %x", what, x.Elems, y.Elems)
		}
	}
	for _, n := range []int{0, 1, 16, 100, 128, 300} {
		key, nonce, aad, pt := rnd(16), rnd(12), rnd(n%37), rnd(n)
		ctx := w(make([]uint64, golden.GCMCtxWords))
		call("gcm", "aes128_gcm_init", b(key), ctx)
		ct1, tag1 := b(make([]byte, n)), b(make([]byte, 16))
		call("gcm", "aes128_gcm_seal", b(key), b(nonce), b(aad), b(pt), ct1, tag1)
		ct2, tag2 := b(make([]byte, n)), b(make([]byte, 16))
		call("gcm", "aes128_gcm_seal_ctx", ctx, b(nonce), b(aad), b(pt), ct2, tag2)
		same(fmt.Sprintf("gcm seal ct, len %d", n), ct2, ct1)
		same(fmt.Sprintf("gcm seal tag, len %d", n), tag2, tag1)
		pt2 := b(make([]byte, n))
		ok := call("gcm", "aes128_gcm_open_ctx", ctx, b(nonce), b(aad), ct2, tag2, pt2)
		if len(ok) != 1 || ok[0].Word != 1 {
			t.Errorf("gcm open_ctx of its own seal, len %d: %+v", n, ok)
		}
		same(fmt.Sprintf("gcm open pt, len %d", n), pt2, b(pt))

		iv, src := rnd(16), rnd(n)
		rk := w(make([]uint64, golden.CTRCtxWords))
		call("aes", "aes128_ctr_init", b(key), rk)
		d1, d2 := b(make([]byte, n)), b(make([]byte, n))
		call("aes", "aes128_ctr", b(key), b(iv), b(src), d1)
		call("aes", "aes128_ctr_ctx", rk, b(iv), b(src), d2)
		same(fmt.Sprintf("ctr, len %d", n), d2, d1)

		h, data := rnd(16), rnd(n&^15)
		hc := w(make([]uint64, golden.GHASHCtxWords))
		call("ghash", "ghash_init", b(h), hc)
		o1, o2 := b(make([]byte, 16)), b(make([]byte, 16))
		call("ghash", "ghash", b(h), b(data), o1)
		call("ghash", "ghash_ctx", hc, b(data), o2)
		same(fmt.Sprintf("ghash, len %d", len(data)), o2, o1)
	}
}
