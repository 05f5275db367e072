package main

import (
	"fmt"
	"html"
	"maps"
	"slices"
	"strings"
)

// status returns the one-line status of r and its class on the page:
// "" while running, "ok", "warn" (fell back to the CPU) or "bad".
func status(r *Report) (string, string) {
	if r.Backend == "" {
		if r.Error != "" {
			return "No device: " + r.Error, "bad"
		}
		return "Opening a device…", ""
	}
	where := string(r.Backend)
	if r.Device.Name != "" {
		where += " (" + r.Device.Name + ")"
	}
	total, failed := 0, 0
	for _, s := range r.Suites {
		for _, o := range s.Outcomes {
			total++
			if !o.OK() {
				failed++
			}
		}
	}
	switch {
	case r.Error != "":
		return "Stopped on " + where + ": " + r.Error, "bad"
	case !r.Done:
		return fmt.Sprintf("Running on %s: %d cases checked…", where, total), ""
	case failed > 0:
		return fmt.Sprintf("%d of %d cases differ from the reference runner on %s.", failed, total, where), "bad"
	case r.Fallback != "":
		return fmt.Sprintf("No WebGPU here, so xpu ran on the CPU backend: all %d cases match the reference runner on %s.", total, where), "warn"
	}
	return fmt.Sprintf("All %d cases match the reference runner on %s.", total, where), "ok"
}

// renderHTML renders r's details (the status line apart) as HTML.
func renderHTML(r *Report) string {
	var b strings.Builder
	esc := html.EscapeString
	if r.Fallback != "" {
		fmt.Fprintf(&b, "<p>WebGPU: %s</p>", esc(r.Fallback))
	}
	if r.Backend != "" {
		b.WriteString(`<h2>Device</h2><table class="facts">`)
		row := func(k, v string) {
			if v != "" {
				fmt.Fprintf(&b, "<tr><td>%s</td><td>%s</td></tr>", esc(k), esc(v))
			}
		}
		d := r.Device
		row("backend", string(r.Backend))
		row("name", d.Name)
		row("driver", d.Driver)
		row("type", d.Type)
		if d.Software != "" {
			row("software", d.Software)
		}
		l := d.Limits
		if l.SubgroupMax > 0 {
			row("subgroup size", fmt.Sprintf("%d – %d", l.SubgroupMin, l.SubgroupMax))
		}
		row("invocations per block", count(uint64(l.MaxInvocationsPerBlock)))
		row("shared memory per block", bytes(uint64(l.MaxSharedBytes)))
		row("storage buffers per kernel", count(uint64(l.MaxStorageBuffers)))
		row("largest buffer", bytes(l.MaxBufferBytes))
		for _, k := range slices.Sorted(maps.Keys(d.Facts)) {
			row(k, d.Facts[k])
		}
		fmt.Fprintf(&b, "<tr><td>seed</td><td>%d</td></tr></table>", r.Seed)
	}
	for _, s := range r.Suites {
		fmt.Fprintf(&b, "<h2>%s suite: device against the reference runner</h2><div class=\"cases\">", esc(s.Name))
		for _, o := range s.Outcomes {
			label := o.Case
			if w, ok := s.Waves[o.Case]; ok {
				label = fmt.Sprintf("%s · %s %d", o.Case, w.Tier, w.Width)
			}
			fmt.Fprintf(&b, `<div class="case %s" title="%s, %.1f ms">%s</div>`,
				esc(string(o.Status)), esc(string(o.Status)), float64(o.Elapsed.Microseconds())/1e3, esc(label))
		}
		b.WriteString("</div>")
		for _, o := range s.Outcomes {
			if o.Error != "" || o.Known != "" {
				fmt.Fprintf(&b, "<pre>%s (%s) %s\n%s</pre>", esc(o.Case), esc(string(o.Status)), esc(o.Known), esc(o.Error))
			}
		}
	}
	if len(r.Bench) > 0 {
		b.WriteString(`<h2>Benchmark</h2><table><tr><th>kernel</th><th>device</th><th>reference</th><th>ratio</th><th></th><th>against</th></tr>`)
		for _, x := range r.Bench {
			fmt.Fprintf(&b, `<tr><td>%s</td><td class="num">%.2f</td><td class="num">%.2f</td><td class="num">%.2f×</td><td>%s</td><td>%s</td></tr>`,
				esc(x.Name), x.Device, x.Reference, x.Device/x.Reference, esc(x.Unit), esc(x.Against))
		}
		b.WriteString("</table>")
		var notes []string
		for _, x := range r.Bench {
			if x.Note != "" && !slices.Contains(notes, x.Note) {
				notes = append(notes, x.Note)
				fmt.Fprintf(&b, `<p class="sub">%s</p>`, esc(x.Note))
			}
		}
	}
	if len(r.Tune) > 0 {
		b.WriteString(`<h2>Tuning: the SGEMM member per shape, measured on this device</h2><table><tr><th>shape</th><th>bucket</th><th>chosen</th><th>how</th><th>survivors (µs per launch)</th></tr>`)
		for _, t := range r.Tune {
			if t.Error != "" {
				fmt.Fprintf(&b, `<tr><td>%s</td><td colspan="4">%s</td></tr>`, esc(t.Shape), esc(t.Error))
				continue
			}
			var surv []string
			for _, s := range t.Survivors {
				if m, ok := t.Medians[s]; ok {
					s = fmt.Sprintf("%s %.0f", s, m)
				}
				surv = append(surv, s)
			}
			fmt.Fprintf(&b, `<tr><td>%s</td><td>%s</td><td>%s</td><td>%s, lead %.1f%%, %.0f ms; again: %s</td><td>%s</td></tr>`,
				esc(t.Shape), esc(t.Key), esc(t.Chosen), esc(t.Source), 100*t.Margin, t.CostMS, esc(t.Again), esc(strings.Join(surv, ", ")))
		}
		b.WriteString("</table>")
	}
	return b.String()
}

// count spells a limit, or "" when it is absent.
func count(n uint64) string {
	if n == 0 {
		return ""
	}
	return fmt.Sprint(n)
}

// bytes spells a size in bytes with a binary unit, or "" when absent.
func bytes(n uint64) string {
	switch {
	case n == 0:
		return ""
	case n >= 1<<30 && n%(1<<30) == 0:
		return fmt.Sprintf("%d GiB", n>>30)
	case n >= 1<<20 && n%(1<<20) == 0:
		return fmt.Sprintf("%d MiB", n>>20)
	case n >= 1<<10 && n%(1<<10) == 0:
		return fmt.Sprintf("%d KiB", n>>10)
	}
	return fmt.Sprintf("%d bytes", n)
}
