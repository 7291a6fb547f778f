package mos6502

import (
	"bytes"
	"crypto/sha256"
	"testing"

	"github.com/lowent/lowentc/backend"
	"github.com/lowent/lowentc/internal/testprog"
	"github.com/lowent/lowentc/ir"
)

// TestCallConvention calls sha256 the way docs/mos6502.md tells a C64
// programmer to, in both modes: the pointers and the length at the
// zero-page addresses the ABI names, trapid cleared, `jsr sha256`. It
// checks the digest, that the routine leaves $00/$01 and the zero page
// above the range the header names alone, that a second call on the same
// image (no reload) is right too, and that a partial overlap of msg and
// out returns to the caller with the overlap check's number in trapid and
// out untouched.
func TestCallConvention(t *testing.T) {
	p := testprog.Stdlib(t, "sha256")
	for _, opt := range []string{"speed", "size"} {
		prog, err := build(input(p), backend.Options{Opt: opt}, layout{org: runOrg, linear: true})
		if err != nil {
			t.Fatal(err)
		}
		abi := prog.abis["sha256"]
		m := newMachineWith(runOpts{})
		if err := m.load(prog.img.org, prog.img.data); err != nil {
			t.Fatal(err)
		}
		for a := 0; a < 256; a++ {
			m.mem.StoreByte(uint16(a), byte(a*5+1))
		}
		msg, out := abi.Params[0], abi.Params[1]
		trapid := uint16(prog.img.labels["trapid"])
		word := func(at int, v int) {
			m.mem.StoreByte(uint16(at), byte(v))
			m.mem.StoreByte(uint16(at+1), byte(v>>8))
		}
		call := func(text []byte, at, outAt int) (byte, []byte) {
			m.mem.StoreBytes(uint16(at), text)
			word(msg.Ptr, at)
			word(msg.Len, len(text))
			word(out.Ptr, outAt)
			m.mem.StoreByte(trapid, 0)
			if _, err := m.call(prog.img.labels[abi.Label], nil); err != nil {
				t.Fatal(err)
			}
			got := make([]byte, 32)
			for i := range got {
				got[i] = m.mem.LoadByte(uint16(outAt + i))
			}
			return m.mem.LoadByte(trapid), got
		}
		for _, text := range []string{"abc", "Hello C64"} {
			id, got := call([]byte(text), 0xc000, 0xc100)
			want := sha256.Sum256([]byte(text))
			if id != 0 || !bytes.Equal(got, want[:]) {
				t.Errorf("%s: sha256(%q): trapid %d, out %x, want %x", opt, text, id, got, want)
			}
		}
		for a := 0; a < 256; a++ {
			if (a < 2 || a > abi.ZPTop) && m.mem.LoadByte(uint16(a)) != byte(a*5+1) {
				t.Errorf("%s: zero page $%02x changed, outside $02-$%02x", opt, a, abi.ZPTop)
			}
		}
		// out starts inside msg: the entry refuses before writing.
		marker := bytes.Repeat([]byte{0xa5}, 32)
		m.mem.StoreBytes(0xc200, make([]byte, 40))
		m.mem.StoreBytes(0xc204, marker)
		id, got := call([]byte("0123"), 0xc200, 0xc202)
		if id == 0 || int(id) > len(prog.checks) || prog.checks[id-1].Kind != ir.CheckOverlap {
			t.Errorf("%s: overlapping msg and out: trapid %d, not an overlap check", opt, id)
		}
		if !bytes.Equal(got[2:], marker[:30]) {
			t.Errorf("%s: out written although the call trapped: %x", opt, got)
		}
		if m.cpu.Reg.SP != 0xff {
			t.Errorf("%s: stack pointer $%02x after the trap, want $ff as before the jsr", opt, m.cpu.Reg.SP)
		}
		t.Logf("%s: entry %s, msg ptr $%02x len $%02x, out ptr $%02x, zero page $02-$%02x, trapid at $%04x, overlap check %d",
			opt, abi.Label, msg.Ptr, msg.Len, out.Ptr, abi.ZPTop, trapid, id)
	}
}
