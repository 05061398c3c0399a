// `fairsched allocate` (src/cli/allocate.ts): unknown keys named, usage above capacity refused,
// M-BVT gives queues with demand a non-zero allocation, task-level policies a one-line reason.
import { describe, expect, it } from "vitest";
import { allocate } from "../../src/cli/allocate.js";
import { loadEngineSync } from "../../src/engine/load.js";
import { InputError } from "../../src/errors.js";
import { policyNames } from "../../src/sim/registry.js";

const engine = loadEngineSync();
const state = { capacity: [9, 18], queues: [{ name: "A", demand: [9, 36] }, { name: "B", demand: [27, 9] }] };
const fieldOf = (f: () => unknown) => { try { f(); } catch (e) { return (e as InputError).field; } return null; };

describe("fairsched allocate", () => {
  it("unknown keys are errors naming them", () => {
    expect(fieldOf(() => allocate("drf", { ...state, capacty: [1] }, engine))).toBe("capacty");
    expect(fieldOf(() => allocate("drf", { ...state, queues: [{ name: "A", demnd: [1, 1] }] }, engine))).toBe("queues[0].demnd");
  });
  it("usage above capacity is refused", () => {
    const q = [{ name: "A", demand: [9, 18], usage: [6, 10] }, { name: "B", demand: [9, 18], usage: [6, 2] }];
    expect(fieldOf(() => allocate("drf", { capacity: [9, 18], queues: q }, engine))).toBe("queues[*].usage[0]");
  });
  it("every listed policy answers or gives a one-line reason", () => {
    for (const p of policyNames()) {
      let out: Record<string, unknown> | null = null;
      try { out = allocate(p, state, engine); } catch (e) {
        expect(e).toBeInstanceOf(InputError);
        expect((e as Error).message).not.toMatch(/\n/);
        continue;
      }
      const qs = out!.queues as Array<{ dominantShare: number }>;
      expect(qs.some((q) => q.dominantShare > 0), `${p} gives every queue nothing`).toBe(true);
    }
  });
});
