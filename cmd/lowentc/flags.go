package main

import (
	"fmt"
	"io"
	"os"
	"strconv"
	"strings"
)

// options are every flag any subcommand takes; each subcommand accepts a
// subset. Flags may come before, between or after positional arguments.
type options struct {
	target  string
	width   int
	hw      string
	emit    string
	out     string
	dump    string
	stats   bool
	verbose bool
	size    int
	block   int
	data    string
	noInt   bool
	card    string
	storage string
	opt     string
	timing  string
	maxCyc  uint64
	entry   string // mos6502 --emit prg: the export the C64 program calls
	aid     string // jcvm --emit jca/javacard: package AID[,applet AID]
	// noLimits: jcvm compile: write the artifact beyond the card's limits.
	noLimits bool
	args     []string        // positional
	given    map[string]bool // the flags written on the command line, by canonical name
	dumpTo   io.Writer       // where -d dump writes: the command's standard error
}

// dumpWriter is where -d dump writes.
func (o *options) dumpWriter() io.Writer {
	if o.dumpTo != nil {
		return o.dumpTo
	}
	return os.Stderr
}

// flagTargets lists the targets each target-specific flag acts on; given
// for another target it does nothing, and validateTarget says so.
var flagTargets = map[string][]string{
	"--width":          {"ir"},
	"--hw":             {"amd64", "vm", "ir"},
	"--no-int":         {"jcvm"},
	"--card":           {"jcvm"},
	"--storage":        {"jcvm"},
	"--opt":            {"mos6502"},
	"--timing":         {"mos6502"},
	"--max-cycles":     {"mos6502"},
	"--entry":          {"mos6502"},
	"--no-card-limits": {"jcvm"},
	"--aid":            {"jcvm"},
}

type flagSpec struct {
	names   []string
	boolean bool
	set     func(o *options, v string) error
}

var allFlags = []flagSpec{
	{names: []string{"--target", "-target"}, set: func(o *options, v string) error { o.target = v; return nil }},
	{names: []string{"--width", "-width", "-W"}, set: func(o *options, v string) error { return setInt(&o.width, v) }},
	{names: []string{"--hw", "-hw"}, set: func(o *options, v string) error { o.hw = v; return nil }},
	{names: []string{"--emit", "-emit"}, set: func(o *options, v string) error { o.emit = v; return nil }},
	{names: []string{"-o", "--output"}, set: func(o *options, v string) error { o.out = v; return nil }},
	{names: []string{"-d"}, set: func(o *options, v string) error {
		p, ok := strings.CutPrefix(v, "dump=")
		if !ok {
			if v == "help" {
				o.dump = "help"
				return nil
			}
			return fmt.Errorf("-d takes dump=PASS, not %q", v)
		}
		o.dump = p
		return nil
	}},
	{names: []string{"--stats", "-stats"}, boolean: true, set: func(o *options, _ string) error { o.stats = true; return nil }},
	{names: []string{"-v", "--verbose"}, boolean: true, set: func(o *options, _ string) error { o.verbose = true; return nil }},
	{names: []string{"--size", "-size"}, set: func(o *options, v string) error { return setInt(&o.size, v) }},
	{names: []string{"--block", "-block"}, set: func(o *options, v string) error { return setInt(&o.block, v) }},
	{names: []string{"--data", "-data"}, set: func(o *options, v string) error { o.data = v; return nil }},
	{names: []string{"--no-int", "-no-int"}, boolean: true, set: func(o *options, _ string) error { o.noInt = true; return nil }},
	{names: []string{"--card", "-card"}, set: func(o *options, v string) error { o.card = v; return nil }},
	{names: []string{"--no-card-limits", "-no-card-limits"}, boolean: true, set: func(o *options, _ string) error { o.noLimits = true; return nil }},
	{names: []string{"--storage", "-storage"}, set: func(o *options, v string) error { o.storage = v; return nil }},
	{names: []string{"--opt", "-opt"}, set: func(o *options, v string) error {
		if v != "speed" && v != "size" {
			return fmt.Errorf("--opt takes speed or size, not %q", v)
		}
		o.opt = v
		return nil
	}},
	{names: []string{"--timing", "-timing"}, set: func(o *options, v string) error {
		if v != "ideal" && v != "c64" && v != "c64-blank" {
			return fmt.Errorf("--timing takes ideal, c64 or c64-blank, not %q", v)
		}
		o.timing = v
		return nil
	}},
	{names: []string{"--entry", "-entry"}, set: func(o *options, v string) error {
		if v == "" {
			return fmt.Errorf("needs the name of an export")
		}
		o.entry = v
		return nil
	}},
	{names: []string{"--aid", "-aid"}, set: func(o *options, v string) error {
		if validateAID != nil {
			if err := validateAID(v); err != nil {
				return err
			}
		}
		o.aid = v
		return nil
	}},
	{names: []string{"--max-cycles", "-max-cycles"}, set: func(o *options, v string) error {
		n, err := strconv.ParseUint(v, 10, 64)
		if err != nil || n == 0 {
			return fmt.Errorf("%q is not a positive whole number", v)
		}
		o.maxCyc = n
		return nil
	}},
}

// validateAID checks the value of --aid (set by the jcvm target's file).
var validateAID func(string) error

// runFlags are the target flags only run and bench take: they choose how
// a call is timed, not what is compiled.
var runFlags = []string{"--timing", "--max-cycles"}

// targetFlags are the flags every command that compiles for a target accepts.
var targetFlags = []string{"--target", "--width", "--hw", "--no-int", "--card", "--storage", "--opt", "-d"}

func setInt(dst *int, v string) error {
	n, err := strconv.Atoi(v)
	if err != nil || n < 0 {
		return fmt.Errorf("%q is not a non-negative whole number", v)
	}
	*dst = n
	return nil
}

// parseFlags reads args, accepting only the flags named in allowed. A word
// after `--` is always positional.
func parseFlags(args []string, allowed ...string) (*options, error) {
	o := &options{target: "vm", width: 64, hw: "none", given: map[string]bool{}}
	ok := map[string]bool{}
	for _, a := range allowed {
		ok[a] = true
	}
	for i := 0; i < len(args); i++ {
		a := args[i]
		if a == "--" {
			o.args = append(o.args, args[i+1:]...)
			break
		}
		if !strings.HasPrefix(a, "-") || a == "-" {
			o.args = append(o.args, a)
			continue
		}
		name, val, hasVal := strings.Cut(a, "=")
		spec := findFlag(name)
		if spec == nil || !ok[spec.names[0]] {
			return nil, fmt.Errorf("unknown flag %s", name)
		}
		switch {
		case spec.boolean && hasVal:
			return nil, fmt.Errorf("flag %s takes no value", name)
		case !spec.boolean && !hasVal:
			if i+1 >= len(args) {
				return nil, fmt.Errorf("flag %s needs a value", name)
			}
			i++
			val = args[i]
		}
		if err := spec.set(o, val); err != nil {
			return nil, fmt.Errorf("flag %s: %v", name, err)
		}
		o.given[spec.names[0]] = true
	}
	return o, nil
}

func findFlag(name string) *flagSpec {
	for i := range allFlags {
		for _, n := range allFlags[i].names {
			if n == name {
				return &allFlags[i]
			}
		}
	}
	return nil
}
