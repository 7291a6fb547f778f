package llvm

import (
	"fmt"
	"sort"
	"strings"

	llir "github.com/llir/llvm/ir"
	"github.com/llir/llvm/ir/constant"
	"github.com/llir/llvm/ir/enum"
	"github.com/llir/llvm/ir/types"
	"github.com/llir/llvm/ir/value"

	"github.com/lowent/lowentc/ir"
)

// The C ABI of an export (documented in docs/amd64.md):
//
//	int lowentc_MODULE_FN(params..., results...)
//
// A scalar parameter is passed by value (bool as a uint8_t 0 or 1), a
// fixed array as a pointer to its first element (declared in the header
// as `T name[LOWENTC_STATIC N]`, so a C99 compiler knows its size), a
// slice as a pointer and a size_t element count. Each result comes back
// through a pointer parameter after the others (an array result through a
// pointer to its first element). The return value is the status: 0
// success, 1 the arguments break the export's `requires` (or a slice is
// longer than 2^32-1 elements, or buffers overlap without being the same,
// or a pointer is NULL where the call would read or write through it:
// entry), 2 and above a run-time check failed (a trap; the number says
// which).

// Status codes.
const (
	StatusOK    = 0
	StatusFault = 1
	firstTrap   = 2
)

// abiParam is one C parameter of an export.
type abiParam struct {
	name  string
	ctype string
	typ   types.Type
	n     int    // a fixed array's element count: declared name[LOWENTC_STATIC n]
	nName string // the header's macro for n, when the source named it, or ""
}

// decl is p as the header declares it.
func (p abiParam) decl() string {
	if p.n > 0 {
		n := fmt.Sprint(p.n)
		if p.nName != "" {
			n = p.nName
		}
		return fmt.Sprintf("%s %s[LOWENTC_STATIC %s]", strings.TrimSuffix(p.ctype, " *"), p.name, n)
	}
	if strings.HasSuffix(p.ctype, "*") {
		return p.ctype + p.name
	}
	return p.ctype + " " + p.name
}

type abiSig struct{ params []abiParam }

func (s abiSig) llvmParams() []*llir.Param {
	ps := make([]*llir.Param, len(s.params))
	for i, p := range s.params {
		ps[i] = llir.NewParam(llvmName(p.name), p.typ)
	}
	return ps
}

// llvmName is the LLVM name of a parameter called name in C: the same,
// unless a basic block of the emitted functions may be called that (the
// kernels' b1, b2, ..., the entries' entry, call, overlap: LLVM's local
// names are one namespace), when it gets a suffix no Lowent name has.
func llvmName(name string) string {
	switch name {
	case "entry", "call", "overlap":
		return name + ".p"
	}
	if len(name) > 1 && name[0] == 'b' && strings.Trim(name[1:], "0123456789") == "" {
		return name + ".p"
	}
	return name
}

// ctype is the C type of a scalar (bools travel as bytes).
func ctype(t ir.Type) string {
	if t == ir.Bool {
		return "uint8_t"
	}
	return fmt.Sprintf("uint%d_t", t.Bits())
}

// sizeMacros names the array sizes of m's exports that the source wrote
// as a constant of the module (`ctx: mut [CTX_WORDS]u64`): constant name
// to the header's macro LOWENTC_MODULE_NAME, upper-cased, and the macros'
// values. A name whose macro would be the header's guard, or that two
// constants of different values map to (`w` and `W`), keeps its number.
func sizeMacros(m *ir.Module) (names map[string]string, vals map[string]int) {
	names, vals = map[string]string{}, map[string]int{}
	clash := map[string]bool{"LOWENTC_" + strings.ToUpper(m.Name) + "_H": true}
	for _, f := range m.Funcs {
		if !f.Export {
			continue
		}
		for _, p := range f.Sig.Params {
			if p.LenName == "" {
				continue
			}
			mac := "LOWENTC_" + strings.ToUpper(m.Name) + "_" + strings.ToUpper(p.LenName)
			if v, ok := vals[mac]; ok && v != p.Len {
				clash[mac] = true
			}
			names[p.LenName], vals[mac] = mac, p.Len
		}
	}
	for n, mac := range names {
		if clash[mac] {
			delete(names, n)
			delete(vals, mac)
		}
	}
	return names, vals
}

// abiOf is f's C signature; macros (from sizeMacros, or nil) name array
// sizes; sizeT is the LLVM type of size_t.
func abiOf(f *ir.Function, macros map[string]string, sizeT *types.IntType) abiSig {
	var s abiSig
	for _, p := range f.Sig.Params {
		st := StorageType(p.Type)
		switch {
		case !p.Array:
			s.params = append(s.params, abiParam{name: p.Name, ctype: ctype(p.Type), typ: st})
		case p.Slice:
			s.params = append(s.params, abiParam{name: p.Name, ctype: constPtr(p) + ctype(p.Type) + " *", typ: types.NewPointer(st)},
				abiParam{name: p.Name + "_len", ctype: "size_t", typ: sizeT})
		default:
			s.params = append(s.params, abiParam{name: p.Name, ctype: constPtr(p) + ctype(p.Type) + " *", typ: types.NewPointer(st), n: p.Len, nName: macros[p.LenName]})
		}
	}
	for i, r := range f.Sig.Results {
		name := "ret"
		if len(f.Sig.Results) > 1 {
			name = fmt.Sprintf("ret%d", i)
		}
		n := 0
		if r.Array {
			n = r.Len
		}
		s.params = append(s.params, abiParam{name: name, ctype: ctype(r.Type) + " *", typ: types.NewPointer(StorageType(r.Type)), n: n})
	}
	// A Lowent name may be a C or C++ keyword or a type of the header
	// (int, new, size_t), or meet a generated name (a parameter ret, or
	// msg_len beside a slice msg): such a name gets underscores until it
	// is neither.
	used := map[string]bool{}
	for i := range s.params {
		for cReserved[s.params[i].name] || used[s.params[i].name] {
			s.params[i].name += "_"
		}
		used[s.params[i].name] = true
	}
	return s
}

// cReserved are the words a C parameter name cannot be in the header: the
// keywords of C (up to C23) and C++, and the types the header uses.
var cReserved = func() map[string]bool {
	m := map[string]bool{}
	for _, w := range strings.Fields(`auto break case char const continue default do double else enum extern
		float for goto if inline int long register restrict return short signed sizeof static struct switch
		typedef union unsigned void volatile while _Alignas _Alignof _Atomic _Bool _Complex _Generic _Imaginary
		_Noreturn _Static_assert _Thread_local alignas alignof bool constexpr false nullptr static_assert
		thread_local true typeof typeof_unqual and and_eq asm bitand bitor catch char8_t char16_t char32_t
		class compl concept consteval constinit const_cast co_await co_return co_yield decltype delete
		dynamic_cast explicit export friend mutable namespace new noexcept not not_eq operator or or_eq
		private protected public reinterpret_cast requires static_cast template this throw try typeid
		typename using virtual wchar_t xor xor_eq size_t uint8_t uint16_t uint32_t uint64_t NULL`) {
		m[w] = true
	}
	return m
}()

func constPtr(p ir.SigParam) string {
	if p.Mut {
		return ""
	}
	return "const "
}

// bindParams binds the IR parameters of g.F to the LLVM parameters of the
// C ABI; a slice longer than an IR index can count is a fault.
func (g *Func) bindParams(sig abiSig) error {
	f := g.F
	lp := g.Fn.Params
	li, pi := 0, 0
	for _, sp := range f.Sig.Params {
		if pi >= len(f.Params) {
			return fmt.Errorf("BUG: %s: parameters of %s do not match its signature", g.target.Name(), f.Name)
		}
		p := f.Params[pi]
		pi++
		if !sp.Array {
			if p.Val == nil {
				return fmt.Errorf("BUG: %s: parameter %s of %s is not a scalar", g.target.Name(), sp.Name, f.Name)
			}
			var x value.Value = lp[li]
			if sp.Type == ir.Bool {
				x = g.Cur.NewICmp(enum.IPredNE, x, constant.NewInt(types.I8, 0))
			}
			g.Vals[p.Val] = x
			li++
			continue
		}
		if p.Arr == nil {
			return fmt.Errorf("BUG: %s: parameter %s of %s is not an array", g.target.Name(), sp.Name, f.Name)
		}
		info := arrInfo{ptr: lp[li]}
		li++
		if sp.Slice {
			n := lp[li]
			li++
			if g.IntPtr.BitSize > 32 {
				ok := g.Cur.NewICmp(enum.IPredULE, n, constant.NewInt(g.IntPtr, 0xffffffff))
				g.faultUnless(ok)
				info.len = g.Cur.NewTrunc(n, types.I32)
			} else {
				info.len = n // a 32-bit size_t: every length is an IR index
			}
		}
		g.arrs[p.Arr] = info
	}
	// Array results arrive as hidden trailing IR parameters; scalar
	// results are stored through their pointers at the return.
	for _, r := range f.Sig.Results {
		if r.Array {
			if pi >= len(f.Params) || f.Params[pi].Arr == nil {
				return fmt.Errorf("BUG: %s: array result of %s has no hidden parameter", g.target.Name(), f.Name)
			}
			g.arrs[f.Params[pi].Arr] = arrInfo{ptr: lp[li]}
			pi++
		} else {
			g.outs = append(g.outs, lp[li])
		}
		li++
	}
	if pi != len(f.Params) || li != len(sig.params) {
		return fmt.Errorf("BUG: %s: parameters of %s do not match its signature", g.target.Name(), f.Name)
	}
	return nil
}

// faultUnless returns StatusFault when ok is false.
func (g *Func) faultUnless(ok value.Value) {
	fail, found := g.fails[StatusFault]
	if !found {
		fail = g.NewBlock()
		fail.NewRet(constant.NewInt(types.I32, StatusFault))
		g.fails[StatusFault] = fail
	}
	cont := g.NewBlock()
	g.Cur.NewCondBr(ok, cont, fail)
	g.Cur = cont
}

// trapTable numbers the run-time checks of a program: requires clause k
// of an export is -1-k in its kernel (StatusFault at the C entry), the
// others get codes from firstTrap up.
type trapTable struct {
	codes map[*ir.CheckInfo]int
	infos []*ir.CheckInfo // infos[code-firstTrap]
}

func newTrapTable() *trapTable { return &trapTable{codes: map[*ir.CheckInfo]int{}} }

func (t *trapTable) code(c *ir.CheckInfo) int {
	if c.Kind == ir.CheckEntry {
		return -1 - c.Clause
	}
	if k, ok := t.codes[c]; ok {
		return k
	}
	k := firstTrap + len(t.infos)
	t.codes[c] = k
	t.infos = append(t.infos, c)
	return k
}

// info returns the check a status code stands for, or nil.
func (t *trapTable) info(code int) *ir.CheckInfo {
	if code < firstTrap || code-firstTrap >= len(t.infos) {
		return nil
	}
	return t.infos[code-firstTrap]
}

// header writes the C header declaring every export of m.
func header(m *ir.Module, traps *trapTable, cfg Config) string {
	var b strings.Builder
	guard := "LOWENTC_" + strings.ToUpper(m.Name) + "_H"
	fmt.Fprintf(&b, "/* Generated by lowentc from module %s. Do not edit. */\n", m.Name)
	fmt.Fprintf(&b, "#ifndef %s\n#define %s\n\n#include <stddef.h>\n#include <stdint.h>\n\n", guard, guard)
	b.WriteString("#ifdef __cplusplus\nextern \"C\" {\n#endif\n\n")
	b.WriteString("/* Status of every call: 0 success; 1 (LOWENTC_FAULT) the arguments break\n")
	b.WriteString("   the function's contract: its requires, or a buffer it writes overlaps\n")
	b.WriteString("   another array argument without being the very same buffer, or a\n")
	b.WriteString("   pointer is NULL where there is something to read or write (a fixed-size\n")
	b.WriteString("   array, a result, a slice whose length is not 0; a NULL slice of length\n")
	b.WriteString("   0 is fine). All of these are checked before anything is written;\n")
	b.WriteString("   nothing was. 2 and above a run-time check failed (a trap; listed\n")
	b.WriteString("   below). Results are stored only on success; after a trap, mut buffers\n")
	b.WriteString("   may hold partial output. */\n")
	b.WriteString("#ifndef LOWENTC_OK\n#define LOWENTC_OK 0\n#define LOWENTC_FAULT 1\n#endif\n")
	for i, c := range traps.infos {
		fmt.Fprintf(&b, "/* %d: %s: %s */\n", firstTrap+i, c.Pos, c.Msg)
	}
	b.WriteString("\n")
	b.WriteString("/* A fixed-size array is declared with its element count, T name[static N]\n")
	b.WriteString("   in C99 and later, so the compiler can check a call's array is that\n")
	b.WriteString("   large (gcc -Wall: -Wstringop-overread, -Wstringop-overflow); in C++ and\n")
	b.WriteString("   older C it is T name[N], the same pointer. static also says the pointer\n")
	b.WriteString("   is not NULL (gcc warns about a NULL constant there); a NULL pointer\n")
	b.WriteString("   that gets through still returns LOWENTC_FAULT. */\n")
	b.WriteString("#ifndef LOWENTC_STATIC\n")
	b.WriteString("#if defined(__STDC_VERSION__) && __STDC_VERSION__ >= 199901L && !defined(__cplusplus) && !defined(_MSC_VER)\n")
	b.WriteString("#define LOWENTC_STATIC static\n#else\n#define LOWENTC_STATIC\n#endif\n#endif\n")
	b.WriteString("\n")
	// Sizes named in the source, defined once each, in order.
	macros, vals := sizeMacros(m)
	if len(vals) > 0 {
		b.WriteString("/* Array sizes named in the module: the element count of every export\n")
		b.WriteString("   parameter whose length the source wrote as that constant. */\n")
		defs := make([]string, 0, len(vals))
		for mac := range vals {
			defs = append(defs, mac)
		}
		sort.Strings(defs)
		for _, mac := range defs {
			fmt.Fprintf(&b, "#define %s %d\n", mac, vals[mac])
		}
		b.WriteString("\n")
	}
	for _, f := range m.Funcs {
		if !f.Export {
			continue
		}
		sig := abiOf(f, macros, types.I64) // only the C text is used
		var ps []string
		for _, p := range sig.params {
			ps = append(ps, p.decl())
		}
		decl := strings.Join(ps, ", ")
		if decl == "" {
			decl = "void"
		}
		fmt.Fprintf(&b, "int %s(%s);\n", SymbolName(m.Name, f.Name), decl)
	}
	b.WriteString(cfg.Header(m.Name))
	b.WriteString("\n#ifdef __cplusplus\n}\n#endif\n\n#endif\n")
	return b.String()
}

// entry emits the public C function name of export f: it refuses a NULL
// pointer to one or more elements, and buffers that overlap without being
// the same buffer (docs/language.md, "Exported functions": every array a
// call writes, a mut parameter or an array result, against every other
// array), with StatusFault before anything is written, calls the kernel,
// and reports a failed requires clause (the kernel's negative status) as
// StatusFault.
func (g *Module) entry(f *ir.Function, name string, kernel *llir.Func) {
	var ps []*llir.Param
	var args []value.Value
	for _, p := range kernel.Params {
		q := llir.NewParam(p.Name(), p.Typ)
		ps = append(ps, q)
		args = append(args, q)
	}
	fn := g.Out.NewFunc(name, types.I32, ps...)
	fn.FuncAttrs = append(fn.FuncAttrs, enum.FuncAttrNoUnwind)
	b := fn.NewBlock("entry")
	// The byte range of every array parameter and array result.
	type span struct {
		lo, hi  value.Value // i64 addresses
		written bool
	}
	var spans []span
	var bad value.Value = constant.False
	// A NULL pointer with elements behind it (a fixed array, a result, a
	// slice of non-zero length) is refused like a broken requires.
	null := func(ptr value.Value, n value.Value) {
		var isNull value.Value = b.NewICmp(enum.IPredEQ, ptr, constant.NewNull(ptr.Type().(*types.PointerType)))
		if c, ok := n.(*constant.Int); !ok {
			isNull = b.NewAnd(isNull, b.NewICmp(enum.IPredNE, n, constant.NewInt(n.Type().(*types.IntType), 0)))
		} else if c.X.Sign() == 0 {
			return
		}
		bad = b.NewOr(bad, isNull)
	}
	li := 0
	add := func(ptr value.Value, n value.Value, es int64, written bool) {
		null(ptr, n)
		// The spans are computed in 64 bits whatever the pointers' width.
		if n.Type().(*types.IntType).BitSize < 64 {
			n = b.NewZExt(n, types.I64)
		}
		lo := b.NewPtrToInt(ptr, types.I64)
		hi := b.NewAdd(lo, b.NewMul(n, constant.NewInt(types.I64, es)))
		spans = append(spans, span{lo, hi, written})
	}
	for _, sp := range f.Sig.Params {
		if !sp.Array {
			li++
			continue
		}
		es := int64(StorageType(sp.Type).BitSize / 8)
		if sp.Slice {
			add(ps[li], ps[li+1], es, sp.Mut)
			li += 2
			continue
		}
		add(ps[li], constant.NewInt(types.I64, int64(sp.Len)), es, sp.Mut)
		li++
	}
	for _, r := range f.Sig.Results {
		if r.Array {
			add(ps[li], constant.NewInt(types.I64, int64(r.Len)), int64(StorageType(r.Type).BitSize/8), true)
		} else {
			null(ps[li], constant.NewInt(types.I64, 1))
		}
		li++
	}
	for i := range spans {
		for j := range spans {
			x, y := spans[i], spans[j]
			if j <= i || !x.written && !y.written {
				continue
			}
			// Both non-empty, each starting before the other ends, and
			// not the same range.
			over := b.NewAnd(b.NewICmp(enum.IPredULT, x.lo, y.hi), b.NewICmp(enum.IPredULT, y.lo, x.hi))
			over = b.NewAnd(over, b.NewAnd(b.NewICmp(enum.IPredULT, x.lo, x.hi), b.NewICmp(enum.IPredULT, y.lo, y.hi)))
			same := b.NewAnd(b.NewICmp(enum.IPredEQ, x.lo, y.lo), b.NewICmp(enum.IPredEQ, x.hi, y.hi))
			bad = b.NewOr(bad, b.NewAnd(over, b.NewXor(same, constant.True)))
		}
	}
	call, refuse := fn.NewBlock("call"), fn.NewBlock("overlap")
	b.NewCondBr(bad, refuse, call)
	refuse.NewRet(constant.NewInt(types.I32, StatusFault))
	st := call.NewCall(kernel, args...)
	neg := call.NewICmp(enum.IPredSLT, st, constant.NewInt(types.I32, 0))
	call.NewRet(call.NewSelect(neg, constant.NewInt(types.I32, StatusFault), st))
}
