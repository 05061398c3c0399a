// Oracle (the Justice paper §3, docs/policies/justice.md): knows each job's computation time, so it knows the
// exact minimum CPUs that finish the job by its deadline if started now (model.ts
// minCpusWithin: ceil(tasks / floor(TTD / d)) with waves, ceil(compTime / TTD) fluid). Same priority (reqCpus / TTD, smaller first),
// same all-or-nothing offers and queueing as Justice; a queued job whose remaining time cannot
// fit even min(tasks, capacity) CPUs is dropped. It never misses a deadline of a job it admits.
// Example: 10 tasks of 20 s, deadline 45 s: 2 waves fit, 5 CPUs; after waiting 10 s (35 s
// left) 1 wave fits: 10 CPUs; after 26 s (19 s left): infeasible, dropped.
import type { Allocator, AllocatorContext, AllocatorFactory } from "../allocator.js";
import { Heap } from "../../collections/heap.js";
import type { JobView } from "../allocator.js";
import { minCpusWithin, optimalRuntime, taskDuration } from "../model.js";
import { readParams } from "./params.js";

interface Offer {
  job: JobView;
  cpus: number;
  priority: number;
}

export const oracleAllocator: AllocatorFactory = {
  name: "oracle",
  description: "Oracle: exact minimum CPUs per job, same priority and offers as Justice, drops when infeasible",
  defaults: {},
  create({ capacity, params }) {
    readParams("oracle", params, []);
    let admitted = 0;
    const alloc: Allocator = {
      name: "oracle",
      mode: "fixed",
      schedule(ctx: AllocatorContext) {
        const heap = new Heap<Offer>((a, b) => a.priority !== b.priority ? a.priority < b.priority : a.job.index < b.job.index);
        for (const j of ctx.queued) {
          const ttd = j.deadlineAt - ctx.now;
          const q = ctx.now - j.spec.arrival;
          const cpus = minCpusWithin(j.spec, ttd, capacity, ctx.runtime);
          if (cpus === null) {
            ctx.drop(j, q === 0 ? "infeasible-at-submission" : "infeasible-in-queue",
              `Oracle: ${fmtS(ttd)} s left cannot fit even the best runtime ${fmtS(optimalRuntime(j.spec, capacity, ctx.runtime))} s ` +
              `(${j.spec.requestedTasks} tasks of ${fmtS(taskDuration(j.spec))} s, capacity ${capacity})`);
          } else {
            heap.push({ job: j, cpus, priority: cpus / ttd });
          }
        }
        for (let o = heap.pop(); o !== undefined && ctx.freeCpus > 0; o = heap.pop()) {
          if (o.cpus <= ctx.freeCpus) {
            ctx.admit(o.job, o.cpus);
            admitted++;
          }
        }
      },
      report() {
        return { admitted };
      },
    };
    return alloc;
  },
};

function fmtS(x: number): string {
  return Number.isInteger(x) ? String(x) : x.toFixed(3);
}
