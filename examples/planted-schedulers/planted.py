#!/usr/bin/env python3
"""A small weighted-DRF scheduler speaking the JSON-lines ops of `fairsched serve` (stdlib only),
with one bug planted on purpose (argv[1]); `fairsched fuzz --scheduler` must find each and name it:

  ping-pong    preempts the newest task of another queue whenever its own queue waits and
               nothing fits; declares "supports": {"preempt": true}      -> no-preemption-cycle
  round-robin  takes queues in turn, one task each, by task count        -> long-run-share
  split        weights are kept as whole numbers (k queues of w/k gain)  -> split-resistance
  call-timing  starts at most one task per schedule call                 -> call-rate-independence
  none         no bug

  fairsched fuzz --scheduler "python3 examples/planted-schedulers/planted.py split"
(examples/planted-schedulers/planted.mjs is the same in JavaScript.)
"""
import json
import sys

BUG = sys.argv[1] if len(sys.argv) > 1 else "none"


class State:
    def __init__(self, capacity):
        self.capacity = capacity
        self.queues = {}  # name -> dict, in insertion order
        self.tasks = {}
        self.turn = 0
        self.order = 0


S = State([])


def share(q):
    return max([u / c for u, c in zip(q["usage"], S.capacity)] + [0.0])


def weight(q):
    return max(1, round(q["weight"])) if BUG == "split" else q["weight"]


def free():
    return [c - sum(q["usage"][r] for q in S.queues.values()) for r, c in enumerate(S.capacity)]


def fits(d, f):
    return all(v <= f[r] + 1e-9 for r, v in enumerate(d))


def start(q, t, started):
    q["waiting"].pop(0)
    t["running"] = True
    t["order"] = S.order
    S.order += 1
    for r, v in enumerate(t["demand"]):
        q["usage"][r] += v
    started.append({"id": t["id"], "queue": q["name"]})


def stop(t):
    q = S.queues[t["queue"]]
    t["running"] = False
    for r, v in enumerate(t["demand"]):
        q["usage"][r] -= v


def schedule():
    started, preempted = [], []
    qs = list(S.queues.values())
    while True:
        f = free()
        ready = [q for q in qs if q["waiting"] and fits(q["waiting"][0]["demand"], f)]
        if not ready:
            break
        if BUG == "round-robin":
            later = [q for q in ready if qs.index(q) >= S.turn % len(qs)]
            q = later[0] if later else ready[0]
            S.turn = qs.index(q) + 1
        else:
            q = min(ready, key=lambda x: (share(x) / weight(x), qs.index(x)))
        start(q, q["waiting"][0], started)
        if BUG == "call-timing":
            break
    if BUG == "ping-pong":
        before = S.order - len(started)
        for q in qs:
            if not q["waiting"] or fits(q["waiting"][0]["demand"], free()):
                continue
            victims = [t for t in S.tasks.values() if t["running"] and t["queue"] != q["name"] and t["order"] < before]
            if not victims:
                continue
            victim = max(victims, key=lambda t: t["order"])
            stop(victim)
            S.queues[victim["queue"]]["waiting"].insert(0, victim)
            preempted.append(victim["id"])
            if fits(q["waiting"][0]["demand"], free()):
                start(q, q["waiting"][0], started)
            break
        return {"started": started, "preempted": preempted}
    return {"started": started}


def handle(req):
    global S
    op = req.get("op")
    if op == "init":
        S = State(req["capacity"])
        return {"ok": True, "supports": {"preempt": True}} if BUG == "ping-pong" else {"ok": True}
    if op == "addQueue":
        S.queues[req["queue"]] = {"name": req["queue"], "weight": req.get("weight", 1), "waiting": [], "usage": [0.0] * len(S.capacity)}
        return {"admission": {"class": "admitted"}}
    if op == "removeQueue":
        q = S.queues.pop(req["queue"])
        return {"waiting": [{"id": t["id"], "demand": t["demand"]} for t in q["waiting"]]}
    if op == "submit":
        t = {"id": req["task"]["id"], "queue": req["queue"], "demand": req["task"]["demand"], "running": False, "order": -1}
        S.tasks[t["id"]] = t
        S.queues[req["queue"]]["waiting"].append(t)
        return {"ok": True}
    if op == "cancel":
        t = S.tasks.pop(req["id"])
        was = t["running"]
        if was:
            stop(t)
        else:
            S.queues[t["queue"]]["waiting"].remove(t)
        return {"id": t["id"], "queue": t["queue"], "wasRunning": was}
    if op == "finish":
        stop(S.tasks.pop(req["id"]))
        return {"ok": True}
    if op == "schedule":
        return schedule()
    if op == "nextWakeup":
        return {"time": None}
    return {"error": "unknown op %r" % (op,)}


def main():
    for line in sys.stdin:
        if not line.strip():
            continue
        try:
            out = handle(json.loads(line))
        except Exception as e:  # a bad request is an answer, as in fairsched serve
            out = {"error": str(e)}
        sys.stdout.write(json.dumps(out) + "\n")
        sys.stdout.flush()


if __name__ == "__main__":
    main()
