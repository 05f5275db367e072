package trace

// This file draws events as a picture: a track per stream of each device,
// time running right, a box per span coloured and labelled by its name
// without its import path, a mark per instant, and beneath them the
// names that took the most time.

import (
	"fmt"
	"hash/fnv"
	"html"
	"io"
	"path"
	"strings"
	"time"
)

const (
	svgWidth  = 1200 // pixels
	svgLeft   = 220  // the track labels' column
	svgTrack  = 28   // a track's height
	svgTop    = 40
	svgLegend = 8 // names listed under the tracks
)

// DrawSVG draws es as an SVG picture on w: one track per device and
// stream, in order of first appearance, over the span from the first
// event's start to the last one's end.
func DrawSVG(w io.Writer, es []Event) error {
	type track struct {
		device string
		stream int
	}
	var tracks []track
	row := map[track]int{}
	var t0, t1 time.Time
	for i, e := range es {
		k := track{e.Device, e.Stream}
		if _, ok := row[k]; !ok {
			row[k] = len(tracks)
			tracks = append(tracks, k)
		}
		if i == 0 || e.Start.Before(t0) {
			t0 = e.Start
		}
		if end := e.Start.Add(e.Dur); i == 0 || end.After(t1) {
			t1 = end
		}
	}
	span := max(t1.Sub(t0), time.Microsecond)
	scale := float64(svgWidth-svgLeft-20) / float64(span)
	x := func(t time.Time) float64 { return svgLeft + float64(t.Sub(t0))*scale }

	var b strings.Builder
	height := svgTop + len(tracks)*svgTrack + 40 + svgLegend*18
	fmt.Fprintf(&b, `<svg xmlns="http://www.w3.org/2000/svg" width="%d" height="%d" font-family="sans-serif" font-size="11">`+"\n", svgWidth, height)
	fmt.Fprintf(&b, `<rect width="100%%" height="100%%" fill="white"/>`+"\n")
	fmt.Fprintf(&b, `<text x="10" y="20" font-size="13">%d events over %v</text>`+"\n", len(es), span.Round(time.Microsecond))
	for i, k := range tracks {
		y := svgTop + i*svgTrack
		fill := "#f4f4f4"
		if i%2 == 1 {
			fill = "#ffffff"
		}
		fmt.Fprintf(&b, `<rect x="0" y="%d" width="%d" height="%d" fill="%s"/>`+"\n", y, svgWidth, svgTrack, fill)
		fmt.Fprintf(&b, `<text x="6" y="%d">%s</text>`+"\n", y+18, esc(clip(fmt.Sprintf("%s, stream %d", k.device, k.stream), 34)))
	}
	for _, e := range es {
		y := svgTop + row[track{e.Device, e.Stream}]*svgTrack
		x0 := x(e.Start)
		if !e.span() {
			fmt.Fprintf(&b, `<path d="M%.1f %d l-4 -7 h8 z" fill="%s"><title>%s</title></path>`+"\n", x0, y+svgTrack-2, instantColor(e.Kind), esc(e.Kind.String()+": "+e.Name+" "+e.Detail))
			continue
		}
		wd := max(float64(e.Dur)*scale, 0.5)
		label := shorten(e.label())
		fmt.Fprintf(&b, `<rect x="%.1f" y="%d" width="%.1f" height="%d" fill="%s"><title>%s</title></rect>`+"\n", x0, y+4, wd, svgTrack-8, color(label), esc(fmt.Sprintf("%s %s: %v %s", e.Kind, e.Name, e.Dur, e.Tier)))
		if wd > 7*float64(len(label)) {
			fmt.Fprintf(&b, `<text x="%.1f" y="%d" fill="white">%s</text>`+"\n", x0+3, y+18, esc(label))
		}
	}
	axis := svgTop + len(tracks)*svgTrack
	fmt.Fprintf(&b, `<line x1="%d" y1="%d" x2="%d" y2="%d" stroke="black"/>`+"\n", svgLeft, axis+2, svgWidth-20, axis+2)
	for i := 0; i <= 4; i++ {
		tx := svgLeft + i*(svgWidth-svgLeft-20)/4
		fmt.Fprintf(&b, `<text x="%d" y="%d" text-anchor="middle">%v</text>`+"\n", tx, axis+16, (span * time.Duration(i) / 4).Round(time.Microsecond))
	}
	ts := Totals(es)
	for i, t := range ts[:min(len(ts), svgLegend)] {
		y := axis + 40 + i*18
		fmt.Fprintf(&b, `<rect x="10" y="%d" width="12" height="12" fill="%s"/>`, y-10, color(shorten(t.Name)))
		fmt.Fprintf(&b, `<text x="28" y="%d">%s: %d, %v in all</text>`+"\n", y, esc(t.Name), t.Count, t.Time.Round(time.Microsecond))
	}
	b.WriteString("</svg>\n")
	_, err := io.WriteString(w, b.String())
	return err
}

// color is a stable colour of name, dark enough for white labels.
func color(name string) string {
	h := fnv.New32a()
	h.Write([]byte(name))
	return fmt.Sprintf("hsl(%d,55%%,42%%)", h.Sum32()%360)
}

func instantColor(k Kind) string {
	switch k {
	case Refusal, Fault:
		return "#c00000"
	case Fallback:
		return "#e08000"
	}
	return "#2060c0"
}

func clip(s string, n int) string {
	if r := []rune(s); len(r) > n {
		return string(r[:n-1]) + "…"
	}
	return s
}

func esc(s string) string { return html.EscapeString(s) }

// shorten drops the import path of a label's last word:
// "compile github.com/goxpu/xpu/kernels/nn.RMSNorm" is "compile nn.RMSNorm".
func shorten(label string) string {
	i := strings.LastIndex(label, " ") + 1
	return label[:i] + path.Base(label[i:])
}
