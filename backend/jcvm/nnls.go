package jcvm

import "math"

// nnls solves min ‖A·x − b‖₂ subject to x ≥ 0 by the active-set method of
// Lawson and Hanson (Solving Least Squares Problems, 1974, chapter 23).
// A has len(b) rows of n columns. Columns that no row uses stay 0.
func nnls(a [][]float64, b []float64) []float64 {
	m := len(a)
	if m == 0 {
		return nil
	}
	n := len(a[0])
	x := make([]float64, n)
	passive := make([]bool, n)
	const tol = 1e-10
	// gradient w = Aᵀ(b − A·x)
	grad := func() []float64 {
		r := make([]float64, m)
		for i := range a {
			s := b[i]
			for j := range n {
				s -= a[i][j] * x[j]
			}
			r[i] = s
		}
		w := make([]float64, n)
		for j := range n {
			for i := range a {
				w[j] += a[i][j] * r[i]
			}
		}
		return w
	}
	for iter := 0; iter < 3*n+10; iter++ {
		w := grad()
		best, bj := tol, -1
		for j := range n {
			if !passive[j] && w[j] > best {
				best, bj = w[j], j
			}
		}
		if bj < 0 {
			break
		}
		passive[bj] = true
		for inner := 0; inner < 3*n+10; inner++ {
			z := lsqOn(a, b, passive)
			ok := true
			for j := range n {
				if passive[j] && z[j] <= tol {
					ok = false
				}
			}
			if ok {
				copy(x, z)
				break
			}
			// step from x towards z as far as feasibility allows
			alpha := math.Inf(1)
			for j := range n {
				if passive[j] && z[j] <= tol {
					if t := x[j] / (x[j] - z[j]); t < alpha {
						alpha = t
					}
				}
			}
			for j := range n {
				if passive[j] {
					x[j] += alpha * (z[j] - x[j])
					if x[j] <= tol {
						x[j], passive[j] = 0, false
					}
				}
			}
		}
	}
	return x
}

// lsqOn is the unconstrained least-squares solution using only the columns
// marked in cols (others 0), by the normal equations and Gaussian
// elimination with partial pivoting.
func lsqOn(a [][]float64, b []float64, cols []bool) []float64 {
	n := len(cols)
	var idx []int
	for j, c := range cols {
		if c {
			idx = append(idx, j)
		}
	}
	k := len(idx)
	g := make([][]float64, k)
	for p := range k {
		g[p] = make([]float64, k+1)
		for q := range k {
			for i := range a {
				g[p][q] += a[i][idx[p]] * a[i][idx[q]]
			}
		}
		for i := range a {
			g[p][k] += a[i][idx[p]] * b[i]
		}
	}
	for c := range k {
		piv := c
		for r := c + 1; r < k; r++ {
			if math.Abs(g[r][c]) > math.Abs(g[piv][c]) {
				piv = r
			}
		}
		g[c], g[piv] = g[piv], g[c]
		if math.Abs(g[c][c]) < 1e-300 {
			continue
		}
		for r := range k {
			if r != c {
				f := g[r][c] / g[c][c]
				for q := c; q <= k; q++ {
					g[r][q] -= f * g[c][q]
				}
			}
		}
	}
	z := make([]float64, n)
	for p := range k {
		if g[p][p] != 0 {
			z[idx[p]] = g[p][k] / g[p][p]
		}
	}
	return z
}
