package jcvm

import (
	"bytes"
	"crypto/aes"
	"crypto/cipher"
	"crypto/sha256"
	"fmt"
	"math/rand"
	"os/exec"
	"strings"
	"testing"

	"github.com/lowent/lowentc/backend"
	"github.com/lowent/lowentc/internal/testprog"
	"github.com/lowent/lowentc/ir"
	"github.com/lowent/lowentc/lang"
	"github.com/lowent/lowentc/stdlib/golden"
)

// elemBytes reads back a byte array argument.
func elemBytes(v lang.Value) []byte {
	b := make([]byte, len(v.Elems))
	for i, e := range v.Elems {
		b[i] = byte(e)
	}
	return b
}

// TestArgLengthLimit runs sha256 and aes128_ctr in the simulator at both
// widths on the longest slice a Java Card array can carry (32,762 bytes:
// 32,767 less the runner's 3 bytes before and 2 after), against Go's
// crypto, and checks that one byte more, 65,536 and 65,537 bytes are
// refused with the limit named rather than run on a length cut to 16 bits.
func TestArgLengthLimit(t *testing.T) {
	const limit = maxArrayLen - padFront - padBack
	if limit != 32762 {
		t.Fatalf("limit %d, want 32762", limit)
	}
	r := rand.New(rand.NewSource(golden.Seed(t)))
	sha := testprog.Stdlib(t, "sha256")
	aesp := testprog.Stdlib(t, "aes")
	for _, noInt := range []bool{false, true} {
		rs, err := prepareShared(sha, backend.Options{NoInt: noInt})
		if err != nil {
			t.Fatal(err)
		}
		ra, err := prepareShared(aesp, backend.Options{NoInt: noInt})
		if err != nil {
			t.Fatal(err)
		}
		for _, n := range []int{limit, limit + 1, 65536, 65537} {
			msg := randBytes(r, n)
			args := []lang.Value{golden.Bytes(msg), golden.Bytes(make([]byte, 32))}
			_, _, err := rs.Run("sha256", args)
			refusal := fmt.Sprintf("jcvm: msg has %s bytes; a Java Card array holds at most 32,767 bytes", lang.Thousands(int64(n)))
			switch {
			case n <= limit && err != nil:
				t.Errorf("noInt=%v sha256 of %d bytes: %v", noInt, n, err)
			case n <= limit:
				if d := sha256.Sum256(msg); !bytes.Equal(elemBytes(args[1]), d[:]) {
					t.Errorf("noInt=%v sha256 of %d bytes = %x, want %x", noInt, n, elemBytes(args[1]), d)
				}
			case err == nil || !strings.HasPrefix(err.Error(), refusal) || !strings.HasSuffix(err.Error(), "at most 32,762 bytes"):
				t.Errorf("noInt=%v sha256 of %d bytes: error %v, want %q ... at most 32,762 bytes", noInt, n, err, refusal)
			}

			key, iv := randBytes(r, 16), randBytes(r, 16)
			args = []lang.Value{golden.Bytes(key), golden.Bytes(iv), golden.Bytes(msg), golden.Bytes(make([]byte, n))}
			_, _, err = ra.Run("aes128_ctr", args)
			refusal = fmt.Sprintf("jcvm: src has %s bytes", lang.Thousands(int64(n)))
			switch {
			case n <= limit && err != nil:
				t.Errorf("noInt=%v aes128_ctr of %d bytes: %v", noInt, n, err)
			case n <= limit:
				blk, err := aes.NewCipher(key)
				if err != nil {
					t.Fatal(err)
				}
				want := make([]byte, n)
				cipher.NewCTR(blk, iv).XORKeyStream(want, msg)
				if !bytes.Equal(elemBytes(args[3]), want) {
					t.Errorf("noInt=%v aes128_ctr of %d bytes: wrong ciphertext", noInt, n)
				}
			case err == nil || !strings.HasPrefix(err.Error(), refusal):
				t.Errorf("noInt=%v aes128_ctr of %d bytes: error %v, want %q...", noInt, n, err, refusal)
			}
		}
	}
}

// TestArgLengthLimitJVM hashes a message of the longest length the runners
// pass (32,762 bytes, in a Java array of 32,767) with the generated Java
// on a JVM at both widths, against Go's crypto/sha256.
func TestArgLengthLimitJVM(t *testing.T) {
	r := rand.New(rand.NewSource(golden.Seed(t)))
	for _, noInt := range []bool{false, true} {
		classes, cls := jvmBuild(t, noInt)
		c := cls["sha256"]
		exp := exportOf(c, "sha256")
		msg := randBytes(r, maxArrayLen-padFront-padBack)
		args := []lang.Value{golden.Bytes(msg), golden.Bytes(make([]byte, 32))}
		jargs, err := marshal(c.W, exp.Fn.(*ir.Function), args)
		if err != nil {
			t.Fatal(err)
		}
		if n := len(jargs[0].Bytes); n != maxArrayLen {
			t.Fatalf("the message's Java array has %d bytes, want %d", n, maxArrayLen)
		}
		cmd := exec.Command("java", "-cp", classes, "Driver")
		cmd.Stdin = strings.NewReader(jvmLine(c, exp, jargs) + "\n")
		out, err := cmd.Output()
		if err != nil {
			t.Fatalf("java: %v", err)
		}
		if _, err := parseAnswer(c.W, strings.TrimSpace(string(out)), exp, jargs, args); err != nil {
			t.Fatalf("noInt=%v: %v", noInt, err)
		}
		if d := sha256.Sum256(msg); !bytes.Equal(elemBytes(args[1]), d[:]) {
			t.Errorf("noInt=%v: sha256 of %d bytes on the JVM = %x, want %x", noInt, len(msg), elemBytes(args[1]), d)
		}
	}
}
