package wasm_test

import (
	"io"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/goxpu/xpu/wasm"
)

// TestHandler checks what the site serves, without building: the page and
// the loader from the package, the program and wasm_exec.js from the
// folder, nothing else, and never for caching.
func TestHandler(t *testing.T) {
	dir := t.TempDir()
	for name, data := range map[string]string{"program.wasm": "\x00asm", "wasm_exec.js": "// go"} {
		if err := os.WriteFile(filepath.Join(dir, name), []byte(data), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	srv := httptest.NewServer(wasm.Handler(dir))
	defer srv.Close()
	for _, tc := range []struct {
		path, status, typ, body string
	}{
		{"/", "200 OK", "text/html", "loader.js"},
		{"/?seed=1", "200 OK", "text/html", "wasm_exec.js"},
		{"/loader.js", "200 OK", "text/javascript", "program.wasm"},
		{"/wasm_exec.js", "200 OK", "text/javascript", "// go"},
		{"/program.wasm", "200 OK", "application/wasm", "\x00asm"},
		{"/index.html", "404 Not Found", "", ""},
		{"/build.go", "404 Not Found", "", ""},
		{"/page/loader.js", "404 Not Found", "", ""},
	} {
		resp, err := http.Get(srv.URL + tc.path)
		if err != nil {
			t.Fatal(err)
		}
		body, _ := io.ReadAll(resp.Body)
		resp.Body.Close()
		if resp.Status != tc.status {
			t.Errorf("GET %s: %s, want %s", tc.path, resp.Status, tc.status)
			continue
		}
		if resp.StatusCode != 200 {
			continue
		}
		if typ := resp.Header.Get("Content-Type"); !strings.HasPrefix(typ, tc.typ) {
			t.Errorf("GET %s: Content-Type %q, want %s", tc.path, typ, tc.typ)
		}
		if cc := resp.Header.Get("Cache-Control"); cc != "no-store" {
			t.Errorf("GET %s: Cache-Control %q", tc.path, cc)
		}
		if !strings.Contains(string(body), tc.body) {
			t.Errorf("GET %s: body lacks %q", tc.path, tc.body)
		}
	}
}
