"""Runs `TOOL FILE --list` on FILE cut at many lengths (every 5th byte of the
header, metadata and tensor records, then every 211th of the data) and
checks each run that misses bytes of a tensor ends with exit status 1 and
a located error, and each that does not (only the last tensor's padding
cut) lists the file -- no crash, no success on a file missing bytes.

usage: gguf-truncations.py TOOL FILE
"""
import os
import subprocess
import sys
import tempfile

tool, path = sys.argv[1], sys.argv[2]
data = open(path, "rb").read()
# The end of the last tensor's bytes, from the whole file's listing.
listing = subprocess.run([tool, path, "--list"], capture_output=True,
                         text=True, check=True).stdout
needed = max(int(line.split()[-3]) + int(line.split()[-2])
             for line in listing.splitlines()[1:])
# write-gguf.py's records end before byte 448: every 5th byte up to there
# (each field's first, middle or last byte alike), then every 211th.
cuts = list(range(0, 448, 5)) + list(range(448, len(data), 211))
bad = []
with tempfile.TemporaryDirectory() as directory:
    cut_path = os.path.join(directory, "cut.gguf")
    for cut in cuts:
        with open(cut_path, "wb") as file:
            file.write(data[:cut])
        run = subprocess.run([tool, cut_path, "--list"], capture_output=True,
                             text=True, timeout=10)
        if cut >= needed:
            if run.returncode != 0:
                bad.append((cut, run.returncode, run.stderr.strip()[:200]))
        elif run.returncode != 1 or ": error: at byte " not in run.stderr:
            bad.append((cut, run.returncode, run.stderr.strip()[:200]))
print("%d truncations of %d bytes: %d without a located error" %
      (len(cuts), len(data), len(bad)))
for cut, status, message in bad[:5]:
    print("  cut at %d: exit %d: %s" % (cut, status, message))
