"""A stdlib-only Python client for `fairsched serve` (docs/live-scheduler.md).

    from fairsched_client import Sidecar
    with Sidecar(["npx", "fairsched", "serve"]) as s:
        s.call(op="init", policy="drf", capacity=[9, 18])
        s.call(op="addQueue", queue="A")
        s.call(op="submit", queue="A", task={"id": "a1", "demand": [1, 4]})
        print(s.call(op="schedule"))   # {'started': [{'id': 'a1', 'queue': 'A'}]}
"""
import json
import subprocess
import sys


class SidecarError(Exception):
    """A request the sidecar refused: `field` names what was wrong."""

    def __init__(self, message, field=None):
        super().__init__(message)
        self.field = field


class Sidecar:
    def __init__(self, command):
        self.proc = subprocess.Popen(command, stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True, bufsize=1)

    def call(self, **request):
        """Sends one request line and returns the response; raises SidecarError on {"error": ...}."""
        self.proc.stdin.write(json.dumps(request) + "\n")
        self.proc.stdin.flush()
        line = self.proc.stdout.readline()
        if not line:
            raise RuntimeError("the sidecar exited")
        response = json.loads(line)
        if "error" in response:
            raise SidecarError(response["error"], response.get("field"))
        return response

    def close(self):
        self.proc.stdin.close()
        self.proc.wait(timeout=30)

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        self.close()


def main(command):
    """The DRF paper's example through the sidecar: prints how many tasks of A and B start."""
    with Sidecar(command) as s:
        s.call(op="init", policy="drf", capacity=[9, 18], clock="manual")
        s.call(op="addQueue", queue="A")
        s.call(op="addQueue", queue="B")
        for i in range(10):
            s.call(op="submit", queue="A", task={"id": "a%d" % i, "demand": [1, 4]})
            s.call(op="submit", queue="B", task={"id": "b%d" % i, "demand": [3, 1]})
        try:
            s.call(op="submit", queue="A", task={"id": "a0", "demand": [1, 4]})
        except SidecarError as e:
            print("refused:", e.field)
        started = s.call(op="schedule", time=1)["started"]
        print(json.dumps({q: sum(1 for t in started if t["queue"] == q) for q in ("A", "B")}, sort_keys=True))


if __name__ == "__main__":
    main(sys.argv[1:] or ["npx", "fairsched", "serve"])
