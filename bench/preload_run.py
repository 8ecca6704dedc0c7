# SPDX-License-Identifier: MIT
"""Runs one configuration of a bench script in a process of its own, plain or
with bwgemm preloaded, and reads back what it printed and what bwgemm decided
(bench/gpt2_step.py, bench/decode_step.py)."""

import json
import os
import subprocess
import sys
import tempfile


def run_child(script, args, lib, what):
    """Runs `script` with `args` (without the library's own settings from this
    environment, so both runs see the same policy); with `lib`, preloads it
    and logs each new decision. Returns the JSON object of the child's last
    line with "paths": {path, or cublas:reason: distinct calls}. Exits with
    the child's stderr, naming `what`, if it fails."""
    env = {k: v for k, v in os.environ.items() if not k.startswith("BWGEMM_")}
    log = None
    if lib:
        log = tempfile.NamedTemporaryFile(suffix=".log", delete=False).name
        env.update(LD_PRELOAD=lib, BWGEMM_LOG="1", BWGEMM_LOG_FILE=log)
    out = subprocess.run([sys.executable, script, *args], env=env, capture_output=True, text=True)
    if out.returncode != 0:
        sys.exit(f"{os.path.basename(script)}: {what} failed:\n{out.stderr}")
    result = json.loads(out.stdout.strip().splitlines()[-1])
    paths = {}
    if log:
        with open(log) as f:
            for line in f:
                if " -> " in line:
                    path = line.split(" -> ")[1].split(" ")[0]
                    if path == "cublas":
                        # the reason, without the selection rule after it
                        path += ":" + line.rsplit("(", 1)[1].strip().rstrip(")").split(":")[0]
                    paths[path] = paths.get(path, 0) + 1
        os.unlink(log)
    result["paths"] = paths
    return result
