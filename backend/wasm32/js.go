package wasm32

import (
	"encoding/base64"
	"fmt"
	"strings"

	"github.com/lowent/lowentc/backend/llvm"
	"github.com/lowent/lowentc/ir"
)

// --emit js: an ES module that embeds the linked module (base64) and
// exports one function per Lowent export; --emit dts: its TypeScript
// declarations. docs/wasm32.md is the contract:
//
//   - u8, u16 and u32 are numbers, u64 a bigint, bool a boolean;
//   - arrays and slices are typed arrays of their element type
//     (Uint8Array, Uint16Array, Uint32Array, BigUint64Array; bool arrays
//     Uint8Array of 0 and 1); a fixed array must have its length;
//   - a written array and another array argument must be the very same
//     bytes or disjoint (a partial overlap is the fault every target
//     reports); the arguments are copied into the module's memory (views
//     that share bytes in JavaScript share them there too), mut arguments
//     are copied back after a successful call (after an error nothing was
//     written);
//   - no result: undefined; one: the value; several: an array of them;
//   - a failed requires clause or run-time check throws a LowentError
//     (an Error) whose message is the one every target gives, with the
//     status in .status; a bad argument throws a TypeError or RangeError.

// jsRuntime is the code of the ES module after the table: the calls.
const jsRuntime = `
const $ES = { u8: 1, u16: 2, u32: 4, u64: 8, bool: 1 };
const $ARRAY = { u8: Uint8Array, u16: Uint16Array, u32: Uint32Array, u64: BigUint64Array, bool: Uint8Array };
const $MAX = { u8: 0xff, u16: 0xffff, u32: 0xffffffff };

/** The error of a failed requires clause or run-time check. */
export class LowentError extends Error {
  constructor(message, status) {
    super(message);
    this.name = "LowentError";
    this.status = status;
  }
}

function $decode(s) {
  const bin = atob(s);
  const b = new Uint8Array(bin.length);
  for (let i = 0; i < bin.length; i++) b[i] = bin.charCodeAt(i);
  return b;
}

const { instance: $instance } = await WebAssembly.instantiate($decode($WASM), {});
const $ex = $instance.exports;
const $mem = $ex.memory;
const $heap = $ex.__heap_base.value >>> 0;
let $top = $heap;
let $view = new Uint8Array($mem.buffer);
let $dv = new DataView($mem.buffer);

// alloc reserves n bytes of the call's arguments (16-byte aligned),
// growing the memory when needed; every call starts again at heap.
function $alloc(n) {
  const p = Math.ceil($top / 16) * 16;
  $top = p + n;
  if ($top > $view.length) {
    $mem.grow(Math.ceil(($top - $view.length) / 65536));
    $view = new Uint8Array($mem.buffer);
    $dv = new DataView($mem.buffer);
  }
  return p;
}

// bytesOf is the bytes of a typed array.
function $bytesOf(x) {
  return x instanceof Uint8Array ? x : new Uint8Array(x.buffer, x.byteOffset, x.byteLength);
}

// put copies the array argument x into memory; back copies it out.
function $put(x) {
  const n = x.byteLength, p = $alloc(n);
  if (n) $view.set($bytesOf(x), p);
  return p;
}
function $back(x, p) {
  if (x.byteLength) $bytesOf(x).set($view.subarray(p, p + x.byteLength));
}

// out reserves a result of n bytes, zeroed.
function $out(n) {
  const p = $alloc(n);
  $view.fill(0, p, p + n);
  return p;
}

// array checks that argument i of e is a typed array of its type and, for
// a fixed array, length.
function $array(e, i, x) {
  const p = e.p[i], A = $ARRAY[p.t];
  if (!(x instanceof A)) throw new TypeError("argument " + p.n + ": want a " + A.name);
  if (p.a === 1 && x.length !== p.len) throw new RangeError("argument " + p.n + ": want " + p.len + " elements, got " + x.length);
  if (p.t === "bool" && x.some((b) => b > 1)) throw new RangeError("argument " + p.n + ": a bool array holds 0 and 1 only");
}

function $argc(e, n) {
  if (n !== e.p.length) throw new TypeError(e.n + " takes " + e.p.length + " arguments, got " + n);
}

function $fail(e, st) {
  $top = $heap;
  return new LowentError(e.q?.[st] ?? $TRAPS[st] ?? "wasm32: " + e.n + " returned unknown status " + st, st);
}

function $scalarIn(p, x) {
  if (p.t === "bool") {
    if (typeof x !== "boolean") throw new TypeError("argument " + p.n + ": want a boolean, got " + typeof x);
    return x ? 1 : 0;
  }
  if (p.t === "u64") {
    if (typeof x !== "bigint" || x < 0n || x > 0xffffffffffffffffn) throw new TypeError("argument " + p.n + ": want a bigint from 0 to 2^64-1 (u64), got " + String(x));
    return x;
  }
  if (typeof x !== "number" || !Number.isInteger(x) || x < 0 || x > $MAX[p.t]) throw new TypeError("argument " + p.n + ": want an integer from 0 to " + $MAX[p.t] + " (" + p.t + "), got " + String(x));
  return x;
}

function $scalarOut(t, p) {
  switch (t) {
    case "bool": return $dv.getUint8(p) !== 0;
    case "u8": return $dv.getUint8(p);
    case "u16": return $dv.getUint16(p, true);
    case "u32": return $dv.getUint32(p, true);
  }
  return $dv.getBigUint64(p, true);
}

// place copies the array arguments into memory: views of one buffer whose
// bytes overlap get one copy of their union, so that they overlap in the
// module's memory as they do in JavaScript.
function $place(views, kargs) {
  const groups = new Map();
  for (const w of views) {
    const g = groups.get(w.v.buffer);
    if (g) g.push(w); else groups.set(w.v.buffer, [w]);
  }
  for (const ws of groups.values()) {
    ws.sort((a, b) => a.v.byteOffset - b.v.byteOffset);
    for (let i = 0; i < ws.length;) {
      const lo = ws[i].v.byteOffset;
      let hi = lo + ws[i].v.byteLength, j = i + 1;
      while (j < ws.length && ws[j].v.byteOffset < hi) {
        hi = Math.max(hi, ws[j].v.byteOffset + ws[j].v.byteLength);
        j++;
      }
      const p = $alloc(hi - lo);
      $view.set(new Uint8Array(ws[i].v.buffer, lo, hi - lo), p);
      for (let k = i; k < j; k++) {
        ws[k].ptr = p + ws[k].v.byteOffset - lo;
        kargs[ws[k].k] = ws[k].ptr;
      }
      i = j;
    }
  }
}

// overlaps throws the fault of the first pair of arrays of which one is
// written that share some bytes without being the very same bytes.
function $overlaps(e, views) {
  if (!e.o) return;
  const at = new Map(views.map((w) => [w.i, w.v]));
  for (const [x, y, msg] of e.o) {
    const a = at.get(x), b = at.get(y);
    if (a.buffer !== b.buffer || a.byteLength === 0 || b.byteLength === 0) continue;
    const p = a.byteOffset, q = b.byteOffset;
    if (p < q + b.byteLength && q < p + a.byteLength && (p !== q || a.byteLength !== b.byteLength)) throw new LowentError(msg, 1);
  }
}

// result reads result r of a call from memory at p.
function $result(r, p) {
  return r.a ? new $ARRAY[r.t]($mem.buffer.slice(p, p + r.len * $ES[r.t])) : $scalarOut(r.t, p);
}

// call is the general form of a call of export e, for arguments that
// share a buffer (the generated function of each export does the others):
// the overlap faults, and one copy of the bytes views share.
function $call(e, args) {
  $argc(e, args.length);
  $top = $heap;
  const kargs = [], views = [];
  e.p.forEach((p, i) => {
    const x = args[i];
    if (p.a === 0) {
      kargs.push($scalarIn(p, x));
      return;
    }
    $array(e, i, x);
    views.push({ v: x, i, k: kargs.length, mut: p.mut, ptr: 0 });
    kargs.push(0);
    if (p.a === 2) kargs.push(x.length);
  });
  $overlaps(e, views);
  $place(views, kargs);
  const outs = e.r.map((r) => {
    const p = $out(r.a ? r.len * $ES[r.t] : 8);
    kargs.push(p);
    return p;
  });
  const st = $ex[e.k](...kargs);
  if (st !== 0) throw $fail(e, st);
  for (const w of views) {
    if (w.mut) $back(w.v, w.ptr);
  }
  const res = e.r.map((r, i) => $result(r, outs[i]));
  $top = $heap;
  return res.length === 0 ? undefined : res.length === 1 ? res[0] : res;
}
`

// jsReserved are the words a JavaScript binding cannot be named (the
// reserved words of strict mode code and modules).
var jsReserved = func() map[string]bool {
	m := map[string]bool{}
	for _, w := range strings.Fields(`await break case catch class const continue debugger default delete do
		else enum export extends false finally for function if implements import in instanceof interface let
		new null package private protected public return static super switch this throw true try typeof var
		void while with yield arguments eval undefined NaN Infinity`) {
		m[w] = true
	}
	return m
}()

// binding is a JavaScript name for the Lowent name n: n itself, or n with
// underscores appended when it is reserved or already used.
func binding(n string, used map[string]bool) string {
	for jsReserved[n] || used[n] {
		n += "_"
	}
	used[n] = true
	return n
}

// jsModule is the ES module of the program b, with the linked module bin.
func jsModule(b *llvm.Built, bin []byte) string {
	m := b.Module
	var s strings.Builder
	fmt.Fprintf(&s, "// Generated by lowentc from module %s (--target wasm32 --emit js). Do not edit.\n", m.Name)
	s.WriteString("// An ES module: each export of the Lowent module is a function over typed\n")
	s.WriteString("// arrays; docs/wasm32.md describes the calls, the types and the errors.\n\n")
	fmt.Fprintf(&s, "const $WASM = %q;\n\n", base64.StdEncoding.EncodeToString(bin))
	fmt.Fprintf(&s, "const $TRAPS = %s;\n", trapsText(b.Traps()))
	s.WriteString(jsRuntime)
	used := runtimeNames(len(m.Funcs))
	for i, e := range table(m, b.Requires) {
		local := binding("_"+e.Name, used)
		fmt.Fprintf(&s, "\nconst $T%d = %s;\nconst $K%d = $ex[$T%d.k];\n", i, jsonText(e), i, i)
		s.WriteString(exportFunc(local, fmt.Sprintf("$T%d", i), fmt.Sprintf("$K%d", i), e, paramNames(e.Params, used)))
		fmt.Fprintf(&s, "export { %s as %s };\n", local, e.Name)
	}
	return s.String()
}

// exportFunc is the JavaScript function local of export e (table T,
// kernel K): the arguments checked, copied in, the kernel called, the mut
// arrays copied back and the results read. Arguments that share a buffer
// go the general way (call). Its own names start with $, which no Lowent
// name does.
func exportFunc(local, T, K string, e jsExport, names []string) string {
	var b strings.Builder
	ps := strings.Join(names, ", ")
	fmt.Fprintf(&b, "function %s(%s) {\n  $argc(%s, arguments.length);\n", local, ps, T)
	var arrays []string
	for i, p := range e.Params {
		if p.Kind == 0 {
			continue
		}
		// The common case inline; $array says what is wrong.
		cond := fmt.Sprintf("!(%s instanceof %s)", names[i], tsType(p))
		if p.Kind == 1 {
			cond += fmt.Sprintf(" || %s.length !== %d", names[i], p.Len)
		}
		if p.Type == "bool" {
			cond = "true"
		}
		fmt.Fprintf(&b, "  if (%s) $array(%s, %d, %s);\n", cond, T, i, names[i])
		arrays = append(arrays, names[i])
	}
	var shared []string
	for i := range arrays {
		for j := i + 1; j < len(arrays); j++ {
			shared = append(shared, arrays[i]+".buffer === "+arrays[j]+".buffer")
		}
	}
	if len(shared) > 0 {
		fmt.Fprintf(&b, "  if (%s) return $call(%s, [%s]);\n", strings.Join(shared, " || "), T, ps)
	}
	b.WriteString("  $top = $heap;\n")
	var kargs, backs []string
	for i, p := range e.Params {
		if p.Kind == 0 {
			kargs = append(kargs, fmt.Sprintf("$scalarIn(%s.p[%d], %s)", T, i, names[i]))
			continue
		}
		fmt.Fprintf(&b, "  const $a%d = $put(%s);\n", i, names[i])
		kargs = append(kargs, fmt.Sprintf("$a%d", i))
		if p.Kind == 2 {
			kargs = append(kargs, names[i]+".length")
		}
		if p.Mut {
			backs = append(backs, fmt.Sprintf("  $back(%s, $a%d);\n", names[i], i))
		}
	}
	var res []string
	for i, r := range e.Results {
		n := 8
		if r.Kind != 0 {
			n = r.Len * map[string]int{"u8": 1, "u16": 2, "u32": 4, "u64": 8, "bool": 1}[r.Type]
		}
		fmt.Fprintf(&b, "  const $r%d = $out(%d);\n", i, n)
		kargs = append(kargs, fmt.Sprintf("$r%d", i))
		res = append(res, fmt.Sprintf("$result(%s.r[%d], $r%d)", T, i, i))
	}
	fmt.Fprintf(&b, "  const $st = %s(%s);\n  if ($st !== 0) throw $fail(%s, $st);\n", K, strings.Join(kargs, ", "), T)
	for _, bk := range backs {
		b.WriteString(bk)
	}
	switch len(res) {
	case 0:
		b.WriteString("  $top = $heap;\n}\n")
	case 1:
		fmt.Fprintf(&b, "  const $res = %s;\n  $top = $heap;\n  return $res;\n}\n", res[0])
	default:
		fmt.Fprintf(&b, "  const $res = [%s];\n  $top = $heap;\n  return $res;\n}\n", strings.Join(res, ", "))
	}
	return b.String()
}

// runtimeNames are the module-level names of the ES module a parameter
// must not shadow: the class LowentError (the runtime's own names, and
// the code generated per export, start with $, which no Lowent name does).
func runtimeNames(n int) map[string]bool {
	return map[string]bool{"LowentError": true}
}

// paramNames are the JavaScript names of an export's parameters, none of
// them in module (the module-level names).
func paramNames(ps []jsParam, module map[string]bool) []string {
	used := map[string]bool{}
	for n := range module {
		used[n] = true
	}
	var out []string
	for _, p := range ps {
		out = append(out, binding(p.Name, used))
	}
	return out
}

// tsType is the TypeScript type of a parameter or result.
func tsType(p jsParam) string {
	if p.Kind != 0 {
		switch p.Type {
		case "u16":
			return "Uint16Array"
		case "u32":
			return "Uint32Array"
		case "u64":
			return "BigUint64Array"
		}
		return "Uint8Array"
	}
	switch p.Type {
	case "bool":
		return "boolean"
	case "u64":
		return "bigint"
	}
	return "number"
}

// declarations is the TypeScript declaration file of the ES module of m.
func declarations(m *ir.Module) string {
	var s strings.Builder
	fmt.Fprintf(&s, "// Generated by lowentc from module %s (--target wasm32 --emit dts). Do not edit.\n", m.Name)
	s.WriteString("// The declarations of the ES module of --emit js; docs/wasm32.md describes\n// the calls, the types and the errors.\n\n")
	s.WriteString("/** The error of a failed requires clause or run-time check: the message\n    every target gives, and the status code. */\n")
	s.WriteString("export declare class LowentError extends Error {\n  readonly status: number;\n}\n")
	used := runtimeNames(len(m.Funcs))
	for _, e := range table(m, nil) {
		local := binding("_"+e.Name, used)
		var ps []string
		names := paramNames(e.Params, used)
		var doc []string
		for i, p := range e.Params {
			ps = append(ps, names[i]+": "+tsType(p))
			d := p.Type
			switch p.Kind {
			case 1:
				d = fmt.Sprintf("[%d]%s", p.Len, p.Type)
			case 2:
				d = "[]" + p.Type
			}
			if p.Mut {
				d = "mut " + d + ", updated in place"
			}
			doc = append(doc, fmt.Sprintf(" * @param %s %s", names[i], d))
		}
		var rs []string
		for _, r := range e.Results {
			t := tsType(r)
			if r.Kind == 1 {
				t = fmt.Sprintf("%s /* %d elements */", t, r.Len)
			}
			rs = append(rs, t)
		}
		ret := "void"
		switch len(rs) {
		case 0:
		case 1:
			ret = rs[0]
		default:
			ret = "[" + strings.Join(rs, ", ") + "]"
		}
		fmt.Fprintf(&s, "\n/**\n * %s.%s\n", m.Name, e.Name)
		for _, d := range doc {
			s.WriteString(d + "\n")
		}
		s.WriteString(" */\n")
		fmt.Fprintf(&s, "declare function %s(%s): %s;\nexport { %s as %s };\n", local, strings.Join(ps, ", "), ret, local, e.Name)
	}
	return s.String()
}
