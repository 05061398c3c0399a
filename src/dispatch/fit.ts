// Whether a task fits in what is free: one relative slack for every fit test of the dispatch
// (the dispatcher, its starvation guard, the simulator's preemption), so they never disagree
// about a task that fills a resource to within rounding.

/** Relative slack on the capacity when testing a fit. */
export const FIT_EPS = 1e-12;

/** True when `extra` more on a resource holding `used` goes beyond its `capacity` (with the slack). */
export function exceeds(used: number, extra: number, capacity: number): boolean {
  return used + extra > capacity * (1 + FIT_EPS);
}

/** The task fits in what is free now. */
export function fits(state: { readonly used: ArrayLike<number>; readonly capacity: ArrayLike<number> }, task: ArrayLike<number>): boolean {
  for (let r = 0; r < task.length; r++) if (exceeds(state.used[r], task[r], state.capacity[r])) return false;
  return true;
}
