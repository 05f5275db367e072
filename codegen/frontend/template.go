package frontend

// This file evaluates templates: the comptime values of //xpu:instance
// members and their //xpu:requires clauses.

import (
	"fmt"
	"go/ast"
	"go/constant"
	"go/token"
	"go/types"

	"github.com/goxpu/xpu/codegen/ir"
)

// packageConst resolves identifiers to the constants of the package.
func (c *checker) packageConst(e ast.Expr) (constant.Value, bool) {
	id, ok := e.(*ast.Ident)
	if !ok {
		return nil, false
	}
	k, ok := c.pkg.Scope().Lookup(id.Name).(*types.Const)
	if !ok || k.Val().Kind() == constant.Unknown || k.Val().Kind() == constant.String {
		return nil, false
	}
	return k.Val(), true
}

// instanceValues evaluates the fields of an //xpu:instance literal.
func (c *checker) instanceValues(in *instanceDirective, t *types.Named) (map[string]constant.Value, bool) {
	st, _ := t.Underlying().(*types.Struct)
	if id, ok := in.lit.Type.(*ast.Ident); !ok || id.Name != t.Obj().Name() || st == nil {
		c.errorf(at(in.base, in.lit.Type.Pos()), RuleDirective, "instance %s: literal type %s is not the comptime type %s",
			in.name, types.ExprString(in.lit.Type), t.Obj().Name())
		return nil, false
	}
	fieldTypes := make(map[string]*types.Basic)
	vals := make(map[string]constant.Value)
	ok := true
	for f := range st.Fields() {
		b, isBasic := f.Type().Underlying().(*types.Basic)
		if !isBasic || b.Info()&(types.IsBoolean|types.IsNumeric) == 0 || b.Info()&types.IsComplex != 0 {
			c.errorf(in.pos, RuleDirective, "comptime field %s has type %s; comptime fields are booleans or numbers", f.Name(), f.Type())
			return nil, false
		}
		fieldTypes[f.Name()] = b
		switch {
		case b.Info()&types.IsBoolean != 0:
			vals[f.Name()] = constant.MakeBool(false)
		case b.Info()&types.IsFloat != 0:
			vals[f.Name()] = constant.MakeFloat64(0)
		default:
			vals[f.Name()] = constant.MakeInt64(0)
		}
	}
	seen := make(map[string]bool)
	for _, el := range in.lit.Elts {
		kv, isKV := el.(*ast.KeyValueExpr)
		var key *ast.Ident
		if isKV {
			key, _ = kv.Key.(*ast.Ident)
		}
		if key == nil || fieldTypes[key.Name] == nil || seen[key.Name] {
			c.errorf(at(in.base, el.Pos()), RuleDirective, "instance %s: want Field: value with a distinct field of %s, got %s",
				in.name, t.Obj().Name(), types.ExprString(el))
			ok = false
			continue
		}
		seen[key.Name] = true
		v, err := evalConst(kv.Value, c.packageConst)
		if err == nil {
			v, err = convertConst(v, fieldTypes[key.Name])
		}
		if err != nil {
			c.errorf(at(in.base, kv.Value.Pos()), RuleDirective, "instance %s: field %s: %v", in.name, key.Name, err)
			ok = false
			continue
		}
		vals[key.Name] = v
	}
	return vals, ok
}

// requiresHold evaluates the requires clauses for member; a false clause
// refuses the member (a Module.Refused entry), an invalid one is an error.
func (c *checker) requiresHold(member string, d *directives, ct *comptime, param string, p token.Pos) bool {
	resolve := c.comptimeResolver(ct, param)
	for _, r := range d.requires {
		v, err := evalConst(r.expr, resolve)
		if err == nil && v.Kind() != constant.Bool {
			err = fmt.Errorf("the clause is %v, not a boolean", v)
		}
		if err != nil {
			c.errorf(r.base, RuleRequires, "requires %s: %v", r.text, err)
			return false
		}
		if !constant.BoolVal(v) {
			ref := &ir.Refusal{
				Name:   member,
				Reason: fmt.Sprintf("[%s] %s: requires %s is false", RuleRequires, member, r.text),
				Pos:    c.pos(p),
			}
			if ct != nil {
				ref.Comptime = ct.lit
			}
			c.mod.Refused = append(c.mod.Refused, ref)
			return false
		}
	}
	return true
}

// comptimeResolver resolves param.Field to the field of ct (nil for a
// plain kernel) and identifiers to the constants of the package.
func (c *checker) comptimeResolver(ct *comptime, param string) constResolver {
	return func(e ast.Expr) (constant.Value, bool) {
		if sel, ok := e.(*ast.SelectorExpr); ok && ct != nil {
			if id, ok := sel.X.(*ast.Ident); ok && id.Name == param && param != "_" {
				v, _, ok := ct.field(sel.Sel.Name)
				return v, ok
			}
		}
		return c.packageConst(e)
	}
}

// shape evaluates the block dimensions and wave width that //xpu:kernel
// writes as expressions, for member (a template member, or a plain kernel
// reading package constants). A value out of range is an error of the
// directive naming the member, not a refusal of the member: requires
// clauses say which members a template admits, and the shape of an
// admitted member must be one a device can run.
func (c *checker) shape(member string, d *directives, ct *comptime, param string) (block [3]uint32, wave uint32, ok bool) {
	block, wave, ok = d.block, d.wave, true
	resolve := c.comptimeResolver(ct, param)
	// eval gives the value of x, saturated at maxBlock+1 (past every
	// range below), and its exact text for the messages.
	eval := func(x *shapeExpr, what string) (uint64, string, bool) {
		v, err := evalConst(x.expr, resolve)
		if err == nil {
			v = constant.ToInt(v)
			if v.Kind() != constant.Int {
				err = fmt.Errorf("%s is no integer", x.text)
			}
		}
		if err != nil {
			c.errorf(x.base, RuleDirective, "%s: %s %s: %v", member, what, x.text, err)
			return 0, "", false
		}
		if constant.Sign(v) < 0 {
			return 0, v.String(), true
		}
		n, exact := constant.Uint64Val(v)
		if !exact || n > maxBlock {
			n = maxBlock + 1
		}
		return n, v.String(), true
	}
	n := uint64(1)
	var dims [3]string // the block as written in the message
	for i, x := range d.blockExpr {
		dims[i] = fmt.Sprint(block[i])
		if x == nil {
			continue
		}
		v, text, good := eval(x, "block size")
		if good && v == 0 {
			c.errorf(x.base, RuleDirective, "%s: block size %s is %s, not a positive integer", member, x.text, text)
			good = false
		}
		if !good {
			ok, v = false, 1
		}
		block[i], dims[i] = uint32(v), text
	}
	for _, b := range block {
		// Saturating, so that three 32-bit sizes cannot wrap around.
		n = min(n*uint64(b), maxBlock+1)
	}
	if n > maxBlock && ok {
		c.errorf(d.pos, RuleDirective, "%s: block %sx%sx%s exceeds %d work-items", member, dims[0], dims[1], dims[2], maxBlock)
		ok = false
	}
	if x := d.waveExpr; x != nil {
		v, text, good := eval(x, "wave width")
		if good && (v < 4 || v > 64 || v&(v-1) != 0) {
			c.errorf(x.base, RuleDirective, "%s: wave width %s is %s, not a power of two from 4 to 64", member, x.text, text)
			good = false
		}
		if !good {
			return block, 0, false
		}
		wave = uint32(v)
	}
	return block, wave, ok
}
