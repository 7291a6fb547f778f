package golden

import (
	"bytes"
	"crypto/aes"
	"crypto/cipher"
	"encoding/binary"
	"math/rand"
	"testing"

	"github.com/lowent/lowentc/lang"
)

// TestReferencesMatchVectors checks the Go references against the published
// vectors, so that a vector typed wrong here is caught independently of the
// Lowent code.
func TestReferencesMatchVectors(t *testing.T) {
	for _, vs := range [][]Vector{Vectors, ChaChaVectors, SHAVectors} {
		for _, v := range vs {
			if _, ok := vectorKinds[v.export()]; !ok {
				t.Fatalf("no reference for vector %s", v.Name)
			}
			if got, want := v.kind().ref(v); !bytes.Equal(got, want) {
				t.Errorf("%s (%s): reference gives %x, published %x", v.Name, v.Source, got, want)
			}
		}
	}
}

// TestGHASHRefAgainstGCM checks the bit-by-bit GHASH reference against Go's
// GCM: with an empty plaintext, the tag over additional data A is
// E_K(J0) xor GHASH_H(A || 0-pad || len(A) || 0) (SP 800-38D, Algorithm 4).
func TestGHASHRefAgainstGCM(t *testing.T) {
	rng := rand.New(rand.NewSource(7))
	for _, n := range EdgeLengths {
		key, nonce, aad := make([]byte, 16), make([]byte, 12), make([]byte, n)
		rng.Read(key)
		rng.Read(nonce)
		rng.Read(aad)
		block, err := aes.NewCipher(key)
		if err != nil {
			t.Fatal(err)
		}
		g, err := cipher.NewGCM(block)
		if err != nil {
			t.Fatal(err)
		}
		tag := g.Seal(nil, nonce, nil, aad)

		h := make([]byte, 16)
		block.Encrypt(h, h)
		data := append([]byte(nil), aad...)
		data = append(data, make([]byte, (16-n%16)%16)...)
		var lens [16]byte
		binary.BigEndian.PutUint64(lens[:8], uint64(n)*8)
		data = append(data, lens[:]...)
		s := GHASHRef(h, data)
		j0 := append(append([]byte(nil), nonce...), 0, 0, 0, 1)
		mask := make([]byte, 16)
		block.Encrypt(mask, j0)
		for i := range s {
			s[i] ^= mask[i]
		}
		if !bytes.Equal(s, tag) {
			t.Errorf("len %d: tag from GHASHRef %x, GCM says %x", n, s, tag)
		}
	}
}

// TestGFMulRefIdentity checks the reference multiply's bit order: the
// element whose first bit is set is the field's 1.
func TestGFMulRefIdentity(t *testing.T) {
	var one, x [16]byte
	one[0] = 0x80
	copy(x[:], fromHex("0123456789abcdef0f1e2d3c4b5a6978"))
	if got := GFMulRef(x, one); got != x {
		t.Errorf("x * 1 = %x, want %x", got, x)
	}
}

// TestRunCaseReportsMismatches drives RunCase with fake runners: a correct
// one passes, and wrong outputs, touched inputs and wrong results fail.
func TestRunCaseReportsMismatches(t *testing.T) {
	msg := []byte("abc")
	c := SHA256Case("sha256/abc", msg)
	good := func(p *lang.Program, fn *lang.FuncDecl, args []lang.Value) ([]lang.Value, error) {
		copy(args[1].Elems, Bytes(SHA256Ref(msg)).Elems)
		return nil, nil
	}
	wrongOut := func(p *lang.Program, fn *lang.FuncDecl, args []lang.Value) ([]lang.Value, error) {
		args[1].Elems[0] ^= 1
		return nil, nil
	}
	touched := func(p *lang.Program, fn *lang.FuncDecl, args []lang.Value) ([]lang.Value, error) {
		copy(args[1].Elems, Bytes(SHA256Ref(msg)).Elems)
		args[0].Elems[0] = 0
		return nil, nil
	}
	extra := func(p *lang.Program, fn *lang.FuncDecl, args []lang.Value) ([]lang.Value, error) {
		copy(args[1].Elems, Bytes(SHA256Ref(msg)).Elems)
		return []lang.Value{{Word: 1}}, nil
	}
	var ps Programs
	if err := RunCase(&ps, good, c); err != nil {
		t.Fatalf("correct runner: %v", err)
	}
	for name, r := range map[string]Runner{"wrong output": wrongOut, "touched input": touched, "extra result": extra} {
		if err := RunCase(&ps, r, c); err == nil {
			t.Errorf("%s: RunCase passed", name)
		}
	}
}

// TestCaseNamesUnique keeps subtest names meaningful.
func TestCaseNamesUnique(t *testing.T) {
	seen := map[string]bool{}
	for _, c := range Cases(1) {
		if seen[c.Name] {
			t.Errorf("duplicate case name %s", c.Name)
		}
		seen[c.Name] = true
	}
}

func TestBytesRoundTrip(t *testing.T) {
	b := fromHex("00ff10")
	got, err := ToBytes(Bytes(b))
	if err != nil || !bytes.Equal(got, b) {
		t.Errorf("ToBytes(Bytes(%x)) = %x, %v", b, got, err)
	}
	if _, err := ToBytes(lang.Value{Elems: []uint64{256}, IsArray: true}); err == nil {
		t.Error("ToBytes accepted 256")
	}
}
