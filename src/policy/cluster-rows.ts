// The flat rows of a ClusterState: queue i's amount of resource r at i * k + r in `demands`,
// `pendings` and `usages` (what engine.drf reads without a copy), each queue's vectors as views
// into them, and `used`, the sum of every usage. The simulator's run state (src/sim/runtime.ts)
// and `fairsched allocate` (src/cli/allocate-shares.ts) build their cluster state on it.

/** A queue's vectors: views into the rows, so writing one writes the rows. */
export interface QueueRows {
  readonly demand: Float64Array;
  readonly pending: Float64Array;
  readonly usage: Float64Array;
}

export class ClusterRows {
  readonly k: number;
  readonly capacity: Float64Array;
  /** Sum of all usage, length k. */
  readonly used: Float64Array;
  /** Queue-major n * k: usage + pending of each queue. */
  readonly demands: Float64Array;
  readonly pendings: Float64Array;
  readonly usages: Float64Array;

  constructor(capacity: ArrayLike<number>, queues: number) {
    const k = capacity.length;
    this.k = k;
    this.capacity = Float64Array.from(capacity);
    this.used = new Float64Array(k);
    this.demands = new Float64Array(queues * k);
    this.pendings = new Float64Array(queues * k);
    this.usages = new Float64Array(queues * k);
  }

  /** Queue i's demand, pending and usage vectors. */
  rowsOf(i: number): QueueRows {
    const at = i * this.k;
    const end = at + this.k;
    return { demand: this.demands.subarray(at, end), pending: this.pendings.subarray(at, end), usage: this.usages.subarray(at, end) };
  }

  /** Sets queue i from its demand (usage included) and usage, the pending work their difference; adds the usage to `used`. */
  setQueue(i: number, demand: ArrayLike<number>, usage: ArrayLike<number>): QueueRows {
    const rows = this.rowsOf(i);
    for (let r = 0; r < this.k; r++) {
      rows.demand[r] = demand[r];
      rows.usage[r] = usage[r];
      rows.pending[r] = demand[r] - usage[r];
      this.used[r] += usage[r];
    }
    return rows;
  }
}
