// Package hostkernels holds the kernels the host lowering's tests build:
// each is loaded by the front end, lowered, compiled and run through the
// host contract, and run as Go by the reference runner, on the same
// inputs. It has no generated code.
package hostkernels
