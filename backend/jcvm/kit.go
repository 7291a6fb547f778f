package jcvm

import (
	"archive/zip"
	"bytes"
	"encoding/binary"
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"

	"github.com/lowent/lowentc/backend"
)

// A Java Card development kit (Oracle's 3.0.5, classic edition) and the
// routes from a compiled class to a CAP file:
//
//   - java: the --emit javacard tree, javac --release 7 against the kit's
//     api_classic.jar, then the kit's converter (which also writes the CAP's
//     bytecode as Java Card Assembly);
//   - jca: the class's own bytecode as --emit jca prints it, through the
//     kit's capgen.
//
// Either CAP is then checked by the kit's off-card verifier.

// KitEnv is the variable naming the kit when --jc-home is not given.
const KitEnv = "JC_HOME"

// Kit is a Java Card development kit's directory.
type Kit struct {
	Home string
}

// errNoKit is the error of a CAP asked for without a kit.
var errNoKit = errors.New("jcvm: --emit cap needs the Java Card 3.0.5 development kit (its converter, capgen and verifier): give its directory with --jc-home DIR or set JC_HOME (the directory holding lib/api_classic.jar and api_export_files/)")

// FindKit is the kit at dir, or at $JC_HOME when dir is "".
func FindKit(dir string) (*Kit, error) {
	from := "--jc-home"
	if dir == "" {
		dir, from = os.Getenv(KitEnv), KitEnv
	}
	if dir == "" {
		return nil, errNoKit
	}
	abs, err := filepath.Abs(dir)
	if err != nil {
		return nil, fmt.Errorf("jcvm: %s %s: %v", from, dir, err)
	}
	k := &Kit{Home: abs}
	for _, f := range []string{"lib/api_classic.jar", "lib/tools.jar", "api_export_files/javacard/framework/javacard/framework.exp"} {
		if _, err := os.Stat(filepath.Join(abs, f)); err != nil {
			return nil, fmt.Errorf("jcvm: %s %s is not a Java Card 3.0.5 kit: it has no %s", from, dir, f)
		}
	}
	for _, t := range []string{"java", "javac"} {
		if _, err := exec.LookPath(t); err != nil {
			return nil, fmt.Errorf("jcvm: --emit cap runs the kit's tools on a JVM: %s is not on PATH (OpenJDK 17 has both java and javac)", t)
		}
	}
	return k, nil
}

// classpath is every jar of the kit's lib/.
func (k *Kit) classpath() string {
	jars, _ := filepath.Glob(filepath.Join(k.Home, "lib", "*.jar"))
	return strings.Join(jars, string(os.PathListSeparator))
}

// exportFiles are the export files of the packages a lowentc CAP imports.
func (k *Kit) exportFiles() []string {
	e := filepath.Join(k.Home, "api_export_files")
	return []string{
		filepath.Join(e, "java", "lang", "javacard", "lang.exp"),
		filepath.Join(e, "javacard", "framework", "javacard", "framework.exp"),
	}
}

// tool runs one of the kit's Java tools (main class cls) in dir and returns
// what it printed.
func (k *Kit) tool(dir, cls string, args ...string) (string, error) {
	// Short runs: the client compiler and the serial collector about
	// halve each tool's time.
	a := append([]string{"-XX:TieredStopAtLevel=1", "-XX:+UseSerialGC", "-Djc.home=" + k.Home, "-cp", k.classpath(), cls}, args...)
	cmd := exec.Command("java", a...)
	cmd.Dir = dir
	out, err := cmd.CombinedOutput()
	return string(out), err
}

// toolCounts reads a kit tool's closing line, "... completed with N errors
// and M warnings" (converter, capgen) or "with M warnings and N errors"
// (verifier).
var (
	reErrWarn = regexp.MustCompile(`completed with (\d+) errors? and (\d+) warnings?`)
	reWarnErr = regexp.MustCompile(`completed with (\d+) warnings? and (\d+) errors?`)
)

func toolCounts(out string) (errs, warns int, ok bool) {
	if m := reErrWarn.FindStringSubmatch(out); m != nil {
		errs, _ = strconv.Atoi(m[1])
		warns, _ = strconv.Atoi(m[2])
		return errs, warns, true
	}
	if m := reWarnErr.FindStringSubmatch(out); m != nil {
		warns, _ = strconv.Atoi(m[1])
		errs, _ = strconv.Atoi(m[2])
		return errs, warns, true
	}
	return 0, 0, false
}

// toolError is a kit tool that did not finish cleanly: its name and the
// lines it printed about the problem.
func toolError(what, out string, err error) error {
	var lines []string
	for _, l := range strings.Split(out, "\n") {
		if strings.Contains(l, "error") || strings.Contains(l, "Error") || strings.Contains(l, "Exception") {
			lines = append(lines, strings.TrimSpace(l))
		}
		if len(lines) == 10 {
			lines = append(lines, "...")
			break
		}
	}
	if len(lines) == 0 {
		lines = append(lines, strings.TrimSpace(out))
	}
	if err != nil {
		return fmt.Errorf("jcvm: %s failed (%v):\n%s", what, err, strings.Join(lines, "\n"))
	}
	return fmt.Errorf("jcvm: %s:\n%s", what, strings.Join(lines, "\n"))
}

// CAP is a CAP file built by one route, with the Java Card Assembly of the
// bytecode it holds (the converter's, or the one capgen read).
type CAP struct {
	Route string // "java" or "jca"
	Data  []byte
	JCA   string
	// Verifier is the verifier's closing line.
	Verifier string
}

// ConvertTree builds the CAP of a --emit javacard tree (files as
// JavaCardTree returns them) by the java route: javac, then the converter
// (with int support when ints), in a temporary directory it removes.
func (k *Kit) ConvertTree(files map[string][]byte, cls string, aids AIDs, ints bool) (*CAP, error) {
	dir, err := os.MkdirTemp("", "lowentc-cap-")
	if err != nil {
		return nil, err
	}
	defer os.RemoveAll(dir)
	var srcs []string
	for p, b := range files {
		full := filepath.Join(dir, "tree", filepath.FromSlash(p))
		if err := os.MkdirAll(filepath.Dir(full), 0o755); err != nil {
			return nil, err
		}
		if err := os.WriteFile(full, b, 0o644); err != nil {
			return nil, err
		}
		if strings.HasSuffix(p, ".java") {
			srcs = append(srcs, full)
		}
	}
	// --release 7: the newest class-file version the 3.0.5 converter reads;
	// -g: without the local variable tables the converter fails on
	// poly1305 (an internal error after "int type array index is converted
	// to short"), with them it converts every stdlib module.
	args := append([]string{"-J-XX:TieredStopAtLevel=1", "-J-XX:+UseSerialGC", "--release", "7", "-g", "-nowarn", "-Xlint:-options", "-cp", filepath.Join(k.Home, "lib", "api_classic.jar"), "-d", filepath.Join(dir, "cls")}, srcs...)
	cmd := exec.Command("javac", args...)
	if out, err := cmd.CombinedOutput(); err != nil {
		return nil, toolError("javac --release 7", string(out), err)
	}
	conv := []string{"-classdir", filepath.Join(dir, "cls"), "-exportpath", filepath.Join(k.Home, "api_export_files")}
	if ints {
		conv = append(conv, "-i")
	}
	conv = append(conv, "-applet", aidJCA(aids.Applet), javaPackage+"."+cls+"Applet",
		"-out", "CAP", "JCA", "EXP", "-d", filepath.Join(dir, "out"), javaPackage, aidJCA(aids.Package), "1.0")
	out, err := k.tool(dir, "com.sun.javacard.converter.Main", conv...)
	if e, _, ok := toolCounts(out); err != nil || !ok || e > 0 {
		return nil, toolError("the Java Card converter", out, err)
	}
	base := filepath.Join(dir, "out", javaPackage, "javacard", javaPackage)
	data, err := os.ReadFile(base + ".cap")
	if err != nil {
		return nil, fmt.Errorf("jcvm: the converter wrote no CAP: %v", err)
	}
	jca, err := os.ReadFile(base + ".jca")
	if err != nil {
		return nil, fmt.Errorf("jcvm: the converter wrote no .jca: %v", err)
	}
	return &CAP{Route: "java", Data: data, JCA: string(jca)}, nil
}

// Capgen builds the CAP of a Java Card Assembly file by the jca route.
func (k *Kit) Capgen(jca string) (*CAP, error) {
	dir, err := os.MkdirTemp("", "lowentc-cap-")
	if err != nil {
		return nil, err
	}
	defer os.RemoveAll(dir)
	if err := os.WriteFile(filepath.Join(dir, "in.jca"), []byte(jca), 0o644); err != nil {
		return nil, err
	}
	out, err := k.tool(dir, "com.sun.javacard.jcasm.cap.Main", "-nobanner", "-o", "out.cap", "in.jca")
	data, rerr := os.ReadFile(filepath.Join(dir, "out.cap"))
	if e, _, ok := toolCounts(out); err != nil || rerr != nil || (ok && e > 0) || strings.Contains(out, "rror") {
		return nil, toolError("capgen", out, err)
	}
	return &CAP{Route: "jca", Data: data, JCA: jca}, nil
}

// Verify runs the off-card verifier on c and requires 0 warnings and 0
// errors; it sets c.Verifier to the verifier's verdict.
func (k *Kit) Verify(c *CAP) error {
	dir, err := os.MkdirTemp("", "lowentc-verify-")
	if err != nil {
		return err
	}
	defer os.RemoveAll(dir)
	capPath := filepath.Join(dir, javaPackage+".cap")
	if err := os.WriteFile(capPath, c.Data, 0o644); err != nil {
		return err
	}
	args := append([]string{"-nobanner"}, k.exportFiles()...)
	out, err := k.tool(dir, "com.sun.javacard.offcardverifier.Verifier", append(args, capPath)...)
	e, w, ok := toolCounts(out)
	if err != nil || !ok || e > 0 || w > 0 {
		return toolError("the off-card verifier rejects the "+c.Route+" route's CAP", out, err)
	}
	c.Verifier = fmt.Sprintf("%d warnings and %d errors", w, e)
	return nil
}

// Component sizes of a CAP file: each component is a file NAME.cap in the
// archive, a tag byte and a u2 size followed by that many bytes.
type capSizes struct {
	File          int // the CAP file (a JAR)
	Method        int // the Method component's info
	ConstantPool  int
	StaticField   int
	Components    int // every component's info, summed: what a card loads
	ComponentFile map[string]int
}

func capComponents(data []byte) (capSizes, error) {
	zr, err := zip.NewReader(bytes.NewReader(data), int64(len(data)))
	if err != nil {
		return capSizes{}, fmt.Errorf("jcvm: the CAP file is not a JAR: %v", err)
	}
	s := capSizes{File: len(data), ComponentFile: map[string]int{}}
	for _, f := range zr.File {
		name := filepath.Base(f.Name)
		if !strings.HasSuffix(name, ".cap") {
			continue
		}
		r, err := f.Open()
		if err != nil {
			return s, err
		}
		b, err := io.ReadAll(r)
		r.Close()
		if err != nil {
			return s, err
		}
		if len(b) < 3 {
			return s, fmt.Errorf("jcvm: CAP component %s has %d bytes", name, len(b))
		}
		n := int(binary.BigEndian.Uint16(b[1:3]))
		comp := strings.TrimSuffix(name, ".cap")
		s.ComponentFile[comp] = n
		s.Components += n
		switch comp {
		case "Method":
			s.Method = n
		case "ConstantPool":
			s.ConstantPool = n
		case "StaticField":
			s.StaticField = n
		}
	}
	if s.Method == 0 {
		return s, errors.New("jcvm: the CAP file has no Method component")
	}
	return s, nil
}

// capArtifact builds the CAP of cls with kit by the route opts.Route asks
// for, verifies it and returns its bytes; opts.Stats gets the CAP's real
// component sizes beside the estimates.
func capArtifact(kit *Kit, cls *Class, opts backend.Options) ([]byte, error) {
	aids, err := aidsOf(cls, opts)
	if err != nil {
		return nil, err
	}
	c, err := buildCAP(kit, cls, aids, opts.Route)
	if err != nil {
		return nil, err
	}
	if err := kit.Verify(c); err != nil {
		return nil, err
	}
	sz, err := capComponents(c.Data)
	if err != nil {
		return nil, err
	}
	if opts.Stats != nil {
		*opts.Stats = append(*opts.Stats,
			backend.Stat{Key: "cap_route", Value: c.Route},
			backend.Stat{Key: "cap_bytes", Value: strconv.Itoa(sz.File)},
			backend.Stat{Key: "cap_components_bytes", Value: strconv.Itoa(sz.Components)},
			backend.Stat{Key: "cap_method_bytes", Value: strconv.Itoa(sz.Method)},
			backend.Stat{Key: "cap_constant_pool_bytes", Value: strconv.Itoa(sz.ConstantPool)},
			backend.Stat{Key: "cap_static_field_bytes", Value: strconv.Itoa(sz.StaticField)},
			backend.Stat{Key: "cap_verifier", Value: c.Verifier},
		)
	}
	return c.Data, nil
}

// buildCAP builds cls's CAP by route ("java", "jca", or "" and "auto": the
// java route, whose bytecode the converter writes from javac's).
func buildCAP(kit *Kit, cls *Class, aids AIDs, route string) (*CAP, error) {
	switch route {
	case "jca":
		return kit.Capgen(printJCA(cls, javaPackage, aids))
	default:
		return kit.ConvertTree(javaCardFiles(cls, aids), cls.Name, aids, cls.W == 32)
	}
}
