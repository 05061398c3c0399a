// The test-kit's last shrinking step: idle queues dropped while the case still fails, every
// queue index moved down with them (src/testkit/drop-idle-queues.ts).
import { describe, expect, it } from "vitest";
import { dropIdleQueues, withoutQueue } from "../../src/testkit/drop-idle-queues.js";
import type { AxiomInput } from "../../src/testkit/types.js";

const state = () => ({ capacity: [1, 2], demands: [[0, 0], [1, 1], [0, 0], [2, 0]], weights: [1, 2, 3, 4], offsets: [0, 0.1, 0.2, 0.3], tasks: [1, 2, 3, 4] });

describe("withoutQueue", () => {
  it("removes every per-queue field and moves the named queues down", () => {
    const input: AxiomInput = { state: state(), liar: 3, lies: [{ strategy: "random", report: [1, 0] }], permutation: [2, 0, 3, 1] };
    expect(withoutQueue(input, 0)).toEqual({
      state: { capacity: [1, 2], demands: [[1, 1], [0, 0], [2, 0]], weights: [2, 3, 4], offsets: [0.1, 0.2, 0.3], tasks: [2, 3, 4] },
      liar: 2, lies: [{ strategy: "random", report: [1, 0] }], permutation: [1, 2, 0],
    });
    expect(withoutQueue({ state: state(), leaving: 1 }, 2)).toMatchObject({ leaving: 1 });
    expect(input.state.demands).toHaveLength(4); // the input is left as it was
  });

  it("never removes the queue the axiom names", () => {
    expect(withoutQueue({ state: state(), liar: 2 }, 2)).toBeNull();
    expect(withoutQueue({ state: state(), leaving: 0 }, 0)).toBeNull();
  });
});

describe("dropIdleQueues", () => {
  it("drops each idle queue that leaves the case failing, down to minQueues", async () => {
    // fails while queue "liar" (the one demanding [2, 0]) exists and at least 2 queues are left
    const fails = async (x: AxiomInput) => (x.state.demands.length >= 2 && x.state.demands[x.liar!][0] === 2 ? `n=${x.state.demands.length}` : null);
    const out = await dropIdleQueues({ state: state(), liar: 3 }, "n=4", 1, fails);
    expect(out.input.state.demands).toEqual([[1, 1], [2, 0]]);
    expect(out.input.liar).toBe(1);
    expect(out.message).toBe("n=2");
    const floor = await dropIdleQueues({ state: state(), liar: 3 }, "n=4", 3, fails);
    expect(floor.input.state.demands).toHaveLength(3);
  });

  it("keeps an idle queue whose removal makes the case pass", async () => {
    const out = await dropIdleQueues({ state: state(), liar: 3 }, "m", 1, async (x) => (x.state.demands.length === 4 ? "m" : null));
    expect(out.input.state.demands).toHaveLength(4);
    expect(out.message).toBe("m");
  });
});
