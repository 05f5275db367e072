package dispatch

import (
	"cmp"
	"fmt"
	"maps"
	"slices"
	"strings"

	"github.com/goxpu/xpu/schema"
)

// matrixBackends are the support matrix's columns.
var matrixBackends = []schema.Backend{schema.BackendWebGPU, schema.BackendCPU, schema.BackendCUDA, schema.BackendHIP}

// Matrix renders what is registered as Markdown: a table of operation x
// operands x backend whose cells name the kernels that run there,
// highest priority first, then a table of the adapters. It fixes the
// registry's set as a lookup does.
func (r *Registry) Matrix() (string, error) {
	ks, err := r.Kernels()
	if err != nil {
		return "", err
	}
	as, err := r.Adapters()
	if err != nil {
		return "", err
	}
	type row struct {
		op, operands string
		cells        [][]*Kernel
	}
	rows := map[[2]string]*row{}
	for i := range ks {
		k := &ks[i]
		names := r.ops[k.Op].Operands
		parts := make([]string, len(k.Operands))
		for j, d := range k.Operands {
			parts[j] = names[j] + " " + d.String()
		}
		id := [2]string{k.Op, strings.Join(parts, ", ")}
		rw := rows[id]
		if rw == nil {
			rw = &row{op: id[0], operands: id[1], cells: make([][]*Kernel, len(matrixBackends))}
			rows[id] = rw
		}
		for j, b := range matrixBackends {
			if runsOn(k.Backends, b) {
				rw.cells[j] = append(rw.cells[j], k)
			}
		}
	}
	var b strings.Builder
	b.WriteString("| operation | operands |")
	for _, be := range matrixBackends {
		fmt.Fprintf(&b, " %s |", be)
	}
	b.WriteString("\n|---|---|" + strings.Repeat("---|", len(matrixBackends)) + "\n")
	for _, rw := range slices.SortedFunc(maps.Values(rows), func(x, y *row) int { return cmp.Or(cmp.Compare(x.op, y.op), cmp.Compare(x.operands, y.operands)) }) {
		fmt.Fprintf(&b, "| %s | %s |", rw.op, rw.operands)
		for _, c := range rw.cells {
			slices.SortStableFunc(c, func(x, y *Kernel) int { return int(y.Priority - x.Priority) })
			names := make([]string, len(c))
			for i, k := range c {
				names[i] = k.Name
			}
			if len(names) == 0 {
				names = []string{"—"}
			}
			fmt.Fprintf(&b, " %s |", strings.Join(names, ", "))
		}
		b.WriteString("\n")
	}
	if len(as) > 0 {
		b.WriteString("\n| adapter | from | to | kind | backends |\n|---|---|---|---|---|\n")
		slices.SortStableFunc(as, func(x, y Adapter) int {
			return cmp.Or(cmp.Compare(x.From.String(), y.From.String()), cmp.Compare(x.To.String(), y.To.String()))
		})
		for _, a := range as {
			fmt.Fprintf(&b, "| %s | %s | %s | %s | %s |\n", a.Name, a.From, a.To, a.Kind, backendsOf(a.Backends))
		}
	}
	return b.String(), nil
}
