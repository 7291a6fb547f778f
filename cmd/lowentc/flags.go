package main

import (
	"cmp"
	"fmt"
	"io"
	"os"
	"slices"
	"strconv"
	"strings"
	"sync"

	"github.com/spf13/pflag"

	"github.com/lowent/lowentc/backend"
)

// options are every flag any subcommand takes; each subcommand accepts a
// subset. Flags may come before, between or after positional arguments.
type options struct {
	target  string
	width   int
	emit    string
	out     string
	dump    string
	stats   bool
	verbose bool
	size    int
	block   int
	data    string
	// be holds the values of the flags a backend reads (--hw, --card,
	// --opt, ...), set by the flags each target registers.
	be     backend.Options
	args   []string        // positional
	given  map[string]bool // the flags written on the command line, by name
	dumpTo io.Writer       // where -d dump writes: the command's standard error
}

// dumpWriter is where -d dump writes.
func (o *options) dumpWriter() io.Writer {
	if o.dumpTo != nil {
		return o.dumpTo
	}
	return os.Stderr
}

// command is a set of subcommands: the ones that take a flag.
type command uint8

const (
	onCompile command = 1 << iota
	onCheck
	onRun
	onBench

	onCalls  = onRun | onBench             // the commands that call an export
	onTarget = onCompile | onRun | onBench // the commands that compile for a target
)

// flagDef is one flag. The command line's own flags are registered below;
// each target registers the flags it reads in its target_*.go. Two
// registrations of one name are one flag acting on the targets of both
// (--hw: amd64, and the hosts vm and ir), its --help entry the lines of
// both, by rank.
type flagDef struct {
	name  string // long name, without dashes; a one-letter name is written -X only
	short string // one-letter form (-W), or ""
	// arg names the value in --help ("C" in --card C); "" makes the flag a
	// switch, which takes no value.
	arg string
	// help is the flag's entry in the Flags list of --help, one string per
	// line; none leaves the flag out (it is described elsewhere).
	help []string
	// shortInHelp: --help names the flag by its one-letter form (-o OUT).
	shortInHelp bool
	// rank orders the Flags list of --help and the warnings about flags
	// given for another target; warnAt, when not 0, places the flag's
	// warning instead.
	rank, warnAt int
	cmds         command
	// targets are the targets the flag acts on; given for another one it
	// changes nothing, and lowentc warns. None: every target.
	targets []string
	// strict: a bad value is a usage error whichever target is chosen;
	// the targets' Validate checks it.
	strict bool
	set    func(o *options, v string) error
}

var registered []flagDef

// registerFlags adds flags to the command line.
func registerFlags(defs ...flagDef) { registered = append(registered, defs...) }

// flagDefs are the registered flags, one per name, in rank order.
var flagDefs = sync.OnceValue(func() []flagDef {
	defs := slices.Clone(registered)
	slices.SortStableFunc(defs, func(a, b flagDef) int { return a.rank - b.rank })
	var out []flagDef
	at := map[string]int{}
	for _, d := range defs {
		i, dup := at[d.name]
		if !dup {
			at[d.name] = len(out)
			out = append(out, d)
			continue
		}
		m := &out[i]
		m.targets = append(slices.Clone(m.targets), d.targets...)
		m.help = append(slices.Clone(m.help), d.help...)
		m.strict = m.strict || d.strict
		if m.set == nil {
			m.set = d.set
		}
	}
	return out
})

func init() {
	registerFlags(
		flagDef{name: "target", arg: "T", rank: 10, cmds: onTarget,
			help: []string{"vm (default), ir, amd64, arm64, wasm32, jcvm, mos6502"},
			set:  func(o *options, v string) error { o.target = v; return nil }},
		flagDef{name: "emit", arg: "KIND", rank: 40, cmds: onCompile,
			help: []string{"what to write: ir for every target; each backend adds its own kinds"},
			set:  func(o *options, v string) error { o.emit = v; return nil }},
		flagDef{name: "output", short: "o", shortInHelp: true, arg: "OUT", rank: 50, cmds: onCompile,
			help: []string{"output file (written whole or not at all); default stdout"},
			set:  func(o *options, v string) error { o.out = v; return nil }},
		flagDef{name: "d", short: "d", arg: "dump=PASS", rank: 60, cmds: onTarget,
			help: []string{`print the IR after pass PASS (or "all") to stderr; -d help lists the passes`},
			set:  setDump},
		flagDef{name: "stats", rank: 140, cmds: onTarget,
			help: []string{
				"run, bench: print the target's measurements of a call to stderr as key=value lines;",
				"compile: jcvm, the module's bytes of code, stack and memory against the card's limits;",
				"mos6502, the mode, configuration, start, end, bytes and source lines of the program"},
			set: func(o *options, _ string) error { o.stats = true; return nil }},
		flagDef{name: "verbose", short: "v", rank: 200, cmds: onCheck,
			set: func(o *options, _ string) error { o.verbose = true; return nil }},
		flagDef{name: "size", arg: "N", rank: 210, cmds: onBench,
			set: func(o *options, v string) error { return setInt(&o.size, v) }},
		flagDef{name: "block", arg: "B", rank: 220, cmds: onBench,
			set: func(o *options, v string) error { return setInt(&o.block, v) }},
		flagDef{name: "data", arg: "NAME", rank: 230, cmds: onBench,
			set: func(o *options, v string) error { o.data = v; return nil }},
	)
}

func setDump(o *options, v string) error {
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
}

func setInt(dst *int, v string) error {
	n, err := strconv.Atoi(v)
	if err != nil || n < 0 {
		return fmt.Errorf("%q is not a non-negative whole number", v)
	}
	*dst = n
	return nil
}

// parseCommand reads the flags of command cmd from args, with -d dump's
// output going to stderr. On a bad flag it reports a usage error (its
// message after prefix) and returns nil and the exit status.
func parseCommand(args []string, cmd command, prefix string, stderr io.Writer) (*options, int) {
	o, err := parseFlags(args, cmd)
	if err != nil {
		return nil, usageError(stderr, "%s%v", prefix, err)
	}
	o.dumpTo = stderr
	return o, exitOK
}

// parseFlags reads args, accepting only the flags of cmd. A word after
// `--` is always positional.
func parseFlags(args []string, cmd command) (*options, error) {
	o := &options{target: "vm", width: 64, given: map[string]bool{}}
	o.be.HW = "none"
	fs := pflag.NewFlagSet("lowentc", pflag.ContinueOnError)
	fs.SetOutput(io.Discard)
	fs.Usage = func() {}
	defs := map[string]*flagDef{}
	for _, d := range flagDefs() {
		if d.cmds&cmd == 0 {
			continue
		}
		defs[d.name] = &d
		f := fs.VarPF(noValue{}, d.name, d.short, "")
		if d.arg == "" {
			f.NoOptDefVal = "true"
		}
	}
	args, spelled, err := spellFlags(args, fs)
	if err != nil {
		return nil, err
	}
	i := 0
	err = fs.ParseAll(args, func(f *pflag.Flag, v string) error {
		name := spelled[i]
		i++
		d := defs[f.Name]
		if err := d.set(o, v); err != nil {
			return fmt.Errorf("flag %s: %v", name, err)
		}
		o.given[d.name] = true
		return nil
	})
	if err != nil {
		return nil, err
	}
	o.args = fs.Args()
	return o, nil
}

// spellFlags checks the name of each flag in args and returns args for
// pflag, with the one-dash long forms (-target) written with two dashes,
// and each flag's name as written, in order. It answers what pflag would
// word otherwise: an unknown flag (pflag would read -target as the
// letters t, a, r, ...), a value given to a switch, a value missing.
func spellFlags(args []string, fs *pflag.FlagSet) (out, spelled []string, err error) {
	for i := 0; i < len(args); i++ {
		a := args[i]
		if a == "--" {
			out = append(out, args[i:]...)
			break
		}
		if !strings.HasPrefix(a, "-") || a == "-" {
			out = append(out, a)
			continue
		}
		name, _, hasVal := strings.Cut(a, "=")
		var f *pflag.Flag
		switch long, two := strings.CutPrefix(name, "--"); {
		case two && len(long) > 1:
			f = fs.Lookup(long)
		case two:
		case len(name) == 2:
			f = fs.ShorthandLookup(name[1:])
		default:
			if f = fs.Lookup(name[1:]); f != nil {
				a = "-" + a
			}
		}
		switch {
		case f == nil:
			return nil, nil, fmt.Errorf("unknown flag %s", name)
		case f.NoOptDefVal != "" && hasVal:
			return nil, nil, fmt.Errorf("flag %s takes no value", name)
		case f.NoOptDefVal == "" && !hasVal && i+1 == len(args):
			return nil, nil, fmt.Errorf("flag %s needs a value", name)
		}
		out = append(out, a)
		spelled = append(spelled, name)
		if f.NoOptDefVal == "" && !hasVal {
			i++
			out = append(out, args[i])
		}
	}
	return out, spelled, nil
}

// noValue stands in for a flag's value in pflag: parseFlags hands every
// value to the flag's set.
type noValue struct{}

func (noValue) String() string   { return "" }
func (noValue) Set(string) error { return nil }
func (noValue) Type() string     { return "string" }

// warnOtherTargets says which flags given change nothing for o.target,
// without failing (scripts may pass one set of flags to every target).
func warnOtherTargets(o *options, stderr io.Writer) {
	defs := slices.Clone(flagDefs())
	at := func(d flagDef) int { return cmp.Or(d.warnAt, d.rank) }
	slices.SortStableFunc(defs, func(a, b flagDef) int { return at(a) - at(b) })
	for _, d := range defs {
		if d.targets != nil && o.given[d.name] && !slices.Contains(d.targets, o.target) {
			fmt.Fprintf(stderr, "lowentc: warning: --%s has no effect on target %s (it applies to %s)\n", d.name, o.target, strings.Join(d.targets, ", "))
		}
	}
}

// checkOtherTargets checks, with their targets' Validate, the values of
// strict flags given for a target other than o.target: a bad value is a
// usage error whichever target the flag acts on.
func checkOtherTargets(o *options) error {
	for _, name := range targetNames {
		if name == o.target || !slices.ContainsFunc(flagDefs(), func(d flagDef) bool {
			return d.strict && o.given[d.name] && slices.Contains(d.targets, name)
		}) {
			continue
		}
		if t, ok := backend.Lookup(name); ok && t.Validate != nil {
			if err := t.Validate(o.be); err != nil {
				return err
			}
		}
	}
	return nil
}

// usage is the text of --help: usageHead, the registered flags' entries
// in rank order, usageTail.
func usage() string {
	var b strings.Builder
	b.WriteString(usageHead)
	const indent = 17
	for _, d := range flagDefs() {
		if len(d.help) == 0 {
			continue
		}
		label := "--" + d.name
		if d.shortInHelp || len(d.name) == 1 {
			label = "-" + d.short
		}
		if d.arg != "" {
			label += " " + d.arg
		}
		if len(label) < indent-2 {
			fmt.Fprintf(&b, "  %-*s", indent-2, label)
		} else {
			fmt.Fprintf(&b, "  %s\n%*s", label, indent, "")
		}
		b.WriteString(strings.Join(d.help, "\n"+strings.Repeat(" ", indent)) + "\n")
	}
	b.WriteString(usageTail)
	return b.String()
}
