package frontend

// This file evaluates constant expressions with go/constant: the values of
// //xpu:instance fields, //xpu:requires clauses, and expressions over
// comptime fields in kernel bodies. Every operation is checked before
// go/constant sees it, so that no input makes it panic.

import (
	"errors"
	"fmt"
	"go/ast"
	"go/constant"
	"go/token"
	"go/types"
	"math"
)

// maxShift bounds constant shift counts, keeping values small.
const maxShift = 256

// constResolver gives the value of an identifier or a selector, or false.
type constResolver func(e ast.Expr) (constant.Value, bool)

// evalConst evaluates e with go/constant, resolving names through r.
func evalConst(e ast.Expr, r constResolver) (constant.Value, error) {
	switch e := e.(type) {
	case *ast.BasicLit:
		v := constant.MakeFromLiteral(e.Value, e.Kind, 0)
		if v.Kind() == constant.Unknown || v.Kind() == constant.String {
			return nil, fmt.Errorf("literal %s is not a number", e.Value)
		}
		return v, nil
	case *ast.ParenExpr:
		return evalConst(e.X, r)
	case *ast.Ident, *ast.SelectorExpr:
		if v, ok := r(e); ok {
			return v, nil
		}
		if id, ok := e.(*ast.Ident); ok {
			switch id.Name {
			case "true":
				return constant.MakeBool(true), nil
			case "false":
				return constant.MakeBool(false), nil
			}
		}
		return nil, fmt.Errorf("%s is not a constant", types.ExprString(e))
	case *ast.UnaryExpr:
		x, err := evalConst(e.X, r)
		if err != nil {
			return nil, err
		}
		return constUnary(e.Op, x)
	case *ast.BinaryExpr:
		x, err := evalConst(e.X, r)
		if err != nil {
			return nil, err
		}
		y, err := evalConst(e.Y, r)
		if err != nil {
			return nil, err
		}
		return constBinary(e.Op, x, y)
	case *ast.CallExpr:
		if id, ok := e.Fun.(*ast.Ident); ok && len(e.Args) == 1 && !e.Ellipsis.IsValid() {
			if tn, ok := types.Universe.Lookup(id.Name).(*types.TypeName); ok {
				if b, ok := tn.Type().(*types.Basic); ok {
					x, err := evalConst(e.Args[0], r)
					if err != nil {
						return nil, err
					}
					return convertConst(x, b)
				}
			}
		}
	}
	return nil, fmt.Errorf("%s is not a constant expression", types.ExprString(e))
}

// isNumeric reports whether v is an integer or floating-point constant.
func isNumeric(v constant.Value) bool {
	return v.Kind() == constant.Int || v.Kind() == constant.Float
}

// constUnary applies a unary operator.
func constUnary(op token.Token, x constant.Value) (constant.Value, error) {
	switch {
	case op == token.NOT && x.Kind() == constant.Bool,
		(op == token.ADD || op == token.SUB) && isNumeric(x),
		op == token.XOR && x.Kind() == constant.Int:
		return constant.UnaryOp(op, x, 0), nil
	}
	return nil, fmt.Errorf("operator %s does not apply to %v", op, x)
}

// constBinary applies a binary operator.
func constBinary(op token.Token, x, y constant.Value) (constant.Value, error) {
	bothBool := x.Kind() == constant.Bool && y.Kind() == constant.Bool
	bothNum := isNumeric(x) && isNumeric(y)
	bothInt := x.Kind() == constant.Int && y.Kind() == constant.Int
	switch op {
	case token.LAND, token.LOR:
		if bothBool {
			return constant.BinaryOp(x, op, y), nil
		}
	case token.EQL, token.NEQ:
		if bothBool || bothNum {
			return constant.MakeBool(constant.Compare(x, op, y)), nil
		}
	case token.LSS, token.LEQ, token.GTR, token.GEQ:
		if bothNum {
			return constant.MakeBool(constant.Compare(x, op, y)), nil
		}
	case token.SHL, token.SHR:
		if bothInt {
			s, exact := constant.Uint64Val(y)
			if !exact || s > maxShift {
				return nil, fmt.Errorf("shift count %v out of range", y)
			}
			return constant.Shift(x, op, uint(s)), nil
		}
	case token.ADD, token.SUB, token.MUL:
		if bothNum {
			return constant.BinaryOp(x, op, y), nil
		}
	case token.QUO:
		if bothNum {
			if constant.Sign(y) == 0 {
				return nil, errors.New("division by zero")
			}
			if bothInt {
				op = token.QUO_ASSIGN // integer division
			}
			return constant.BinaryOp(x, op, y), nil
		}
	case token.REM, token.AND, token.OR, token.XOR, token.AND_NOT:
		if bothInt {
			if op == token.REM && constant.Sign(y) == 0 {
				return nil, errors.New("division by zero")
			}
			return constant.BinaryOp(x, op, y), nil
		}
	}
	return nil, fmt.Errorf("operator %s does not apply to %v and %v", op, x, y)
}

// convertConst converts x to the basic type t, checking that it is
// representable.
func convertConst(x constant.Value, t *types.Basic) (constant.Value, error) {
	info := t.Info()
	switch {
	case info&types.IsBoolean != 0:
		if x.Kind() == constant.Bool {
			return x, nil
		}
	case info&types.IsInteger != 0:
		if !isNumeric(x) {
			break
		}
		v := constant.ToInt(x)
		if v.Kind() != constant.Int {
			return nil, fmt.Errorf("%v is not an integer", x)
		}
		if !fitsInt(v, t) {
			return nil, fmt.Errorf("%v overflows %s", x, t)
		}
		return v, nil
	case info&types.IsFloat != 0:
		if !isNumeric(x) {
			break
		}
		v := constant.ToFloat(x)
		f, _ := constant.Float64Val(v)
		if math.IsInf(f, 0) || t.Kind() == types.Float32 && math.Abs(f) > math.MaxFloat32 {
			return nil, fmt.Errorf("%v overflows %s", x, t)
		}
		return v, nil
	}
	return nil, fmt.Errorf("cannot convert %v to %s", x, t)
}

// fitsInt reports whether the integer constant v fits the integer type t.
func fitsInt(v constant.Value, t *types.Basic) bool {
	if v.Kind() != constant.Int {
		return false
	}
	lo, hi := int64(math.MinInt64), uint64(math.MaxInt64)
	switch t.Kind() {
	case types.Int8:
		lo, hi = math.MinInt8, math.MaxInt8
	case types.Int16:
		lo, hi = math.MinInt16, math.MaxInt16
	case types.Int32, types.UntypedRune:
		lo, hi = math.MinInt32, math.MaxInt32
	case types.Uint8:
		lo, hi = 0, math.MaxUint8
	case types.Uint16:
		lo, hi = 0, math.MaxUint16
	case types.Uint32:
		lo, hi = 0, math.MaxUint32
	case types.Uint, types.Uint64, types.Uintptr:
		lo, hi = 0, math.MaxUint64
	}
	if constant.Sign(v) < 0 {
		n, exact := constant.Int64Val(v)
		return exact && n >= lo
	}
	n, exact := constant.Uint64Val(v)
	return exact && n <= hi
}
