"""Exits 1 when a process whose command line names FILE still runs (after
up to 2 s for it to end), listing it; 0 otherwise. Reads /proc: no procps.
Usage: no-process-reads.py FILE"""
import os
import sys
import time

target = sys.argv[1].encode()
deadline = time.monotonic() + 2.0
while True:
    found = []
    for pid in filter(str.isdigit, os.listdir("/proc")):
        try:
            with open(f"/proc/{pid}/cmdline", "rb") as cmdline:
                arguments = cmdline.read()
        except OSError:
            continue  # ended meanwhile
        if target in arguments and int(pid) != os.getpid():
            words = arguments.replace(b"\0", b" ").decode(errors="replace")
            found.append(f"{pid}: {words}")
    if not found or time.monotonic() > deadline:
        break
    time.sleep(0.1)
for line in found:
    print(f"still running: {line}")
sys.exit(1 if found else 0)
