package lang

import (
	"strconv"

	"github.com/lowent/lowentc/sem"
)

// The target-independent meaning of the language lives in package sem;
// these names keep it reachable as part of the language's own vocabulary.

type (
	Pos        = sem.Pos
	Diag       = sem.Diag
	Note       = sem.Note
	Diags      = sem.Diags
	Sources    = sem.Sources
	Value      = sem.Value
	Fault      = sem.Fault
	SrcText    = sem.SrcText
	Feature    = sem.Feature
	FeatureSet = sem.FeatureSet
	BuiltinID  = sem.BuiltinID
	BinOp      = sem.BinOp // a binary operator; its meaning is sem.EvalBinary
	UnOp       = sem.UnOp  // a unary operator; its meaning is sem.EvalUnary
)

const (
	FeatPCLMUL = sem.FeatPCLMUL
	FeatAES    = sem.FeatAES
	FeatSHA    = sem.FeatSHA
	FeatIFMA   = sem.FeatIFMA
)

const (
	BLen          = sem.BLen
	BRest         = sem.BRest
	BLoad         = sem.BLoad
	BStore        = sem.BStore
	BClmulLo      = sem.BClmulLo
	BClmulHi      = sem.BClmulHi
	BAESEnc       = sem.BAESEnc
	BAESEncLast   = sem.BAESEncLast
	BSelect       = sem.BSelect
	BUncheckedGet = sem.BUncheckedGet
	BUncheckedSet = sem.BUncheckedSet
	BTrace        = sem.BTrace
	BSHA256Rnds2  = sem.BSHA256Rnds2
	BSHA256Msg1   = sem.BSHA256Msg1
	BSHA256Msg2   = sem.BSHA256Msg2
	BMulW         = sem.BMulW
	BView         = sem.BView
)

// AllFeatures lists the features in canonical order (sem.AllFeatures).
var AllFeatures = sem.AllFeatures

// CopyValues copies arguments with their arrays (sem.CopyValues).
func CopyValues(vs []Value) []Value { return sem.CopyValues(vs) }

// AESSbox is the AES S-box (sem.AESSbox).
var AESSbox = sem.AESSbox

func Errorf(p Pos, format string, args ...any) *Diag { return sem.Errorf(p, format, args...) }
func Abbrev(text string, n int) string               { return sem.Abbrev(text, n) }
func Thousands(n int64) string                       { return sem.Thousands(n) }
func FeatureByName(name string) (Feature, bool)      { return sem.FeatureByName(name) }
func ParseFeatures(s string) (FeatureSet, error)     { return sem.ParseFeatures(s) }
func MulW(n int, a, b uint64) (lo, hi uint64)        { return sem.MulW(n, a, b) }
func ClmulLo(a, b uint64) uint64                     { return sem.ClmulLo(a, b) }
func ClmulHi(a, b uint64) uint64                     { return sem.ClmulHi(a, b) }
func AESEnc(s0, s1, k0, k1 uint64) (uint64, uint64)  { return sem.AESEnc(s0, s1, k0, k1) }
func AESEncLast(s0, s1, k0, k1 uint64) (uint64, uint64) {
	return sem.AESEncLast(s0, s1, k0, k1)
}
func SHA256Builtin(id BuiltinID, a []uint64) [4]uint64 { return sem.SHA256Builtin(id, a) }

// SemExport describes fn as its faults name it: name, position, parameters
// and the position and text of each requires clause. A clause the parser
// recorded no text for (a tree built by hand) is named "clause K".
func (fn *FuncDecl) SemExport() *sem.Export {
	e := &sem.Export{Name: fn.Name, Pos: fn.Pos}
	for _, p := range fn.Params {
		e.Params = append(e.Params, sem.Param{Name: p.Name, Pos: p.Pos})
	}
	for k := 0; k < len(fn.RequiresSrc) || k < len(fn.Requires); k++ {
		switch {
		case k < len(fn.RequiresSrc):
			e.Requires = append(e.Requires, fn.RequiresSrc[k])
		default:
			e.Requires = append(e.Requires, SrcText{Pos: fn.Requires[k].Position(), Text: "clause " + strconv.Itoa(k+1)})
		}
	}
	return e
}

// RequiresFault is the fault of requires clause k of fn failing (sem.RequiresFault).
func RequiresFault(fn *FuncDecl, k int) *Fault { return sem.RequiresFault(fn.SemExport(), k) }

// OverlapFault is the fault of overlapping buffers passed to fn (sem.OverlapFault).
func OverlapFault(fn *FuncDecl, written, other int) *Fault {
	return sem.OverlapFault(fn.SemExport(), written, other)
}
