// Issue 21 finding 15: `fairsched allocate`'s errors name the fields the user wrote
// (`queues[1].demand`), not the engine's arrays (`demands[1]`) the policy passed on.
import { describe, expect, it } from "vitest";
import { allocate } from "../../src/cli/allocate.js";
import { userField } from "../../src/cli/user-fields.js";
import { loadEngineSync } from "../../src/engine/load.js";
import { InputError } from "../../src/errors.js";
import { inputErrorOf } from "../helpers/input-error.js";

const engine = loadEngineSync();


describe("fairsched allocate: messages name the user's fields", () => {
  it("a demand beyond f64 precision names queues[i].demand (was demands[i])", () => {
    const e = inputErrorOf(() => allocate("drf", { capacity: [1e-300, 1], queues: [{ demand: [1, 1] }, { demand: [1e300, 1e-300] }] }, engine));
    expect(e.field).toBe("queues[1].demand");
    expect(e.message).toMatch(/^queues\[1\]\.demand: .*beyond f64 precision/);
    expect(e.message).not.toMatch(/demands\[/);
  });
  it("the mapping keeps indexes and leaves fields that are not per queue", () => {
    expect(userField("demands[3][1]")).toBe("queues[3].demand[1]");
    expect(userField("weights[0]")).toBe("queues[0].weight");
    expect(userField("usage[2]")).toBe("queues[2].usage");
    expect(userField("capacity[0]")).toBe("capacity[0]");
    expect(userField("queues[4].bursts")).toBe("queues[4].bursts");
  });
});
