// Command serve builds a Go program to WebAssembly (by default the demo,
// wasm/demo) and serves it with xpu's page and loader:
//
//	go run ./wasm/serve [-addr 127.0.0.1:8080] [-pkg ./wasm/demo]
//
// Open the printed address in a browser with WebGPU; the page's query
// parameters seed and backend set the program's XPU_SEED and XPU_BACKEND
// (e.g. ?backend=cpu).
package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"log"
	"net"
	"net/http"
	"os"
	"os/signal"
	"syscall"

	"github.com/goxpu/xpu/wasm"
)

func main() {
	addr := flag.String("addr", "127.0.0.1:8080", "address to listen on")
	pkg := flag.String("pkg", wasm.Demo, "main package to build to wasm")
	flag.Parse()
	if err := serve(*addr, *pkg); err != nil {
		log.Fatal(err)
	}
}

func serve(addr, pkg string) error {
	// SIGTERM too: a terminated server must remove its folder as an
	// interrupted one does, not die with it left behind.
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	dir, err := os.MkdirTemp("", "xpu-wasm-")
	if err != nil {
		return err
	}
	defer os.RemoveAll(dir)
	log.Printf("building %s for js/wasm", pkg)
	if err := wasm.Build(ctx, pkg, dir); err != nil {
		return err
	}
	ln, err := net.Listen("tcp", addr)
	if err != nil {
		return err
	}
	srv := &http.Server{Handler: wasm.Handler(dir)}
	go func() {
		<-ctx.Done()
		srv.Close()
	}()
	fmt.Printf("serving %s on http://%s/\n", pkg, ln.Addr())
	if err := srv.Serve(ln); !errors.Is(err, http.ErrServerClosed) {
		return err
	}
	return nil
}
