package main

import (
	"fmt"
	"math"
	"sort"
	"strings"
)

// summary is the median and range of one implementation's per-round
// figures.
type summary struct {
	med, lo, hi float64
	n           int
}

// summarize returns the median, minimum and maximum of xs (n == 0 when xs
// is empty).
func summarize(xs []float64) summary {
	if len(xs) == 0 {
		return summary{}
	}
	s := append([]float64(nil), xs...)
	sort.Float64s(s)
	m := len(s) / 2
	med := s[m]
	if len(s)%2 == 0 {
		med = (s[m-1] + s[m]) / 2
	}
	return summary{med: med, lo: s[0], hi: s[len(s)-1], n: len(s)}
}

// column is one measured implementation as the table sees it.
type column struct {
	name  string // header
	group string // "auto" or "none": the lowentc build it is compared with
	ours  bool   // a lowentc column (gets c/B and a ratio to the best peer)
}

// mbs formats a rate: three significant digits at most, no decimals above
// 100.
func mbs(v float64) string {
	switch {
	case v >= 100:
		return fmt.Sprintf("%.0f", v)
	case v >= 10:
		return fmt.Sprintf("%.1f", v)
	default:
		return fmt.Sprintf("%.2f", v)
	}
}

func cell(s summary) string {
	if s.n == 0 {
		return "–"
	}
	if s.n == 1 {
		return mbs(s.med)
	}
	return fmt.Sprintf("%s (%s–%s)", mbs(s.med), mbs(s.lo), mbs(s.hi))
}

// formatTable prints one size's table in Markdown. samples[row][col] holds
// that cell's per-round figures in MB/s; ghz (0: unknown) turns lowentc's
// median into cycles per byte. Per group, the columns are: the lowentc
// columns each followed by c/B, the peers, the best peer (highest median)
// and each lowentc column's median over the best peer's.
func formatTable(rows []string, cols []column, samples [][][]float64, ghz float64) string {
	var b strings.Builder
	var head, align []string
	head, align = append(head, "algorithm"), append(align, "---")
	var groups []string
	for _, c := range cols {
		if len(groups) == 0 || groups[len(groups)-1] != c.group {
			groups = append(groups, c.group)
		}
	}
	type layout struct{ ours, peers []int }
	lay := map[string]*layout{}
	for _, g := range groups {
		l := &layout{}
		for i, c := range cols {
			if c.group != g {
				continue
			}
			if c.ours {
				l.ours = append(l.ours, i)
			} else {
				l.peers = append(l.peers, i)
			}
		}
		lay[g] = l
		for _, i := range l.ours {
			head, align = append(head, cols[i].name, "c/B"), append(align, "---:", "---:")
		}
		for _, i := range l.peers {
			head, align = append(head, cols[i].name), append(align, "---:")
		}
		if len(l.peers) > 0 {
			head, align = append(head, "best peer ("+g+")"), append(align, "---")
			for _, i := range l.ours {
				head, align = append(head, cols[i].name+" / best"), append(align, "---:")
			}
		}
	}
	fmt.Fprintf(&b, "| %s |\n|%s|\n", strings.Join(head, " | "), strings.Join(align, "|"))
	for r, name := range rows {
		line := []string{name}
		for _, g := range groups {
			l := lay[g]
			for _, i := range l.ours {
				s := summarize(samples[r][i])
				cpb := "–"
				if s.n > 0 && ghz > 0 && s.med > 0 {
					cpb = fmt.Sprintf("%.2f", ghz*1e3/s.med)
				}
				line = append(line, cell(s), cpb)
			}
			best, bestMed := -1, 0.0
			for _, i := range l.peers {
				s := summarize(samples[r][i])
				line = append(line, cell(s))
				if s.n > 0 && s.med > bestMed {
					best, bestMed = i, s.med
				}
			}
			if len(l.peers) == 0 {
				continue
			}
			if best < 0 {
				line = append(line, "–")
			} else {
				line = append(line, cols[best].name)
			}
			for _, i := range l.ours {
				s := summarize(samples[r][i])
				if best < 0 || s.n == 0 {
					line = append(line, "–")
					continue
				}
				line = append(line, fmt.Sprintf("%.2f×", s.med/bestMed))
			}
		}
		fmt.Fprintf(&b, "| %s |\n", strings.Join(line, " | "))
	}
	return b.String()
}

// sizeName is 64 B, 1 KiB, 16 KiB, 1 MiB, ...
func sizeName(n int) string {
	switch {
	case n >= 1<<20 && n%(1<<20) == 0:
		return fmt.Sprintf("%d MiB", n>>20)
	case n >= 1<<10 && n%(1<<10) == 0:
		return fmt.Sprintf("%d KiB", n>>10)
	}
	return fmt.Sprintf("%d B", n)
}

// parseSizes reads a comma-separated size list: plain bytes or with a
// k/K (KiB) or m/M (MiB) suffix.
func parseSizes(s string) ([]int, error) {
	var out []int
	for _, f := range strings.Split(s, ",") {
		f = strings.TrimSpace(f)
		mul := 1
		switch {
		case strings.HasSuffix(f, "k") || strings.HasSuffix(f, "K"):
			mul, f = 1<<10, f[:len(f)-1]
		case strings.HasSuffix(f, "m") || strings.HasSuffix(f, "M"):
			mul, f = 1<<20, f[:len(f)-1]
		}
		var n int
		if _, err := fmt.Sscanf(f, "%d", &n); err != nil || n <= 0 || fmt.Sprint(n) != f {
			return nil, fmt.Errorf("bad size %q (want e.g. 64,1k,16k,1m)", f)
		}
		if n > math.MaxInt32/mul {
			return nil, fmt.Errorf("size %q too large", f)
		}
		out = append(out, n*mul)
	}
	return out, nil
}
