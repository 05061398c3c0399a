#!/usr/bin/env python3
"""Weighted DRF (progressive filling) speaking the fairsched fuzz protocol, stdlib only.

One JSON request per stdin line:  {"capacity": [K], "demands": [[K] x N], "weights": [N]}
One JSON response per line:       {"allocation": [[K] x N]}

Run it under the fuzzer:  fairsched fuzz --cmd "python3 examples/python-allocator/drf_allocator.py"

Progressive filling: every unfrozen queue i runs lambda_i = level * w_i / delta_i of its
demand (delta_i its dominant share); the level rises until a queue is satisfied
(lambda_i = 1) or a resource saturates, which freezes every queue that uses it.
"""
import json
import sys


def drf(capacity, demands, weights):
    n, k = len(demands), len(capacity)
    share = [[demands[i][r] / capacity[r] for r in range(k)] for i in range(n)]
    delta = [max(row) if row else 0.0 for row in share]
    lam = [0.0] * n
    active = [delta[i] > 0 for i in range(n)]
    saturated = [False] * k
    used = [0.0] * k  # shares of each resource held by frozen queues
    level = 0.0
    while any(active):
        # slope of each resource's use per unit of level, from the active queues
        slope = [0.0] * k
        for i in range(n):
            if active[i]:
                for r in range(k):
                    slope[r] += share[i][r] * weights[i] / delta[i]
        nxt = min(delta[i] / weights[i] for i in range(n) if active[i])
        for r in range(k):
            if slope[r] > 0 and not saturated[r]:
                nxt = min(nxt, (1.0 - used[r]) / slope[r])
        level = max(level, nxt)
        # freeze: satisfied queues, and every queue using a resource that is now full
        full = [False] * k
        for r in range(k):
            if not saturated[r] and slope[r] > 0 and used[r] + slope[r] * level >= 1.0 - 1e-12:
                full[r] = True
        frozen = []
        for i in range(n):
            if not active[i]:
                continue
            if delta[i] / weights[i] <= level:
                frozen.append((i, 1.0))
            elif any(full[r] and share[i][r] > 0 for r in range(k)):
                frozen.append((i, level * weights[i] / delta[i]))
        for r in range(k):
            saturated[r] = saturated[r] or full[r]
        for i, l in frozen:
            lam[i] = l
            active[i] = False
            for r in range(k):
                used[r] += l * share[i][r]
    return [[lam[i] * demands[i][r] for r in range(k)] for i in range(n)]


def main():
    for line in sys.stdin:
        if not line.strip():
            continue
        req = json.loads(line)
        n = len(req["demands"])
        weights = req.get("weights") or [1.0] * n
        out = drf(req["capacity"], req["demands"], weights)
        sys.stdout.write(json.dumps({"allocation": out}) + "\n")
        sys.stdout.flush()


if __name__ == "__main__":
    main()
