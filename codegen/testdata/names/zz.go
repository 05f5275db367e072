package names

// fooWGSL is the default name of Foo's WGSL constant, declared after the
// package was first generated, in a file that sorts after the generated
// file.
const fooWGSL = 3
