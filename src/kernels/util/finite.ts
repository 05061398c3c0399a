// Twin of assembly/util/mem.ts's isFiniteF64: true for finite numbers (NaN and +-Infinity fail
// because x - x is NaN for them). Every JS kernel validates with this one test.
export function isFiniteF64(x: number): boolean {
  return x - x === 0;
}
