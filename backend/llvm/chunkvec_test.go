package llvm

import "testing"

// runPlan follows element (row, col) = row*L + col of an L x L matrix
// through stages, as the shuffles do.
func runPlan(L int, stages []transposeStage) [][]int {
	cur := make([][]int, L)
	for r := range cur {
		cur[r] = make([]int, L)
		for c := range cur[r] {
			cur[r][c] = r*L + c
		}
	}
	for _, st := range stages {
		next := make([][]int, L)
		for i := 0; i < L; i++ {
			if i&st.dist != 0 {
				continue
			}
			pick := func(m []int) []int {
				v := make([]int, L)
				for k := range v {
					if m[k] < L {
						v[k] = cur[i][m[k]]
					} else {
						v[k] = cur[i+st.dist][m[k]-L]
					}
				}
				return v
			}
			next[i], next[i+st.dist] = pick(st.lo), pick(st.hi)
		}
		cur = next
	}
	return cur
}

// TestTransposePlan: every lane count the chunk loops use has a plan of
// one two-source shuffle per output and stage, with and without the
// rotate-and-blend first stage, and it transposes; with rot, the vectors
// one stage short of the end put each half where transposeHalves2 says.
func TestTransposePlan(t *testing.T) {
	for _, L := range []int{4, 8, 16} {
		for _, rot := range []bool{false, true} {
			p, ok := transposePlan(L, rot)
			if !ok {
				t.Fatalf("L=%d rot=%v: no plan", L, rot)
			}
			if len(p.stages) != bitsOf(L) {
				t.Errorf("L=%d rot=%v: %d stages, want %d", L, rot, len(p.stages), bitsOf(L))
			}
			if rot != p.stages[0].rot {
				t.Errorf("L=%d rot=%v: first stage rot=%v", L, rot, p.stages[0].rot)
			}
			out := runPlan(L, p.stages)
			for i, v := range out {
				for k, e := range v {
					if want := k*L + p.column[i]; e != want {
						t.Fatalf("L=%d rot=%v: output %d lane %d holds %d, want %d", L, rot, i, k, e, want)
					}
				}
			}
			if !rot || L < 8 {
				continue
			}
			// One stage short: vector i's halves are half 0 of rows
			// column[i] and column[i+L/2], vector i+L/2's their half 1.
			short := runPlan(L, p.stages[:len(p.stages)-1])
			d := L / 2
			for i := 0; i < L; i++ {
				half, lo, hi := i/d, p.column[i%d], p.column[i%d+d]
				for k, e := range short[i] {
					row := lo
					if k >= d {
						row = hi
					}
					if want := (half*d+k%d)*L + row; e != want {
						t.Fatalf("L=%d: vector %d lane %d holds %d, want %d", L, i, k, e, want)
					}
				}
			}
		}
	}
	if _, ok := transposePlan(6, false); ok {
		t.Error("a plan for 6 lanes")
	}
}

func bitsOf(L int) int {
	n := 0
	for ; L > 1; L /= 2 {
		n++
	}
	return n
}
