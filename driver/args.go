package driver

import (
	"encoding/hex"
	"fmt"
	"strconv"
	"strings"

	"github.com/lowent/lowentc/lang"
	"github.com/lowent/lowentc/sem"
)

// ParseArgs turns `NAME=VALUE` words into one lang.Value per parameter of
// fn, the way `lowentc run` takes them:
//
//   - words: decimal or 0x-hex (`n=42`, `n=0x2a`); bools: true or false;
//   - byte arrays and slices: hex (`msg=616263`; empty: `msg=`);
//   - arrays and slices of wider words: comma-separated words (`v=1,0x2,3`);
//   - any array or slice: `zero:N` for N zero elements.
//
// A `mut` fixed array may be left out (it starts as zeros). A `mut` slice may
// be left out when a `requires len(it) == len(other)` sizes it from another
// argument; otherwise every parameter must be given.
func ParseArgs(fn *lang.FuncDecl, words []string) ([]lang.Value, error) {
	given, err := ParseNamed(fn, words)
	if err != nil {
		return nil, err
	}
	vals := make([]lang.Value, len(fn.Params))
	set := make([]bool, len(fn.Params))
	for i, v := range given {
		vals[i], set[i] = v, true
	}
	for i, p := range fn.Params {
		if set[i] {
			continue
		}
		switch t := p.Type.(type) {
		case *lang.ArrayType:
			if p.Mut {
				vals[i] = lang.Value{IsArray: true, Elems: make([]uint64, FlatLen(t))}
				continue
			}
		case *lang.SliceType:
			if p.Mut {
				if j := SizedBy(fn, i); j >= 0 && set[j] {
					vals[i] = lang.Value{IsArray: true, Elems: make([]uint64, len(vals[j].Elems))}
					continue
				}
				return nil, fmt.Errorf("missing argument %s (a mut slice: give its size as %s=zero:N)", p.Name, p.Name)
			}
		}
		return nil, fmt.Errorf("missing argument %s (%s)", p.Name, p.Type)
	}
	return vals, nil
}

// ParseNamed reads `NAME=VALUE` words (the syntax of ParseArgs) into the
// values of the parameters they name, by parameter index; parameters not
// named are absent from the map.
func ParseNamed(fn *lang.FuncDecl, words []string) (map[int]lang.Value, error) {
	given := map[int]lang.Value{}
	for _, w := range words {
		name, text, ok := strings.Cut(w, "=")
		if !ok || name == "" {
			return nil, fmt.Errorf("argument %q is not NAME=VALUE", w)
		}
		i := paramIndex(fn, name)
		if i < 0 {
			return nil, fmt.Errorf("%s has no parameter %q (parameters: %s)", fn.Name, name, paramList(fn))
		}
		if _, dup := given[i]; dup {
			return nil, fmt.Errorf("argument %s given twice", name)
		}
		v, err := parseValue(fn.Params[i].Type, text)
		if err != nil {
			return nil, fmt.Errorf("argument %s: %v", name, err)
		}
		given[i] = v
	}
	return given, nil
}

// MaxZeroElems bounds N in a `zero:N` argument (16 Mi elements), so that a
// mistyped count is an error rather than an exhausted memory.
const MaxZeroElems = 1 << 24

// SizedBy returns the index of the parameter whose length a `requires
// len(P) == len(Q)` ties parameter i to, or -1.
func SizedBy(fn *lang.FuncDecl, i int) int {
	for _, r := range fn.Requires {
		b, ok := r.(*lang.BinaryExpr)
		if !ok || b.Op != sem.OpEq {
			continue
		}
		l, r := lenOf(b.L), lenOf(b.R)
		if l == fn.Params[i].Name && r != "" {
			return paramIndex(fn, r)
		}
		if r == fn.Params[i].Name && l != "" {
			return paramIndex(fn, l)
		}
	}
	return -1
}

// lenOf returns P for the expression len(P), else "".
func lenOf(e lang.Expr) string {
	c, ok := e.(*lang.CallExpr)
	if !ok || c.Name != "len" || c.Module != "" || len(c.Args) != 1 {
		return ""
	}
	if id, ok := c.Args[0].(*lang.Ident); ok && id.Module == "" {
		return id.Name
	}
	return ""
}

func paramIndex(fn *lang.FuncDecl, name string) int {
	for i, p := range fn.Params {
		if p.Name == name {
			return i
		}
	}
	return -1
}

func paramList(fn *lang.FuncDecl) string {
	var s []string
	for _, p := range fn.Params {
		s = append(s, p.Name)
	}
	return strings.Join(s, ", ")
}

// FlatLen is the number of words in a (possibly nested) array type.
func FlatLen(t lang.Type) int { return lang.FlatLen(t) }

// ElemWord is the word type at the bottom of an array or slice type.
func ElemWord(t lang.Type) *lang.WordType {
	for {
		switch x := t.(type) {
		case *lang.ArrayType:
			t = x.Elem
		case *lang.SliceType:
			t = x.Elem
		case *lang.WordType:
			return x
		default:
			return lang.U8
		}
	}
}

func parseValue(t lang.Type, text string) (lang.Value, error) {
	switch t := t.(type) {
	case *lang.BoolType:
		switch text {
		case "true", "1":
			return lang.Value{Word: 1}, nil
		case "false", "0":
			return lang.Value{}, nil
		}
		return lang.Value{}, fmt.Errorf("%q is not a bool (true or false)", text)
	case *lang.WordType:
		w, err := parseWord(text, t)
		return lang.Value{Word: w}, err
	case *lang.ArrayType, *lang.SliceType:
		elems, err := parseElems(ElemWord(t), text)
		if err != nil {
			return lang.Value{}, err
		}
		if a, ok := t.(*lang.ArrayType); ok && len(elems) != FlatLen(a) {
			return lang.Value{}, fmt.Errorf("%s needs %d elements, got %d", t, FlatLen(a), len(elems))
		}
		return lang.Value{IsArray: true, Elems: elems}, nil
	}
	return lang.Value{}, fmt.Errorf("parameters of type %s cannot be given on the command line", t)
}

func parseElems(w *lang.WordType, text string) ([]uint64, error) {
	if n, ok := strings.CutPrefix(text, "zero:"); ok {
		k, err := strconv.ParseUint(n, 10, 64)
		if err != nil {
			return nil, fmt.Errorf("zero:%s: not an element count", n)
		}
		if k > MaxZeroElems {
			return nil, fmt.Errorf("zero:%s: more than %d elements (the limit of zero:N)", n, MaxZeroElems)
		}
		return make([]uint64, k), nil
	}
	if text == "" {
		return []uint64{}, nil
	}
	if w.Bits == 8 {
		b, err := hex.DecodeString(text)
		if err != nil {
			return nil, fmt.Errorf("bytes are written in hex (e.g. 616263): %s", hexProblem(text))
		}
		out := make([]uint64, len(b))
		for i, x := range b {
			out[i] = uint64(x)
		}
		return out, nil
	}
	var out []uint64
	for _, f := range strings.Split(text, ",") {
		v, err := parseWord(strings.TrimSpace(f), w)
		if err != nil {
			return nil, err
		}
		out = append(out, v)
	}
	return out, nil
}

func parseWord(text string, t *lang.WordType) (uint64, error) {
	v, err := strconv.ParseUint(text, 0, 64)
	if err != nil || strings.HasPrefix(text, "0") && len(text) > 1 && !strings.HasPrefix(text, "0x") && !strings.HasPrefix(text, "0X") {
		return 0, fmt.Errorf("%q is not a decimal or 0x-hex number", text)
	}
	if v&^t.Mask() != 0 {
		return 0, fmt.Errorf("%s does not fit in %s", text, t)
	}
	return v, nil
}

// FormatOutputs renders what `lowentc run` prints after a call: every `mut`
// parameter as NAME=HEX in declaration order, then the results as
// ret=VALUE (ret0=, ret1=, ... when there are several).
func FormatOutputs(fn *lang.FuncDecl, args, results []lang.Value) string {
	var b strings.Builder
	for i, p := range fn.Params {
		if p.Mut {
			fmt.Fprintf(&b, "%s=%s\n", p.Name, FormatElems(ElemWord(p.Type), args[i].Elems))
		}
	}
	for i, r := range results {
		name := "ret"
		if len(results) > 1 {
			name = fmt.Sprintf("ret%d", i)
		}
		fmt.Fprintf(&b, "%s=%s\n", name, formatScalar(fn.ResultTypes[i], r))
	}
	return b.String()
}

// FormatElems writes bytes as hex and wider words as comma-separated 0x-hex.
func FormatElems(w *lang.WordType, elems []uint64) string {
	if w.Bits == 8 {
		b := make([]byte, len(elems))
		for i, e := range elems {
			b[i] = byte(e)
		}
		return hex.EncodeToString(b)
	}
	s := make([]string, len(elems))
	for i, e := range elems {
		s[i] = fmt.Sprintf("0x%0*x", w.Bits/4, e)
	}
	return strings.Join(s, ",")
}

func formatScalar(t lang.Type, v lang.Value) string {
	switch t := t.(type) {
	case *lang.BoolType:
		return strconv.FormatBool(v.Word != 0)
	case *lang.ArrayType:
		return FormatElems(ElemWord(t), v.Elems)
	}
	return strconv.FormatUint(v.Word, 10)
}

// hexProblem says, in the command line's terms, why text is not hex bytes.
func hexProblem(text string) string {
	for i, r := range text {
		if !strings.ContainsRune("0123456789abcdefABCDEF", r) {
			if r == 'x' && i == 1 && text[0] == '0' {
				return "no 0x prefix: the value is hex already"
			}
			return fmt.Sprintf("%q at character %d is not a hex digit", r, i+1)
		}
	}
	return fmt.Sprintf("%d hex digits is an odd number: two make a byte", len(text))
}
