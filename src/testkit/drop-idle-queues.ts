// A last shrinking step after fast-check's: drop the queues that demand nothing, one at a time,
// while the case still fails. fast-check cannot always do it itself: an axiom that names a queue
// by an index drawn modulo the queue count (strategyproofness's liar) changes which queue it
// names when an earlier queue goes, so the shrinker keeps idle queues in front of it.
import type { AxiomInput, ClusterState } from "./types.js";

/** The input without queue `q`, every per-queue field and queue index moved down; null when the axiom names `q`. */
export function withoutQueue(input: AxiomInput, q: number): AxiomInput | null {
  if (input.liar === q || input.leaving === q) return null;
  const keep = <T>(xs: readonly T[]) => xs.filter((_, i) => i !== q);
  const down = (i: number) => (i > q ? i - 1 : i);
  const s = input.state;
  const state: ClusterState = { capacity: s.capacity.slice(), demands: keep(s.demands).map((d) => d.slice()), weights: keep(s.weights) };
  if (s.offsets) state.offsets = keep(s.offsets);
  if (s.tasks) state.tasks = keep(s.tasks);
  const out: AxiomInput = { state };
  if (input.liar !== undefined) out.liar = down(input.liar);
  if (input.lies) out.lies = input.lies.map((l) => ({ strategy: l.strategy, report: l.report.slice() }));
  if (input.leaving !== undefined) out.leaving = down(input.leaving);
  if (input.permutation) out.permutation = input.permutation.filter((p) => p !== q).map(down);
  return out;
}

/**
 * Drops zero-demand queues (last first) while `fails` still gives a message and more than
 * `minQueues` remain. Returns the smaller input and its message (the given ones when none goes).
 */
export async function dropIdleQueues(
  input: AxiomInput, message: string, minQueues: number, fails: (input: AxiomInput) => Promise<string | null>,
): Promise<{ input: AxiomInput; message: string }> {
  let best = { input, message };
  for (let q = input.state.demands.length - 1; q >= 0; q--) {
    if (best.input.state.demands.length <= minQueues) break;
    if (best.input.state.demands[q].some((v) => v > 0)) continue;
    const smaller = withoutQueue(best.input, q);
    if (smaller === null) continue;
    const m = await fails(smaller);
    if (m !== null) best = { input: smaller, message: m };
  }
  return best;
}
