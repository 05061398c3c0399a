// Busy task-seconds of the workers: in total, inside the arrival span, and per window of the
// busy profile (NodeSimSettings.busyWindow).
import { InputError } from "../../errors.js";
import { MAX_WINDOWS } from "./options.js";

export class BusyTime {
  total = 0;
  /** Busy seconds inside [firstArrival, lastArrival]. */
  inArrivals = 0;
  /** Busy worker-seconds per window, grown as tasks end. */
  readonly profile: number[] = [];

  constructor(private readonly firstArrival: number, private readonly lastArrival: number, private readonly window: number) {}

  /** A task ran on one worker over [from, to]. */
  add(from: number, to: number): void {
    this.total += to - from;
    this.inArrivals += Math.max(0, Math.min(to, this.lastArrival) - Math.max(from, this.firstArrival));
    if (this.window > 0) this.addToProfile(from, to);
  }

  private addToProfile(from: number, to: number): void {
    const bw = this.window, first = this.firstArrival, profile = this.profile;
    // one number per window: a window tiny against the span would allocate without bound
    if (!((to - first) / bw <= MAX_WINDOWS)) throw new InputError("busyWindow", `${bw} s gives more than ${MAX_WINDOWS} windows up to t = ${to} s; use a wider window`);
    for (let k = Math.floor((from - first) / bw); first + k * bw < to; k++) {
      const lo = Math.max(from, first + k * bw), hi = Math.min(to, first + (k + 1) * bw);
      while (profile.length <= k) profile.push(0);
      profile[k] += hi - lo;
    }
  }
}
