// Package tune chooses, per device and problem, which member of a kernel
// family to launch. A family is kernels that solve one problem, as a
// rule a template's members (gpu.Template); its problem key buckets the
// problems that share one choice. Choosing runs three stages:
//
//   - the feasibility filter ([Filter]): each member's facts, from the
//     device's view of its code (threads, shared, uniform and register
//     bytes, storage buffers, spills, wave width and tier), against the
//     device's limits at the problem's exact shape; every member it
//     prunes keeps a [Verdict] with its rule, need and limit, and a
//     problem no member fits is refused by a [*RefusalError] that lists
//     them all, never run by a fallback;
//   - the measured choice ([Choose]): one survivor is taken outright;
//     several are timed by the family's probe, a burst of real launches
//     at the problem's shape, in interleaved rounds, and the fastest
//     median wins;
//   - the [Store]: the winner is remembered in one small file per
//     device, family and problem bucket, under a build id of every
//     survivor's code, so that a later process reads its choice instead
//     of timing, and a rebuild that changes any candidate measures again.
//
// [Tuner.Pays] answers a binary question (does variant A beat B on this
// device) by the same measurement and store.
//
// Layering: tune is above the runtime and below the kernel library. It
// imports xpu, gpu and schema, never codegen or a driver; package gpu
// knows nothing of it. Device facts come from the runtime (gpu.Device's
// limits and device view of a manifest), never from a table of parts.
package tune
