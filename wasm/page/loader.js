// Loads the Go program (program.wasm) with the Go distribution's
// wasm_exec.js and runs it. The page's query parameters seed and backend
// become the program's XPU_SEED and XPU_BACKEND, and args (words split by
// spaces) its command-line arguments. The program reports on the page and
// through globalThis.xpu: {done, report, error, exitCode}; a program that
// leaves no report (a test binary) is done when it exits.
(async () => {
  const xpu = (globalThis.xpu = { done: false, report: null, error: null, exitCode: null });
  const show = (text, className) => {
    const s = document.getElementById("status");
    s.textContent = text;
    s.className = className;
  };
  try {
    const go = new Go();
    const params = new URLSearchParams(location.search);
    for (const [param, env] of [["seed", "XPU_SEED"], ["backend", "XPU_BACKEND"]]) {
      if (params.has(param)) go.env[env] = params.get(param);
    }
    if (params.has("args")) {
      go.argv = ["program.wasm", ...params.get("args").split(" ").filter((a) => a !== "")];
    }
    // At exit, disarm the Go runtime's pending timers: wasm_exec.js leaves
    // them armed, and one that fires after the exit throws "Go program has
    // already exited" (golang/go#72797).
    go.exit = (code) => {
      xpu.exitCode = code;
      for (const t of go._scheduledTimeouts.values()) clearTimeout(t);
      go._scheduledTimeouts.clear();
    };
    const { instance } = await WebAssembly.instantiateStreaming(fetch("program.wasm"), go.importObject);
    await go.run(instance);
    if (!xpu.done) {
      if (xpu.exitCode !== 0) xpu.error = "the Go program exited with code " + xpu.exitCode;
      xpu.done = true;
      show("The Go program exited with code " + xpu.exitCode + ".", xpu.exitCode === 0 ? "ok" : "bad");
    }
  } catch (e) {
    xpu.error = String(e && e.stack ? e.stack : e);
    xpu.done = true;
    show("Error: " + xpu.error, "bad");
  }
})();
