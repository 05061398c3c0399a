// An allocator or policy under test that throws a Proxy, throws an error whose `message` getter
// throws, returns a row with a throwing getter, or answers BigInts: each is a finding on a shrunk
// input with a safe description of what was thrown or returned (src/testkit/format.ts), never an
// escape reported as "Error: ... (not shrunk)" without its input.
import { describe, expect, it } from "vitest";
import { loadEngineSync } from "../../src/engine/load.js";
import { DrfPolicy } from "../../src/policies/drf.js";
import type { Policy } from "../../src/policy/policy.js";
import { checkAllocator, checkPolicy, type Allocator } from "../../src/testkit/index.js";
import { describeReturned, describeThrown } from "../../src/testkit/format.js";

const engine = loadEngineSync();
const hostileProxy = () => new Proxy({}, { get() { throw new Error("trap"); }, getPrototypeOf() { throw new Error("trap"); }, ownKeys() { throw new Error("trap"); } });
class UnreadableError extends Error {
  override get message(): string { throw new Error("getter"); }
}

const cases: Array<[string, Allocator, RegExp]> = [
  ["throws a Proxy", () => { throw hostileProxy(); }, /^the allocator threw: a value that cannot be read \(a Proxy threw\) \(input: \{/],
  ["throws an error whose message getter throws", () => { throw new UnreadableError(); }, /^the allocator threw: Error whose message cannot be read \(its getter threw\) \(input: \{/],
  ["returns a row with a throwing getter", (s) => s.demands.map((d) => { const row = d.map(() => 0); Object.defineProperty(row, 0, { get() { throw new Error("row getter"); } }); return row; }), /^the allocator's answer cannot be read: reading it threw: row getter \(input: \{/],
  ["answers BigInts", (s) => s.demands.map((d) => d.map(() => 0n)) as unknown as number[][], /^the allocator gave queue 0 the BigInt 0n of resource 0, expected a finite number \(input: \{/],
];

describe("hostile allocators are findings with their input", () => {
  for (const [what, allocate, message] of cases) {
    it(`an allocator that ${what}`, async () => {
      const r = await checkAllocator(allocate, { axioms: ["pareto-efficiency", "sharing-incentive"], runs: 20, seed: 3, engine });
      expect(r.failed).toEqual(["pareto-efficiency", "sharing-incentive"]);
      for (const a of r.axioms) {
        expect(a.message).toMatch(message);
        expect(a.message).not.toMatch(/not shrunk/);
        expect(a.counterexample?.input.state.demands.length).toBeGreaterThan(0);
        // shrunk: fast-check's smallest state has one queue and one resource
        expect(a.counterexample?.input.state.demands).toHaveLength(1);
      }
    });
  }
});

describe("hostile policies are findings on their workload", () => {
  it("a policy that throws an error whose message getter throws, or a Proxy", () => {
    for (const [thrown, said] of [[() => new UnreadableError(), "Error whose message cannot be read (its getter threw)"], [hostileProxy, "a value that cannot be read (a Proxy threw)"]] as const) {
      const make = () => {
        const p: Policy = new DrfPolicy();
        p.shares = () => { throw thrown(); };
        return p;
      };
      const r = checkPolicy(make, { checks: ["jobs-accounted"], runs: 10, seed: 4, engine });
      expect(r.failed).toEqual(["jobs-accounted"]);
      expect(r.checks[0].message).toBe(`the run failed: ${said}`);
      expect(r.checks[0].counterexample?.jobs.length).toBeGreaterThan(0);
    }
  });
});

describe("the descriptions never throw", () => {
  it("describes numbers, BigInts, strings, cycles, Proxies and errors", () => {
    const cycle: Record<string, unknown> = {};
    cycle.self = cycle;
    expect(describeReturned(0n)).toBe("the BigInt 0n");
    expect(describeReturned([1n, 2])).toBe('["1n",2]');
    expect(describeReturned(cycle)).toBe("an object that cannot be read (a getter or Proxy threw)");
    expect(describeReturned(hostileProxy())).toBe("an object that cannot be read (a getter or Proxy threw)");
    expect(describeReturned("x".repeat(500))).toHaveLength(205);
    expect(describeThrown(new RangeError("bad"))).toBe("RangeError: bad");
    expect(describeThrown(new Error("plain"))).toBe("plain");
    expect(describeThrown(new UnreadableError())).toBe("Error whose message cannot be read (its getter threw)");
    expect(describeThrown(hostileProxy())).toBe("a value that cannot be read (a Proxy threw)");
  });
});
