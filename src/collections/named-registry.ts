// A name -> item map (policies, scenarios, allocators). The built-in items are passed to the
// constructor (an explicit list, no registration by import side effect); `register` adds a
// user's own (plugins). Registering a name twice is a programming error; looking up an unknown
// name is the caller's to report.
import { InputError, describeValue } from "../errors.js";

export class NamedRegistry<T extends { readonly name: string }> {
  private readonly items = new Map<string, T>();
  constructor(private readonly kind: string, builtins: Iterable<T> = []) {
    for (const item of builtins) this.register(item);
  }

  register(item: T): void {
    if (item === null || typeof item !== "object" || typeof item.name !== "string" || item.name === "") {
      throw new InputError(this.kind, `expected a ${this.kind} with a non-empty string name, got ${describeValue(item)}`);
    }
    if (this.items.has(item.name)) throw new Error(`${this.kind} '${item.name}' is registered twice`);
    this.items.set(item.name, item);
  }

  get(name: string): T | undefined {
    return this.items.get(name);
  }

  names(): string[] {
    return [...this.items.keys()];
  }

  list(): T[] {
    return [...this.items.values()];
  }
}
