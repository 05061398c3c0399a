// Raw linear-memory accessors. Hot loops use these instead of typed arrays so there are
// no bounds checks (--noAssert does not remove typed-array checks).
@inline export function ldf(base: usize, i: i32): f64 {
  return load<f64>(base + (<usize>i << 3));
}
@inline export function stf(base: usize, i: i32, v: f64): void {
  store<f64>(base + (<usize>i << 3), v);
}
@inline export function ldu(base: usize, i: i32): u32 {
  return load<u32>(base + (<usize>i << 2));
}
@inline export function stu(base: usize, i: i32, v: u32): void {
  store<u32>(base + (<usize>i << 2), v);
}
@inline export function ldb(base: usize, i: i32): u8 {
  return load<u8>(base + <usize>i);
}
@inline export function stb(base: usize, i: i32, v: u8): void {
  store<u8>(base + <usize>i, v);
}
/** Round a byte count up to a multiple of 8 so every region stays f64-aligned. */
@inline export function align8(bytes: usize): usize {
  return (bytes + 7) & ~(<usize>7);
}
/** True when x is a finite number (rejects NaN and +-Infinity). */
@inline export function isFiniteF64(x: f64): bool {
  return x - x == 0;
}
