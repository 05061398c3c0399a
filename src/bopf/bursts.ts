// An LQ's reported bursts (docs/policies/bopf.md, bursts), explicit or periodic, validated once and summarised
// into the three numbers admission control needs, so that admitting or re-checking a queue
// never rescans its bursts:
//
//   maxRate[k]  = max_n d_n[k] / t_n          (resource condition (3))
//   tolerance   = the largest total queue count m with d_n[k] <= C[k] * gap_n / m for all n, k
//                 (fairness (2) is "tolerance >= M + 1"; safety (1) is "every guaranteed
//                 queue's tolerance >= M + 1")
//   binding     = the burst and resource that decide the tolerance (for the "why" in reports)
//
// gap_n = T(n+1) - T(n); for the last burst the previous gap, and for a single burst its
// window (docs/policies/bopf.md, admission) — whether written as a one-element list or as a
// periodic spec with count 1 (its period is no gap: there is no next burst).
//
// Worked example: C = <100 CPU, 200 GB>, periodic bursts every 150 s, window 30 s, volume
// <3000 CPU·s, 3000 GB·s>. Rate = <100, 100>. Per-queue fair volume with m queues is
// C * 150 / m = <15000/m, 30000/m>; CPU binds: 3000 <= 15000/m holds up to m = 5, so the
// tolerance is 5 (binding: burst 0, resource 0) — the LQ keeps a guarantee while at most
// 5 queues are admitted. Edge values: a zero volume on every resource gives tolerance
// +Infinity (never binds); a volume larger than C * gap gives tolerance 0 (fails even alone).
import type { BurstSpec } from "../policy/model.js";
import { InputError, describeValue } from "../errors.js";
import { toleratedCount } from "../kernels/bopf/twin.js";
import { isNonNumericView } from "../kernels/marshal.js";

/** Bursts every `period` seconds from `start`, `count` of them, each with the same window and volume. */
export interface PeriodicBursts {
  start: number;
  period: number;
  window: number;
  /** Resource·seconds per resource, length K. */
  volume: number[];
  count: number;
}

export type BurstsInput = readonly BurstSpec[] | PeriodicBursts;

export interface BurstSeries {
  readonly count: number;
  /** Burst n (0-based): arrival, window t_n and volume d_n. */
  burst(n: number): BurstSpec;
  /** T(n+1) - T(n), with the rule for the last burst in docs/policies/bopf.md (bursts). */
  gap(n: number): number;
  readonly maxRate: Float64Array;
  readonly tolerance: number;
  readonly binding: { burst: number; resource: number } | null;
}

export function isPeriodic(b: BurstsInput): b is PeriodicBursts {
  return !Array.isArray(b);
}

/** Validates and summarises; `field` prefixes error names, e.g. `queues[2].bursts`. */
export function burstSeries(input: BurstsInput, capacity: ArrayLike<number>, field = "bursts"): BurstSeries {
  if (!Array.isArray(capacity) && !(ArrayBuffer.isView(capacity) && !isNonNumericView(capacity))) throw new InputError("capacity", `expected an array of numbers, got ${describeValue(capacity)}`);
  for (let r = 0; r < capacity.length; r++) {
    const c = capacity[r];
    if (typeof c !== "number" || !(c > 0) || !Number.isFinite(c)) throw new InputError(`capacity[${r}]`, `must be a finite number > 0 (got ${describeValue(c)})`);
  }
  const k = capacity.length;
  if (input === null || typeof input !== "object") throw new InputError(field, `expected a list of bursts or a periodic spec, got ${describeValue(input)}`);
  if (isPeriodic(input)) return periodic(input, capacity, field);
  const given = input as readonly BurstSpec[];
  const starts = new Float64Array(given.length);
  // the series keeps its own copy of each burst: a caller changing its list later changes nothing here
  const list: BurstSpec[] = new Array(given.length);
  for (let n = 0; n < given.length; n++) {
    const b = given[n];
    const f = `${field}[${n}]`;
    if (b === null || typeof b !== "object") throw new InputError(f, `expected a burst {start, window, volume}, got ${describeValue(b)}`);
    finite(`${f}.start`, b.start);
    positive(`${f}.window`, b.window);
    volumeVector(`${f}.volume`, b.volume, k);
    if (n > 0 && !(b.start > starts[n - 1])) {
      throw new InputError(`${f}.start`, `must be later than ${field}[${n - 1}].start (${starts[n - 1]}); got ${describeValue(b.start)}`);
    }
    starts[n] = b.start;
    list[n] = { start: b.start, window: b.window, volume: Array.from(b.volume) };
  }
  const gap = (n: number): number => {
    if (n + 1 < list.length) return starts[n + 1] - starts[n];
    if (list.length >= 2) return starts[n] - starts[n - 1];
    return list[n].window;
  };
  const maxRate = new Float64Array(k);
  let tolerance = Infinity;
  let binding: BurstSeries["binding"] = null;
  for (let n = 0; n < list.length; n++) {
    const b = list[n];
    const g = gap(n);
    for (let r = 0; r < k; r++) {
      const d = b.volume[r];
      maxRate[r] = Math.max(maxRate[r], d / b.window);
      const m = toleratedCount(d, capacity[r] * g);
      if (m < tolerance) {
        tolerance = m;
        binding = { burst: n, resource: r };
      }
    }
  }
  return { count: list.length, burst: (n) => list[n], gap, maxRate, tolerance, binding };
}

/** Where periodicSummary leaves its second result (a reusable holder: no allocation per call). */
export interface SummaryOut {
  /** The binding resource (the one that sets the tolerance), or -1. */
  binding: number;
}

/**
 * Validates a periodic spec and writes its per-resource rates volume[r] / window into
 * `rateOut` from `at` (K numbers). Returns the tolerance; the binding resource (or -1) is
 * left in `out.binding`. O(K), no allocation: admission control's hot path.
 */
export function periodicSummary(p: PeriodicBursts, capacity: ArrayLike<number>, fieldBase: string, rateOut: Float64Array, at: number, out: SummaryOut, fieldSuffix = ""): number {
  const k = capacity.length;
  // the checks of periodic() in one pass; field names are only built for an error
  const vol = p.volume;
  if (!(isNum(p.start) && Number.isFinite(p.start)) || !isPositive(p.period) || !isPositive(p.window) ||
    !(Array.isArray(vol) || ArrayBuffer.isView(vol)) || (vol as ArrayLike<unknown>).length !== k) {
    finite(`${fieldBase}${fieldSuffix}.start`, p.start);
    positive(`${fieldBase}${fieldSuffix}.period`, p.period);
    positive(`${fieldBase}${fieldSuffix}.window`, p.window);
    volumeVector(`${fieldBase}${fieldSuffix}.volume`, p.volume, k);
  }
  for (let r = 0; r < k; r++) {
    const x = vol[r];
    if (!(isNum(x) && Number.isFinite(x) && x >= 0)) volumeVector(`${fieldBase}${fieldSuffix}.volume`, p.volume, k);
  }
  if (!(Number.isInteger(p.count) && p.count >= 0)) throw new InputError(`${fieldBase}${fieldSuffix}.count`, `must be an integer >= 0 (got ${describeValue(p.count)})`);
  // every burst is alike, so one burst's numbers are the whole series' (O(K), not O(count*K))
  let tolerance = Infinity;
  let bind = -1;
  if (p.count > 0) {
    // a single burst's gap is its window, as for a one-element list (docs/policies/bopf.md)
    const window = p.window, period = p.count === 1 ? p.window : p.period;
    for (let r = 0; r < k; r++) {
      rateOut[at + r] = vol[r] / window;
      const m = toleratedCount(vol[r], capacity[r] * period);
      if (m < tolerance) {
        tolerance = m;
        bind = r;
      }
    }
  } else {
    for (let r = 0; r < k; r++) rateOut[at + r] = 0;
  }
  out.binding = bind;
  return tolerance;
}

function isNum(x: unknown): x is number {
  return typeof x === "number";
}

function isPositive(x: unknown): boolean {
  return typeof x === "number" && Number.isFinite(x) && x > 0;
}

/** A periodic spec's summary as a BurstSeries (a class, so no closures per series). */
export class PeriodicSeries implements BurstSeries {
  readonly count: number;
  readonly maxRate: Float64Array;
  readonly tolerance: number;
  private readonly bind: number;
  constructor(private readonly p: PeriodicBursts, maxRate: Float64Array, tolerance: number, bind: number) {
    this.count = p.count;
    this.maxRate = maxRate;
    this.tolerance = tolerance;
    this.bind = bind;
  }
  get binding(): { burst: number; resource: number } | null {
    return this.bind < 0 ? null : { burst: 0, resource: this.bind };
  }
  burst(n: number): BurstSpec {
    const p = this.p;
    return { start: p.start + n * p.period, window: p.window, volume: p.volume };
  }
  gap(): number {
    return this.p.count === 1 ? this.p.window : this.p.period;
  }
}

function periodic(p: PeriodicBursts, capacity: ArrayLike<number>, field: string): BurstSeries {
  const maxRate = new Float64Array(capacity.length);
  const out: SummaryOut = { binding: -1 };
  const tolerance = periodicSummary(p, capacity, field, maxRate, 0, out);
  // its own copy of the spec: a caller changing its object later changes nothing here
  const own: PeriodicBursts = { start: p.start, period: p.period, window: p.window, count: p.count, volume: Array.from(p.volume) };
  return new PeriodicSeries(own, maxRate, tolerance, out.binding);
}

// toleratedCount (the safety check's count, exact to the last bit) lives with the kernel twin,
// which runs the same divisions: src/kernels/bopf/twin.ts.
export { toleratedCount };

function finite(field: string, v: unknown): void {
  if (typeof v !== "number" || !Number.isFinite(v)) throw new InputError(field, `must be a finite number (got ${describeValue(v)})`);
}

function positive(field: string, v: unknown): void {
  if (typeof v !== "number" || !Number.isFinite(v) || !(v > 0)) throw new InputError(field, `must be a finite number > 0 (got ${describeValue(v)})`);
}

function volumeVector(field: string, v: unknown, k: number): void {
  if (!Array.isArray(v) && !(ArrayBuffer.isView(v) && !isNonNumericView(v))) throw new InputError(field, `expected an array of ${k} numbers, got ${describeValue(v)}`);
  const a = v as ArrayLike<unknown>;
  if (a.length !== k) throw new InputError(field, `has length ${a.length}, expected K=${k} (the capacity's length)`);
  for (let r = 0; r < k; r++) {
    const x = a[r];
    if (typeof x !== "number" || !Number.isFinite(x) || x < 0) throw new InputError(`${field}[${r}]`, `must be a finite number >= 0 (got ${describeValue(x)})`);
  }
}
