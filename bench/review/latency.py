#!/usr/bin/env python3
"""Time from corner drop to new crop in `snapsort review` (issue #29: <= 1 s at p95 on one core).

Starts the real server on a run's output folder, and for each card record with a quad drops
corner 1 a few pixels away (alternating directions, so each drop is a real change) through
POST /api/quad, then fetches the new crop the answer names: the time the page waits. Also times
the queue (GET /api/queue) as the page loads it. The folder is changed as the page would change
it: pass a copy.

The server runs pinned to one core (the target's "on one core"). The first drop comes `--settle`
seconds after the queue was read, as a person looks at the page before dragging: the server
makes the run's stages in the background at start, and a drop in the first second would wait for
them (`first_drop_ms` is reported on its own as well).

usage: latency.py SNAPSORT OUT [--drops N] [--settle SECONDS]
"""
import argparse
import json
import os
import statistics
import subprocess
import sys
import time
import urllib.parse
import urllib.request


def request(base, token, path, body=None):
    data = None if body is None else json.dumps(body).encode()
    headers = {"X-Review-Token": token}
    if body is not None:
        headers["Content-Type"] = "application/json"
    req = urllib.request.Request(base + path, data=data, headers=headers)
    with urllib.request.urlopen(req, timeout=120) as response:
        return response.read()


def cpu_ms(pid):
    """User plus system CPU time of a process so far: what a drop costs whatever else the machine
    runs (the wall time above also waits for the other engineers' jobs)."""
    with open(f"/proc/{pid}/stat") as stat:
        fields = stat.read().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) * 1000 / os.sysconf("SC_CLK_TCK")


def percentile(values, share):
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(round(share * (len(ordered) - 1))))]


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("snapsort")
    parser.add_argument("out")
    parser.add_argument("--drops", type=int, default=20)
    parser.add_argument("--settle", type=float, default=3.0)
    args = parser.parse_args()
    server = subprocess.Popen(
        [args.snapsort, "review", args.out], stdout=subprocess.PIPE, stderr=subprocess.DEVNULL,
        env={"OMP_THREAD_LIMIT": "1", "PATH": "/usr/bin:/bin"},
        preexec_fn=lambda: os.sched_setaffinity(0, {min(os.sched_getaffinity(0))}))
    try:
        url = server.stdout.readline().decode().strip()
        parsed = urllib.parse.urlparse(url)
        base = f"{parsed.scheme}://{parsed.netloc}"
        token = urllib.parse.parse_qs(parsed.query)["token"][0]
        queue_ms = []
        for _ in range(5):
            started = time.perf_counter()
            queue = json.loads(request(base, token, "/api/queue?q=&limit=500"))
            entries = queue["entries"]
            queue_ms.append((time.perf_counter() - started) * 1000)
        cards = []
        for entry in entries:
            detail = json.loads(request(base, token, "/api/record?file=" + urllib.parse.quote(entry["file"])))
            card = detail["record"].get("card")
            if detail["kind"] == "card" and card and card.get("quad") and detail["status"] == "ok":
                cards.append((entry["file"], card["quad"]))
        if not cards:
            sys.exit("no card with a quad in " + args.out)
        time.sleep(args.settle)
        drops, cpu, refused = [], [], 0
        for index in range(args.drops):
            file, quad = cards[index % len(cards)]
            step = 6 if (index // len(cards)) % 2 == 0 else -6
            moved = [list(point) for point in quad]
            moved[0] = [quad[0][0] + step, quad[0][1] + step]
            started = time.perf_counter()
            started_cpu = cpu_ms(server.pid)
            try:
                detail = json.loads(request(base, token, "/api/quad", {"file": file, "quad": moved}))
                request(base, token, detail["crop"] + "&token=" + token)
            except urllib.error.HTTPError:
                refused += 1
                continue
            drops.append((time.perf_counter() - started) * 1000)
            cpu.append(cpu_ms(server.pid) - started_cpu)
            cards[index % len(cards)] = (file, moved)
        result = {
            "records": queue["count"], "cards": len(cards), "drops": len(drops), "refused": refused,
            "drop_to_crop_ms_median": round(statistics.median(drops), 1),
            "drop_to_crop_ms_p95": round(percentile(drops, 0.95), 1),
            "first_drop_ms": round(drops[0], 1), "first_drop_cpu_ms": round(cpu[0], 1),
            "settle_s": args.settle, "server_cores": 1,
            "drop_cpu_ms_median": round(statistics.median(cpu), 1),
            "drop_cpu_ms_p95": round(percentile(cpu, 0.95), 1),
            "queue_ms_median": round(statistics.median(queue_ms), 1),
        }
        print(json.dumps(result, indent=2))
    finally:
        server.terminate()
        server.wait()


if __name__ == "__main__":
    main()
