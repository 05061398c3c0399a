// Queue order "fifo-queues" (Sparrow, Hawk): queues keep arrival order and are never reordered.
import type { NodePlugin } from "../node/plugin.js";

export const fifoQueues: NodePlugin = {
  name: "fifo-queues",
  fills: ["queueOrder"],
  build: () => ({ queueOrder: { mode: () => 0, key: () => 0, score: () => 0 } }),
};
