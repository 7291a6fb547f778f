package mos6502

import (
	"bufio"
	"bytes"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
)

// image is an assembled program: its bytes from address org, and its labels.
type image struct {
	org    int
	data   []byte
	labels map[string]int
}

// assemble64tass assembles TMP source with 64tass in TASM mode. With
// loadAddr the output starts with the 2-byte load address (a .prg).
func assemble64tass(src string, loadAddr bool) (*image, error) {
	if _, err := exec.LookPath("64tass"); err != nil {
		return nil, fmt.Errorf("mos6502: 64tass not found (apt-get install 64tass): %v", err)
	}
	dir, err := os.MkdirTemp("", "lowentc6502")
	if err != nil {
		return nil, err
	}
	defer os.RemoveAll(dir)
	in, bin, lbl := filepath.Join(dir, "x.asm"), filepath.Join(dir, "x.bin"), filepath.Join(dir, "x.lbl")
	if err := os.WriteFile(in, []byte(src), 0o644); err != nil {
		return nil, err
	}
	args := []string{"-C", "-T", "-a", "-q", "-o", bin, "-l", lbl, in}
	if !loadAddr {
		args = append([]string{"--nostart"}, args...)
	}
	cmd := exec.Command("64tass", args...)
	var out bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &out
	if err := cmd.Run(); err != nil {
		return nil, fmt.Errorf("mos6502: 64tass: %v\n%s", err, firstLines(out.String(), 20))
	}
	data, err := os.ReadFile(bin)
	if err != nil {
		return nil, err
	}
	labels, err := readLabels(lbl)
	if err != nil {
		return nil, err
	}
	img := &image{data: data, labels: labels}
	return img, nil
}

func readLabels(path string) (map[string]int, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	labels := map[string]int{}
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		parts := strings.SplitN(sc.Text(), "=", 2)
		if len(parts) != 2 {
			continue
		}
		v := strings.TrimSpace(parts[1])
		v = strings.TrimPrefix(v, "$")
		n, err := strconv.ParseInt(v, 16, 32)
		if err != nil {
			continue
		}
		labels[strings.TrimSpace(parts[0])] = int(n)
	}
	return labels, sc.Err()
}

func firstLines(s string, n int) string {
	lines := strings.Split(s, "\n")
	if len(lines) > n {
		lines = append(lines[:n], "...")
	}
	return strings.Join(lines, "\n")
}

// addr returns the address a storage operand ("$xx", "label" or
// "label+N") names in the assembled image.
func (img *image) addr(opnd string) (int, error) {
	if strings.HasPrefix(opnd, "$") {
		n, err := strconv.ParseInt(opnd[1:], 16, 32)
		return int(n), err
	}
	label, off, _ := strings.Cut(opnd, "+")
	a, ok := img.labels[label]
	if !ok {
		return 0, fmt.Errorf("mos6502: no label %q in the image", label)
	}
	if off != "" {
		n, err := strconv.Atoi(off)
		if err != nil {
			return 0, err
		}
		a += n
	}
	return a, nil
}

// resolveABI fills in the addresses of an export's scalar parameters and
// results from their storage operands.
func (img *image) resolveABI(a *funcABI) error {
	for i := range a.Params {
		if p := &a.Params[i]; p.Loc != "" {
			n, err := img.addr(p.Loc)
			if err != nil {
				return err
			}
			p.Limbs = []int{n}
		}
	}
	a.Results = a.Results[:0]
	for _, r := range a.ResultLocs {
		n, err := img.addr(r)
		if err != nil {
			return err
		}
		a.Results = append(a.Results, n)
	}
	return nil
}
