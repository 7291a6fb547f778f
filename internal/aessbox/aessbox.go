// Package aessbox derives the AES S-box as a Boolean circuit: the
// inversion in GF(2^8) done in the tower field GF((2^4)^2), where it costs
// three GF(2^4) multiplications and one GF(2^4) inversion instead of the
// four GF(2^8) multiplications of x^254. The circuit is derived at first use
// from the field definitions (a brute-force search for the field
// isomorphism, the linear maps compressed by shared xors), so there is no
// magic table to trust: the test checks all 256 inputs. Backends evaluate
// it on bitsliced planes (amd64 on vector lanes, jcvm on 16-bit shorts):
// no table, no secret-dependent memory access or branch.
package aessbox

import (
	"math/bits"
	"sync"
)

// Gate is one operation of a circuit: out = A op B (op '^' xor, '&' and),
// or out = A ^ 1 ('~', not; B unused). Signals 0..7 are the inputs.
type Gate struct {
	Op   byte // '^', '&', '~'
	A, B int
}

// Circuit computes Outs from eight input signals (bit i of the input byte
// is signal i) through Gates; signal 8+i is gate i's output, and Outs[i]
// is the signal holding bit i of the result.
type Circuit struct {
	Gates []Gate
	Outs  [8]int
}

// Eval runs c on one byte (for tests and table-free reference use).
func (c *Circuit) Eval(x byte) byte {
	sig := make([]byte, 8, 8+len(c.Gates))
	for i := range 8 {
		sig[i] = x >> i & 1
	}
	for _, g := range c.Gates {
		switch g.Op {
		case '^':
			sig = append(sig, sig[g.A]^sig[g.B])
		case '&':
			sig = append(sig, sig[g.A]&sig[g.B])
		default:
			sig = append(sig, sig[g.A]^1)
		}
	}
	var y byte
	for i, s := range c.Outs {
		y |= sig[s] << i
	}
	return y
}

// builder appends gates to a circuit.
type builder struct{ c *Circuit }

func (b builder) add(op byte, x, y int) int {
	b.c.Gates = append(b.c.Gates, Gate{op, x, y})
	return 7 + len(b.c.Gates)
}
func (b builder) xor(x, y int) int { return b.add('^', x, y) }
func (b builder) and(x, y int) int { return b.add('&', x, y) }

// linear emits y_i = xor of the x_j with bit j set in rows[i] (an empty
// row is the constant zero: not allowed here). Pairs shared by the most
// rows are computed first, once (Paar's greedy heuristic).
func (b builder) linear(x []int, rows []uint64) []int {
	sig := append([]int(nil), x...)
	rows = append([]uint64(nil), rows...)
	for {
		best, bi, bj := 1, -1, -1
		for i := range sig {
			for j := i + 1; j < len(sig); j++ {
				n := 0
				for _, r := range rows {
					if r>>i&1 == 1 && r>>j&1 == 1 {
						n++
					}
				}
				if n > best {
					best, bi, bj = n, i, j
				}
			}
		}
		if bi < 0 {
			break
		}
		sig = append(sig, b.xor(sig[bi], sig[bj]))
		k := len(sig) - 1
		for r := range rows {
			if rows[r]>>bi&1 == 1 && rows[r]>>bj&1 == 1 {
				rows[r] &^= 1<<bi | 1<<bj
				rows[r] |= 1 << k
			}
		}
		if len(sig) >= 63 {
			panic("BUG: aessbox: linear map too wide")
		}
	}
	out := make([]int, len(rows))
	for i, r := range rows {
		if r == 0 {
			panic("BUG: aessbox: zero row in a linear map")
		}
		acc := -1
		for r != 0 {
			j := bits.TrailingZeros64(r)
			r &^= 1 << j
			if acc < 0 {
				acc = sig[j]
			} else {
				acc = b.xor(acc, sig[j])
			}
		}
		out[i] = acc
	}
	return out
}

// gf16Mul multiplies in GF(2^4) = GF(2)[z]/(z^4 + z + 1).
func gf16Mul(a, b byte) byte {
	var p byte
	for i := 0; i < 4; i++ {
		if b>>i&1 == 1 {
			p ^= a << i
		}
	}
	for i := 6; i >= 4; i-- {
		if p>>i&1 == 1 {
			p ^= 0x13 << (i - 4)
		}
	}
	return p
}

// towerMul multiplies in GF(2^4)[Y]/(Y^2 + Y + lam); an element is h<<4|l
// for hY + l.
func towerMul(lam, a, b byte) byte {
	ah, al, bh, bl := a>>4, a&15, b>>4, b&15
	hh := gf16Mul(ah, bh)
	h := hh ^ gf16Mul(ah, bl) ^ gf16Mul(al, bh)
	l := gf16Mul(hh, lam) ^ gf16Mul(al, bl)
	return h<<4 | l
}

// towerSetup finds lam (Y^2 + Y + lam irreducible) and the linear maps
// between the AES field and the tower field: toTower[i] is the image of
// x^i, fromTower[t] the AES element of tower bit t.
func towerSetup() (lam byte, toTower, fromTower [8]byte) {
	for lam = 1; lam < 16; lam++ {
		root := false
		for y := byte(0); y < 16; y++ {
			if gf16Mul(y, y)^y == lam {
				root = true
			}
		}
		if !root {
			break
		}
	}
	// beta, a root of the AES polynomial in the tower field, is where x goes.
	for beta := 2; beta < 256; beta++ {
		var pow [9]byte
		pow[0] = 1
		for i := 1; i <= 8; i++ {
			pow[i] = towerMul(lam, pow[i-1], byte(beta))
		}
		if pow[8]^pow[4]^pow[3]^pow[1]^pow[0] != 0 {
			continue
		}
		copy(toTower[:], pow[:8])
		break
	}
	img := func(a byte) byte {
		var t byte
		for i := 0; i < 8; i++ {
			if a>>i&1 == 1 {
				t ^= toTower[i]
			}
		}
		return t
	}
	for a := 0; a < 256; a++ {
		t := img(byte(a))
		if t != 0 && t&(t-1) == 0 {
			fromTower[bits.TrailingZeros8(t)] = byte(a)
		}
	}
	return lam, toTower, fromTower
}

// gf16Circuit emits GF(2^4) operations on 4-signal values (bit i = z^i).
type gf16Circuit struct{ builder }

// mul is the schoolbook product, reduced with z^4 = z + 1.
func (b gf16Circuit) mul(x, y [4]int) [4]int {
	var p [7]int
	for i := range p {
		p[i] = -1
	}
	for i := 0; i < 4; i++ {
		for j := 0; j < 4; j++ {
			t := b.and(x[i], y[j])
			if p[i+j] < 0 {
				p[i+j] = t
			} else {
				p[i+j] = b.xor(p[i+j], t)
			}
		}
	}
	for i := 6; i >= 4; i-- {
		p[i-4] = b.xor(p[i-4], p[i])
		p[i-3] = b.xor(p[i-3], p[i])
	}
	return [4]int{p[0], p[1], p[2], p[3]}
}

// inv is inversion in GF(2^4) (0 for 0) from its algebraic normal form:
// each output bit is a xor of products of input bits.
func (b gf16Circuit) inv(x [4]int) [4]int {
	var tt [16]byte
	for a := 1; a < 16; a++ {
		for c := 1; c < 16; c++ {
			if gf16Mul(byte(a), byte(c)) == 1 {
				tt[a] = byte(c)
			}
		}
	}
	// Moebius transform: anf[m] bit i says monomial m is in output bit i.
	anf := tt
	for s := 1; s < 16; s <<= 1 {
		for m := 0; m < 16; m++ {
			if m&s != 0 {
				anf[m] ^= anf[m^s]
			}
		}
	}
	mono := map[int]int{}
	var product func(m int) int
	product = func(m int) int {
		if s, ok := mono[m]; ok {
			return s
		}
		hi := 31 - bits.LeadingZeros32(uint32(m))
		s := x[hi]
		if rest := m &^ (1 << hi); rest != 0 {
			s = b.and(product(rest), x[hi])
		}
		mono[m] = s
		return s
	}
	// Collect each bit's monomials, then share xors across the four bits.
	var terms []int
	var rows []uint64
	index := map[int]int{}
	for i := 0; i < 4; i++ {
		var r uint64
		for m := 1; m < 16; m++ {
			if anf[m]>>i&1 == 1 {
				if _, ok := index[m]; !ok {
					index[m] = len(terms)
					terms = append(terms, product(m))
				}
				r |= 1 << index[m]
			}
		}
		if anf[0]>>i&1 == 1 {
			panic("BUG: aessbox: GF(16) inverse has a constant term")
		}
		rows = append(rows, r)
	}
	out := b.linear(terms, rows)
	return [4]int{out[0], out[1], out[2], out[3]}
}

// Sbox returns the tower-field S-box circuit, built once (callers must not
// modify it).
var Sbox = sync.OnceValue(func() *Circuit {
	lam, toTower, fromTower := towerSetup()
	c := &Circuit{}
	b := gf16Circuit{builder{c}}
	// Input change of basis: tower bit t is the xor of the AES bits i
	// whose image x^i has bit t.
	rows := make([]uint64, 8)
	for t := 0; t < 8; t++ {
		for i := 0; i < 8; i++ {
			if toTower[i]>>t&1 == 1 {
				rows[t] |= 1 << i
			}
		}
	}
	tw := b.linear([]int{0, 1, 2, 3, 4, 5, 6, 7}, rows)
	l, h := [4]int{tw[0], tw[1], tw[2], tw[3]}, [4]int{tw[4], tw[5], tw[6], tw[7]}
	// delta = lam*h^2 + h*l + l^2; its linear part lam*h^2 + l^2 as one map
	// of the eight tower bits.
	lin := make([]uint64, 4)
	for k := 0; k < 4; k++ {
		for t := 0; t < 8; t++ {
			var v byte
			if t < 4 {
				v = gf16Mul(byte(1)<<t, byte(1)<<t)
			} else {
				e := byte(1) << (t - 4)
				v = gf16Mul(lam, gf16Mul(e, e))
			}
			if v>>k&1 == 1 {
				lin[k] |= 1 << t
			}
		}
	}
	lp := b.linear(tw, lin)
	hl := b.mul(h, l)
	var delta, hxl [4]int
	for k := 0; k < 4; k++ {
		delta[k] = b.xor(lp[k], hl[k])
		hxl[k] = b.xor(h[k], l[k])
	}
	d := b.inv(delta)
	oh, ol := b.mul(h, d), b.mul(hxl, d)
	// Back to the AES basis and through the affine map, whose constant
	// 0x63 becomes nots.
	affine := func(a byte) byte {
		var s byte
		for i := 0; i < 8; i++ {
			bit := (a>>i ^ a>>((i+4)%8) ^ a>>((i+5)%8) ^ a>>((i+6)%8) ^ a>>((i+7)%8)) & 1
			s |= bit << i
		}
		return s
	}
	out := make([]uint64, 8)
	for t := 0; t < 8; t++ {
		img := affine(fromTower[t])
		for i := 0; i < 8; i++ {
			if img>>i&1 == 1 {
				out[i] |= 1 << t
			}
		}
	}
	res := b.linear([]int{ol[0], ol[1], ol[2], ol[3], oh[0], oh[1], oh[2], oh[3]}, out)
	for i := 0; i < 8; i++ {
		if 0x63>>i&1 == 1 {
			res[i] = b.add('~', res[i], 0)
		}
		c.Outs[i] = res[i]
	}
	return c
})
