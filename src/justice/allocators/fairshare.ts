// Fair-share baselines of the Justice paper §3 (the Mesos/YARN default allocator).
//
// Fair share, precisely: at every scheduling point (every arrival, task completion, job
// completion or kill), the capacity C is water-filled over the admitted, unfinished jobs: each
// job's cap is its number of unfinished tasks (it cannot use more CPUs), every job gets the same
// integer share L or its cap if smaller, and the remainder of an uneven division goes one CPU
// each to the earliest-submitted jobs not at their cap. So sum(shares) = min(C, sum(caps)).
// With more jobs than CPUs, the latest arrivals get share 0 until others end.
// Tasks are not preempted (sim.ts): a job above its new share keeps its running tasks.
// Example: C = 10, caps 2, 7, 7 -> the 2-task job gets 2, the others split 8: 4 and 4.
// Caps 1, 5, 5, 5 with C = 10 -> 1, then 9 over three: 3 each. C = 10, caps 7, 7, 7 -> 4, 3, 3.
//
// Baseline FS admits everything and lets late jobs finish. Reactive FS kills any job still
// running at its deadline (dropped, reason "killed-past-deadline").
import type { Allocator, AllocatorContext, AllocatorFactory, JobView } from "../allocator.js";
import { readParams } from "./params.js";
import { InputError, describeValue } from "../../errors.js";

/**
 * Integer water-filling of `capacity` over `caps`; the remainder of an uneven division goes to
 * the lowest positions first. O(n) per pass; a pass fixes every job whose cap is under the
 * current level (fixing them only raises the level for the others), so few passes are needed.
 */
export function waterFill(capacity: number, caps: readonly number[]): number[] {
  // whole CPUs: an Infinity capacity gave NaN shares (Infinity - Infinity), a NaN cap was handed out
  if (typeof capacity !== "number" || !Number.isSafeInteger(capacity) || capacity < 0) throw new InputError("capacity", `must be a whole number >= 0 (got ${describeValue(capacity)})`);
  if (!Array.isArray(caps)) throw new InputError("caps", `expected an array of whole numbers, got ${describeValue(caps)}`);
  caps.forEach((c, i) => {
    if (typeof c !== "number" || !Number.isSafeInteger(c) || c < 0) throw new InputError(`caps[${i}]`, `must be a whole number >= 0 (got ${describeValue(c)})`);
  });
  const n = caps.length;
  const share = new Array<number>(n).fill(0);
  const capped = new Uint8Array(n);
  let rem = capacity;
  let left = n;
  for (let changed = true; changed && left > 0;) {
    changed = false;
    const r = rem, l = left;
    for (let i = 0; i < n; i++) {
      if (!capped[i] && caps[i] * l <= r) { // cap <= rem / (jobs left), level at the start of the pass
        capped[i] = 1;
        share[i] = caps[i];
        rem -= caps[i];
        left--;
        changed = true;
      }
    }
  }
  if (left > 0) {
    const base = Math.floor(rem / left);
    let extra = rem - base * left;
    for (let i = 0; i < n; i++) {
      if (capped[i]) continue;
      share[i] = base + (extra > 0 ? 1 : 0);
      if (extra > 0) extra--;
    }
  }
  return share;
}

function fairShare(ctx: AllocatorContext): void {
  const jobs: readonly JobView[] = ctx.running;
  const shares = waterFill(ctx.capacity, jobs.map((j) => j.pendingTasks + j.runningTasks));
  jobs.forEach((j, k) => ctx.setShare(j, shares[k]));
}

function make(name: string, kill: boolean): AllocatorFactory {
  return {
    name,
    description: kill
      ? "Reactive FS: fair share (water-filling at every event), kills jobs still running at their deadline"
      : "Baseline FS: fair share (water-filling at every event), admits everything, late jobs finish",
    defaults: {},
    create({ params }) {
      readParams(name, params, []);
      const alloc: Allocator = {
        name,
        mode: "shared",
        schedule: fairShare,
      };
      if (kill) (alloc as { killAtDeadline?: (j: JobView) => boolean }).killAtDeadline = () => true;
      return alloc;
    },
  };
}

export const baselineFsAllocator = make("baseline-fs", false);
export const reactiveFsAllocator = make("reactive-fs", true);
