package ir

// The pair form of 128-bit values. The IR has no 128-bit type: at every
// width a 128-bit quantity of the source (an AES block, a GF(2^128)
// element, a 16-byte chunk of a message) is two u64 words, stored and
// loaded as two 64-bit accesses at consecutive words of one array, the
// lower address holding the first word in the array's order. Pairs128
// finds those accesses, so that a target with 128-bit registers (amd64's
// <2 x i64> lanes) moves the pair as one value instead of working the
// pairs out again from the limbs.

// WordAccess is a 64-bit load or store as the pair form sees it: its
// Access, Unit the index step from one 64-bit word to the next (1 in an
// array of u64, 8 in a byte array read eight bytes at a time), and BE
// whether the word's bytes are big-endian.
type WordAccess struct {
	Access
	Unit int64
	BE   bool
}

// WordAccessOf describes in when it is a 64-bit access of the pair form:
// a load or store of a u64 element (one element a word), or eight bytes
// of a byte array loaded or stored little-endian or loaded big-endian (a
// big-endian store is not one: no target pairs it).
func WordAccessOf(in *Instr) (WordAccess, bool) {
	var a WordAccess
	switch in.Op {
	case OpLoad, OpStore:
		if in.Arr.Elem != U64 || in.Arr.Per != 1 {
			return a, false
		}
		a.Unit = 1
	case OpLoadLE, OpStoreLE, OpLoadBE:
		if in.Aux != 64 || in.Arr.Elem != U8 {
			return a, false
		}
		a.Unit, a.BE = 8, in.Op == OpLoadBE
	default:
		return a, false
	}
	a.Access, _ = AccessOf(in)
	return a, true
}

// Next reports whether y is the 64-bit word right after x: the same
// array, base and byte order, one Unit further.
func (x WordAccess) Next(y WordAccess) bool {
	d, ok := x.Distance(y.Access)
	return ok && x.BE == y.BE && d == x.Unit
}

// A Pair128 is a 128-bit value in pair form: two 64-bit accesses of one
// array at consecutive words, Lo at the lower address and Hi at the
// higher. At is the place where the pair is one 128-bit access, Skip the
// other access: for loads the first of the two in program order (nothing
// between them stores to the array), for stores the second (nothing
// between them reads the array).
type Pair128 struct {
	Lo, Hi   *Instr
	At, Skip *Instr
}

// Pairs128 are the 128-bit values of one block in pair form.
type Pairs128 struct {
	Loads  []Pair128 // in the order of their At
	Stores []Pair128 // in the order of their At
	// StoreChains are the runs of store pairs of one array at
	// consecutive addresses, each pair's Lo the word after the previous
	// pair's Hi, with no other access to the array between them: a
	// target with wider stores can take two or four pairs at once (at
	// the place of the last). Every store pair is in exactly one chain,
	// which may be the pair alone.
	StoreChains [][]Pair128
}

// FindPairs128 finds the pairs of b's own instructions (not those of its
// nested blocks, which have their own). A call, a check or an instruction
// with blocks ends every pairing (nothing moves across it). Two loads of
// words next to each other pair when no store to their array lies between
// them; two stores, when no load of their array lies between them and no
// store between them may write the bytes of the first (by rule: the
// first is done late, with the second).
func FindPairs128(b *Block, rule Aliasing) Pairs128 {
	var p Pairs128
	loads := map[*Array][]*Instr{}
	stores := map[*Array][]*Instr{}
	// chains are the store pairs of each array at consecutive addresses
	// with no other access to the array between them (arrays in the order
	// their chains began, for a deterministic result); since counts the
	// stores to the array after the chain's last pair.
	chains := map[*Array][]Pair128{}
	var chained []*Array
	since := map[*Array]int{}
	endChain := func(a *Array) {
		if ch := chains[a]; len(ch) > 0 {
			p.StoreChains = append(p.StoreChains, ch)
		}
		delete(chains, a)
		delete(since, a)
	}
	barrier := func() {
		loads = map[*Array][]*Instr{}
		stores = map[*Array][]*Instr{}
		for _, a := range chained {
			endChain(a)
		}
		chained = nil
	}
	// pairWith returns the index in pending of the access next to acc,
	// and the pair in address order.
	pairWith := func(pending []*Instr, in *Instr, acc WordAccess) (int, *Instr, *Instr) {
		for i, c := range pending {
			ca, _ := WordAccessOf(c)
			switch {
			case ca.Next(acc):
				return i, c, in
			case acc.Next(ca):
				return i, in, c
			}
		}
		return -1, nil, nil
	}
	for _, in := range b.Instrs {
		acc, word := WordAccessOf(in)
		a, mem := AccessOf(in)
		switch {
		case len(in.Blocks) > 0 || in.Op == OpCall || in.Op == OpCheck:
			barrier()
		case mem && !a.Store:
			delete(stores, in.Arr)
			endChain(in.Arr)
			if !word {
				continue
			}
			if i, lo, hi := pairWith(loads[in.Arr], in, acc); i >= 0 {
				first := loads[in.Arr][i]
				p.Loads = append(p.Loads, Pair128{Lo: lo, Hi: hi, At: first, Skip: in})
				loads[in.Arr] = append(loads[in.Arr][:i:i], loads[in.Arr][i+1:]...)
			} else {
				loads[in.Arr] = append(loads[in.Arr], in)
			}
		case mem:
			delete(loads, in.Arr)
			since[in.Arr]++
			if !word {
				delete(stores, in.Arr)
				endChain(in.Arr)
				continue
			}
			// A pending store is done later, with its pair: it must not
			// pass this store if they may write the same bytes (a[0] = x;
			// a[j] = y; a[1] = z with j = 0).
			kept := stores[in.Arr][:0]
			for _, c := range stores[in.Arr] {
				if ca, _ := WordAccessOf(c); !rule.MayOverlap(ca.Access, acc.Access) {
					kept = append(kept, c)
				}
			}
			stores[in.Arr] = kept
			i, lo, hi := pairWith(stores[in.Arr], in, acc)
			if i < 0 {
				stores[in.Arr] = append(stores[in.Arr], in)
				continue
			}
			pr := Pair128{Lo: lo, Hi: hi, At: in, Skip: stores[in.Arr][i]}
			p.Stores = append(p.Stores, pr)
			stores[in.Arr] = append(stores[in.Arr][:i:i], stores[in.Arr][i+1:]...)
			if ch := chains[in.Arr]; len(ch) > 0 {
				last, _ := WordAccessOf(ch[len(ch)-1].Hi)
				first, _ := WordAccessOf(lo)
				if since[in.Arr] != 2 || !last.Next(first) {
					endChain(in.Arr)
				}
			}
			if _, ok := chains[in.Arr]; !ok && !containsArray(chained, in.Arr) {
				chained = append(chained, in.Arr)
			}
			chains[in.Arr] = append(chains[in.Arr], pr)
			since[in.Arr] = 0
		}
	}
	barrier()
	return p
}

func containsArray(as []*Array, a *Array) bool {
	for _, x := range as {
		if x == a {
			return true
		}
	}
	return false
}
