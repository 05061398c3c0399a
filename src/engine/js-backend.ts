import type { KernelBlock, KernelName, KernelViews } from "../kernels/backend.js";
import { DrfScratch, drfKernel, floorSum } from "../kernels/js/drf.js";
import { SrptScratch, srptKernel } from "../kernels/js/srpt.js";
import { LtrfScratch, ltrfKernel } from "../kernels/js/ltrf.js";
import { CrvScratch, crvReorderKernel } from "../kernels/js/crv.js";
import { BopfScratch, bopfAdmitKernel, bopfAllocateKernel } from "../kernels/js/bopf.js";
import { BlockBackend } from "./block-backend.js";
import { regionsOf, tooLarge } from "./regions.js";

/** One scratch per kernel, shared by every block of the backend (calls never interleave; each only grows). */
class Scratches {
  readonly drf = new DrfScratch();
  readonly srpt = new SrptScratch();
  readonly ltrf = new LtrfScratch();
  readonly crv = new CrvScratch();
  readonly bopf = new BopfScratch();
}

/** Sizes each kernel's scratch for a problem up front, so an allocation failure is reported when staging. */
const ENSURE: { readonly [K in KernelName]: (s: Scratches, a: number, b: number) => void } = {
  drf: (s, n, k) => {
    s.drf.ensure(n, k);
    s.drf.radix.ensure(n);
  },
  srpt: (s, n, k) => s.srpt.ensure(n, k),
  ltrf: (s, n) => s.ltrf.ensure(n),
  crv: (s, _q, t) => s.crv.ensure(t),
  bopf: (s, n, k) => s.bopf.ensure(n, k),
};

/** Each kernel's twin called over a block's views: the only per-kernel code of this backend (see wasm-backend.ts CALLS). */
const CALLS: { readonly [K in KernelName]: (v: KernelViews[K], s: Scratches, a: number, b: number, u: number, w: number) => number } = {
  drf: (v, s, n, k, w, o) =>
    drfKernel(n, k, v.capacity, v.demands, w ? v.weights : null, o ? v.offsets : null, v.lambda, v.allocation, v.dominantShare, s.drf),
  srpt: (v, s, n, k) =>
    srptKernel(n, k, v.capacity, v.available, v.demands, v.rates, v.remaining, v.lambda, v.allocation, s.srpt),
  ltrf: (v, s, n, k, w, flags) =>
    ltrfKernel(n, k, v.free, v.tasks, v.pending, v.usage, w ? v.weights : null, v.increments, v.maxStarts, flags, v.count, v.usageOut, v.freeOut, s.ltrf),
  crv: (v, s, q, t, thr) =>
    crvReorderKernel(q, t, v.offsets, v.score, v.runtime, v.slack, v.mode, thr, v.order, v.slackOut, s.crv),
  bopf: (v, s, n, k, mode, flags) => mode === 0
    ? bopfAdmitKernel(n, k, flags, v.capacity, v.bound, v.hard, v.state, v.kind, v.start, v.period, v.window, v.count, v.volume, v.want, v.cls, v.reason, v.id, v.rate, v.tol, v.bind, v.clsById, v.kindById, v.gkey, v.gid, v.allocation, s.bopf)
    : bopfAllocateKernel(n, k, flags, v.capacity, v.cls, v.hasGuarantee, v.kind, v.id, v.state, v.want, v.rate, flags & 2 ? v.volume : v.remaining, v.weight, v.allocation, s.bopf),
};

/** A kernel's regions as plain typed arrays: they never move, so views() is always the same object. */
class JsBlock<K extends KernelName> implements KernelBlock<K> {
  private live = true;
  private readonly call: (v: KernelViews[K], s: Scratches, a: number, b: number, u: number, w: number) => number;
  constructor(
    private readonly owner: JsBackend,
    readonly kernel: K,
    readonly a: number,
    readonly b: number,
    private readonly v: KernelViews[K],
    readonly transient: boolean,
  ) {
    this.call = CALLS[kernel] as (v: KernelViews[K], s: Scratches, a: number, b: number, u: number, w: number) => number;
  }

  views(): KernelViews[K] {
    return this.v;
  }
  valid(): boolean {
    return this.live && (!this.transient || this.owner.isStaged(this));
  }
  run(u: number, w: number): number {
    if (!this.valid()) throw new Error(`${this.kernel}: running a released block`);
    return this.call(this.v, this.owner.scratch, this.a, this.b, u, w);
  }
  errorIndex(): number {
    return this.owner.scratch[this.kernel].errIndex;
  }
  reordered(): number {
    return this.owner.scratch.crv.reordered;
  }
  release(): void {
    this.live = false;
  }
}

/** The pure-TypeScript reference backend: the same kernels, for differential tests, benchmarks and hosts without WASM. */
export class JsBackend extends BlockBackend {
  readonly kind = "js" as const;
  readonly scratch = new Scratches();
  private readonly transient: { [K in KernelName]?: JsBlock<K> } = {};

  protected lastStaged<K extends KernelName>(kernel: K): KernelBlock<K> | null {
    return (this.transient[kernel] as JsBlock<K> | undefined) ?? null;
  }

  isStaged(block: KernelBlock): boolean {
    return (this.transient[block.kernel] as KernelBlock | undefined) === block;
  }

  stage<K extends KernelName>(kernel: K, a: number, b: number): KernelBlock<K> {
    const cached = this.transient[kernel] as JsBlock<K> | undefined;
    if (cached && cached.a === a && cached.b === b) return cached;
    // drop the old arrays first so a big problem after a big problem does not need both
    delete this.transient[kernel];
    const block = this.make(kernel, a, b, true);
    (this.transient as Record<string, unknown>)[kernel] = block;
    return block;
  }

  prepare<K extends KernelName>(kernel: K, a: number, b: number): KernelBlock<K> {
    return this.make(kernel, a, b, false);
  }

  private make<K extends KernelName>(kernel: K, a: number, b: number, transient: boolean): JsBlock<K> {
    const { regions, bytes } = regionsOf(kernel, a, b); // the same 4 GiB limit as the WASM backend
    try {
      const views: Record<string, ArrayBufferView> = {};
      for (const name in regions) {
        const [ctor, len] = regions[name];
        views[name] = new ctor(len);
      }
      ENSURE[kernel](this.scratch, a, b);
      return new JsBlock(this, kernel, a, b, views as unknown as KernelViews[K], transient);
    } catch {
      return tooLarge(kernel, a, b, bytes, "allocation failed");
    }
  }

  floorSum(len: number): number {
    const s = this.transient.drf;
    if (!s) throw new Error("floorSum without a staged problem");
    return floorSum(len, s.views().demands);
  }
}
