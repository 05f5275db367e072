package gpu

import (
	"fmt"
	"reflect"
	"sync"

	"github.com/goxpu/xpu/schema"
)

// element describes a buffer element type: a 32-bit scalar, or a struct
// (or array) built only of them, whose Go layout equals its std430 layout,
// or an 8- or 16-bit integer (which WGSL packs into 32-bit words, so
// WebGPU buffers of them are allocated in whole words).
type element struct {
	name schema.TypeName // as Param.Type names it
	size int
	err  error
}

var elements sync.Map // reflect.Type -> *element

// elementOf returns the description of T, checked once per type.
func elementOf[T any]() *element {
	t := reflect.TypeFor[T]()
	if e, ok := elements.Load(t); ok {
		return e.(*element)
	}
	e := &element{name: typeName(t), size: int(t.Size())}
	if why := layoutProblem(t); why != "" && !narrow(t) {
		e.err = fmt.Errorf("gpu: buffer element %s: %s: %w", t, why, ErrType)
	}
	actual, _ := elements.LoadOrStore(t, e)
	return actual.(*element)
}

// typeName names t as generated code names a parameter's type: by its
// package's import path and its name, or, for a predeclared or unnamed
// type, as Go spells it.
func typeName(t reflect.Type) schema.TypeName {
	if t.Name() == "" || t.PkgPath() == "" {
		return schema.TypeName{Name: t.String()}
	}
	return schema.TypeName{Pkg: t.PkgPath(), Name: t.Name()}
}

// narrow reports whether t is an 8- or 16-bit integer, a buffer element
// of its own but no part of a struct or array element.
func narrow(t reflect.Type) bool {
	switch t.Kind() {
	case reflect.Int8, reflect.Uint8, reflect.Int16, reflect.Uint16:
		return true
	}
	return false
}

// layoutProblem returns why t cannot be a buffer element, or "": t is
// checked as a part of one (a narrow integer is whole elements only).
func layoutProblem(t reflect.Type) string {
	switch t.Kind() {
	case reflect.Int32, reflect.Uint32, reflect.Float32:
		return ""
	case reflect.Struct:
		if t.NumField() == 0 {
			return "empty struct"
		}
		for i := range t.NumField() {
			f := t.Field(i)
			if why := layoutProblem(f.Type); why != "" {
				return fmt.Sprintf("field %s: %s", f.Name, why)
			}
		}
		return ""
	case reflect.Array:
		if t.Len() == 0 {
			return "empty array"
		}
		return layoutProblem(t.Elem())
	}
	if narrow(t) {
		return fmt.Sprintf("%s is a buffer element of its own, not a part of a struct or array element", t.Kind())
	}
	return fmt.Sprintf("%s is not a 32-bit scalar (int32, uint32, float32) or a struct of them", t.Kind())
}
