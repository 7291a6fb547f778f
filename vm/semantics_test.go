package vm_test

import (
	"bytes"
	"encoding/binary"
	"fmt"
	"slices"
	"strings"
	"testing"

	"github.com/lowent/lowentc/lang"
	"github.com/lowent/lowentc/vm"
)

// lineCol finds the 1-based line and column of the first occurrence of needle.
func lineCol(t *testing.T, src, needle string) (int, int) {
	t.Helper()
	i := strings.Index(src, needle)
	if i < 0 {
		t.Fatalf("%q not in source", needle)
	}
	line := strings.Count(src[:i], "\n") + 1
	col := i - strings.LastIndex(src[:i], "\n")
	return line, col
}

// assertTrapIn checks that a trap points into the text needle of src.
func assertTrapIn(t *testing.T, err error, src, needle string) *vm.Trap {
	t.Helper()
	tr := trapOf(t, err)
	line, col := lineCol(t, src, needle)
	if tr.Pos.File != "t.lw" || tr.Pos.Line != line || tr.Pos.Col < col || tr.Pos.Col >= col+len(needle) {
		t.Errorf("trap at %v, want inside %q at t.lw:%d:%d", tr.Pos, needle, line, col)
	}
	if want := fmt.Sprintf("%v: trap: ", tr.Pos); !strings.HasPrefix(tr.Error(), want) {
		t.Errorf("Error() = %q, want prefix %q", tr.Error(), want)
	}
	return tr
}

const trapSrc = `module traps

export fn at(s: []u32, i: u32) -> u32 effects trap {
    return s[i]
}
export fn put(s: mut []u32, i: u64, v: u32) effects trap {
    s[i] = v
}
export fn quot(a: u32, b: u32) -> u32 effects trap {
    return a / b
}
export fn rem(a: u16, b: u16) -> u16 effects trap {
    return a % b
}
export fn quot_assign(a: u8, b: u8) -> u8 effects trap {
    var x = a
    x /= b
    return x
}
export fn ld(s: []u8, off: u32) -> u32 effects trap {
    return load_be32(s, off)
}
export fn st(s: mut []u8, off: u64, v: u16) effects trap {
    store_le16(s, off, v)
}
export fn raw_get(s: []u32, i: u32) -> u32 effects unsafe {
    return unchecked_get(s, i)
}
export fn raw_set(s: mut []u32, i: u32, v: u32) effects unsafe {
    unchecked_set(s, i, v)
}
`

func TestTraps(t *testing.T) {
	p := load(t, trapSrc)
	s := arr(10, 20, 30)
	if got := call(t, p, "at", s, w(2))[0].Word; got != 30 {
		t.Errorf("at(2) = %d", got)
	}
	_, err := try(t, p, "at", s, w(3))
	tr := assertTrapIn(t, err, trapSrc, "s[i]")
	if !strings.Contains(tr.Msg, "3") || strings.Contains(tr.Msg, "checker bug") {
		t.Errorf("index trap message %q", tr.Msg)
	}
	_, err = try(t, p, "put", arr(1, 2), w(1<<40), w(5))
	assertTrapIn(t, err, trapSrc, "s[i] = v")

	_, err = try(t, p, "quot", w(7), w(0))
	assertTrapIn(t, err, trapSrc, "a / b")
	_, err = try(t, p, "rem", w(7), w(0))
	assertTrapIn(t, err, trapSrc, "a % b")
	_, err = try(t, p, "quot_assign", w(7), w(0))
	assertTrapIn(t, err, trapSrc, "x /= b")
	if got := call(t, p, "quot_assign", w(200), w(7))[0].Word; got != 200/7 {
		t.Errorf("200 /= 7 gives %d", got)
	}

	msg := []byte{1, 2, 3, 4, 5}
	if got := call(t, p, "ld", byteArr(msg), w(1))[0].Word; got != uint64(binary.BigEndian.Uint32(msg[1:])) {
		t.Errorf("load_be32 at 1 = %#x", got)
	}
	_, err = try(t, p, "ld", byteArr(msg), w(2))
	assertTrapIn(t, err, trapSrc, "load_be32(s, off)")
	_, err = try(t, p, "ld", byteArr(msg), w(0xffffffff))
	assertTrapIn(t, err, trapSrc, "load_be32(s, off)")
	_, err = try(t, p, "st", byteArr(msg), w(^uint64(0)), w(1))
	assertTrapIn(t, err, trapSrc, "store_le16(s, off, v)")

	_, err = try(t, p, "raw_get", s, w(3))
	assertTrapIn(t, err, trapSrc, "unchecked_get(s, i)")
	_, err = try(t, p, "raw_set", s, w(7), w(1))
	assertTrapIn(t, err, trapSrc, "unchecked_set(s, i, v)")
	set := arr(0, 0, 0)
	call(t, p, "raw_set", set, w(1), w(9))
	if !slices.Equal(set.Elems, []uint64{0, 9, 0}) {
		t.Errorf("unchecked_set wrote %v", set.Elems)
	}
}

func TestLoadStoreByteOrders(t *testing.T) {
	var sb strings.Builder
	sb.WriteString("module bytes\n")
	for _, n := range []int{16, 32, 64} {
		for _, o := range []string{"le", "be"} {
			fmt.Fprintf(&sb, "export fn l%s%d(s: []u8, off: u32) -> u%d effects trap {\n    return load_%s%d(s, off)\n}\n", o, n, n, o, n)
			fmt.Fprintf(&sb, "export fn s%s%d(s: mut []u8, off: u32, v: u%d) effects trap {\n    store_%s%d(s, off, v)\n}\n", o, n, n, o, n)
		}
	}
	p := load(t, sb.String())
	msg := make([]byte, 23)
	for i := range msg {
		msg[i] = byte(i*37 + 11)
	}
	type order struct {
		name string
		bo   binary.ByteOrder
	}
	for _, o := range []order{{"le", binary.LittleEndian}, {"be", binary.BigEndian}} {
		for _, n := range []int{16, 32, 64} {
			for off := 0; off+n/8 <= len(msg); off++ {
				var want uint64
				buf := make([]byte, 8)
				switch n {
				case 16:
					want = uint64(o.bo.Uint16(msg[off:]))
					o.bo.PutUint16(buf, uint16(want^0xa5a5))
				case 32:
					want = uint64(o.bo.Uint32(msg[off:]))
					o.bo.PutUint32(buf, uint32(want^0xa5a5))
				case 64:
					want = o.bo.Uint64(msg[off:])
					o.bo.PutUint64(buf, want^0xa5a5)
				}
				got := call(t, p, fmt.Sprintf("l%s%d", o.name, n), byteArr(msg), w(uint64(off)))[0].Word
				if got != want {
					t.Errorf("load_%s%d at %d = %#x, want %#x", o.name, n, off, got, want)
				}
				dst := byteArr(msg)
				call(t, p, fmt.Sprintf("s%s%d", o.name, n), dst, w(uint64(off)), w(want^0xa5a5))
				wantBytes := slices.Clone(msg)
				copy(wantBytes[off:off+n/8], buf)
				if !bytes.Equal(toBytes(dst.Elems), wantBytes) {
					t.Errorf("store_%s%d at %d wrote % x, want % x", o.name, n, off, toBytes(dst.Elems), wantBytes)
				}
			}
		}
	}
}

const requiresSrc = `module req

fn need2(out: mut []u64, v: u64) requires len(out) >= 2 {
    out[0] = v
    out[1] = v + 1
}
export fn unchecked_caller(o: mut []u64) effects trap {
    need2(o, 5)
}
export fn guarded(o: mut []u64) requires len(o) >= 2 effects none {
    need2(o, 7)
}
export fn pair(a: []u32, b: []u32) -> u32 requires len(a) == len(b), len(a) > 0 effects none {
    return a[0] + b[0]
}
`

func TestRequires(t *testing.T) {
	p := load(t, requiresSrc)
	o := arr(0, 0, 0)
	call(t, p, "unchecked_caller", o)
	if !slices.Equal(o.Elems, []uint64{5, 6, 0}) {
		t.Errorf("need2 wrote %v", o.Elems)
	}
	_, err := try(t, p, "unchecked_caller", arr(0))
	tr := assertTrapIn(t, err, requiresSrc, "need2(o, 5)")
	if !strings.Contains(tr.Msg, "requires") {
		t.Errorf("requires trap message %q", tr.Msg)
	}

	// At the boundary a violated requires is an error, not a trap.
	g := arr(0, 0)
	call(t, p, "guarded", g)
	if !slices.Equal(g.Elems, []uint64{7, 8}) {
		t.Errorf("guarded wrote %v", g.Elems)
	}
	for _, args := range [][]lang.Value{{arr(1)}, {arr()}} {
		_, err := try(t, p, "guarded", args...)
		if err == nil || errorsAs(err, new(*vm.Trap)) {
			t.Errorf("guarded(%v): want a non-trap error, got %v", args[0].Elems, err)
		}
	}
	if got := call(t, p, "pair", arr(3, 4), arr(5, 6))[0].Word; got != 8 {
		t.Errorf("pair = %d", got)
	}
	if _, err := try(t, p, "pair", arr(3, 4), arr(5)); err == nil || errorsAs(err, new(*vm.Trap)) {
		t.Errorf("pair with different lengths: want a non-trap error, got %v", err)
	}
}

const viewsSrc = `module views

// Each 4-element chunk gets its index added to its first element and its
// last element replaced, through a writable view.
export fn mark(s: mut []u32) -> u32 effects none {
    for k, v in chunks(s, 4) {
        v[0] += k
        v[3] = 0xee
    }
    return len(rest(s, 4))
}

fn sum(s: []u32) -> u32 {
    var t: u32 = 0
    for i in 0..len(s) {
        t += s[i]
    }
    return t
}

export fn tail_sum(s: []u32) -> u32 effects none {
    return sum(rest(s, 3))
}

// Copies src to dst chunk by chunk; lengths are checked at run time.
export fn copy2(src: []u8, dst: mut []u8) effects trap {
    for a, b in chunks(src, dst, 2) {
        b[0] = a[1]
        b[1] = a[0]
    }
}

fn fill(v: mut [2]u8, x: u8) {
    v[0] = x
    v[1] = x
}

// A view passed to a mut parameter writes the slice.
export fn fill_all(s: mut []u8) effects none {
    for k, v in chunks(s, 2) {
        fill(v, k as u8)
    }
}
`

func TestViewsAndRest(t *testing.T) {
	p := load(t, viewsSrc)
	for n := 0; n <= 13; n++ {
		s := make([]uint64, n)
		for i := range s {
			s[i] = uint64(100 + i)
		}
		want := slices.Clone(s)
		for k := 0; k+4 <= n; k += 4 {
			want[k] += uint64(k / 4)
			want[k+3] = 0xee
		}
		v := arr(s...)
		got := call(t, p, "mark", v)[0].Word
		if got != uint64(n%4) {
			t.Errorf("len(rest(s[%d], 4)) = %d", n, got)
		}
		if !slices.Equal(v.Elems, want) {
			t.Errorf("mark(%d elements) = %v, want %v", n, v.Elems, want)
		}
		var tail uint64
		for _, x := range s[n/3*3:] {
			tail += x
		}
		if got := call(t, p, "tail_sum", arr(s...))[0].Word; got != tail {
			t.Errorf("tail_sum(%d elements) = %d, want %d", n, got, tail)
		}
	}
	src, dst := byteArr([]byte{1, 2, 3, 4, 5}), byteArr(make([]byte, 5))
	call(t, p, "copy2", src, dst)
	if !slices.Equal(dst.Elems, []uint64{2, 1, 4, 3, 0}) {
		t.Errorf("copy2 wrote %v", dst.Elems)
	}
	_, err := try(t, p, "copy2", src, byteArr(make([]byte, 4)))
	assertTrapIn(t, err, viewsSrc, "for a, b in chunks(src, dst, 2)")

	f := byteArr(make([]byte, 7))
	call(t, p, "fill_all", f)
	if !slices.Equal(f.Elems, []uint64{0, 0, 1, 1, 2, 2, 0}) {
		t.Errorf("fill_all wrote %v", f.Elems)
	}
}

const copySrc = `module copies

const ROWS: [2][3]u16 = [[1, 2, 3], [4, 5, 6]]

fn bump(x: mut [4]u32) {
    x[0] += 1
}

fn first(x: [4]u32) -> u32 {
    return x[0]
}

fn make_pair(a: u32) -> [2]u32 {
    return [a, a + 1]
}

export fn values() -> (u32, u32, u32, u32, u32, u32) effects none {
    var a: [4]u32 = [1, 2, 3, 4]
    var b = a
    b[0] = 100
    bump(a)
    let c = a
    bump(a)
    var p = make_pair(10)
    let q = make_pair(20)
    p[1] = 0
    return a[0], b[0], c[0], first(a), p[1], q[1]
}

export fn nested() -> (u16, u16, u16, u16, u16) effects none {
    var m = ROWS
    var n = m
    n[1][0] = 9
    m[0] = m[1]
    m[1][1] = 7
    let row = m[1]
    m[1][2] = 8
    return m[0][0], m[0][1], n[1][0], row[1], row[2]
}

// Arrays are passed by reference: a mut nested parameter writes the caller's.
export fn set_rows(m: mut [2][3]u16, r: [3]u16) effects none {
    m[1] = r
    m[0][2] = r[0] + ROWS[1][2]
}

export fn elem(m: [2][3]u16, i: u32, j: u32) -> u16 effects trap {
    return m[i][j]
}
`

func TestArrayCopySemantics(t *testing.T) {
	p := load(t, copySrc)
	if got, want := words(call(t, p, "values")), []uint64{3, 100, 2, 3, 0, 21}; !slices.Equal(got, want) {
		t.Errorf("values() = %v, want %v", got, want)
	}
	if got, want := words(call(t, p, "nested")), []uint64{4, 5, 9, 7, 6}; !slices.Equal(got, want) {
		t.Errorf("nested() = %v, want %v", got, want)
	}
	m := arr(1, 2, 3, 4, 5, 6)
	call(t, p, "set_rows", m, arr(7, 8, 9))
	if want := []uint64{1, 2, 13, 7, 8, 9}; !slices.Equal(m.Elems, want) {
		t.Errorf("set_rows wrote %v, want %v", m.Elems, want)
	}
	for i := range 2 {
		for j := range 3 {
			if got := call(t, p, "elem", m, w(uint64(i)), w(uint64(j)))[0].Word; got != m.Elems[i*3+j] {
				t.Errorf("m[%d][%d] = %d, want %d (row-major)", i, j, got, m.Elems[i*3+j])
			}
		}
	}
	_, err := try(t, p, "elem", m, w(2), w(0))
	assertTrapIn(t, err, copySrc, "m[i][j]")
	_, err = try(t, p, "elem", m, w(0), w(3))
	assertTrapIn(t, err, copySrc, "m[i][j]")
}

const multiSrc = `module multi

fn two(a: u32) -> (u32, u32) {
    return a + 1, a * 2
}

fn swap(a: u8, b: u8) -> (u8, u8) {
    return b, a
}

fn flip(a: u32) -> (u32, u32) {
    let (x, y) = two(a)
    return y, x
}

export fn run(x: u32) -> (u32, u32, u32, u32, u8) effects none {
    let (p, q) = two(x)
    var (r, s) = flip(q)
    r, s = two(r)
    let (_, z) = two(s)
    var v: [2]u8
    v[1], v[0] = swap(3, 4)
    return p, r, s, z, v[0] * 10 + v[1]
}

// Loop bounds are evaluated once.
export fn bounds(n: u32) -> u32 effects none {
    var hi = n
    var count: u32 = 0
    for i in 0..hi {
        hi += 1
        count += 1
    }
    return count
}

export fn early(s: []u32, x: u32) -> u32 effects none {
    for i in 0..len(s) {
        if s[i] == x {
            return i
        } else if s[i] > x {
            return 1000 + i
        }
    }
    return 0xffffffff
}

export fn pick(c: bool, a: u64, b: u64) -> u64 effects none {
    return select(c, a, b)
}
`

func TestMultipleResultsAndControl(t *testing.T) {
	p := load(t, multiSrc)
	x := uint64(5)
	pp, q := x+1, x*2
	r, s := q*2, q+1
	r, s = r+1, r*2
	z := s * 2
	want := []uint64{pp, r, s, z, 34}
	if got := words(call(t, p, "run", w(x))); !slices.Equal(got, want) {
		t.Errorf("run(5) = %v, want %v", got, want)
	}
	if got := call(t, p, "bounds", w(4))[0].Word; got != 4 {
		t.Errorf("bounds(4) = %d", got)
	}
	s3 := arr(1, 5, 9)
	for _, c := range []struct{ x, want uint64 }{{5, 1}, {4, 1001}, {1, 0}, {10, 0xffffffff}} {
		if got := call(t, p, "early", s3, w(c.x))[0].Word; got != c.want {
			t.Errorf("early(%d) = %d, want %d", c.x, got, c.want)
		}
	}
	if got := call(t, p, "pick", w(1), w(7), w(8))[0].Word; got != 7 {
		t.Errorf("select(true) = %d", got)
	}
	if got := call(t, p, "pick", w(0), w(7), w(8))[0].Word; got != 8 {
		t.Errorf("select(false) = %d", got)
	}
}

func TestTraceAndArguments(t *testing.T) {
	p := load(t, `module tr

export fn flag(ok: bool) -> bool effects none {
    return ok
}

export fn show(a: u8, b: u32, c: u64, d: u16) effects io {
    trace(a, b, c)
    trace(d)
}

export fn first(s: [3]u8) -> u8 effects none {
    return s[0]
}
`)
	var out bytes.Buffer
	fn := p.Export("show")
	res, st, err := vm.Run(p, fn, []lang.Value{w(0xa), w(0xbeef), w(1), w(1)}, vm.Options{Trace: &out})
	if err != nil || len(res) != 0 {
		t.Fatalf("show: %v %v", res, err)
	}
	if want := "0a 0000beef 0000000000000001\n0001\n"; out.String() != want {
		t.Errorf("trace printed %q, want %q", out.String(), want)
	}
	if st.Steps == 0 {
		t.Errorf("no steps counted")
	}
	// A nil trace writer discards.
	if _, err := try(t, p, "show", w(1), w(2), w(3), w(0)); err != nil {
		t.Error(err)
	}
	bad := [][]lang.Value{
		{w(0x100), w(0), w(0), w(0)},   // does not fit u8
		{w(0), w(0), w(0), w(1 << 16)}, // does not fit u16
		{w(0), w(0), w(0)},             // too few arguments
		{arr(1), w(0), w(0), w(0)},     // array for a word
		{w(0), w(1 << 32), w(0), w(0)}, // does not fit u32
		{w(0), w(0), w(0), w(0), w(0)}, // too many
	}
	for _, args := range bad {
		if _, err := try(t, p, "show", args...); err == nil || errorsAs(err, new(*vm.Trap)) {
			t.Errorf("show(%v): want an argument error, got %v", args, err)
		}
	}
	if _, err := try(t, p, "flag", w(2)); err == nil || errorsAs(err, new(*vm.Trap)) {
		t.Errorf("flag(2): want an argument error, got %v", err)
	}
	for _, a := range []lang.Value{arr(1, 2), arr(1, 2, 3, 4), arr(1, 2, 256)} {
		if _, err := try(t, p, "first", a); err == nil || errorsAs(err, new(*vm.Trap)) {
			t.Errorf("first(%v): want an argument error, got %v", a.Elems, err)
		}
	}
	if got := call(t, p, "first", arr(9, 2, 3))[0].Word; got != 9 {
		t.Errorf("first = %d", got)
	}
}

const miscSrc = `module misc

const FLAG: bool = true
const GRID: [2][2]u8 = [[1, 2], [3, 4]]

fn pair(x: u8) -> ([2]u8, u8) {
    var a: [2]u8 = [x, x + 1]
    return a, x * 3
}

export fn lits(x: u8, c: bool) -> (u8, u8, u8, u8, u8, u8) effects unsafe {
    var m: [2][2]u8 = [[x, 2], [3, x + 4]]
    let row = m[select(c, 0 as u32, 1)]
    var r2: [2]u8
    absorb unsafe because "index 1 is below 2" {
        r2 = unchecked_get(m, 1)
        unchecked_set(m, 0, GRID[1])
    }
    let (pa, px) = pair(x)
    var f: u8 = 0
    if FLAG {
        f = FLAG as u8
    }
    return row[1], r2[1], m[0][0], pa[1] + px, f, GRID[1][0]
}

export fn tail_len(s: []u8) -> u32 effects none {
    let t = rest(s, 4)
    return len(t)
}
`

func TestLiteralsAbsorbAndArrayResults(t *testing.T) {
	p := load(t, miscSrc)
	x := uint64(5)
	m := [2][2]uint64{{x, 2}, {3, x + 4}}
	for _, c := range []bool{true, false} {
		row := m[1]
		if c {
			row = m[0]
		}
		want := []uint64{row[1], m[1][1], 3, (x + 1 + 3*x) & 0xff, 1, 3}
		if got := words(call(t, p, "lits", w(x), b(c))); !slices.Equal(got, want) {
			t.Errorf("lits(%d, %v) = %v, want %v", x, c, got, want)
		}
	}
	for n := range 11 {
		if got := call(t, p, "tail_len", arr(make([]uint64, n)...))[0].Word; got != uint64(n%4) {
			t.Errorf("len(rest(%d elements, 4)) = %d", n, got)
		}
	}
}
