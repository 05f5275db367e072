package wasm

import (
	"embed"
	"io/fs"
	"net/http"
	"path/filepath"
)

//go:embed page
var page embed.FS

// Handler serves a site: the page (index.html) and the loader from this
// package, and the program and wasm_exec.js that [Build] put in dir. It
// tells browsers not to cache, so a rebuilt program is always the one run.
func Handler(dir string) http.Handler {
	pageFS, _ := fs.Sub(page, "page") // the folder is embedded: no error
	pages := http.FileServerFS(pageFS)
	mux := http.NewServeMux()
	mux.Handle("GET /{$}", pages)
	mux.Handle("GET /loader.js", pages)
	for _, name := range []string{programFile, wasmExecFile} {
		mux.HandleFunc("GET /"+name, func(w http.ResponseWriter, r *http.Request) {
			http.ServeFile(w, r, filepath.Join(dir, name))
		})
	}
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Cache-Control", "no-store")
		mux.ServeHTTP(w, r)
	})
}
