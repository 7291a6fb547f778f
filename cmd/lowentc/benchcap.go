package main

import (
	"errors"
	"fmt"
	"io"
	"strings"
)

// costCapped is a runner whose calls stop at a cost (mos6502: the
// --max-cycles cap), in the unit of its Measure.
type costCapped interface{ CostCap() float64 }

// capReached says err is a call stopped by its runner's cost cap.
func capReached(err error) bool {
	var c interface{ CapReached() }
	return errors.As(err, &c)
}

// blockPlan chooses the block counts bench --block times on a capped
// runner: after each measurement it predicts the next count's cost (in
// proportion to one block's at first, then along the line through the
// last two points) and stops before a count predicted over the cap, or
// at the first count the cap stopped. Two counts are always tried, as
// the line needs them.
type blockPlan struct {
	cap    float64 // 0: no cap, every count
	xs, ys []float64
	over   int // the first count left out, 0 none
}

func newBlockPlan(r any) *blockPlan {
	p := &blockPlan{}
	if c, ok := r.(costCapped); ok {
		p.cap = c.CostCap()
	}
	return p
}

// try says whether k blocks should be timed.
func (p *blockPlan) try(k int) bool {
	n := len(p.xs)
	if p.cap == 0 || n == 0 || p.over != 0 {
		return p.over == 0
	}
	est := p.ys[0] * float64(k) / p.xs[0]
	if n >= 2 {
		slope := (p.ys[n-1] - p.ys[n-2]) / (p.xs[n-1] - p.xs[n-2])
		est = p.ys[n-1] + slope*(float64(k)-p.xs[n-1])
	}
	if est <= p.cap || n < 2 {
		return true
	}
	p.over = k
	return false
}

// add records k blocks' cost, or the error that stopped them: it says
// whether the error ends bench (false: the cap stopped a count past the
// second, which is left out).
func (p *blockPlan) add(k int, cost float64, err error) bool {
	if err != nil {
		if p.cap != 0 && capReached(err) && len(p.xs) >= 2 {
			p.over = k
			return false
		}
		return true
	}
	p.xs, p.ys = append(p.xs, float64(k)), append(p.ys, cost)
	return false
}

// report prints which counts were timed, on a capped runner.
func (p *blockPlan) report(stdout io.Writer, unit string) {
	if p.cap == 0 {
		return
	}
	var ks []string
	for _, x := range p.xs {
		ks = append(ks, fmt.Sprint(x))
	}
	why := ""
	if p.over != 0 {
		why = fmt.Sprintf(" (%d blocks would pass the cap)", p.over)
	}
	fmt.Fprintf(stdout, "blocks_used=%s cap=%.0f %s%s\n", strings.Join(ks, ","), p.cap, unit, why)
}
