// A merged sweep table's title is the cells' common title, not the first cell's.
import { describe, expect, it } from "vitest";
import { commonTitle } from "../../src/sweep/tables.js";

describe("commonTitle", () => {
  it("keeps an agreed title, else the shared beginning cut at a word and '(per cell)'", () => {
    expect(commonTitle(["Shares"])).toBe("Shares");
    expect(commonTitle(["Completion times: 1 LQ + 8 TQs (seed 1)", "Completion times: 1 LQ + 8 TQs (seed 2)"])).toBe("Completion times: 1 LQ + 8 TQs (per cell)");
    expect(commonTitle(["Completion times: 1 LQ + 2 TQs (seed 1)", "Completion times: 1 LQ + 8 TQs (seed 1)"])).toBe("Completion times: 1 LQ (per cell)");
    expect(commonTitle(["x1", "y2"])).toBe("per-cell tables");
  });
});
