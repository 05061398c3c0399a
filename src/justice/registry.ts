// Allocators of the deadline mode, registered by name. The four of the paper are built in.
import { InputError, describeValue } from "../engine/errors.js";
import { NamedRegistry } from "../sim/named-registry.js";
import type { Allocator, AllocatorFactory, AllocatorOptions } from "./allocator.js";
import { baselineFsAllocator, reactiveFsAllocator } from "./allocators/fairshare.js";
import { justiceAllocator } from "./allocators/justice.js";
import { oracleAllocator } from "./allocators/oracle.js";

const allocators = new NamedRegistry<AllocatorFactory>("allocator");

export const registerAllocator = (f: AllocatorFactory): void => allocators.register(f);
export const getAllocator = (name: string): AllocatorFactory | undefined => allocators.get(name);
export const allocatorNames = (): string[] => allocators.names();

/** Creates a registered allocator; unknown names are an InputError. */
export function createAllocator(name: string, opts: AllocatorOptions): Allocator {
  const f = allocators.get(name);
  if (!f) throw new InputError("allocator", `unknown allocator ${describeValue(name)} (known: ${allocatorNames().join(", ")})`);
  return f.create(opts);
}

for (const f of [justiceAllocator, baselineFsAllocator, reactiveFsAllocator, oracleAllocator]) registerAllocator(f);
