#!/usr/bin/env python3
"""How long `snapsort review`'s page takes to show its queue (issue #29: 1 000 records in <= 1 s),
in real headless Chromium driven over its DevTools pipe: the page notes when its first page of the
queue is on screen (`data-queue-ms`, milliseconds since navigation started), which includes the
queue request and the rendering, and not the browser's own start.

usage: pageload.py SNAPSORT OUT [--loads 5] [--chromium /usr/bin/chromium]
"""
import argparse
import json
import os
import shutil
import statistics
import subprocess
import tempfile
import time


class Pipe:
    """Chromium's --remote-debugging-pipe: JSON messages separated by NUL on fds 3 (in) and 4 (out)."""

    def __init__(self, browser, profile):
        to_browser_read, self.to_browser = os.pipe()
        self.from_browser, from_browser_write = os.pipe()
        os.set_inheritable(to_browser_read, True)
        os.set_inheritable(from_browser_write, True)

        def wire():
            os.dup2(to_browser_read, 3)
            os.dup2(from_browser_write, 4)

        self.process = subprocess.Popen(
            [browser, "--headless=new", "--remote-debugging-pipe", "--no-sandbox", "--disable-gpu",
             "--no-first-run", f"--user-data-dir={profile}", "about:blank"],
            close_fds=False, preexec_fn=wire,
            stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        os.close(to_browser_read)
        os.close(from_browser_write)
        self.buffer = b""
        self.next_id = 0

    def send(self, method, params=None, session=None):
        self.next_id += 1
        message = {"id": self.next_id, "method": method, "params": params or {}}
        if session:
            message["sessionId"] = session
        os.write(self.to_browser, json.dumps(message).encode() + b"\0")
        while True:
            while b"\0" not in self.buffer:
                chunk = os.read(self.from_browser, 65536)
                if not chunk:
                    raise RuntimeError("chromium closed its pipe")
                self.buffer += chunk
            line, self.buffer = self.buffer.split(b"\0", 1)
            reply = json.loads(line)
            if reply.get("id") == self.next_id:
                if "error" in reply:
                    raise RuntimeError(f"{method}: {reply['error']}")
                return reply.get("result", {})

    def close(self):
        self.process.terminate()
        self.process.wait()


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("snapsort")
    parser.add_argument("out")
    parser.add_argument("--loads", type=int, default=5)
    parser.add_argument("--chromium", default=shutil.which("chromium") or "/usr/bin/chromium")
    args = parser.parse_args()
    server = subprocess.Popen(
        [args.snapsort, "review", args.out], stdout=subprocess.PIPE, stderr=subprocess.DEVNULL,
        env={"OMP_THREAD_LIMIT": "1", "PATH": "/usr/bin:/bin"})
    profile = tempfile.mkdtemp(prefix="pageload-")
    pipe = None
    try:
        url = server.stdout.readline().decode().strip()
        pipe = Pipe(args.chromium, profile)
        target = pipe.send("Target.createTarget", {"url": "about:blank"})["targetId"]
        session = pipe.send("Target.attachToTarget", {"targetId": target, "flatten": True})["sessionId"]
        loads, shown = [], None
        for _ in range(args.loads):
            pipe.send("Page.navigate", {"url": url}, session)
            deadline = time.time() + 60
            value = None
            while time.time() < deadline:
                result = pipe.send(
                    "Runtime.evaluate",
                    {"expression": "document.body && document.body.dataset.queueMs || ''", "returnByValue": True},
                    session)
                value = result.get("result", {}).get("value")
                if value:
                    break
                time.sleep(0.05)
            if not value:
                raise SystemExit("the queue never showed")
            loads.append(float(value))
            shown = pipe.send(
                "Runtime.evaluate",
                {"expression": "[document.querySelectorAll('#queue > li').length, document.querySelector('#count').textContent]",
                 "returnByValue": True}, session)["result"]["value"]
        print(json.dumps({
            "records_text": shown[1], "rows_on_screen": shown[0], "loads": len(loads),
            "page_queue_ms_median": round(statistics.median(loads), 1), "page_queue_ms_max": round(max(loads), 1),
            "page_queue_ms_each": loads,
        }, indent=2))
    finally:
        if pipe:
            pipe.close()
        server.terminate()
        server.wait()
        shutil.rmtree(profile, ignore_errors=True)


if __name__ == "__main__":
    main()
