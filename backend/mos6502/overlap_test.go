package mos6502

import (
	"bytes"
	"crypto/aes"
	"crypto/cipher"
	"fmt"
	"math/rand/v2"
	"os"
	"strings"
	"testing"

	"github.com/lowent/lowentc/backend"
	"github.com/lowent/lowentc/internal/testprog"
	"github.com/lowent/lowentc/lang"
	"github.com/lowent/lowentc/vm"
)

// aliasedCall runs export name of prog with args placed as the runner
// places them, then points array parameter moved at the address of array
// parameter at plus d (d = 0: the very same buffer). It returns the
// machine, the address and length in bytes of at's buffer, and the error
// the runner reports.
func aliasedCall(t *testing.T, prog *program, name string, args []lang.Value, moved, at string, d int) (*machine, int, int, error) {
	t.Helper()
	m, abi, bufs, err := prog.setup(name, args)
	if err != nil {
		t.Fatal(err)
	}
	ptr := map[string]int{}
	addr := map[string]int{}
	n := map[string]int{}
	bi := 0
	for _, pa := range abi.Params {
		if pa.Ptr == 0 {
			continue
		}
		ptr[pa.Name], addr[pa.Name], n[pa.Name] = pa.Ptr, bufs[bi].addr, bufs[bi].n*bufs[bi].per
		bi++
	}
	to := addr[at] + d
	m.mem.StoreByte(uint16(ptr[moved]), byte(to))
	m.mem.StoreByte(uint16(ptr[moved]+1), byte(to>>8))
	if _, err := m.call(prog.img.labels[abi.Label], nil); err != nil {
		t.Fatal(err)
	}
	_, err = prog.collect(m, name, abi, args, bufs)
	return m, addr[at], n[at], err
}

func memBytes(m *machine, addr, n int) []byte {
	out := make([]byte, n)
	for i := range out {
		out[i] = m.mem.LoadByte(uint16(addr + i))
	}
	return out
}

func bytesValue(b []byte) lang.Value {
	v := lang.Value{IsArray: true, Elems: make([]uint64, len(b))}
	for i, x := range b {
		v.Elems[i] = uint64(x)
	}
	return v
}

// TestInPlaceAndOverlap6502: CTR and GCM seal with the output on the input
// (dst == src) give Go's answer; an output 1 to 64 bytes after or before
// its input is refused with the overlap fault and writes nothing.
func TestInPlaceAndOverlap6502(t *testing.T) {
	key := make([]byte, 16)
	iv := make([]byte, 16)
	nonce := make([]byte, 12)
	aad := []byte("header bytes")
	for i := range key {
		key[i], iv[i] = byte(3*i+1), byte(0xf0+i)
	}
	for i := range nonce {
		nonce[i] = byte(0x30 + i)
	}
	blk, err := aes.NewCipher(key)
	if err != nil {
		t.Fatal(err)
	}
	gcm, err := cipher.NewGCM(blk)
	if err != nil {
		t.Fatal(err)
	}
	aesProg, err := stdlibProgram("aes", nil)
	if err != nil {
		t.Fatal(err)
	}
	gcmProg, err := stdlibProgram("gcm", nil)
	if err != nil {
		t.Fatal(err)
	}
	for _, n := range []int{1, 17, 100} {
		msg := make([]byte, n)
		for i := range msg {
			msg[i] = byte(i*7 + 5)
		}
		wantCTR := make([]byte, n)
		cipher.NewCTR(blk, iv).XORKeyStream(wantCTR, msg)
		sealed := gcm.Seal(nil, nonce, msg, aad)
		ctrArgs := func() []lang.Value {
			return []lang.Value{bytesValue(key), bytesValue(iv), bytesValue(msg), bytesValue(make([]byte, n))}
		}
		gcmArgs := func() []lang.Value {
			return []lang.Value{bytesValue(key), bytesValue(nonce), bytesValue(aad), bytesValue(msg),
				bytesValue(make([]byte, n)), bytesValue(make([]byte, 16))}
		}
		// In place: dst points at src.
		m, addr, _, err := aliasedCall(t, aesProg, "aes128_ctr", ctrArgs(), "dst", "src", 0)
		if err != nil {
			t.Fatalf("ctr in place, %d bytes: %v", n, err)
		}
		if got := memBytes(m, addr, n); !bytes.Equal(got, wantCTR) {
			t.Errorf("ctr in place, %d bytes: %x, want %x", n, got, wantCTR)
		}
		args := gcmArgs()
		m, addr, _, err = aliasedCall(t, gcmProg, "aes128_gcm_seal", args, "ct", "pt", 0)
		if err != nil {
			t.Fatalf("gcm in place, %d bytes: %v", n, err)
		}
		tag := make([]byte, 16)
		for i := range tag {
			tag[i] = byte(args[5].Elems[i])
		}
		if got := append(memBytes(m, addr, n), tag...); !bytes.Equal(got, sealed) {
			t.Errorf("gcm in place, %d bytes: %x, want %x", n, got, sealed)
		}
		// Partial overlap: the input moved to d bytes from the output.
		for d := -64; d <= 64; d++ {
			if d == 0 || d >= n || -d >= n {
				continue // the same buffer, or disjoint
			}
			check := func(prog *program, name string, args []lang.Value, out, in, want string) {
				m, addr, size, err := aliasedCall(t, prog, name, args, in, out, -d)
				if err == nil || err.Error() != want {
					t.Errorf("%s, %d bytes, input at output%+d: got %v, want %s", name, n, -d, err, want)
				}
				if got := memBytes(m, addr, size); !bytes.Equal(got, make([]byte, size)) {
					t.Errorf("%s, %d bytes, input at output%+d: the output was written: %x", name, n, -d, got)
				}
			}
			check(aesProg, "aes128_ctr", ctrArgs(), "dst", "src",
				paramPos(t, "aes.lw", "aes128_ctr", "dst")+": fault: aes128_ctr: requires dst and src the same buffer or disjoint does not hold")
			check(gcmProg, "aes128_gcm_seal", gcmArgs(), "ct", "pt",
				paramPos(t, "gcm.lw", "aes128_gcm_seal", "ct")+": fault: aes128_gcm_seal: requires ct and pt the same buffer or disjoint does not hold")
		}
	}
}

// TestInPlaceLoops6502: loops that read src[i] after writing dst[i-1]
// give, in place, the reference VM's answer with separate buffers, in
// both modes; a partial overlap is refused there too.
func TestInPlaceLoops6502(t *testing.T) {
	p := testprog.Load(t, "../testdata/inplace.lw")
	for _, opt := range []string{"speed", "size"} {
		prog, err := build(input(p), backend.Options{Opt: opt}, layout{org: runOrg, linear: true})
		if err != nil {
			t.Fatal(err)
		}
		for _, n := range []int{1, 5, 16, 33, 100} {
			b, w := lang.Value{IsArray: true}, lang.Value{IsArray: true}
			for i := 0; i < n; i++ {
				b.Elems = append(b.Elems, uint64(byte(i*37+11)))
				w.Elems = append(w.Elems, uint64(uint32(i*0x01000193+7)))
			}
			for _, c := range []struct {
				name string
				in   lang.Value
				per  int
			}{{"chain", b, 1}, {"mix", w, 4}} {
				dst := lang.Value{IsArray: true, Elems: make([]uint64, n)}
				if _, _, err := vm.Run(p, p.Export(c.name), []lang.Value{c.in, dst}, vm.Options{}); err != nil {
					t.Fatal(err)
				}
				args := []lang.Value{c.in, {IsArray: true, Elems: make([]uint64, n)}}
				m, addr, size, err := aliasedCall(t, prog, c.name, args, "dst", "src", 0)
				if err != nil {
					t.Fatalf("%s %s, %d elements, in place: %v", opt, c.name, n, err)
				}
				got := memBytes(m, addr, size)
				for i, e := range dst.Elems {
					var x uint64
					for j := 0; j < c.per; j++ {
						x |= uint64(got[i*c.per+j]) << (8 * j)
					}
					if x != e {
						t.Errorf("%s %s, %d elements, in place: element %d = %#x, want %#x", opt, c.name, n, i, x, e)
						break
					}
				}
				if n > 1 {
					args = []lang.Value{c.in, {IsArray: true, Elems: make([]uint64, n)}}
					if _, _, _, err := aliasedCall(t, prog, c.name, args, "dst", "src", c.per); err == nil || !strings.Contains(err.Error(), "fault: "+c.name+": requires dst and src the same buffer or disjoint") {
						t.Errorf("%s %s, %d elements, dst one element after src: %v", opt, c.name, n, err)
					}
				}
			}
		}
	}
}

// paramPos is the position, as a fault names it (stdlib/FILE:LINE:COL),
// of parameter param in the header of export fn of the stdlib's file.
func paramPos(t *testing.T, file, fn, param string) string {
	t.Helper()
	src, err := os.ReadFile("../../stdlib/" + file)
	if err != nil {
		t.Fatal(err)
	}
	for i, line := range strings.Split(string(src), "\n") {
		if !strings.HasPrefix(line, "export fn "+fn+"(") {
			continue
		}
		if c := strings.Index(line, " "+param+": "); c >= 0 {
			return fmt.Sprintf("stdlib/%s:%d:%d", file, i+1, c+2)
		}
	}
	t.Fatalf("no parameter %s of %s in %s", param, fn, file)
	return ""
}

// TestOverlapCheckForms: the entry check of the buffer rule, in the
// speed form (inline, overlap.go's ovl) and the size form (ovchk and its
// table), gives on 3,000 random placements of five arrays (slices of u8
// and u16, fixed arrays, two written, empty ones included, starts near
// each other) the rule's verdict computed here from the placement.
func TestOverlapCheckForms(t *testing.T) {
	src := `module ovf
export fn g(a: []u8, b: mut []u8, c: [4]u8, d: mut []u16, e: [3]u32) effects trap {
    if len(b) > 100 {
        b[0] = c[0]
    }
}
`
	p := testprog.Source(t, "ovf.lw", src)
	for _, opt := range []string{"speed", "size"} {
		prog, err := build(input(p), backend.Options{Opt: opt}, layout{org: runOrg, linear: true})
		if err != nil {
			t.Fatal(err)
		}
		if _, table := prog.img.labels["ovchk"]; table != (opt == "size") {
			t.Fatalf("%s: the table form is used: %v", opt, table)
		}
		args := []lang.Value{bytesValue(nil), bytesValue(nil), bytesValue(make([]byte, 4)),
			{IsArray: true, Elems: []uint64{}}, {IsArray: true, Elems: make([]uint64, 3)}}
		per := []int{1, 1, 1, 2, 4}
		fixed := []int{-1, -1, 4, -1, 3}
		written := []bool{false, true, false, true, false}
		rng := rand.New(rand.NewPCG(7, 9))
		bad, good := 0, 0
		for trial := 0; trial < 3000; trial++ {
			m, abi, _, err := prog.setup("g", args)
			if err != nil {
				t.Fatal(err)
			}
			var start, size []int
			k := 0
			for _, pa := range abi.Params {
				if pa.Ptr == 0 {
					continue
				}
				at := 0x4000 + rng.IntN(48)
				n := fixed[k]
				if n < 0 {
					n = rng.IntN(10)
					if rng.IntN(8) == 0 {
						n = 0
					}
					m.mem.StoreByte(uint16(pa.Len), byte(n))
					m.mem.StoreByte(uint16(pa.Len+1), 0)
				}
				m.mem.StoreByte(uint16(pa.Ptr), byte(at))
				m.mem.StoreByte(uint16(pa.Ptr+1), byte(at>>8))
				start, size = append(start, at), append(size, n*per[k])
				k++
			}
			want := false
			for i := range start {
				for j := i + 1; j < len(start); j++ {
					p, n, q, k := start[i], size[i], start[j], size[j]
					if (written[i] || written[j]) && n > 0 && k > 0 && p < q+k && q < p+n && (p != q || n != k) {
						want = true
					}
				}
			}
			if _, err := m.call(prog.img.labels[abi.Label], nil); err != nil {
				t.Fatal(err)
			}
			got := m.mem.LoadByte(uint16(prog.img.labels["trapid"])) != 0
			if got != want {
				t.Fatalf("%s: starts %x, bytes %v: trapped %v, the rule says %v", opt, start, size, got, want)
			}
			if want {
				bad++
			} else {
				good++
			}
		}
		t.Logf("%s: %d placements refused, %d accepted", opt, bad, good)
	}
}
