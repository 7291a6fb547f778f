package jcvm

import (
	"math"
	"testing"
)

// TestNNLS checks the solver against answers worked out by hand.
func TestNNLS(t *testing.T) {
	cases := []struct {
		a    [][]float64
		b    []float64
		want []float64
	}{
		// unconstrained optimum (1, 2) is feasible
		{[][]float64{{1, 0}, {0, 1}, {1, 1}}, []float64{1, 2, 3}, []float64{1, 2}},
		// unconstrained optimum (2, -1): the bound makes x2 = 0, then x1 = 1.5
		// minimises (x1-2)^2 + (x1-1)^2
		{[][]float64{{1, 0}, {1, 1}}, []float64{2, 1}, []float64{1.5, 0}},
		// every unconstrained component negative: x = 0
		{[][]float64{{1, 0}, {0, 1}}, []float64{-1, -5}, []float64{0, 0}},
		// a column no row uses stays 0; normal equations 5x1 + 2x3 = 10,
		// 2x1 + 2x3 = 5 give (5/3, 5/6)
		{[][]float64{{2, 0, 1}, {0, 0, 1}, {1, 0, 0}}, []float64{4, 1, 2}, []float64{5.0 / 3, 0, 5.0 / 6}},
		// the classic Lawson-Hanson example: b = A·(0, 0.5, 1) exactly
		{[][]float64{{1, 2, 3}, {4, 5, 6}, {7, 8, 10}, {1, 1, 1}}, []float64{4, 8.5, 14, 1.5}, []float64{0, 0.5, 1}},
	}
	for i, c := range cases {
		got := nnls(c.a, c.b)
		for j := range c.want {
			if math.Abs(got[j]-c.want[j]) > 1e-9 {
				t.Errorf("case %d: nnls = %v, want %v", i, got, c.want)
				break
			}
		}
	}
}
