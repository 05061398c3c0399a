// Integrates each queue's real resource usage over time for policies that need what a
// queue has consumed (BoPF: a burst's remaining volume; M-BVT: virtual time).
//
// Usage changes when tasks start (at scheduling points) and when they end. A policy sees the
// state *before* the starts of a point, so the sampler asks the simulator for a wake-up at the
// same instant (once per instant): the policy is consulted again after the starts, and that
// reading is the usage that holds until the next change. Integrate with `advance` at every
// consultation and at every task end (the simulator follows a task end with a point at once;
// a live host may finish tasks long before its next schedule(), and the usage held until then
// is the one after the end).
import type { ClusterState, PolicyActions } from "../policy/policy.js";
import { InputError, describeValue } from "../errors.js";
import { byQueueName, stateByQueue, stateNumber, stateObject, stateTimeOrNever, stateVector } from "../policy/state-check.js";

/** One queue's part of a sampler's state (what it consumed and held at the last reading). */
interface SampledQueue { volume: Float64Array; domTime: number; last: Float64Array }

export class UsageSampler {
  /** Resource·seconds consumed per queue, queue-major N*K (longer when grown by addQueue: read it afresh each time). */
  volume: Float64Array;
  /** Integral of dominant share (of capacity) per queue: share·seconds (as `volume`, read it afresh). */
  domTime: Float64Array;
  private last: Float64Array;
  private n: number;
  readonly k: number;
  private lastTime = 0;
  private wokenAt = -Infinity;
  private actions: PolicyActions | null = null;

  constructor(n: number, k: number) {
    this.n = n;
    this.k = k;
    this.volume = new Float64Array(n * k);
    this.domTime = new Float64Array(n);
    this.last = new Float64Array(n * k);
  }

  /** Remember the simulator's actions (they arrive with the first event). */
  attach(actions: PolicyActions): void {
    this.actions = actions;
  }

  /** Adds the usage held since the previous consultation, then re-reads it. `needWake`: sample again after this point's starts. */
  advance(state: ClusterState, needWake: boolean): void {
    const dt = state.time - this.lastTime;
    const { n, k, last } = this;
    if (dt > 0) {
      for (let i = 0; i < n; i++) {
        let dom = 0;
        for (let r = 0; r < k; r++) {
          const u = last[i * k + r];
          this.volume[i * k + r] += u * dt;
          dom = Math.max(dom, u / state.capacity[r]);
        }
        this.domTime[i] += dom * dt;
      }
      this.lastTime = state.time;
    }
    last.set(state.usages.subarray(0, n * k));
    if (needWake && this.actions && this.wokenAt !== state.time) {
      this.wokenAt = state.time;
      this.actions.wakeAt(state.time);
    }
  }

  /** One more queue, last, that consumed nothing (Policy.appendQueue): amortised O(K), the arrays grow by doubling. */
  addQueue(): void {
    const n = this.n + 1, k = this.k;
    if (n > this.domTime.length) {
      const size = Math.max(16, 2 * n);
      this.volume = grownTo(this.volume, size * k);
      this.last = grownTo(this.last, size * k);
      this.domTime = grownTo(this.domTime, size);
    }
    this.n = n;
  }

  /** Plain JSON keyed by queue name (Policy.exportState). */
  exportState(names: readonly string[]): Record<string, unknown> {
    const k = this.k;
    return {
      attached: this.actions !== null,
      lastTime: this.lastTime,
      wokenAt: Number.isFinite(this.wokenAt) ? this.wokenAt : null,
      queues: byQueueName(names, (i) => ({ volume: Array.from(this.volume.subarray(i * k, i * k + k)), domTime: this.domTime[i], last: Array.from(this.last.subarray(i * k, i * k + k)) })),
    };
  }

  /**
   * Takes over an exported state for the queues `names` (checked first: an InputError naming the
   * field changes nothing). A queue the state does not name is a newcomer: it consumed nothing. `actions`: the
   * driver's, attached when the exporting sampler had them (it asks for wake-ups only then).
   */
  importState(state: unknown, names: readonly string[], field: string, actions: PolicyActions): void {
    const k = this.k;
    const o = stateObject(state, field);
    if (typeof o.attached !== "boolean") throw new InputError(`${field}.attached`, `expected true or false, got ${describeValue(o.attached)}`);
    const lastTime = stateNumber(o.lastTime, `${field}.lastTime`);
    const wokenAt = stateTimeOrNever(o.wokenAt, `${field}.wokenAt`);
    const queues = stateByQueue(o.queues, `${field}.queues`, (v, f): SampledQueue => {
      const q = stateObject(v, f);
      return { volume: stateVector(q.volume, k, `${f}.volume`, 0), domTime: stateNumber(q.domTime, `${f}.domTime`, 0), last: stateVector(q.last, k, `${f}.last`, 0) };
    });
    this.actions = o.attached ? actions : null;
    this.lastTime = lastTime;
    this.wokenAt = wokenAt;
    names.forEach((name, i) => {
      const q = queues.get(name);
      if (!q) return;
      this.volume.set(q.volume, i * k);
      this.last.set(q.last, i * k);
      this.domTime[i] = q.domTime;
    });
  }
}

/** A copy of `a` in a zeroed array of length `size`. */
function grownTo(a: Float64Array, size: number): Float64Array {
  const b = new Float64Array(size);
  b.set(a);
  return b;
}
