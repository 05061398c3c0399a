// Placement policies of the node-level mode (SPEC §7), registered by name. A policy is a set
// of mechanisms the simulator loop (node-sim.ts) switches on; where SPEC is silent they
// follow the published systems (Hawk/Eagle simulator parameters in brackets):
//
//  Sparrow-C  batch sampling: probeRatio x tasks probes to random eligible workers, long jobs
//             probed too [centralized long: no], FIFO queues, no stealing, no partition.
//  Hawk-C     long jobs centrally on the least-loaded eligible worker of the long partition,
//             short jobs by random eligible probes over all workers, FIFO, randomized work
//             stealing of short probes queued behind long tasks [stealing yes, ATC].
//  Eagle-C    Hawk's split plus succinct state sharing (a short probe reaching a worker that
//             holds long work is rejected and re-sent to a long-free eligible worker, as in
//             Eagle's simulator), sticky batch probing (the probe stays queued and competes
//             again at each task end) and SRPT queue reordering with the slack bound
//             [SRPT yes, SBP yes, no stealing].
//  Phoenix    Eagle-C plus the CRV monitor: on workers whose E[W] exceeds Qwait_threshold
//             while some constraint's CRV exceeds its CRV_threshold, the queue is reordered by
//             CRV instead of SRPT, promoting the probes whose largest congested CRV is the
//             queue's maximum (Algorithm 1, §IV-B); soft constraints whose CRV is above their
//             threshold are relaxed at placement (admission control by demand/supply, §I).
//             Thresholds as §IV-B names them (node-sim.ts): CRV_threshold per constraint = its
//             Table II relative slowdown (crv-threshold.ts), Qwait_threshold = the E[W] of a
//             worker at peak load 0.9 (§IV-A's rho < 0.9 bound for SRPT).
//             Probes go to eligible workers chosen as in Eagle (SSS), §IV-A: "the probable
//             nodes ... decided by light weight bit vector message exchanges ... similar to
//             Eagle's Succinct State Sharing"; E[W] only marks queues for reordering.
//             waitAwareProbes (E[W]-ranked placement) is kept as an ablation, off by default:
//             on Yahoo at 90% load, seeds 1-5, Phoenix/Eagle-C short p99 0.99, 0.98, 0.97,
//             1.02, 1.03 with it vs 0.97, 0.99, 0.99, 1.01, 0.99 without: no gain.
import { NamedRegistry } from "../sim/named-registry.js";
import { InputError, describeValue } from "../engine/errors.js";

export interface NodePolicy {
  readonly name: string;
  readonly longJobs: "central" | "probes";
  /** Short probes avoid workers holding long work (Eagle's succinct state sharing). */
  readonly succinctState: boolean;
  /** Reserve the first `shortOnlyFraction` of workers for short tasks (Hawk/Eagle partition). */
  readonly partition: boolean;
  readonly stickyProbes: boolean;
  readonly stealing: boolean;
  /** Base queue discipline: 0 FIFO, 1 SRPT. */
  readonly baseMode: 0 | 1;
  /** Run the CRV monitor and switch congested queues to CRV reordering. */
  readonly crvReordering: boolean;
  /** Relax soft constraints whose CRV exceeds CRV_threshold (Phoenix admission control). */
  readonly relaxCongestedSoft: boolean;
  /**
   * Suspend sticky batch probing on workers in CRV mode (one reading of "Phoenix does not rely
   * on SBP", §VI-A). Off by default: on YH2_sub.tr at 90% load, seeds 1-5, Phoenix/Eagle-C
   * short p99 was 1.05, 1.00, 1.00, 1.04, 1.10 with it (0.97, 0.99, 0.99, 1.01, 0.99 without);
   * kept as an ablation. (With the former thresholds, CRV 1 and E[W] 90 s, seeds 1-3: 0.98,
   * 1.18, 1.18 with it.)
   */
  readonly suspendStickyWhenCongested: boolean;
  /**
   * Ablation, not part of the paper's placement (off in every registered policy): while some
   * constraint is congested, place short probes on the eligible workers with the
   * lowest PK estimate E[W] (from the last heartbeat) out of a random sample twice the probe
   * count, instead of uniformly ("distributed schedulers need a low overhead queue waiting
   * time estimator", §III-C3; "instead dynamically estimates the wait time of highly
   * constrained nodes", §VI-A). The sample keeps the herd effect of pure argmin away.
   */
  readonly waitAwareProbes: boolean;
  /** CRV reordering promotes only probes whose maximal CRV exceeds CRV_threshold. */
  readonly congestedOnly: boolean;
  /**
   * Ablation, off in every registered policy: in SRPT queues, short probes are served newest
   * first (bounded by the slack threshold) instead of by remaining work. This is the order
   * Eagle's published simulator actually runs, and the Eagle-C baseline the Phoenix paper was
   * measured against (it built on that simulator, §V-A): its `get_next_probe_acc_to_sbp_srpt`
   * assigns the running minimum to a misspelled variable (`min_remanining_exec_time`), so the
   * minimum stays +inf and the scan keeps the LAST probe that the slack of the probes in front
   * admits (a long probe, if any, first). Eagle bounds the bypassing by a delay budget of 5x a
   * probe's estimated duration; here the kernel's bypass count (5) stands in for it. Example:
   * queue [A arrived 10 s, B 12 s, C 15 s], all slack 0: SRPT serves the least remaining work,
   * this order serves C, then B, then A (A and B each bypassed, slack + 1).
   */
  readonly newestProbeFirst: boolean;
}

export interface NodePolicyFactory {
  readonly name: string;
  readonly description: string;
  /** Options override single mechanisms, e.g. { stickyProbes: false } for an ablation. */
  create(options?: Partial<Omit<NodePolicy, "name">>): NodePolicy;
}

const registry = new NamedRegistry<NodePolicyFactory>("node policy");

export const registerNodePolicy = (f: NodePolicyFactory): void => registry.register(f);

export function getNodePolicy(name: string, options?: Partial<Omit<NodePolicy, "name">>): NodePolicy {
  const f = registry.get(name);
  if (!f) throw new InputError("policy", `unknown node policy ${describeValue(name)}; known: ${registry.names().join(", ")}`);
  return f.create(options);
}

export const nodePolicyNames = (): string[] => registry.names();

function define(name: string, description: string, base: Omit<NodePolicy, "name">): void {
  registerNodePolicy({ name, description, create: (o = {}) => Object.freeze({ ...base, ...o, name }) });
}

const CENTRAL = { longJobs: "central", partition: true } as const;

define("sparrow-c", "Sparrow-C: batch sampling among eligible workers, FIFO queues, long jobs probed too", {
  longJobs: "probes", succinctState: false, partition: false, stickyProbes: false, stealing: false,
  baseMode: 0, crvReordering: false, relaxCongestedSoft: false, suspendStickyWhenCongested: false, waitAwareProbes: false, congestedOnly: false, newestProbeFirst: false,
});
define("hawk-c", "Hawk-C: central long jobs, random constraint-filtered probes, work stealing, FIFO", {
  ...CENTRAL, succinctState: false, stickyProbes: false, stealing: true,
  baseMode: 0, crvReordering: false, relaxCongestedSoft: false, suspendStickyWhenCongested: false, waitAwareProbes: false, congestedOnly: false, newestProbeFirst: false,
});
define("eagle-c", "Eagle-C: central long jobs, succinct state sharing, sticky batch probing, SRPT reordering", {
  ...CENTRAL, succinctState: true, stickyProbes: true, stealing: false,
  baseMode: 1, crvReordering: false, relaxCongestedSoft: false, suspendStickyWhenCongested: false, waitAwareProbes: false, congestedOnly: false, newestProbeFirst: false,
});
define("phoenix", "Phoenix: Eagle-C plus the CRV monitor, CRV-based reordering of congested queues, soft-constraint relaxation", {
  ...CENTRAL, succinctState: true, stickyProbes: true, stealing: false,
  baseMode: 1, crvReordering: true, relaxCongestedSoft: true, suspendStickyWhenCongested: false, waitAwareProbes: false, congestedOnly: true, newestProbeFirst: false,
});
