// Allocators of the deadline mode by name: the four of the paper are built in (an explicit list);
// registerAllocator adds a user's own.
import { InputError, describeValue } from "../errors.js";
import { NamedRegistry } from "../collections/named-registry.js";
import type { Allocator, AllocatorFactory, AllocatorOptions } from "./allocator.js";
import { baselineFsAllocator, reactiveFsAllocator } from "./allocators/fairshare.js";
import { justiceAllocator } from "./allocators/justice.js";
import { oracleAllocator } from "./allocators/oracle.js";

/** The built-in allocators, in the order the justice scenario runs them by default. */
export const BUILTIN_ALLOCATORS: readonly AllocatorFactory[] = [justiceAllocator, baselineFsAllocator, reactiveFsAllocator, oracleAllocator];

const allocators = new NamedRegistry<AllocatorFactory>("allocator", BUILTIN_ALLOCATORS);

export const registerAllocator = (f: AllocatorFactory): void => allocators.register(f);
export const getAllocator = (name: string): AllocatorFactory | undefined => allocators.get(name);
export const allocatorNames = (): string[] => allocators.names();
export const listAllocators = (): AllocatorFactory[] => allocators.list();

/** Creates a registered allocator; unknown names are an InputError. */
export function createAllocator(name: string, opts: AllocatorOptions): Allocator {
  const f = allocators.get(name);
  if (!f) throw new InputError("allocator", `unknown allocator ${describeValue(name)} (known: ${allocatorNames().join(", ")})`);
  return f.create(opts);
}
