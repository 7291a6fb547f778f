package jcvm

import (
	"fmt"
	"sort"
	"strconv"
	"strings"

	"github.com/lowent/lowentc/backend"
	"github.com/lowent/lowentc/sem"
)

// Limits are what a card can load and run (docs/jcvm.md, "Card limits",
// gives each figure's source).
type Limits struct {
	MethodBytes     int  // the package's Method component (compact CAP: a u2 size)
	StackBytes      int  // Java stack for the deepest call chain (frames of 2-byte cells)
	TransientBytes  int  // CLEAR_ON_DESELECT RAM for the class's work arrays
	PersistentBytes int  // persistent memory for the package's code and persistent arrays
	Int             bool // the optional int type
	MethodsPerClass int  // entries of a class's method table
}

// Figures every profile shares: the compact CAP format of Java Card 3.0.5
// (what JCOP4 implements; older cards have no other) sizes each component
// with a u2 and a class's method table with a u1.
const (
	capMethodBytes  = 65535
	capClassMethods = 255
)

// assumedStackBytes is the Java stack a card gives the applet's deepest
// call chain: an assumption (no JCOP data sheet publishes it).
const assumedStackBytes = 2048

// classStats are the static figures of a compiled class that the card's
// limits bound.
type classStats struct {
	methodBytes     int // Method component: handler count, method headers and bytecode
	stackBytes      int // deepest call chain: Σ 2 × (parameters + locals + stack) cells
	chain           []*Method
	transientBytes  int // work arrays (checkTransient's figure)
	persistentBytes int // Method component + constant tables + int[] arrays
	classes         int
	methods         int
	usesInt         bool
}

// methodHeaderBytes is the size of m's method_header_info: 2 bytes, or 4
// (the extended form) when max_stack, nargs or max_locals exceeds 15.
func methodHeaderBytes(m *Method) int {
	if m.Stack > 15 || paramCells(m) > 15 || m.Locals > 15 {
		return 4
	}
	return 2
}

// frameBytes is the Java stack m's frame takes: its parameters, locals and
// operand stack, 2 bytes a cell.
func frameBytes(m *Method) int { return 2 * (paramCells(m) + m.Locals + m.Stack) }

// needsInt reports whether opcode op exists only on a card with int.
func needsInt(op byte) bool {
	o := &ops[op]
	return o.k == KInt && o.sem != sPop || o.sem == sI2B || o.sem == sI2S || o.sem == sCmp
}

// statsOf computes cls's figures. The call graph of generated code has no
// cycle; one would be a code generator bug.
func statsOf(cls *Class) (classStats, error) {
	st := classStats{classes: 1, methods: len(cls.Methods) + 1} // + init()
	st.methodBytes = 1                                          // handler_count: no exception handlers
	for _, m := range cls.Methods {
		st.methodBytes += methodHeaderBytes(m) + m.Size
		for _, in := range m.Code {
			if in.Op != opLabel && needsInt(in.Op) {
				st.usesInt = true
			}
		}
		for _, p := range m.Params {
			if p.Kind == KInt {
				st.usesInt = true
			}
		}
	}
	st.persistentBytes = st.methodBytes
	for _, f := range cls.Fields {
		switch {
		case f.Data != nil && f.Elem == EByte:
			st.persistentBytes += len(f.Data)
		case f.Data != nil:
			st.persistentBytes += 2 * len(f.Data)
		case f.Elem == EInt:
			st.persistentBytes += 4 * f.Len
		}
	}
	for _, f := range transientFields(cls) {
		st.transientBytes += f.bytes
	}
	// The deepest chain: the most stack over the paths of the call graph
	// from each method.
	deep := make([]int, len(cls.Methods))
	next := make([]*Method, len(cls.Methods))
	state := make([]int8, len(cls.Methods)) // 0 new, 1 on the path, 2 done
	var visit func(m *Method) error
	visit = func(m *Method) error {
		switch state[m.Index] {
		case 1:
			return fmt.Errorf("BUG: jcvm: method %s calls itself", m.Name)
		case 2:
			return nil
		}
		state[m.Index] = 1
		best := 0
		for _, in := range m.Code {
			if in.Op != opInvokestatic {
				continue
			}
			k := int(in.A) - len(cls.Fields)
			if k < 0 || k >= len(cls.Methods) {
				continue // ISOException.throwIt: the framework's
			}
			c := cls.Methods[k]
			if err := visit(c); err != nil {
				return err
			}
			if deep[k] > best {
				best, next[m.Index] = deep[k], c
			}
		}
		deep[m.Index] = frameBytes(m) + best
		state[m.Index] = 2
		return nil
	}
	var top *Method
	for _, m := range cls.Methods {
		if err := visit(m); err != nil {
			return st, err
		}
		if top == nil || deep[m.Index] > deep[top.Index] {
			top = m
		}
	}
	if top != nil {
		st.stackBytes = deep[top.Index]
		for m := top; m != nil; m = next[m.Index] {
			st.chain = append(st.chain, m)
		}
	}
	return st, nil
}

// stats are the figures as `key=value` lines.
func (st classStats) stats(cls *Class, card Card) backend.Stats {
	n := func(k string, v int) backend.Stat { return backend.Stat{Key: k, Value: strconv.Itoa(v)} }
	return backend.Stats{
		{Key: "card", Value: card.Name},
		n("method_bytes", st.methodBytes),
		n("stack_bytes", st.stackBytes),
		n("transient_bytes", st.transientBytes),
		n("persistent_bytes", st.persistentBytes),
		n("classes", st.classes),
		n("methods", st.methods),
		{Key: "int", Value: strconv.FormatBool(st.usesInt)},
		{Key: "fits", Value: strconv.FormatBool(st.fits(cls, card) == nil)},
	}
}

// fits returns nil when the class fits card's limits, else an error naming
// every limit it exceeds and the biggest methods.
func (st classStats) fits(cls *Class, card Card) error {
	l := card.Limits
	th := func(n int) string { return sem.Thousands(int64(n)) }
	var over []string
	if st.methodBytes > l.MethodBytes {
		over = append(over, fmt.Sprintf("Method component %s bytes (limit %s)", th(st.methodBytes), th(l.MethodBytes)))
	}
	if st.stackBytes > l.StackBytes {
		var names []string
		for _, m := range st.chain {
			names = append(names, fmt.Sprintf("%s %s", m.Name, th(frameBytes(m))))
		}
		over = append(over, fmt.Sprintf("Java stack of the deepest call chain %s bytes (limit %s: %s)", th(st.stackBytes), th(l.StackBytes), strings.Join(names, " > ")))
	}
	if st.transientBytes > l.TransientBytes {
		over = append(over, fmt.Sprintf("transient work arrays %s bytes (limit %s)", th(st.transientBytes), th(l.TransientBytes)))
	}
	if st.persistentBytes > l.PersistentBytes {
		over = append(over, fmt.Sprintf("persistent memory %s bytes (limit %s)", th(st.persistentBytes), th(l.PersistentBytes)))
	}
	if st.usesInt && !l.Int {
		over = append(over, "int, which the card does not have (compile with --no-int)")
	}
	if st.methods > l.MethodsPerClass {
		over = append(over, fmt.Sprintf("%d methods in class %s (limit %d)", st.methods, cls.Name, l.MethodsPerClass))
	}
	if len(over) == 0 {
		return nil
	}
	ms := append([]*Method(nil), cls.Methods...)
	sort.SliceStable(ms, func(i, j int) bool { return ms[i].Size > ms[j].Size })
	var big []string
	for _, m := range ms[:min(5, len(ms))] {
		big = append(big, fmt.Sprintf("%s %s", m.Name, th(m.Size)))
	}
	return &CardLimitError{Card: card.Name, Over: over, Biggest: big}
}

// CardLimitError is a module that does not fit the chosen card.
type CardLimitError struct {
	Card    string
	Over    []string // each limit exceeded, with the figure
	Biggest []string // the biggest methods with their bytes of bytecode
}

func (e *CardLimitError) Error() string {
	return fmt.Sprintf("jcvm: the module does not fit card %s: %s; biggest methods (bytes of bytecode): %s (--no-card-limits writes it anyway)",
		e.Card, strings.Join(e.Over, "; "), strings.Join(e.Biggest, ", "))
}
