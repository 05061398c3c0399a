// Shared by the BoPF kernels (assembly/bopf.ts, its K-specialised rows in fast.ts): the
// constants, the tolerance count and its fast test, the bad-row lookup, the round's end
// checks. Documented where each is defined; the JS twin is src/kernels/bopf/twin.ts.
import { ldf, stf, ldb, isFiniteF64 } from "../util/mem";
import {
  OK, E_BOPF_KIND, E_BOPF_START, E_BOPF_PERIOD, E_BOPF_WINDOW, E_BOPF_COUNT, E_BOPF_VOLUME, BOPF_GENERAL,
} from "../util/status";

export const HARD: u8 = 0, SOFT: u8 = 1, ELASTIC: u8 = 2, REJECTED: u8 = 3;
export const R_SAFETY: u8 = 0, R_FAIRNESS: u8 = 1, R_RESOURCE: u8 = 2, R_ALL_HELD: u8 = 3;
export const TWO50: f64 = 1125899906842624; // 2^50
export const TWO_M48F: f64 = 3.552713678800501e-15; // 2^-48: fastCount's margin below m + 1
export const MIN_D: f64 = 8.900295434028806e-308; // 2^-1020: fastCount's smallest volume
// drf-over.ts: a remainder below C * EXHAUSTED is float residue; the fast path's weights
export const EXHAUSTED: f64 = 1e-12;
export const W_MIN: f64 = 1.1870372719225597e-271; // 2^-900
export const W_MAX: f64 = 8.424983333484575e+270; // 2^900
export const MAXF: f64 = 1.7976931348623157e308;
export const TWO_M48: f64 = 3.552713678800501e-15; // 2^-48

/**
 * The largest m >= 0 with d <= fair / m (bursts.ts toleratedCount, the same divisions):
 * +Infinity for d = 0; m as computed when it is 2^50 or more.
 */
export function toleratedCount(d: f64, fair: f64): f64 {
  if (!(d > 0)) return Infinity;
  const m = Math.floor(fair / d);
  if (!(m < TWO50)) return m;
  // lo holds "x = 0 or d <= fl(fair / x)", hi does not (bursts.ts: doubling steps, then bisection)
  let lo: f64, hi: f64;
  if (m < 1 || d <= fair / m) {
    lo = m;
    hi = m + 1;
    for (let step: f64 = 2; d <= fair / hi; step *= 2) {
      lo = hi;
      hi = m + step;
    }
  } else {
    hi = m;
    lo = m - 1;
    for (let step: f64 = 2; lo >= 1 && !(d <= fair / lo); step *= 2) {
      hi = lo;
      lo = max(0, m - step);
    }
  }
  while (hi - lo > 1) {
    const mid = lo + Math.floor((hi - lo) / 2);
    if (d <= fair / mid) lo = mid;
    else hi = mid;
  }
  return lo;
}

/**
 * Whether toleratedCount's fix-ups cannot move m = floor(q), q = fl(fair / d) (its first
 * division): d >= 2^-1020, q not an integer and (m + 1) - q >= (m + 1) 2^-48. Why (u =
 * 2^-53, rho = fair / d): fl(rho) = q > m, and rounding is monotone with m a float, so
 * rho > m: fair / m > d and fl(fair / m) >= d (no decrement). For m = 0, q < 1 gives
 * rho < 1, fair < d: no increment. For m >= 1, rho <= q / (1 - u) and q <= (m + 1)
 * (1 - 2^-48), so fair / (m + 1) <= d (1 - 2^-48) / (1 - u), a normal number (at least
 * d / 4 >= 2^-1022), and its rounding stays below d: (1 - 2^-48)(1 + u) < 1 - u (no
 * increment). Then toleratedCount(d, fair) = m with one division instead of three; the
 * test also implies q < 2^48 (m + 1 - q <= 1), below toleratedCount's huge-count branch.
 * Example: d = 3000, fair = 15000 * 1.3: q = 6.5, m = 6, 7 - 6.5 >= 7 * 2^-48: 6. Edge
 * values: q integral (d divides fair: the fix-ups decide), q within (m + 1) 2^-48 below an
 * integer, NaN or infinite, and a subnormal d (the rounding of fair / (m + 1) near d is
 * then absolute, not relative: d = 7.521349e-317, fair = 4.706132417670895e-308 has
 * floor(q) = 625703231 but tolerates 625703251 queues): not fast, the full count runs.
 */
@inline export function fastCount(q: f64, m: f64, d: f64): bool {
  return d >= MIN_D && q > m && (m + 1) - q >= (m + 1) * TWO_M48F;
}

/** The tolerance lanes (d = v, fair = f, first division q): toleratedCount, the fast way when fastCount holds. */
@inline export function laneCount(v: f64, f: f64, q: f64): f64 {
  const m = Math.floor(q);
  return fastCount(q, m, v) ? m : toleratedCount(v, f);
}

// the binding resource of the last tolerance() call
let lastBind: i32 = -1;
@inline export function bindOf(): i32 {
  return lastBind;
}
@inline export function setBind(b: i32): void {
  lastBind = b;
}

/**
 * tolerance() lane by lane (used when some resource's count is not fast): each lane's
 * exact count, the running minimum in resource order.
 */
export function toleranceByLane(k: i32, kp: i32, cap: usize, vol: usize, period: f64): f64 {
  let tol: f64 = Infinity;
  let bind = -1;
  for (let r = 0; r < k; r++) {
    const v = ldf(vol, r);
    if (!(v > 0)) continue;
    const f = ldf(cap, r) * period;
    const m = laneCount(v, f, f / v);
    if (m < tol) { tol = m; bind = r; }
  }
  lastBind = bind;
  return tol;
}


/** Row i's first bad cell (kind, start, period, window, count, volume) as a status; index in the error slot. */
export function badRow(i: i32, k: i32, kind: usize, start: usize, period: usize, window: usize, count: usize, volume: usize, scratch: usize): i32 {
  store<i32>(scratch, i);
  if (ldb(kind, i) != 1) return E_BOPF_KIND;
  const s = ldf(start, i), p = ldf(period, i), w = ldf(window, i), c = ldf(count, i);
  if (!isFiniteF64(s)) return E_BOPF_START;
  if (!(p > 0 && isFiniteF64(p))) return E_BOPF_PERIOD;
  if (!(w > 0 && isFiniteF64(w))) return E_BOPF_WINDOW;
  if (!(c >= 0 && Math.floor(c) == c && isFiniteF64(c))) return E_BOPF_COUNT;
  for (let r = 0; r < k; r++) {
    const v = ldf(volume, i * k + r);
    if (!(v >= 0 && isFiniteF64(v))) {
      store<i32>(scratch, i * k + r);
      return E_BOPF_VOLUME;
    }
  }
  return OK; // not reached: the caller found a bad cell
}


/**
 * bopfAllocate's end checks (OK or BOPF_GENERAL): a round that needs the general path
 * (`general`), else step 3's demands must clearly fit what step 1 left and, with a live
 * guarantee, step 4's in what step 3 leaves (leftBound). `left` is overwritten.
 */
export function roundStatus(n: i32, k: i32, general: bool, anyG: bool, cap: usize, left: usize, sum3: usize, sum4: usize): i32 {
  if (general || !clearlyFits(sum3, left, cap, k, n)) return BOPF_GENERAL;
  if (anyG) {
    const mm = <f64>(n + 16) * TWO_M48;
    for (let r = 0; r < k; r++) stf(left, r, ldf(left, r) * (1 - mm) - ldf(sum3, r) * (1 + mm));
    if (!clearlyFits(sum4, left, cap, k, n)) return BOPF_GENERAL;
  }
  return OK;
}

/** clearlyFits (drf-over.ts): every resource live and sum * (1 + (N + 16) 2^-48) < avail. */
@inline export function clearlyFits(sum: usize, avail: usize, cap: usize, k: i32, n: i32): bool {
  const margin = 1 + <f64>(n + 16) * TWO_M48;
  for (let r = 0; r < k; r++) {
    const a = ldf(avail, r);
    if (!(a > ldf(cap, r) * EXHAUSTED) || !(ldf(sum, r) * margin < a)) return false;
  }
  return true;
}
