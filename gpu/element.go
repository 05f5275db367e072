package gpu

import (
	"fmt"
	"reflect"
	"sync"
)

// element describes a buffer element type: a 32-bit scalar, or a struct
// (or array) built only of them, whose Go layout equals its std430 layout.
type element struct {
	name string // reflect.Type.String, as Param.Type spells it
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
	e := &element{name: t.String(), size: int(t.Size())}
	if why := layoutProblem(t); why != "" {
		e.err = fmt.Errorf("gpu: buffer element %s: %s: %w", t, why, ErrType)
	}
	actual, _ := elements.LoadOrStore(t, e)
	return actual.(*element)
}

// layoutProblem returns why t cannot be a buffer element, or "".
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
	return fmt.Sprintf("%s is not a 32-bit scalar (int32, uint32, float32) or a struct of them", t.Kind())
}
