package llvm

import (
	"bufio"
	"bytes"
	"crypto/sha256"
	"encoding/binary"
	"encoding/hex"
	"fmt"
	"io"
	"math"
	"os"
	"os/exec"
	"path/filepath"
	"sync"

	"github.com/lowent/lowentc/backend"
	"github.com/lowent/lowentc/ir"
	"github.com/lowent/lowentc/sem"
)

// compiled is a program built into a driver executable.
type compiled struct {
	b    *build
	dir  string
	argv []string // the command line that starts the driver
}

// The build cache: one driver per program text, target and configuration
// (amd64: --hw) within a process,
// so tests compile each stdlib module once per mode.
var (
	cacheMu  sync.Mutex
	cache    = map[string]*cacheEntry{}
	cacheDir string
)

type cacheEntry struct {
	once sync.Once
	c    *compiled
	err  error
}

// cacheKey identifies a build: the module's IR, the target and its
// configuration.
func cacheKey(t Target, m *ir.Module, cfg Config) string {
	h := sha256.New()
	fmt.Fprintf(h, "%s\x00%s\x00%s\x00", t.Name(), m.Name, cfg.Describe())
	m.Print(h)
	return hex.EncodeToString(h.Sum(nil))
}

// removeCache deletes the build cache (backend.Cleanup runs it).
func removeCache() {
	cacheMu.Lock()
	defer cacheMu.Unlock()
	if cacheDir != "" {
		os.RemoveAll(cacheDir)
		cacheDir = ""
		cache = map[string]*cacheEntry{}
	}
}

// compile builds (or finds in the cache) the driver for the program in
// for target t under opts.
func compile(t Target, in *backend.Input, opts backend.Options) (*compiled, error) {
	cfg, err := t.Configure(opts)
	if err != nil {
		return nil, err
	}
	m, err := module(t, in, opts)
	if err != nil {
		return nil, err
	}
	key := cacheKey(t, m, cfg)
	cacheMu.Lock()
	e, ok := cache[key]
	if !ok {
		e = &cacheEntry{}
		cache[key] = e
	}
	if cacheDir == "" {
		d, err := os.MkdirTemp("", "lowentc-"+t.Name()+"-")
		if err != nil {
			cacheMu.Unlock()
			return nil, err
		}
		cacheDir = d
		backend.AtExit(removeCache)
	}
	root := cacheDir
	cacheMu.Unlock()
	e.once.Do(func() {
		dir := filepath.Join(root, key[:16])
		if err := os.MkdirAll(dir, 0o755); err != nil {
			e.err = err
			return
		}
		e.c, e.err = buildDriver(t, m, opts, dir)
	})
	return e.c, e.err
}

func buildDriver(t Target, m *ir.Module, opts backend.Options, dir string) (*compiled, error) {
	b, err := translate(t, m, opts)
	if err != nil {
		return nil, err
	}
	obj, err := b.native(dir, "obj")
	if err != nil {
		return nil, err
	}
	hdr := b.m.Name + ".h"
	if err := os.WriteFile(filepath.Join(dir, hdr), []byte(header(b.m, b.traps, b.cfg)), 0o644); err != nil {
		return nil, err
	}
	src := filepath.Join(dir, "driver.c")
	if err := os.WriteFile(src, []byte(driverC(t, b.m, hdr, b.cfg.Dispatched())), 0o644); err != nil {
		return nil, err
	}
	if h, ok := t.(Host); ok {
		argv, err := h.BuildDriver(DriverBuild{Dir: dir, Module: b.m, Object: obj, Header: filepath.Join(dir, hdr), CSource: src})
		if err != nil {
			return nil, err
		}
		return &compiled{b: b, dir: dir, argv: argv}, nil
	}
	bin := filepath.Join(dir, "driver")
	if _, err := tool(t, dir, "gcc", "-O2", "-o", bin, src, obj); err != nil {
		return nil, err
	}
	return &compiled{b: b, dir: dir, argv: []string{bin}}, nil
}

// Runner runs the exports of one program natively, through one driver
// process that serves every call.
type Runner struct {
	c    *compiled
	mu   sync.Mutex
	cmd  *exec.Cmd
	in   io.WriteCloser
	out  *bufio.Reader
	errb bytes.Buffer
}

// Prepare compiles the program in for target t (or reuses the cached
// build) and returns a runner, which starts its driver at the first call.
func Prepare(t Target, in *backend.Input, opts backend.Options) (*Runner, error) {
	c, err := compile(t, in, opts)
	if err != nil {
		return nil, err
	}
	return &Runner{c: c}, nil
}

// Object compiles the program in for target t (or reuses the cached
// build, the one Prepare's runners link) and returns the path of its
// object file, which stays until backend.Cleanup.
func Object(t Target, in *backend.Input, opts backend.Options) (string, error) {
	c, err := compile(t, in, opts)
	if err != nil {
		return "", err
	}
	return filepath.Join(c.dir, c.b.m.Name+".o"), nil
}

func (r *Runner) start() error {
	if r.cmd != nil {
		return nil
	}
	cmd := exec.Command(r.c.argv[0], r.c.argv[1:]...)
	in, err := cmd.StdinPipe()
	if err != nil {
		return err
	}
	out, err := cmd.StdoutPipe()
	if err != nil {
		return err
	}
	r.errb.Reset()
	cmd.Stderr = &r.errb
	if err := cmd.Start(); err != nil {
		return fmt.Errorf("%s: starting the driver: %v", r.c.b.t.Name(), err)
	}
	r.cmd, r.in, r.out = cmd, in, bufio.NewReaderSize(out, 1<<16)
	return nil
}

// stop ends the driver process (after a failure it is restarted).
func (r *Runner) stop() error {
	if r.cmd == nil {
		return nil
	}
	r.in.Close()
	err := r.cmd.Wait()
	r.cmd = nil
	return err
}

// Close stops the driver.
func (r *Runner) Close() error {
	r.mu.Lock()
	defer r.mu.Unlock()
	_ = r.stop()
	return nil
}

// Run calls export fn once.
func (r *Runner) Run(fn string, args []sem.Value) ([]sem.Value, backend.Stats, error) {
	res, ns, err := r.call(fn, args, 0, 0)
	if err != nil {
		return nil, nil, err
	}
	st := backend.Stats{{Key: "ns", Value: fmt.Sprintf("%.0f", ns)}, {Key: "hw", Value: r.c.b.cfg.Describe()}}
	return res, st, nil
}

// Measure times fn: the driver doubles the calls until a round lasts
// 200 ms and reports the best of three rounds' ns per call.
func (r *Runner) Measure(fn string, args []sem.Value) (backend.Cost, error) {
	return r.MeasureFor(fn, args, 200e6)
}

// MeasureFor is Measure with rounds of at least minNS nanoseconds.
func (r *Runner) MeasureFor(fn string, args []sem.Value, minNS uint64) (backend.Cost, error) {
	_, ns, err := r.call(fn, args, 1, minNS)
	if err != nil {
		return backend.Cost{}, err
	}
	return backend.Cost{Value: ns, Unit: "ns", Seconds: ns / 1e9}, nil
}

func (r *Runner) call(fn string, args []sem.Value, mode uint32, minNS uint64) ([]sem.Value, float64, error) {
	m := r.c.b.m
	idx := -1
	var f *ir.Function
	for i, e := range exports(m) {
		if e.Name == fn {
			idx, f = i, e
		}
	}
	if f == nil {
		return nil, 0, fmt.Errorf("%s: no export %s in module %s", r.c.b.t.Name(), fn, m.Name)
	}
	if len(args) != len(f.Sig.Params) {
		return nil, 0, fmt.Errorf("%s takes %d arguments, got %d", f.Name, len(f.Sig.Params), len(args))
	}
	var req bytes.Buffer
	put := func(x any) { _ = binary.Write(&req, binary.LittleEndian, x) }
	put(uint32(idx))
	put(mode)
	put(minNS)
	for i, p := range f.Sig.Params {
		a := args[i]
		if !p.Array {
			if a.IsArray || a.Word&^p.Type.Mask() != 0 {
				return nil, 0, fmt.Errorf("argument %s: %#x does not fit %s", p.Name, a.Word, p.Type)
			}
			put(a.Word)
			continue
		}
		if !p.Slice && len(a.Elems) != p.Len {
			return nil, 0, fmt.Errorf("argument %s: want %d elements, got %d", p.Name, p.Len, len(a.Elems))
		}
		put(uint64(len(a.Elems)))
		for _, e := range a.Elems {
			if e&^p.Type.Mask() != 0 {
				return nil, 0, fmt.Errorf("argument %s: element %#x does not fit %s", p.Name, e, p.Type)
			}
			putElem(&req, e, StorageType(p.Type).BitSize/8)
		}
	}
	r.mu.Lock()
	defer r.mu.Unlock()
	if err := r.start(); err != nil {
		return nil, 0, err
	}
	if _, err := r.in.Write(req.Bytes()); err != nil {
		return nil, 0, r.crashed(err)
	}
	var status int32
	var nsBits uint64
	if err := binary.Read(r.out, binary.LittleEndian, &status); err != nil {
		return nil, 0, r.crashed(err)
	}
	if err := binary.Read(r.out, binary.LittleEndian, &nsBits); err != nil {
		return nil, 0, r.crashed(err)
	}
	for i, p := range f.Sig.Params {
		if !p.Array || !p.Mut {
			continue
		}
		got, err := readElems(r.out, len(args[i].Elems), StorageType(p.Type).BitSize/8)
		if err != nil {
			return nil, 0, r.crashed(err)
		}
		if status == StatusOK {
			copy(args[i].Elems, got)
		}
	}
	var results []sem.Value
	for _, res := range f.Sig.Results {
		if res.Array {
			e, err := readElems(r.out, res.Len, StorageType(res.Type).BitSize/8)
			if err != nil {
				return nil, 0, r.crashed(err)
			}
			results = append(results, sem.Value{Elems: e, IsArray: true})
			continue
		}
		var w uint64
		if err := binary.Read(r.out, binary.LittleEndian, &w); err != nil {
			return nil, 0, r.crashed(err)
		}
		results = append(results, sem.Value{Word: w})
	}
	if status != StatusOK {
		return nil, 0, r.statusError(f, int(status))
	}
	return results, math.Float64frombits(nsBits), nil
}

// Dispatched says whether the program's exports are dispatched at run
// time (Config.Dispatched): ForceDispatch works.
func (r *Runner) Dispatched() bool { return r.c.b.cfg.Dispatched() }

// ForceDispatch asks the module's NAME_force_level(n) to limit the
// dispatch level to n and returns its answer: the level in effect, or a
// negative number for an n the target refuses (Config says what levels
// are).
func (r *Runner) ForceDispatch(n int) (int, error) {
	if !r.Dispatched() {
		return 0, fmt.Errorf("%s: ForceDispatch needs a dispatched program", r.c.b.t.Name())
	}
	r.mu.Lock()
	defer r.mu.Unlock()
	if err := r.start(); err != nil {
		return 0, err
	}
	var req bytes.Buffer
	_ = binary.Write(&req, binary.LittleEndian, []uint32{uint32(n), 2, 0, 0})
	if _, err := r.in.Write(req.Bytes()); err != nil {
		return 0, r.crashed(err)
	}
	var lvl int32
	if err := binary.Read(r.out, binary.LittleEndian, &lvl); err != nil {
		return 0, r.crashed(err)
	}
	return int(lvl), nil
}

func putElem(w *bytes.Buffer, e uint64, size uint64) {
	var b [8]byte
	binary.LittleEndian.PutUint64(b[:], e)
	w.Write(b[:size])
}

func readElems(r io.Reader, n int, size uint64) ([]uint64, error) {
	buf := make([]byte, uint64(n)*size)
	if _, err := io.ReadFull(r, buf); err != nil {
		return nil, err
	}
	out := make([]uint64, n)
	for i := range out {
		var b [8]byte
		copy(b[:], buf[uint64(i)*size:uint64(i+1)*size])
		out[i] = binary.LittleEndian.Uint64(b[:])
	}
	return out, nil
}

// crashed reports a driver that died or broke the protocol, and stops it.
func (r *Runner) crashed(err error) error {
	if werr := r.stop(); werr != nil {
		// Killed (a stack overflow is a SIGSEGV) or exited: say so rather
		// than only what the pipe saw ("EOF").
		return fmt.Errorf("%s: the driver died (%v) during the call: %v\n%s", r.c.b.t.Name(), werr, err, r.errb.String())
	}
	return fmt.Errorf("%s: the driver failed: %v\n%s", r.c.b.t.Name(), err, r.errb.String())
}

// statusError turns a non-zero status of fn's kernel into the error the
// VM would give.
func (r *Runner) statusError(fn *ir.Function, code int) error {
	if code < 0 {
		if c := entryCheck(fn.Body, -1-code); c != nil {
			return c.Err()
		}
		return fmt.Errorf("%s: %s returned the status of requires clause %d, which it does not check", r.c.b.t.Name(), fn.Name, -1-code)
	}
	if code == StatusFault {
		return fmt.Errorf("%s: a slice argument is longer than 2^32-1 elements", fn.Name)
	}
	if c := r.c.b.traps.info(code); c != nil {
		return c.Err()
	}
	return fmt.Errorf("%s: %s returned unknown status %d", r.c.b.t.Name(), fn.Name, code)
}

// entryCheck returns the check of the export's requires clause k in b, or
// nil.
func entryCheck(b *ir.Block, k int) *ir.CheckInfo {
	for _, in := range b.Instrs {
		if c := in.Check; c != nil && c.Kind == ir.CheckEntry && c.Clause == k {
			return c
		}
		for _, blk := range in.Blocks {
			if c := entryCheck(blk, k); c != nil {
				return c
			}
		}
	}
	return nil
}
