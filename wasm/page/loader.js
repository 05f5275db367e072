// Loads the Go program (program.wasm) with the Go distribution's
// wasm_exec.js and runs it. The page's query parameters seed and backend
// become the program's XPU_SEED and XPU_BACKEND. The program reports on
// the page and through globalThis.xpu: {done, report, error}.
(async () => {
  const xpu = (globalThis.xpu = { done: false, report: null, error: null });
  const fail = (msg) => {
    xpu.error = String(msg);
    xpu.done = true;
    const s = document.getElementById("status");
    s.textContent = "Error: " + xpu.error;
    s.className = "bad";
  };
  try {
    const go = new Go();
    const params = new URLSearchParams(location.search);
    for (const [param, env] of [["seed", "XPU_SEED"], ["backend", "XPU_BACKEND"]]) {
      if (params.has(param)) go.env[env] = params.get(param);
    }
    const resp = fetch("program.wasm");
    const { instance } = await WebAssembly.instantiateStreaming(resp, go.importObject);
    await go.run(instance);
    if (!xpu.done) fail("the Go program exited without a report");
  } catch (e) {
    fail(e && e.stack ? e.stack : e);
  }
})();
