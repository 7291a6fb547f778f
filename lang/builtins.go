package lang

// ViewName is the name of the range view builtin: not an identifier, so a
// program reaches it only through the syntax a[i..j].
const ViewName = "[..]"

// Builtin describes a builtin function. Its meaning is the same on every
// target; Features says which hardware a target may use to compute it.
type Builtin struct {
	ID        BuiltinID
	Name      string
	Effects   EffectSet  // effects the builtin itself has (bounds checks come from the checker)
	Features  FeatureSet // hardware that computes it directly
	Bits      int        // BLoad/BStore: word width
	BigEndian bool       // BLoad/BStore: byte order
}

// Builtins maps a builtin's name to its description.
var Builtins = map[string]*Builtin{}

func init() {
	add := func(b *Builtin) { Builtins[b.Name] = b }
	add(&Builtin{ID: BLen, Name: "len"})
	add(&Builtin{ID: BRest, Name: "rest"})
	for _, bits := range []int{16, 32, 64} {
		for _, be := range []bool{false, true} {
			order := "le"
			if be {
				order = "be"
			}
			add(&Builtin{ID: BLoad, Name: "load_" + order + itoa(bits), Bits: bits, BigEndian: be})
			add(&Builtin{ID: BStore, Name: "store_" + order + itoa(bits), Bits: bits, BigEndian: be})
		}
	}
	add(&Builtin{ID: BClmulLo, Name: "clmul_lo", Features: FeatureSet(FeatPCLMUL)})
	add(&Builtin{ID: BClmulHi, Name: "clmul_hi", Features: FeatureSet(FeatPCLMUL)})
	add(&Builtin{ID: BAESEnc, Name: "aes_enc", Features: FeatureSet(FeatAES)})
	add(&Builtin{ID: BAESEncLast, Name: "aes_enclast", Features: FeatureSet(FeatAES)})
	add(&Builtin{ID: BSelect, Name: "select"})
	add(&Builtin{ID: BUncheckedGet, Name: "unchecked_get", Effects: EffectSet(EffUnsafe)})
	add(&Builtin{ID: BUncheckedSet, Name: "unchecked_set", Effects: EffectSet(EffUnsafe)})
	add(&Builtin{ID: BTrace, Name: "trace", Effects: EffectSet(EffIO)})
	add(&Builtin{ID: BSHA256Rnds2, Name: "sha256_rnds2", Features: FeatureSet(FeatSHA)})
	add(&Builtin{ID: BSHA256Msg1, Name: "sha256_msg1", Features: FeatureSet(FeatSHA)})
	add(&Builtin{ID: BSHA256Msg2, Name: "sha256_msg2", Features: FeatureSet(FeatSHA)})
	add(&Builtin{ID: BMulW, Name: "mulw"})
	add(&Builtin{ID: BView, Name: ViewName})
}

func itoa(n int) string {
	switch n {
	case 16:
		return "16"
	case 32:
		return "32"
	case 64:
		return "64"
	}
	panic("BUG: itoa")
}
