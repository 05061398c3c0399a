// The pure-TypeScript backend: each kernel's twin (src/kernels/<kernel>/twin.ts) called over
// plain typed arrays, for differential tests, benchmarks and hosts without WASM.
import type { KernelArgs, KernelBackend, KernelBlock, KernelName, KernelViews } from "../kernels/backend.js";
import { CONTRACTS } from "../kernels/contracts.js";
import { stageCount } from "../kernels/util/stage-count.js";
import { regionsOf, tooLarge } from "../kernels/regions.js";

interface Scratch {
  errIndex: number;
  reordered?: number;
}
type JsCall<K extends KernelName> = (v: KernelViews[K], s: Scratch, a: number, b: number, args: KernelArgs[K]) => number;
interface JsGlue {
  scratch(): Scratch;
  ensure(s: Scratch, a: number, b: number): void;
  call: JsCall<KernelName>;
}
const glue = (kernel: KernelName): JsGlue => CONTRACTS[kernel].js as unknown as JsGlue;

/** A kernel's regions as plain typed arrays: they never move, so views() is always the same object. */
class JsBlock<K extends KernelName> implements KernelBlock<K> {
  private live = true;
  private readonly call: JsCall<K>;
  constructor(
    private readonly owner: JsBackend,
    readonly kernel: K,
    readonly a: number,
    readonly b: number,
    private readonly v: KernelViews[K],
    private readonly scratch: Scratch,
    readonly transient: boolean,
  ) {
    this.call = glue(kernel).call as unknown as JsCall<K>;
  }

  views(): KernelViews[K] {
    return this.v;
  }
  valid(): boolean {
    return this.live && (!this.transient || this.owner.isStaged(this));
  }
  run(args: KernelArgs[K]): number {
    if (!this.valid()) throw new Error(`${this.kernel}: running a released block`);
    return this.call(this.v, this.scratch, this.a, this.b, args);
  }
  errorIndex(): number {
    return this.scratch.errIndex;
  }
  reordered(): number {
    return this.scratch.reordered ?? 0;
  }
  release(): void {
    this.live = false;
  }
}

export class JsBackend implements KernelBackend {
  readonly kind = "js" as const;
  /** One scratch per kernel, shared by every block of the backend (calls never interleave; each only grows). */
  private readonly scratch: { [K in KernelName]?: Scratch } = {};
  private readonly transient: { [K in KernelName]?: JsBlock<K> } = {};

  isStaged(block: KernelBlock): boolean {
    return (this.transient[block.kernel] as KernelBlock | undefined) === block;
  }

  stage<K extends KernelName>(kernel: K, a: number, b: number): KernelBlock<K> {
    stageCount.n++;
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

  stageGrows(): boolean {
    return false;
  }

  memoryBuffer(): null {
    return null;
  }

  private make<K extends KernelName>(kernel: K, a: number, b: number, transient: boolean): JsBlock<K> {
    const { regions, bytes } = regionsOf(kernel, a, b); // the same 4 GiB limit as the WASM backend
    try {
      const views: Record<string, ArrayBufferView> = {};
      for (const name in regions) {
        const [ctor, len] = regions[name];
        views[name] = new ctor(len);
      }
      const g = glue(kernel);
      const s = (this.scratch[kernel] ??= g.scratch());
      g.ensure(s, a, b);
      return new JsBlock(this, kernel, a, b, views as unknown as KernelViews[K], s, transient);
    } catch {
      return tooLarge(kernel, a, b, bytes, "allocation failed");
    }
  }
}
