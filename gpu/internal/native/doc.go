// Package native is the driver of the native GPU tiers once, over the
// calls both of their libraries give alike (HIP's runtime mirrors CUDA's
// driver API): gpu/cuda and gpu/hip each bind their library's symbols to
// a Library and embed a Device, which holds the devices' queues
// (streams), buffers, programs (modules and their entries), device
// timers (pairs of events), lost state and waits, and the kernel
// arguments of their common calling contract (schema/ptx.go, which
// schema/hsaco.go takes over). A driver keeps what differs (Driver):
// opening and binding its library, its device's facts under its own
// attribute numbers, its current context or device, its choice of
// artifact and the load of its module.
//
// Layering: imports the driver contract (gpu/driver), schema, xpu and the
// standard library; never a library binding (purego: the driver gives it
// the binding's calls, Symbols), the runtime or codegen.
package native
