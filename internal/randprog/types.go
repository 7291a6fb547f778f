package randprog

import "fmt"

// kind is the shape of a generator type.
type kind uint8

const (
	kWord kind = iota
	kBool
	kArray
	kSlice
)

// ty is the generator's own model of a Lowent type. It is independent of
// lang.Type so that the generator does not depend on the checker it tests.
type ty struct {
	k    kind
	bits int // word: width; array or slice: width of the innermost word
	n    int // array: length
	elem *ty // array or slice: element type
}

var (
	tU8   = &ty{k: kWord, bits: 8}
	tU16  = &ty{k: kWord, bits: 16}
	tU32  = &ty{k: kWord, bits: 32}
	tU64  = &ty{k: kWord, bits: 64}
	tBool = &ty{k: kBool}
)

// widths lists the word widths.
var widths = []int{8, 16, 32, 64}

// word returns the word type of the given width.
func word(bits int) *ty {
	switch bits {
	case 8:
		return tU8
	case 16:
		return tU16
	case 32:
		return tU32
	case 64:
		return tU64
	}
	panic(fmt.Sprintf("BUG: randprog: no word type of %d bits", bits))
}

// arrOf returns [n]elem.
func arrOf(n int, elem *ty) *ty { return &ty{k: kArray, n: n, elem: elem, bits: elem.bits} }

// sliceOf returns []uBITS.
func sliceOf(bits int) *ty { return &ty{k: kSlice, elem: word(bits), bits: bits} }

func (t *ty) String() string {
	switch t.k {
	case kWord:
		return fmt.Sprintf("u%d", t.bits)
	case kBool:
		return "bool"
	case kArray:
		return fmt.Sprintf("[%d]%s", t.n, t.elem)
	case kSlice:
		return "[]" + t.elem.String()
	}
	panic("BUG: randprog: bad type kind")
}

// same reports whether t and u are the same type.
func (t *ty) same(u *ty) bool {
	if t.k != u.k || t.bits != u.bits {
		return false
	}
	switch t.k {
	case kArray:
		return t.n == u.n && t.elem.same(u.elem)
	case kSlice:
		return t.elem.same(u.elem)
	}
	return true
}

// indexable reports whether t is an array or a slice.
func (t *ty) indexable() bool { return t.k == kArray || t.k == kSlice }

// flatWords reports whether t is an array or slice of words (not nested).
func (t *ty) flatWords() bool { return t.indexable() && t.elem.k == kWord }

// mask is the all-ones value of a word type.
func mask(bits int) uint64 {
	if bits == 64 {
		return ^uint64(0)
	}
	return 1<<uint(bits) - 1
}

// vkind says what a generator variable stands for.
type vkind uint8

const (
	vLocal vkind = iota // let or var
	vParam
	vLoop  // range loop index or chunk index
	vView  // chunk view
	vConst // module constant
)

// vr is a name in scope, with what the checker can know about it.
type vr struct {
	name string
	t    *ty
	kind vkind
	mut  bool // words: assignable (var); arrays and slices: writable through
	// root is the variable whose storage this one shares (a view's source),
	// used to keep an argument of a mut parameter from aliasing another.
	root *vr

	konst  bool   // the checker may know its value at compile time
	val    uint64 // its value, when hasVal
	hasVal bool

	maxv   uint64 // loop index: largest value, when hasMax
	hasMax bool
	lenOf  *vr // loop index of `for i in 0..len(s)`: s, whose index it proves

	minLen int // slice: known minimum length (its own requires)
	ltLen  int // slice: known strict upper bound on the length (its own requires), 0 if none
	// lo..hi is every length the slice may have, as far as the checker may
	// know from all the requires together (equal lengths included); hi < 0:
	// unbounded. Lengths outside it are compile-time errors where they meet
	// fixed ones.
	lo, hi int
	src    *vr // view: the slice or array it views
	// anchor marks the var every function declares first: never shadowed,
	// so a non-constant word is always at hand.
	anchor bool
}

// rootOf returns the storage identity of v.
func (v *vr) rootOf() *vr {
	if v.root != nil {
		return v.root
	}
	return v
}

// lenRange returns the lengths v (an array, view or slice) may have; hi < 0
// is unbounded.
func (v *vr) lenRange() (lo, hi int) {
	if v.t.k == kArray {
		return v.t.n, v.t.n
	}
	return v.lo, v.hi
}

// overlaps reports whether two length ranges share a length.
func overlaps(lo1, hi1, lo2, hi2 int) bool {
	return (hi2 < 0 || lo1 <= hi2) && (hi1 < 0 || lo2 <= hi1)
}
