// A node plugin fills named extension points (node/hooks.ts); a node policy is a name and an
// ordered list of plugins (policies.ts). build() runs once per simulation, on that run's model;
// `hooks` are the points filled so far, so a plugin may wrap one (e.g. CRV reordering wraps the
// queue order it finds). Plugins reading another plugin's live state at run time use
// m.hooks (the final composition), e.g. m.hooks.congestion.
import type { NodeHooks } from "./hooks.js";
import type { NodeModel } from "./model.js";

export interface NodePlugin {
  readonly name: string;
  /** The extension points this plugin fills. */
  readonly fills: readonly (keyof NodeHooks)[];
  build(m: NodeModel, hooks: Readonly<NodeHooks>): Partial<NodeHooks>;
}

export interface NodePolicy {
  readonly name: string;
  /** Applied in order over the defaults; a later plugin replaces or wraps an earlier one's hook. */
  readonly plugins: readonly NodePlugin[];
}
