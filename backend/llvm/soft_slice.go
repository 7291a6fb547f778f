package llvm

// The bitsliced computed AES: four blocks per 64-bit word (eight per
// <2 x i64>, one group of four in each lane), so that one S-box circuit
// evaluation does a whole round's SubBytes for all of them.
//
// Layout: plane k holds bit k of every byte; the byte in row r, column c
// of block b is at bit 16r + 4c + b. Then ShiftRows moves bits within each
// 16-bit row, and MixColumns' "the byte one row down" is a rotation of the
// whole word by 16.
//
// The words come in as w[2b+h] = word h of block b (bytes 8h..8h+7, byte
// j at bits 8j..8j+7: bit 8j+k is bit k of byte 8h+j). Seen as index bits,
// a bit sits at word (b1 b0 h), position (j2 j1 j0 k2 k1 k0); the layout
// wants word (k2 k1 k0), position (j1 j0 h j2 b1 b0), since byte 8h+j has
// column 2h+j2 and row j1j0. Three exchanges of a word-index bit with a
// position bit and a rotation of four position bits do it.

// swapCross exchanges word-index bit x with position bit q: the bit at
// (word bit x = u, position bit q = v) moves to (v, u).
func swapCross[V any](o wordOps[V], w []V, x, q uint) {
	s := uint(1) << q
	var m uint64
	for p := uint(0); p < 64; p++ {
		if p&s == 0 {
			m |= 1 << p
		}
	}
	for i := range w {
		if i>>x&1 == 1 {
			continue
		}
		a, b := w[i], w[i|1<<x]
		t := o.and(o.xor(o.shr(a, s), b), o.c(m))
		w[i|1<<x] = o.xor(b, t)
		w[i] = o.xor(a, o.shl(t, s))
	}
}

// swapBits exchanges position bits a > b within one word.
func swapBits[V any](o wordOps[V], x V, a, b uint) V {
	s := uint(1)<<a - uint(1)<<b
	var m uint64
	for p := uint(0); p < 64; p++ {
		if p>>b&1 == 1 && p>>a&1 == 0 {
			m |= 1 << p
		}
	}
	t := o.and(o.xor(o.shr(x, s), x), o.c(m))
	return o.xor(x, o.xor(t, o.shl(t, s)))
}

// slotOfPlane is the word slot that holds plane k after the exchanges
// (word bit 2 holds k1, bit 1 k0, bit 0 k2).
func slotOfPlane(k int) int { return (k>>1&1)<<2 | (k&1)<<1 | k>>2&1 }

// pack4 bitslices four blocks (see the layout above).
func pack4[V any](o wordOps[V], w [8]V) [8]V {
	ws := w[:]
	swapCross(o, ws, 1, 0) // b0 <-> k0
	swapCross(o, ws, 2, 1) // b1 <-> k1
	swapCross(o, ws, 0, 2) // h  <-> k2
	var p [8]V
	for k := range p {
		x := ws[slotOfPlane(k)]
		// Position bits 5..2 hold (j2 j1 j0 h); rotate them to (j1 j0 h j2).
		x = swapBits(o, x, 5, 4)
		x = swapBits(o, x, 4, 3)
		x = swapBits(o, x, 3, 2)
		p[k] = x
	}
	return p
}

// unpack4 is the inverse of pack4.
func unpack4[V any](o wordOps[V], p [8]V) [8]V {
	var w [8]V
	for k := range p {
		x := swapBits(o, p[k], 3, 2)
		x = swapBits(o, x, 4, 3)
		w[slotOfPlane(k)] = swapBits(o, x, 5, 4)
	}
	ws := w[:]
	swapCross(o, ws, 0, 2)
	swapCross(o, ws, 2, 1)
	swapCross(o, ws, 1, 0)
	return w
}

// permuteBits returns y with bit p of y = bit src(p) of x, as one masked
// shift per distinct distance.
func permuteBits[V any](o wordOps[V], x V, src func(p int) int) V {
	masks := map[int]uint64{}
	var order []int
	for p := 0; p < 64; p++ {
		d := src(p) - p
		if _, ok := masks[d]; !ok {
			order = append(order, d)
		}
		masks[d] |= 1 << p
	}
	var y V
	for i, d := range order {
		var t V
		switch {
		case d > 0:
			t = o.shr(x, uint(d))
		case d < 0:
			t = o.shl(x, uint(-d))
		default:
			t = x
		}
		t = o.and(t, o.c(masks[d]))
		if i == 0 {
			y = t
		} else {
			y = o.or(y, t)
		}
	}
	return y
}

// sliceShiftRows: row r of column c takes row r of column c+r.
func sliceShiftRows(p int) int {
	r, c, b := p/16, p/4%4, p%4
	return 16*r + 4*((c+r)%4) + b
}

// rows16 is implemented by word ops that have shifts of each 16-bit lane
// of a word (SSE2's psrlw/psllw, NEON's ushr/shl on .8h): rotr16 rotates
// every 16-bit lane of x right by k.
type rows16[V any] interface {
	rotr16(x V, k uint) V
}

// shiftRows is ShiftRows on one plane. Row r (bits 16r..16r+15) rotates
// right by 4r within its 16 bits (sliceShiftRows). With 16-bit lane
// shifts that is two blended rotations of all rows, by 4 kept in rows 1
// and 3 and then by 8 kept in rows 2 and 3: 12 operations instead of the
// 19 of one masked shift per distance (permuteBits), and fewer registers.
func shiftRows[V any](o wordOps[V], x V) V {
	r, ok := o.(rows16[V])
	if !ok {
		return permuteBits(o, x, sliceShiftRows)
	}
	x = o.xor(x, o.and(o.xor(x, r.rotr16(x, 4)), o.c(0xffff0000ffff0000)))
	return o.xor(x, o.and(o.xor(x, r.rotr16(x, 8)), o.c(0xffffffff00000000)))
}

// rotr rotates each 64-bit word right by k, with the ops' own rotation
// when they have one (a shuffle of 16-bit lanes is one SSE2 instruction).
func rotr[V any](o wordOps[V], x V, k uint) V {
	if r, ok := o.(interface{ rotr(V, uint) V }); ok {
		return r.rotr(x, k)
	}
	return o.or(o.shr(x, k), o.shl(x, 64-k))
}

// sliceMixColumns: out_r = 2(a_r ^ a_(r+1)) ^ a_(r+1) ^ a_(r+2) ^ a_(r+3);
// the rows above r are rotations by 16 and 32, and the doubling moves
// planes up, folding plane 7 back with x^8 = x^4 + x^3 + x + 1.
func sliceMixColumns[V any](o wordOps[V], a [8]V) [8]V {
	var t, u [8]V
	for k := range a {
		a1 := rotr(o, a[k], 16)
		t[k] = o.xor(a[k], a1)
		u[k] = o.xor(a1, rotr(o, t[k], 32))
	}
	var out [8]V
	out[0] = o.xor(t[7], u[0])
	for k := 1; k < 8; k++ {
		x := t[k-1]
		if k == 1 || k == 3 || k == 4 {
			x = o.xor(x, t[7])
		}
		out[k] = o.xor(x, u[k])
	}
	return out
}

// sliceRound is one AES round (aes_enc, or aes_enclast when last) on
// bitsliced states and a bitsliced round key.
func sliceRound[V any](o wordOps[V], last bool, s, k [8]V) [8]V {
	s = evalCircuit(o, sboxCircuit(), s)
	for i := range s {
		s[i] = shiftRows(o, s[i])
	}
	if !last {
		s = sliceMixColumns(o, s)
	}
	for i := range s {
		s[i] = o.xor(s[i], k[i])
	}
	return s
}
