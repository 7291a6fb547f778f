package main

import (
	"fmt"
	"io"
	"math/rand/v2"
	"slices"

	"github.com/lowent/lowentc/backend"
	"github.com/lowent/lowentc/driver"
	"github.com/lowent/lowentc/lang"
)

// blockCounts are the numbers of blocks --block times, for the least-squares line.
var blockCounts = []int{1, 2, 4, 8, 16, 32}

// Bounds of --size and --block: the data is held as one word per byte, so
// 16 MiB of data is 128 MiB of memory; --block's largest run is 32 blocks.
const (
	maxBenchSize  = 16 << 20
	maxBenchBlock = maxBenchSize / 32
)

// cmdBench measures one export: throughput over --size bytes, or the cost per
// block fitted over 1..32 blocks of --block bytes. NAME=VALUE arguments fix
// inputs that would otherwise be generated.
func cmdBench(args []string, stdout, stderr io.Writer) int {
	o, code := parseCommand(args, onBench, "bench: ", stderr)
	if o == nil {
		return code
	}
	if len(o.args) < 2 {
		return usageError(stderr, "bench needs FILE.lw ENTRY [NAME=VALUE ...]")
	}
	if o.given["size"] && o.given["block"] {
		return usageError(stderr, "bench takes --size or --block, not both")
	}
	if o.given["size"] && (o.size < 1 || o.size > maxBenchSize) {
		return usageError(stderr, "bench: --size must be from 1 to %d bytes, not %d", maxBenchSize, o.size)
	}
	if o.given["block"] && (o.block < 1 || o.block > maxBenchBlock) {
		return usageError(stderr, "bench: --block must be from 1 to %d bytes, not %d", maxBenchBlock, o.block)
	}
	if !o.given["block"] && !o.given["size"] {
		o.size = 16384
	}
	if code := validateTarget(o, stderr); code != exitOK {
		return code
	}
	_, fn, runner, code := setup(o, stderr)
	if code != exitOK {
		return code
	}
	defer runner.Close()
	data, err := dataParam(fn, o.data)
	if err != nil {
		return usageError(stderr, "bench %s: %v", fn.Name, err)
	}
	given, err := driver.ParseNamed(fn, o.args[2:])
	if err != nil {
		return usageError(stderr, "bench %s: %v", fn.Name, err)
	}
	if v, ok := given[data]; ok {
		// The data itself is given: it is measured as it is.
		if o.given["size"] || o.given["block"] {
			return usageError(stderr, "bench %s: %s is given, so its length is the size: drop --size and --block", fn.Name, fn.Params[data].Name)
		}
		o.size = len(v.Elems) * driver.ElemWord(fn.Params[data].Type).Bits / 8
	}
	b := &benchCall{r: runner, fn: fn, data: data, given: given}
	if o.given["block"] {
		return benchBlocks(b, o, stdout, stderr)
	}
	cost, err := b.measure(o.size)
	if err != nil {
		return callFailed(stderr, err)
	}
	fmt.Fprintf(stdout, "target=%s entry=%s bytes=%d cost=%.6g %s\n", o.target, fn.Name, o.size, cost.Value, cost.Unit)
	fmt.Fprintf(stdout, "mb_per_s=%.6g\n", float64(o.size)/cost.Seconds/1e6)
	if o.stats {
		fmt.Fprint(stderr, b.stats.String())
	}
	return exitOK
}

// benchBlocks times 1..32 blocks of --block bytes and fits a line. The
// largest count is measured first, so that an argument the target cannot
// hold (a Java Card array, the 6502's memory) is refused before any line is
// printed, not after minutes of timing the smaller ones; a runner with a
// cost cap (mos6502) times the counts in order while they fit the cap.
// Nothing is printed before every count is timed.
func benchBlocks(b *benchCall, o *options, stdout, stderr io.Writer) int {
	plan := newBlockPlan(b.r) // a capped runner (mos6502) times the counts that fit
	n := len(blockCounts)
	costs := make([]backend.Cost, n)
	stats := make([]string, n)
	done := make([]bool, n)
	order := seqTo(n)
	if plan.cap == 0 {
		order = append([]int{n - 1}, seqTo(n-1)...) // the largest first
	}
	for _, i := range order {
		k := blockCounts[i]
		if !plan.try(k) {
			break
		}
		cost, err := b.measure(k * o.block)
		if plan.add(k, cost.Value, err) {
			if !stopped(err) && !capReached(err) && sourceDiags(err) == nil {
				return failf(stderr, "bench --block %d times up to %d blocks (%d bytes): %v", o.block, k, k*o.block, err)
			}
			return callFailed(stderr, err)
		} else if err != nil {
			break
		}
		costs[i], stats[i], done[i] = cost, b.stats.String(), true
	}
	var xs, ys, los, his []float64
	unit := ""
	for i, k := range blockCounts {
		if !done[i] {
			continue
		}
		cost := costs[i]
		unit = cost.Unit
		fmt.Fprintf(stdout, "blocks=%d bytes=%d cost=%.6g %s\n", k, k*o.block, cost.Value, cost.Unit)
		xs, ys = append(xs, float64(k)), append(ys, cost.Value)
		if o.stats {
			fmt.Fprint(stderr, stats[i])
		}
		los, his = append(los, cost.Lo), append(his, cost.Hi)
	}
	plan.report(stdout, unit)
	slope, intercept := backend.FitLine(xs, ys)
	band := ""
	if his[0] > 0 { // a modeled cost: the slopes of its band's ends
		lo, _ := backend.FitLine(xs, los)
		hi, _ := backend.FitLine(xs, his)
		band = fmt.Sprintf(" per_block_lo=%.6g %s per_block_hi=%.6g %s (%.4g–%.4g %s)", lo, unit, hi, unit, lo, hi, unit)
	}
	fmt.Fprintf(stdout, "per_block=%.6g %s intercept=%.6g %s%s\n", slope, unit, intercept, unit, band)
	return exitOK
}

// seqTo is 0, 1, ..., n-1.
func seqTo(n int) []int {
	s := make([]int, n)
	for i := range s {
		s[i] = i
	}
	return s
}

// dataParam picks the variable-length input that receives the bytes: the one
// named, or the last non-mut slice parameter.
func dataParam(fn *lang.FuncDecl, name string) (int, error) {
	last := -1
	for i, p := range fn.Params {
		if _, ok := p.Type.(*lang.SliceType); ok && !p.Mut {
			if p.Name == name {
				return i, nil
			}
			last = i
		}
	}
	if name != "" {
		return -1, fmt.Errorf("--data %s: not a variable-length input of %s", name, fn.Name)
	}
	if last < 0 {
		return -1, fmt.Errorf("%s has no variable-length input to feed", fn.Name)
	}
	return last, nil
}

// benchCall is one export being measured: its runner, the index of the
// parameter that gets the data, and the values given on the command line.
type benchCall struct {
	r     backend.Runner
	fn    *lang.FuncDecl
	data  int
	given map[int]lang.Value
	stats backend.Stats // of the last checking call
}

// measure builds arguments with n bytes in the data parameter and measures
// one call. Inputs given on the command line keep their values. The others:
// variable-length ones empty, fixed arrays filled with fixed pseudo-random
// bytes, words zero. Variable-length outputs are sized to match: by a
// `requires len(out) == len(x)`, else the data's size, else the first of 64,
// 32, 16, 1 elements that the function's requires accept.
func (b *benchCall) measure(n int) (backend.Cost, error) {
	var firstErr error
	for _, outLen := range []int{-1, 64, 32, 16, 1} {
		args := b.args(n, outLen)
		_, stats, err := b.r.Run(b.fn.Name, args)
		if err != nil && capReached(err) {
			return backend.Cost{}, err // another output size would not finish either
		}
		if err != nil {
			if firstErr == nil {
				firstErr = err
			}
			continue
		}
		b.stats = stats
		return b.r.Measure(b.fn.Name, b.args(n, outLen))
	}
	return backend.Cost{}, firstErr
}

func (b *benchCall) args(n, outLen int) []lang.Value {
	fn, data := b.fn, b.data
	rng := rand.New(rand.NewPCG(1, 2))
	vals := make([]lang.Value, len(fn.Params))
	elems := func(k int, w *lang.WordType) []uint64 {
		e := make([]uint64, k)
		for i := range e {
			e[i] = rng.Uint64() & w.Mask()
		}
		return e
	}
	for i, p := range fn.Params {
		w := driver.ElemWord(p.Type)
		switch t := p.Type.(type) {
		case *lang.ArrayType:
			vals[i] = lang.Value{IsArray: true, Elems: make([]uint64, driver.FlatLen(t))}
			if !p.Mut {
				vals[i].Elems = elems(driver.FlatLen(t), w)
			}
		case *lang.SliceType:
			switch {
			case i == data:
				vals[i] = lang.Value{IsArray: true, Elems: elems(n/(w.Bits/8), w)}
			case !p.Mut:
				vals[i] = lang.Value{IsArray: true, Elems: []uint64{}}
			}
		}
	}
	// Given values replace the generated ones (which are drawn all the
	// same, so that the other inputs do not depend on what is given).
	for i, v := range b.given {
		vals[i] = lang.Value{Word: v.Word, IsArray: v.IsArray, Elems: slices.Clone(v.Elems)}
	}
	for i, p := range fn.Params {
		if _, ok := b.given[i]; ok {
			continue
		}
		if _, ok := p.Type.(*lang.SliceType); ok && p.Mut {
			k := n / (driver.ElemWord(p.Type).Bits / 8)
			if j := driver.SizedBy(fn, i); j >= 0 && vals[j].IsArray {
				k = len(vals[j].Elems)
			} else if outLen > 0 {
				k = outLen
			}
			vals[i] = lang.Value{IsArray: true, Elems: make([]uint64, k)}
		}
	}
	return vals
}
