// Package aessbox derives the AES S-box as a Boolean circuit: the
// inversion in GF(2^8) done in the tower field GF(((2^2)^2)^2), where every
// multiplication splits into three of the level below (Karatsuba) down to
// GF(2^2), whose product costs three ands, and whose inverse is a square
// (linear). The circuit is derived at first use from the field definitions:
// each choice of the tower's defining constants and of the field
// isomorphism is built, and the one with the fewest gates is kept. Every
// and reads two linear forms of earlier signals; the forms needed at each
// stage (the top map from the input byte, the bottom map merging the change
// back to the AES basis with the affine map) are computed together by xor
// networks minimised by a greedy shared-pair search with seeded random
// tie-breaks, keeping the best of several runs. Nothing is random from run
// to run, and there is no magic table to trust: the test checks all 256
// inputs. Backends evaluate it on bitsliced planes (amd64 on vector lanes,
// jcvm on 16-bit shorts): no table, no secret-dependent memory access or
// branch.
package aessbox

import (
	"math/bits"
	"math/rand"
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

// Count returns the number of xor, and and not gates of c.
func (c *Circuit) Count() (xor, and, not int) {
	for _, g := range c.Gates {
		switch g.Op {
		case '^':
			xor++
		case '&':
			and++
		default:
			not++
		}
	}
	return xor, and, not
}

// Field arithmetic. GF(4) = GF(2)[a]/(a^2 + a + 1), an element x1 a + x0
// is the byte x1<<1|x0. GF(16) = GF(4)[b]/(b^2 + b + mu), hb + l is h<<2|l.
// GF(256) = GF(16)[Y]/(Y^2 + Y + lam), hY + l is h<<4|l. Every product is
// Karatsuba's: with P = xh*yh, Q = xl*yl, R = (xh+xl)*(yh+yl), the product
// is (R+Q) at the top and (c*P + Q) at the bottom for the constant c of
// the level (for GF(4), c = 1).

func gf4Mul(x, y byte) byte {
	p, q, r := (x>>1)&(y>>1)&1, x&y&1, (x>>1^x)&(y>>1^y)&1
	return (r^q)<<1 | p ^ q
}

func gf16Mul(mu, x, y byte) byte {
	xh, xl, yh, yl := x>>2, x&3, y>>2, y&3
	p, q, r := gf4Mul(xh, yh), gf4Mul(xl, yl), gf4Mul(xh^xl, yh^yl)
	return (r^q)<<2 | gf4Mul(mu, p) ^ q
}

func gf256Mul(mu, lam, x, y byte) byte {
	xh, xl, yh, yl := x>>4, x&15, y>>4, y&15
	p, q, r := gf16Mul(mu, xh, yh), gf16Mul(mu, xl, yl), gf16Mul(mu, xh^xl, yh^yl)
	return (r^q)<<4 | gf16Mul(mu, lam, p) ^ q
}

// lin is a linear form: the xor of the signals whose bits are set.
type lin [4]uint64

func one(s int) lin {
	var l lin
	l[s>>6] |= 1 << (s & 63)
	return l
}

func (l lin) xor(m lin) lin {
	for i := range l {
		l[i] ^= m[i]
	}
	return l
}

// single returns the signal of a form with one term.
func (l lin) single() (int, bool) {
	s, n := -1, 0
	for i, w := range l {
		n += bits.OnesCount64(w)
		if w != 0 {
			s = 64*i + bits.TrailingZeros64(w)
		}
	}
	return s, n == 1
}

// linMap applies the GF(2)-linear function f (given on bytes of n bits) to
// a value whose bits are the forms x, giving m bits.
func linMap(f func(byte) byte, x []lin, m int) []lin {
	out := make([]lin, m)
	for i := range x {
		img := f(byte(1) << i)
		for k := 0; k < m; k++ {
			if img>>k&1 == 1 {
				out[k] = out[k].xor(x[i])
			}
		}
	}
	return out
}

// gen builds a circuit.
type gen struct {
	c        *Circuit
	cache    map[lin]int
	restarts int
	seed     int64
}

func (g *gen) add(op byte, x, y int) int {
	g.c.Gates = append(g.c.Gates, Gate{op, x, y})
	s := 7 + len(g.c.Gates)
	if s >= 256 {
		panic("BUG: aessbox: too many signals")
	}
	return s
}

// sig returns the signal holding form l, if there is one already.
func (g *gen) sig(l lin) (int, bool) {
	if s, ok := l.single(); ok {
		return s, true
	}
	s, ok := g.cache[l]
	return s, ok
}

// xorNet is a network computing forms from variables: pairs are the xors
// in order (indices into the growing variable list), and row i of rows is
// the list of entries whose xor is form i.
type xorNet struct {
	pairs [][2]int
	rows  [][]int
	cost  int
}

// paar computes each row (a bit set over nv variables) as xors: repeatedly
// the pair of entries shared by the most rows is computed once, ties broken
// at random by rng (the first pair when rng is nil); then each row is the
// xor of what is left in it.
func paar(nv int, rows [][]bool, rng *rand.Rand) xorNet {
	// cols[j] is the set of rows that hold entry j.
	var cols []uint64
	for j := 0; j < nv; j++ {
		var c uint64
		for i, r := range rows {
			if r[j] {
				c |= 1 << i
			}
		}
		cols = append(cols, c)
	}
	var net xorNet
	var ti, tj []int
	for {
		best := 1
		ti, tj = ti[:0], tj[:0]
		for i := range cols {
			if bits.OnesCount64(cols[i]) < best {
				continue
			}
			for j := i + 1; j < len(cols); j++ {
				n := bits.OnesCount64(cols[i] & cols[j])
				if n > best {
					best = n
					ti, tj = ti[:0], tj[:0]
				}
				if n == best && n > 1 {
					ti, tj = append(ti, i), append(tj, j)
				}
			}
		}
		if len(ti) == 0 {
			break
		}
		k := 0
		if rng != nil {
			k = rng.Intn(len(ti))
		}
		i, j := ti[k], tj[k]
		both := cols[i] & cols[j]
		cols[i] &^= both
		cols[j] &^= both
		cols = append(cols, both)
		net.pairs = append(net.pairs, [2]int{i, j})
	}
	net.rows = make([][]int, len(rows))
	for j, c := range cols {
		for c != 0 {
			i := bits.TrailingZeros64(c)
			c &= c - 1
			net.rows[i] = append(net.rows[i], j)
		}
	}
	net.cost = len(net.pairs)
	for _, r := range net.rows {
		if len(r) == 0 {
			panic("BUG: aessbox: zero form")
		}
		net.cost += len(r) - 1
	}
	return net
}

// maxDistVars bounds the variables for distNet, whose distance table has
// 2^n entries.
const maxDistVars = 20

// distNet computes the rows (bit sets over nv variables) by a different
// greedy: a base set starts as the variables, and each step adds the xor
// of two base elements that brings the rows closest to the base, counting
// for each row the fewest xors of base elements that make it (the sum over
// rows; on a tie the larger sum of squares, then at random by rng or the
// first). A row one xor away is taken at once. A table over all 2^nv
// vectors holds the fewest base elements that sum to each; adding c
// changes entry x to min(entry x, 1 + entry x^c).
func distNet(nv int, rows [][]bool, rng *rand.Rand) xorNet {
	target := make([]uint32, len(rows))
	for i, r := range rows {
		for j, b := range r {
			if b {
				target[i] |= 1 << j
			}
		}
	}
	size := 1 << nv
	dist := make([]uint8, size)
	for x := 1; x < size; x++ {
		dist[x] = uint8(bits.OnesCount32(uint32(x)))
	}
	base := make([]uint32, nv)
	for j := range base {
		base[j] = 1 << j
	}
	var net xorNet
	done := func() bool {
		for _, t := range target {
			if dist[t] > 1 {
				return false
			}
		}
		return true
	}
	type cand struct{ a, b int }
	var ties []cand
	for !done() {
		ties = ties[:0]
		// A row at distance one is made directly.
		for _, t := range target {
			if dist[t] != 2 {
				continue
			}
			for a := range base {
				if b := indexOf(base, t^base[a]); b > a {
					ties = append(ties, cand{a, b})
				}
			}
			if len(ties) > 0 {
				break
			}
		}
		if len(ties) == 0 {
			bestSum, bestSq := 1<<30, -1
			for a := range base {
				for b := a + 1; b < len(base); b++ {
					c := base[a] ^ base[b]
					if dist[c] <= 1 {
						continue
					}
					sum, sq := 0, 0
					for _, t := range target {
						d := int(dist[t])
						if e := 1 + int(dist[t^c]); e < d {
							d = e
						}
						d--
						sum += d
						sq += d * d
					}
					if sum < bestSum || sum == bestSum && sq > bestSq {
						bestSum, bestSq = sum, sq
						ties = ties[:0]
					}
					if sum == bestSum && sq == bestSq {
						ties = append(ties, cand{a, b})
					}
				}
			}
		}
		k := 0
		if rng != nil {
			k = rng.Intn(len(ties))
		}
		a, b := ties[k].a, ties[k].b
		c := base[a] ^ base[b]
		base = append(base, c)
		net.pairs = append(net.pairs, [2]int{a, b})
		for x := 0; x < size; x++ {
			if e := dist[x^int(c)] + 1; e < dist[x] {
				dist[x] = e
			}
		}
	}
	net.rows = make([][]int, len(rows))
	for i, t := range target {
		net.rows[i] = []int{indexOf(base, t)}
	}
	net.cost = len(net.pairs)
	return net
}

func indexOf(list []uint32, x uint32) int {
	for i, v := range list {
		if v == x {
			return i
		}
	}
	return -1
}

// materialize makes a signal for every form, computing those not yet
// available together by the cheapest of g.restarts xor networks.
func (g *gen) materialize(forms []lin) []int {
	var need []lin
	seen := map[lin]bool{}
	for _, f := range forms {
		if _, ok := g.sig(f); !ok && !seen[f] {
			seen[f] = true
			need = append(need, f)
		}
	}
	if len(need) > 0 {
		if len(need) > 64 {
			panic("BUG: aessbox: too many forms at once")
		}
		var vars []int
		for s := 0; s < 256; s++ {
			for _, f := range need {
				if f[s>>6]>>(s&63)&1 == 1 {
					vars = append(vars, s)
					break
				}
			}
		}
		rows := make([][]bool, len(need))
		for i, f := range need {
			rows[i] = make([]bool, len(vars))
			for j, s := range vars {
				rows[i][j] = f[s>>6]>>(s&63)&1 == 1
			}
		}
		best := paar(len(vars), rows, nil)
		rng := rand.New(rand.NewSource(g.seed))
		for r := 1; r < g.restarts; r++ {
			if n := paar(len(vars), rows, rng); n.cost < best.cost {
				best = n
			}
		}
		if len(vars) <= maxDistVars {
			for r := 0; r < g.restarts; r++ {
				var rr *rand.Rand
				if r > 0 {
					rr = rng
				}
				if n := distNet(len(vars), rows, rr); n.cost < best.cost {
					best = n
				}
			}
		}
		sig := append([]int(nil), vars...)
		for _, p := range best.pairs {
			sig = append(sig, g.add('^', sig[p[0]], sig[p[1]]))
		}
		for i, r := range best.rows {
			acc := sig[r[0]]
			for _, j := range r[1:] {
				acc = g.add('^', acc, sig[j])
			}
			g.cache[need[i]] = acc
		}
	}
	out := make([]int, len(forms))
	for i, f := range forms {
		out[i], _ = g.sig(f)
	}
	return out
}

// forms4 lists the forms a GF(4) product reads of x: x1, x0, x1+x0.
func forms4(x []lin) []lin { return []lin{x[1], x[0], x[1].xor(x[0])} }

// forms16 lists the forms a GF(16) product reads of x: forms4 of the high
// half, the low half and their sum.
func forms16(x []lin) []lin {
	h, l := x[2:4], x[0:2]
	s := []lin{h[0].xor(l[0]), h[1].xor(l[1])}
	return append(append(forms4(h), forms4(l)...), forms4(s)...)
}

// mul4 multiplies in GF(4) from the signals of forms4 of both operands.
func (g *gen) mul4(x, y []int) []lin {
	p, q, r := one(g.add('&', x[0], y[0])), one(g.add('&', x[1], y[1])), one(g.add('&', x[2], y[2]))
	return []lin{p.xor(q), r.xor(q)}
}

// mul16 multiplies in GF(16) from the signals of forms16 of both operands.
func (g *gen) mul16(mu byte, x, y []int) []lin {
	p, q, r := g.mul4(x[0:3], y[0:3]), g.mul4(x[3:6], y[3:6]), g.mul4(x[6:9], y[6:9])
	mp := linMap(func(v byte) byte { return gf4Mul(mu, v) }, p, 2)
	return []lin{mp[0].xor(q[0]), mp[1].xor(q[1]), r[0].xor(q[0]), r[1].xor(q[1])}
}

// affine is the S-box's affine map without its constant 0x63.
func affine(a byte) byte {
	var s byte
	for i := 0; i < 8; i++ {
		bit := (a>>i ^ a>>((i+4)%8) ^ a>>((i+5)%8) ^ a>>((i+6)%8) ^ a>>((i+7)%8)) & 1
		s |= bit << i
	}
	return s
}

// build derives the circuit for one tower (mu, lam) and one root beta of
// the AES polynomial in it.
func build(mu, lam, beta byte, restarts int) *Circuit {
	g := &gen{c: &Circuit{}, cache: map[lin]int{}, restarts: restarts, seed: int64(mu)<<16 | int64(lam)<<8 | int64(beta)}
	// x^i of the AES field goes to beta^i; tower bit t of the input is the
	// xor of the AES bits i whose image has bit t.
	var toTower [8]byte
	p := byte(1)
	for i := range toTower {
		toTower[i] = p
		p = gf256Mul(mu, lam, p, beta)
	}
	tw := make([]lin, 8)
	for i := 0; i < 8; i++ {
		for t := 0; t < 8; t++ {
			if toTower[i]>>t&1 == 1 {
				tw[t] = tw[t].xor(one(i))
			}
		}
	}
	l, h := tw[0:4], tw[4:8]
	hl := []lin{h[0].xor(l[0]), h[1].xor(l[1]), h[2].xor(l[2]), h[3].xor(l[3])}
	// The inverse of hY + l is (hY + (h+l)) / delta with delta =
	// lam*h^2 + h*l + l^2; its linear part lam*h^2 + l^2 is a map of tw.
	dlin := linMap(func(x byte) byte {
		xh, xl := x>>4, x&15
		return gf16Mul(mu, lam, gf16Mul(mu, xh, xh)) ^ gf16Mul(mu, xl, xl)
	}, tw, 4)
	ts := g.materialize(append(append(append(forms16(h), forms16(l)...), forms16(hl)...), dlin...))
	hs, ls, hls := ts[0:9], ts[9:18], ts[18:27]
	for k := range dlin {
		dlin[k] = one(ts[27+k])
	}
	hlp := g.mul16(mu, hs, ls)
	delta := make([]lin, 4)
	for k := range delta {
		delta[k] = dlin[k].xor(hlp[k])
	}
	// GF(16) inverse the same way one level down: with delta = xh b + xl,
	// e = mu*xh^2 + xh*xl + xl^2 in GF(4), whose inverse is its square.
	xh, xl := delta[2:4], delta[0:2]
	xs := []lin{xh[0].xor(xl[0]), xh[1].xor(xl[1])}
	elin := linMap(func(x byte) byte {
		a, b := x>>2, x&3
		return gf4Mul(mu, gf4Mul(a, a)) ^ gf4Mul(b, b)
	}, delta, 2)
	ms := g.materialize(append(append(append(forms4(xh), forms4(xl)...), forms4(xs)...), elin...))
	elin = []lin{one(ms[9]), one(ms[10])}
	ep := g.mul4(ms[0:3], ms[3:6])
	e := []lin{elin[0].xor(ep[0]), elin[1].xor(ep[1])}
	einv := linMap(func(x byte) byte { return gf4Mul(x, x) }, e, 2)
	es := g.materialize(forms4(einv))
	dh, dl := g.mul4(ms[0:3], es), g.mul4(ms[6:9], es)
	d := []lin{dl[0], dl[1], dh[0], dh[1]}
	dsig := g.materialize(forms16(d))
	oh, ol := g.mul16(mu, hs, dsig), g.mul16(mu, hls, dsig)
	// Back to the AES basis and through the affine map in one linear map;
	// its constant 0x63 becomes nots. fromTower[t] is the AES element of
	// tower bit t.
	var fromTower [8]byte
	for a := 0; a < 256; a++ {
		var t byte
		for i := 0; i < 8; i++ {
			if a>>i&1 == 1 {
				t ^= toTower[i]
			}
		}
		if t != 0 && t&(t-1) == 0 {
			fromTower[bits.TrailingZeros8(t)] = byte(a)
		}
	}
	res := append(append([]lin(nil), ol...), oh...)
	outs := make([]lin, 8)
	for t := 0; t < 8; t++ {
		img := affine(fromTower[t])
		for i := 0; i < 8; i++ {
			if img>>i&1 == 1 {
				outs[i] = outs[i].xor(res[t])
			}
		}
	}
	os := g.materialize(outs)
	for i := 0; i < 8; i++ {
		if 0x63>>i&1 == 1 {
			os[i] = g.add('~', os[i], 0)
		}
		g.c.Outs[i] = os[i]
	}
	return g.c
}

// towers lists the choices: mu (b^2 + b + mu irreducible over GF(4)), lam
// (Y^2 + Y + lam irreducible over GF(16)) and the eight roots beta of the
// AES polynomial in that tower.
func towers() (list [][3]byte) {
	for mu := byte(1); mu < 4; mu++ {
		if hasRoot(func(y byte) byte { return gf4Mul(y, y) ^ y }, 4, mu) {
			continue
		}
		for lam := byte(1); lam < 16; lam++ {
			if hasRoot(func(y byte) byte { return gf16Mul(mu, y, y) ^ y }, 16, lam) {
				continue
			}
			for beta := 2; beta < 256; beta++ {
				var pw [9]byte
				pw[0] = 1
				for i := 1; i <= 8; i++ {
					pw[i] = gf256Mul(mu, lam, pw[i-1], byte(beta))
				}
				if pw[8]^pw[4]^pw[3]^pw[1]^pw[0] == 0 {
					list = append(list, [3]byte{mu, lam, byte(beta)})
				}
			}
		}
	}
	return list
}

func hasRoot(f func(byte) byte, n int, c byte) bool {
	for y := 0; y < n; y++ {
		if f(byte(y)) == c {
			return true
		}
	}
	return false
}

// Restarts is how many xor networks of each greedy are tried for each
// linear stage (the first with no random tie-breaks).
const Restarts = 4

// chosen is the tower the S-box is built on: chooseTower's answer, fixed
// here so that first use builds one circuit (TestTowerChoice checks it).
var chosen = [3]byte{2, 10, 104}

// chooseTower builds every tower with plain tie-breaks, then those with the
// fewest gates again with Restarts networks per stage, and returns the one
// with the fewest gates (the first on a tie).
func chooseTower() [3]byte {
	var plain [][3]byte
	least := 0
	for _, t := range towers() {
		n := len(build(t[0], t[1], t[2], 1).Gates)
		if len(plain) == 0 || n < least {
			plain, least = nil, n
		}
		if n == least {
			plain = append(plain, t)
		}
	}
	var best [3]byte
	least = 0
	for _, t := range plain {
		if n := len(build(t[0], t[1], t[2], Restarts).Gates); least == 0 || n < least {
			best, least = t, n
		}
	}
	return best
}

// Sbox returns the tower-field S-box circuit, built once (callers must not
// modify it).
var Sbox = sync.OnceValue(func() *Circuit {
	return build(chosen[0], chosen[1], chosen[2], Restarts)
})
