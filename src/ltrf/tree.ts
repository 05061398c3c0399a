// The queue tree for hierarchical LTRF (docs/policies/ltrf.md, the paper's Fig. 1b): leaves are the
// queues, internal nodes are the group paths of QueueSpec.path. Node ids: leaves first
// (0..N-1, the queue indices), then groups in order of first appearance; the root is a
// group with the empty path.
//
// Example: A ["G1"], B ["G1"], C ["G2"], D ["G2"] -> leaves 0..3, groups root=4, G1=5,
// G2=6; children(root) = [5, 6], children(G1) = [0, 1]. With unit weights w(G1) = w(A) +
// w(B) = 2 ("resource-as-you-contributed": a group weighs what its members contributed).
import { InputError, describeValue } from "../errors.js";

export interface TreeLeaf {
  name: string;
  /** Group path from the root, e.g. ["org", "teamA"]; empty or missing = directly under the root. */
  path?: readonly string[];
  weight?: number;
}

export interface QueueTree {
  /** Number of leaves (queues). */
  readonly leaves: number;
  /** Number of nodes, leaves + groups. */
  readonly nodes: number;
  readonly root: number;
  readonly parent: Int32Array;
  readonly children: readonly (readonly number[])[];
  readonly weight: Float64Array;
  /** Smallest leaf index in the subtree: the deterministic tie order. */
  readonly firstLeaf: Float64Array;
  readonly names: readonly string[];
}

/**
 * Builds the tree. `groupWeights` maps a group path joined by "/" (e.g. "G1" or "org/teamA")
 * to its weight; unlisted groups weigh the sum of their leaves' weights.
 */
export function buildTree(leaves: readonly TreeLeaf[], groupWeights: Record<string, number> = {}): QueueTree {
  if (!Array.isArray(leaves)) throw new InputError("queues", `expected an array of {name, weight?, path?}, got ${describeValue(leaves)}`);
  if (groupWeights === null || typeof groupWeights !== "object") throw new InputError("groupWeights", `expected an object of group path -> weight, got ${describeValue(groupWeights)}`);
  leaves.forEach((leaf, i) => {
    if (leaf === null || typeof leaf !== "object") throw new InputError(`queues[${i}]`, `expected {name, weight?, path?}, got ${describeValue(leaf)}`);
    if (leaf.path !== undefined && !Array.isArray(leaf.path)) throw new InputError(`queues[${i}].path`, `expected an array of group names, got ${describeValue(leaf.path)}`);
  });
  const n = leaves.length;
  const names: string[] = leaves.map((l) => l.name);
  const parents: number[] = [];
  const groupId = new Map<string, number>();
  const groupPath: string[] = [];
  const group = (key: string, parentKey: string | null): number => {
    let id = groupId.get(key);
    if (id !== undefined) return id;
    id = n + groupPath.length;
    groupId.set(key, id);
    groupPath.push(key);
    names.push(key === "" ? "root" : key);
    parents[id] = parentKey === null ? -1 : group(parentKey, parentKey.includes("/") ? parentKey.slice(0, parentKey.lastIndexOf("/")) : "");
    return id;
  };
  group("", null);
  leaves.forEach((leaf, i) => {
    const w = leaf.weight ?? 1;
    if (typeof w !== "number" || !(w > 0) || !Number.isFinite(w)) throw new InputError(`queues[${i}].weight`, `must be a finite number > 0 (got ${describeValue(w)})`);
    const path = leaf.path ?? [];
    path.forEach((p: unknown, j: number) => {
      if (typeof p !== "string" || p === "" || p.includes("/")) {
        throw new InputError(`queues[${i}].path[${j}]`, `must be a non-empty string without '/' (got ${describeValue(p)})`);
      }
    });
    const key = path.join("/");
    parents[i] = group(key, key === "" ? null : path.slice(0, -1).join("/"));
  });
  // The root is group "" (id n); a leaf with an empty path hangs from it directly.
  for (let i = 0; i < n; i++) if ((leaves[i].path ?? []).length === 0) parents[i] = n;
  const total = n + groupPath.length;
  const parent = Int32Array.from(parents);
  parent[n] = -1;
  const children: number[][] = Array.from({ length: total }, () => []);
  for (let v = 0; v < total; v++) if (parent[v] >= 0) children[parent[v]].push(v);
  const weight = new Float64Array(total);
  const firstLeaf = new Float64Array(total).fill(Infinity);
  for (let i = 0; i < n; i++) {
    weight[i] = leaves[i].weight ?? 1;
    firstLeaf[i] = i;
    for (let v = parent[i]; v >= 0; v = parent[v]) {
      if (i < firstLeaf[v]) firstLeaf[v] = i;
    }
  }
  // group weights: configured, else the sum of the leaves below (children before parents
  // is not guaranteed by id order, so sum leaves directly)
  const leafSum = new Float64Array(total);
  for (let i = 0; i < n; i++) for (let v = parent[i]; v >= 0; v = parent[v]) leafSum[v] += weight[i];
  // Configured weights are read as the object's own keys into a Map: a group named like an
  // Object.prototype property ("constructor", "__proto__") must not read an inherited value.
  const configured = new Map<number, number>();
  for (const [key, w] of Object.entries(groupWeights)) {
    const id = groupId.get(key);
    if (id === undefined) throw new InputError(`groupWeights.${key}`, "names no group of the queues' paths");
    if (typeof w !== "number" || !(w > 0) || !Number.isFinite(w)) throw new InputError(`groupWeights.${key}`, `must be a finite number > 0 (got ${describeValue(w)})`);
    configured.set(id, w);
  }
  for (let g = n; g < total; g++) {
    weight[g] = configured.get(g) ?? (leafSum[g] > 0 ? leafSum[g] : 1);
  }
  return { leaves: n, nodes: total, root: n, parent, children, weight, firstLeaf, names };
}
