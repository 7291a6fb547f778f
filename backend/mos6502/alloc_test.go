package mos6502

import (
	"math/rand"
	"sort"
	"testing"
)

// allocateByScan is allocate as it was first written: each interval
// scans every interval of each slot, lowest slot first. allocate must
// choose exactly its slots.
func allocateByScan(ivs []*interval) (map[*interval]int, int) {
	ivs = append([]*interval(nil), ivs...)
	sort.Slice(ivs, func(i, j int) bool {
		a, b := ivs[i], ivs[j]
		if a.weight != b.weight {
			return a.weight > b.weight
		}
		if a.start != b.start {
			return a.start < b.start
		}
		return a.id < b.id
	})
	var slots [][]*interval
	where := map[*interval]int{}
	for _, iv := range ivs {
		chosen := -1
		for s := range slots {
			free := true
			for _, o := range slots[s] {
				if iv.start <= o.end && o.start <= iv.end {
					free = false
					break
				}
			}
			if free {
				chosen = s
				break
			}
		}
		if chosen < 0 {
			slots = append(slots, nil)
			chosen = len(slots) - 1
		}
		slots[chosen] = append(slots[chosen], iv)
		where[iv] = chosen
	}
	return where, len(slots)
}

// TestAllocateSameSlots: allocate gives every interval the slot of the
// plain scan, on random sets of intervals: short and long, sharing starts
// and ends, heavy and light, a few with the end before the start.
func TestAllocateSameSlots(t *testing.T) {
	rng := rand.New(rand.NewSource(1))
	for trial := range 400 {
		n := 1 + rng.Intn(300)
		span := 1 + rng.Intn(2*n)
		var ivs []*interval
		for i := range n {
			start := rng.Intn(span)
			end := start + rng.Intn(1+rng.Intn(span))
			if rng.Intn(20) == 0 {
				end = start - 1 - rng.Intn(3)
			}
			ivs = append(ivs, &interval{start: start, end: end, weight: rng.Intn(1 + trial%5), id: i})
		}
		got, gn := allocate(ivs)
		want, wn := allocateByScan(ivs)
		if gn != wn {
			t.Fatalf("trial %d: %d slots, the scan %d", trial, gn, wn)
		}
		for _, iv := range ivs {
			if got[iv] != want[iv] {
				t.Fatalf("trial %d: interval %+v in slot %d, the scan's %d", trial, *iv, got[iv], want[iv])
			}
		}
	}
}
