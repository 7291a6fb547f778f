package llvm

import (
	llir "github.com/llir/llvm/ir"
	"github.com/llir/llvm/ir/enum"
	"github.com/llir/llvm/ir/types"
	"github.com/llir/llvm/ir/value"
)

// Dispatcher starts the function name of a dispatched export: the
// parameters of its variants (impls[0]'s), no unwinding. The target's
// Dispatcher fills the entry block it returns with the choice of a
// variant and ends it with Dispatch.
func (g *Module) Dispatcher(name string, impls []*llir.Func) (f *llir.Func, entry *llir.Block, args []value.Value) {
	var ps []*llir.Param
	for _, p := range impls[0].Params {
		q := llir.NewParam(p.Name(), p.Typ)
		ps = append(ps, q)
		args = append(args, q)
	}
	f = g.Out.NewFunc(name, types.I32, ps...)
	f.FuncAttrs = append(f.FuncAttrs, enum.FuncAttrNoUnwind)
	return f, f.NewBlock("entry"), args
}

// Dispatch ends a dispatcher's block b with a tail call of the chosen
// variant, returning its status.
func Dispatch(b *llir.Block, variant value.Value, args []value.Value) {
	call := b.NewCall(variant, args...)
	call.Tail = enum.TailTail
	b.NewRet(call)
}
