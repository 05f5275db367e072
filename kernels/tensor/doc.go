// Package tensor is the view of a device buffer that the kernel library
// and its dispatch registry share: a buffer, the format of its elements
// (an element type, or a block encoding such as GGUF's Q8_0), a shape,
// strides, and the layout class the registry selects kernels by.
//
// A Tensor is a value: it describes a buffer it does not own, and its
// accessors return copies. Its Descriptor, the format and layout class,
// is what a kernel declares it takes; the shape and strides are what a
// launch is sized by.
//
// Layering: tensor knows the runtime's buffers (package gpu) and no
// kernel; the library's packages and the registry import it.
package tensor
