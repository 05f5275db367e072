// Command hello is the smallest program serve builds, for its tests.
package main

func main() {}
