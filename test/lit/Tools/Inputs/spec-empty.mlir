// A spec with nothing to compile (compile-errors.mlir).
func.func @nothing() {
  return
}
