// The InputError a call throws (the test fails if it throws nothing or something else).
import { expect } from "vitest";
import { InputError } from "../../src/errors.js";

export function inputErrorOf(f: () => unknown): InputError {
  try {
    f();
  } catch (e) {
    expect(e).toBeInstanceOf(InputError);
    return e as InputError;
  }
  throw new Error("expected an InputError");
}
