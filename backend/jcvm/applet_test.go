package jcvm

import (
	"bytes"
	"crypto/aes"
	"crypto/cipher"
	"crypto/sha256"
	"encoding/binary"
	"encoding/hex"
	"fmt"
	"math/rand"
	"os/exec"
	"strings"
	"testing"

	"golang.org/x/crypto/blake2b"

	"github.com/lowent/lowentc/ir"
	"github.com/lowent/lowentc/lang"
	"github.com/lowent/lowentc/stdlib/golden"
)

// terminal builds the command APDUs of one session with a generated applet,
// as a card terminal would send them (CLA 0x80, short APDUs), and the checks
// to run on the answers.
type terminal struct {
	cls    *Class
	apdus  []string             // hex commands, in order
	checks []func(answer) error // one per APDU
	next   int                  // first free byte of the argument area
}

// answer is the card's reply to one APDU.
type answer struct {
	sw   string
	data []byte
}

func (tm *terminal) send(cmd []byte, check func(answer) error) {
	tm.apdus = append(tm.apdus, hex.EncodeToString(cmd))
	tm.checks = append(tm.checks, check)
}

// ok expects status 9000.
func ok(what string) func(answer) error {
	return func(a answer) error {
		if a.sw != "9000" {
			return fmt.Errorf("%s: status %s", what, a.sw)
		}
		return nil
	}
}

// load writes b at offset off of the argument area, 255 bytes per LOAD.
func (tm *terminal) load(off int, b []byte) {
	for len(b) > 0 {
		n := min(len(b), 255)
		cmd := append([]byte{0x80, 0x01, byte(off >> 8), byte(off), byte(n)}, b[:n]...)
		tm.send(cmd, ok(fmt.Sprintf("LOAD at %d", off)))
		b, off = b[n:], off+n
	}
}

// read reads n bytes at offset off, 256 per READ, and hands them to got.
func (tm *terminal) read(off, n int, got func([]byte) error) {
	var all []byte
	for done := 0; done < n; {
		k := min(n-done, 256)
		last := done+k == n
		at := off + done
		tm.send([]byte{0x80, 0x02, byte(at >> 8), byte(at), byte(k)}, func(a answer) error {
			if a.sw != "9000" || len(a.data) != k {
				return fmt.Errorf("READ %d at %d: status %s, %d bytes", k, at, a.sw, len(a.data))
			}
			all = append(all, a.data...)
			if last {
				return got(all)
			}
			return nil
		})
		done += k
	}
}

// place loads the arguments of export e into the argument area and returns
// the command data of its INS and where each array argument lies.
func (tm *terminal) place(e *Export, args []lang.Value) ([]byte, map[int]int, error) {
	data, at, _, err := tm.placeAt(e, args)
	return data, at, err
}

// placeAt is place, also returning where in the command data each array
// argument's offset is.
func (tm *terminal) placeAt(e *Export, args []lang.Value) ([]byte, map[int]int, map[int]int, error) {
	jargs, err := marshal(tm.cls.W, e.Fn.(*ir.Function), args)
	if err != nil {
		return nil, nil, nil, err
	}
	var data []byte
	at := map[int]int{}    // source parameter -> offset of its first element
	field := map[int]int{} // source parameter -> index of its offset in data
	for i := 0; i < len(jargs); i++ {
		a := jargs[i]
		switch a.Kind {
		case KRef:
			// The array's padding goes along, so an export writing outside
			// its argument would show in the padding.
			base := tm.next
			tm.load(base, a.Bytes)
			tm.next += len(a.Bytes) + 7
			at[a.Param] = base + padFront
			field[a.Param] = len(data)
			i++ // the offset parameter that follows
			data = binary.BigEndian.AppendUint16(data, uint16(base+padFront))
		case KInt:
			data = binary.BigEndian.AppendUint32(data, uint32(a.Val))
		default:
			data = binary.BigEndian.AppendUint16(data, uint16(a.Val))
		}
	}
	if tm.next > argAreaSize {
		return nil, nil, nil, fmt.Errorf("arguments of %d bytes exceed the argument area", tm.next)
	}
	return data, at, field, nil
}

// callMoved is call with array parameter moved placed d bytes from
// parameter to (d = 0: the same bytes). want maps a parameter to the
// bytes expected at its (moved) place; status is the expected status word.
func (tm *terminal) callMoved(t *testing.T, name string, args []lang.Value, moved, to, d int, status string, want map[int][]byte) {
	t.Helper()
	ins, k := tm.insOf(name)
	data, at, field, err := tm.placeAt(tm.cls.Exports[k], args)
	if err != nil {
		t.Fatal(err)
	}
	at[moved] = at[to] + d
	binary.BigEndian.PutUint16(data[field[moved]:], uint16(at[moved]))
	tm.send(append([]byte{0x80, ins, 0, 0, byte(len(data))}, data...), func(a answer) error {
		if a.sw != status {
			return fmt.Errorf("%s, parameter %d at %+d from %d: status %s, want %s", name, moved, d, to, a.sw, status)
		}
		return nil
	})
	for p, w := range want {
		p, w := p, w
		tm.read(at[p], len(w), func(got []byte) error {
			if !bytes.Equal(got, w) {
				return fmt.Errorf("%s, parameter %d at %+d from %d: parameter %d = %x, want %x", name, moved, d, to, p, got, w)
			}
			return nil
		})
	}
}

// insOf is the INS of export name: 0x10 + its index.
func (tm *terminal) insOf(name string) (byte, int) {
	for i, e := range tm.cls.Exports {
		if e.Name == name {
			return byte(0x10 + i), i
		}
	}
	return 0, -1
}

// call sends the arguments, the export's INS and READs of its mut arrays,
// and checks them against want (parameter index -> expected bytes).
func (tm *terminal) call(t *testing.T, name string, args []lang.Value, want map[int][]byte) {
	t.Helper()
	ins, k := tm.insOf(name)
	if k < 0 {
		t.Fatalf("%s has no export %s", tm.cls.Name, name)
	}
	data, at, err := tm.place(tm.cls.Exports[k], args)
	if err != nil {
		t.Fatal(err)
	}
	tm.send(append([]byte{0x80, ins, 0, 0, byte(len(data))}, data...), ok(name))
	for p, w := range want {
		p, w := p, w
		tm.read(at[p], len(w), func(got []byte) error {
			if !bytes.Equal(got, w) {
				return fmt.Errorf("%s: parameter %d = %x, want %x", name, p, got, w)
			}
			return nil
		})
	}
}

// run sends the session to a JVM running AppletDriver and checks every
// answer.
func (tm *terminal) run(t *testing.T, classes string) {
	t.Helper()
	in := "INSTALL lowent." + tm.cls.Name + "Applet\n" + strings.Join(prefix("APDU ", tm.apdus), "\n") + "\n"
	cmd := exec.Command("java", "-cp", classes, "AppletDriver")
	cmd.Stdin = strings.NewReader(in)
	out, err := cmd.CombinedOutput()
	if err != nil {
		t.Fatalf("java AppletDriver: %v\n%s", err, out)
	}
	lines := strings.Split(strings.TrimRight(string(out), "\n"), "\n")
	if len(lines) != len(tm.apdus) {
		t.Fatalf("the applet answered %d APDUs of %d:\n%s", len(lines), len(tm.apdus), out)
	}
	for i, l := range lines {
		f := strings.SplitN(l, " ", 2)
		a := answer{sw: f[0]}
		if len(f) == 2 {
			a.data, err = hex.DecodeString(f[1])
			if err != nil {
				t.Fatalf("answer %q: %v", l, err)
			}
		}
		if err := tm.checks[i](a); err != nil {
			t.Errorf("APDU %d (%s): %v", i, tm.apdus[i], err)
		}
	}
}

func prefix(p string, s []string) []string {
	out := make([]string, len(s))
	for i, x := range s {
		out[i] = p + x
	}
	return out
}

func randBytes(r *rand.Rand, n int) []byte {
	b := make([]byte, n)
	r.Read(b)
	return b
}

// TestAppletAPDU installs the generated applets of sha256, blake2b and gcm
// in a JVM and drives them as a terminal would: LOAD the arguments, the
// export's INS, READ the outputs, compared with Go's crypto; then the timing
// INS, chained so that N calls give the N-fold hash, an unknown INS, and
// malformed commands (timing N = 0, wrong data lengths, LOAD and READ
// outside the area).
func TestAppletAPDU(t *testing.T) {
	seed := golden.Seed(t)
	for _, noInt := range []bool{false, true} {
		t.Run(fmt.Sprintf("noint=%v", noInt), func(t *testing.T) {
			classes, cls := jvmBuild(t, noInt)
			r := rand.New(rand.NewSource(seed))

			sha := &terminal{cls: cls["sha256"]}
			msg := randBytes(r, 300) // two LOADs
			d := sha256.Sum256(msg)
			sha.call(t, "sha256", []lang.Value{golden.Bytes(msg), golden.Bytes(make([]byte, 32))}, map[int][]byte{1: d[:]})
			sha.chained(t, "sha256", 32, 5, func(b []byte) []byte { s := sha256.Sum256(b); return s[:] }, r)
			sha.send([]byte{0x80, 0x7f, 0, 0, 1, 0}, func(a answer) error {
				if a.sw != "6d00" {
					return fmt.Errorf("unknown INS: status %s, want 6d00", a.sw)
				}
				return nil
			})
			sha.bounds(t, r)
			sha.protocol(t, "sha256", []byte{0, 0, 0, 32, 0, 64}, r)
			sha.run(t, classes)

			b2 := &terminal{cls: cls["blake2b"]}
			msg = randBytes(r, 200)
			h := blake2b.Sum512(msg)
			b2.call(t, "blake2b", []lang.Value{golden.Bytes(msg), golden.Bytes(make([]byte, 64))}, map[int][]byte{1: h[:]})
			b2.chained(t, "blake2b", 64, 3, func(b []byte) []byte { s := blake2b.Sum512(b); return s[:] }, r)
			b2.run(t, classes)

			gcm := &terminal{cls: cls["gcm"]}
			key, nonce := randBytes(r, 16), randBytes(r, 12)
			aad, pt := randBytes(r, 20), randBytes(r, 100)
			blk, err := aes.NewCipher(key)
			if err != nil {
				t.Fatal(err)
			}
			aead, err := cipher.NewGCM(blk)
			if err != nil {
				t.Fatal(err)
			}
			sealed := aead.Seal(nil, nonce, pt, aad)
			gcm.call(t, "aes128_gcm_seal", []lang.Value{golden.Bytes(key), golden.Bytes(nonce), golden.Bytes(aad), golden.Bytes(pt),
				golden.Bytes(make([]byte, len(pt))), golden.Bytes(make([]byte, 16))},
				map[int][]byte{4: sealed[:len(pt)], 5: sealed[len(pt):]})
			// In place: ct on pt gives the same answer.
			seal := func() []lang.Value {
				return []lang.Value{golden.Bytes(key), golden.Bytes(nonce), golden.Bytes(aad), golden.Bytes(pt),
					golden.Bytes(make([]byte, len(pt))), golden.Bytes(make([]byte, 16))}
			}
			gcm.callMoved(t, "aes128_gcm_seal", seal(), 4, 3, 0, "9000", map[int][]byte{4: sealed[:len(pt)], 5: sealed[len(pt):]})
			// Partial overlaps are refused (6F05) with nothing written:
			// ct after or before pt, the tag over aad.
			for _, d := range []int{1, 17, 99, -1, -64} {
				gcm.callMoved(t, "aes128_gcm_seal", seal(), 4, 3, d, "6f05", map[int][]byte{3: pt})
			}
			gcm.callMoved(t, "aes128_gcm_seal", seal(), 5, 2, 4, "6f05", map[int][]byte{2: aad})
			// The timing INS with N = 0 on open answers 6700, not 9000 with
			// the command's own bytes as its result.
			gcm.protocol(t, "aes128_gcm_open", make([]byte, 18), r) // every array at 0, slices empty
			gcm.run(t, classes)
		})
	}
}

// chained runs the timing INS on export name (msg, out) with n calls, the
// message and the output sharing their place in the argument area, so the
// card computes the n-fold hash of a random size-byte message.
func (tm *terminal) chained(t *testing.T, name string, size, n int, hash func([]byte) []byte, r *rand.Rand) {
	t.Helper()
	_, k := tm.insOf(name)
	msg := randBytes(r, size)
	base := tm.next
	tm.load(base, msg)
	tm.next += size
	data := []byte{byte(base >> 8), byte(base), 0, byte(size), byte(base >> 8), byte(base)}
	tm.send(append([]byte{0x80, 0x20, byte(n), byte(k), byte(len(data))}, data...), ok(name+" timing INS"))
	want := msg
	for i := 0; i < n; i++ {
		want = hash(want)
	}
	tm.read(base, size, func(got []byte) error {
		if !bytes.Equal(got, want) {
			return fmt.Errorf("%s timing INS, %d chained calls: %x, want %x", name, n, got, want)
		}
		return nil
	})
}

// bounds checks that the sha256 applet hashes a message filling the whole
// argument area, and answers SW_WRONG_LENGTH (6700) for an array that is
// not inside the area: a slice one byte too long, a length with the top
// bit set (negative as a short), an offset past the end, an output that
// does not fit, instead of hashing a length cut to a short.
func (tm *terminal) bounds(t *testing.T, r *rand.Rand) {
	t.Helper()
	ins, _ := tm.insOf("sha256")
	area := randBytes(r, argAreaSize)
	tm.load(0, area)
	// msg = the area after the output, up to its last byte; out at its
	// start (the buffer rule keeps an output apart from the message).
	n := argAreaSize - 32
	tm.send([]byte{0x80, ins, 0, 0, 6, 0, 32, byte(n >> 8), byte(n), 0, 0}, ok("sha256 of the area's last bytes"))
	d := sha256.Sum256(area[32:])
	tm.read(0, 32, func(got []byte) error {
		if !bytes.Equal(got, d[:]) {
			return fmt.Errorf("sha256 of the area's last %d bytes = %x, want %x", n, got, d)
		}
		return nil
	})
	for _, c := range []struct {
		what                string
		msgOff, msgLen, out int
	}{
		{"a message one byte past the area", 1, argAreaSize, 0},
		{"a message of 0x8000 bytes", 0, 0x8000, 0},
		{"a message of 0xffff bytes", 0, 0xffff, 0},
		{"a message offset past the area", argAreaSize + 1, 0, 0},
		{"a negative message offset", 0xffff, 1, 0},
		{"an output crossing the end", 0, 1, argAreaSize - 31},
		{"a negative output offset", 0, 1, 0xfffe},
	} {
		c := c
		data := []byte{byte(c.msgOff >> 8), byte(c.msgOff), byte(c.msgLen >> 8), byte(c.msgLen), byte(c.out >> 8), byte(c.out)}
		tm.send(append([]byte{0x80, ins, 0, 0, 6}, data...), func(a answer) error {
			if a.sw != "6700" {
				return fmt.Errorf("sha256 with %s: status %s, want 6700", c.what, a.sw)
			}
			return nil
		})
	}
}

// status expects status word sw.
func status(what, sw string) func(answer) error {
	return func(a answer) error {
		if a.sw != sw {
			return fmt.Errorf("%s: status %s, want %s", what, a.sw, sw)
		}
		return nil
	}
}

// protocol checks the applet's answers to malformed commands on export
// name, whose INS data is good (valid offsets, the right length): the
// timing INS with N = 0, command data shorter or longer than the
// parameters or absent, and LOAD and READ outside the argument area (with
// nothing written). All are SW_WRONG_LENGTH (6700); the in-range commands
// beside them answer 9000.
func (tm *terminal) protocol(t *testing.T, name string, good []byte, r *rand.Rand) {
	t.Helper()
	ins, k := tm.insOf(name)
	if k < 0 {
		t.Fatalf("%s has no export %s", tm.cls.Name, name)
	}
	n := len(good)
	tm.send(append([]byte{0x80, 0x20, 0, byte(k), byte(n)}, good...), status(name+" timing INS with N = 0", "6700"))
	tm.send([]byte{0x80, ins, 0, 0}, status(name+" without command data", "6700"))
	if n > 1 {
		tm.send(append([]byte{0x80, ins, 0, 0, byte(n - 1)}, good[:n-1]...), status(name+" with one data byte short", "6700"))
		tm.send(append([]byte{0x80, 0x20, 1, byte(k), byte(n - 1)}, good[:n-1]...), status(name+" timing INS with one data byte short", "6700"))
	}
	tm.send(append(append([]byte{0x80, ins, 0, 0, byte(n + 1)}, good...), 0), status(name+" with one data byte too many", "6700"))
	// The area's last bytes, then LOADs and READs crossing its end.
	last := randBytes(r, 4)
	tm.load(argAreaSize-4, last)
	for _, c := range []struct {
		what string
		off  int
		n    int
	}{
		{"crossing the end", argAreaSize - 2, 3},
		{"at the end", argAreaSize, 1},
		{"at a negative offset", 0xffff, 1},
		{"at offset 0x8000", 0x8000, 1},
	} {
		c := c
		tm.send(append([]byte{0x80, 0x01, byte(c.off >> 8), byte(c.off), byte(c.n)}, randBytes(r, c.n)...), status("LOAD "+c.what, "6700"))
		tm.send([]byte{0x80, 0x02, byte(c.off >> 8), byte(c.off), byte(c.n)}, status("READ "+c.what, "6700"))
	}
	tm.send([]byte{0x80, 0x02, (argAreaSize - 255) >> 8, (argAreaSize - 255) & 0xff, 0}, status("READ of 256 bytes crossing the end", "6700"))
	tm.read(argAreaSize-4, 4, func(got []byte) error {
		if !bytes.Equal(got, last) {
			return fmt.Errorf("the area's last bytes after refused LOADs: %x, want %x", got, last)
		}
		return nil
	})
}
