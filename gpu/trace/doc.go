// Package trace is what a run reports of itself to a sink the program
// sets: the runtime's launches, host calls, submissions, waits and faults
// (package gpu, [gpu.Device.SetTrace]), and the kernel library's adapters,
// fallbacks and refusals (package kernels/dispatch), as [Event] values.
//
// [Chrome] writes events as Chrome trace-event JSON, which Perfetto and
// chrome://tracing open, one track per stream; [Read] reads such a file
// back and [DrawSVG] draws its tracks as a picture (`xpu trace`).
//
// A device without a sink pays one atomic load a launch and nothing else.
//
// Layering: trace imports only the standard library; gpu and the
// kernel library import it, so that both report to one sink.
package trace
