/** The error f throws; fails the test when it returns normally. */
export function caught(f: () => unknown): Error {
  try {
    f();
  } catch (e) {
    return e as Error;
  }
  throw new Error("expected a throw");
}
