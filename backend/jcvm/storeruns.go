package jcvm

// Runs of constant stores. Zeroing a local array (`var ctx: [38]u64`
// before a call fills it) is one store per Java element once the IR has
// unrolled it: 152 `sastore`s, about 1,200 bytes of bytecode, at each
// place. rollStoreRuns turns a run of at least minStoreRun stores of one
// constant to consecutive elements of one array back into a loop of about
// 20 bytes. Only runs outside loops are rolled: they run once per call, so
// the loop's few extra instructions per element do not weigh on the cost
// per block.

// minStoreRun is the shortest run rolled: a straight store is about 7
// bytes, the loop about 20.
const minStoreRun = 8

// rollStoreRuns rolls m's runs of constant stores outside loops.
func rollStoreRuns(m *Method) {
	m.Body = rollRuns(m, m.Body)
}

func rollRuns(m *Method, ss []Stmt) []Stmt {
	var out []Stmt
	for i := 0; i < len(ss); {
		if s, ok := ss[i].(*SIf); ok {
			s.Then = rollRuns(m, s.Then)
			s.Else = rollRuns(m, s.Else)
		}
		a, k0, c, ok := constStore(ss[i])
		if !ok {
			out = append(out, ss[i])
			i++
			continue
		}
		j := i + 1
		for ; j < len(ss); j++ {
			a2, k, c2, ok := constStore(ss[j])
			if !ok || a2 != a || c2 != c || k != k0+int32(j-i) {
				break
			}
		}
		if j-i < minStoreRun {
			out = append(out, ss[i:j]...)
			i = j
			continue
		}
		iv := m.newVar(KShort)
		body := []Stmt{
			&SStore{A: a, I: at(a, &EVar{V: iv}), X: sconst(c)},
			&SAssign{V: iv, X: bin(OAdd, KShort, &EVar{V: iv}, sconst(1))},
		}
		out = append(out,
			&SAssign{V: iv, X: sconst(k0)},
			&SWhile{C: Cond{Rel: RLt, X: &EVar{V: iv}, Y: sconst(k0 + int32(j-i))}, Body: body})
		i = j
	}
	return out
}

// constStore matches A[k] = c with constants k (from the array's start)
// and c, into a short or byte array.
func constStore(s Stmt) (a *Arr, k, c int32, ok bool) {
	st, isStore := s.(*SStore)
	if !isStore || st.A.Elem == EInt {
		return nil, 0, 0, false
	}
	x, isConst := st.X.(*EConst)
	if !isConst || x.K != KShort {
		return nil, 0, 0, false
	}
	i := st.I
	if st.A.Off != nil {
		b, isBin := i.(*EBin)
		if !isBin || b.Op != OAdd {
			return nil, 0, 0, false
		}
		if v, isVar := b.X.(*EVar); !isVar || v.V != st.A.Off {
			return nil, 0, 0, false
		}
		i = b.Y
	}
	ic, isConst := i.(*EConst)
	if !isConst || ic.K != KShort || ic.V < 0 {
		return nil, 0, 0, false
	}
	return st.A, ic.V, x.V, true
}
