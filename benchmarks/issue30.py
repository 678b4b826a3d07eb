"""Issue 30's speed check: ``KindVectorEnv`` as a Gymnasium VectorEnv, old code against new in the same run.

Runs the KindVectorEnv benchmarks of ``bench_rl.py`` (one step of 16,384 deals, random legal ids: 4 seats,
4 seats in two threads, 8 seats) with pytest-benchmark, alternately on the old sources and on this
checkout's, ``--pairs`` times, and prints each run's median rate (moves a second) and the load average:

    git archive <commit before issue 30> src | tar -x -C /tmp/old
    cp src/fourcards/_aot*.so /tmp/old/src/fourcards/      # the compiled kernels, if built
    python benchmarks/issue30.py --old-src /tmp/old/src [--pairs 3] [--json docs/img/issue30-vector.json]
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
import tempfile
from pathlib import Path

HERE = Path(__file__).resolve().parent
NEW_SRC = HERE.parent / "src"
TESTS = "test_bench_kind_vector_env_steps"


def run(src: Path) -> dict[str, float]:
    """One pytest-benchmark run of the KindVectorEnv benchmarks on ``src``: moves a second (median) by test."""
    with tempfile.TemporaryDirectory() as tmp:
        out = Path(tmp) / "b.json"
        env = {**os.environ, "PYTHONPATH": str(src)}
        subprocess.run([sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider", str(HERE / "bench_rl.py"),
                        "-k", TESTS, "--benchmark-only", f"--benchmark-json={out}", "-o", f"pythonpath={src}"],
                       check=True, env=env, stdout=subprocess.DEVNULL, cwd=tmp)
        data = json.loads(out.read_text())
    return {b["name"].removeprefix(TESTS + "_"): b["extra_info"]["moves_per_call"] / b["stats"]["median"]
            for b in data["benchmarks"]}


def main() -> None:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--old-src", type=Path, required=True, help="the old code's src directory")
    p.add_argument("--pairs", type=int, default=3)
    p.add_argument("--json", type=Path, default=None)
    args = p.parse_args()
    rows = []
    for pair in range(args.pairs):
        for label, src in (("old", args.old_src), ("new", NEW_SRC)):
            before = os.getloadavg()[0]
            rates = run(src)
            row = {"pair": pair + 1, "code": label, "load_average_before": round(before, 2),
                   "load_average_after": round(os.getloadavg()[0], 2),
                   **{k: round(v) for k, v in rates.items()}}
            rows.append(row)
            print(json.dumps(row), flush=True)
    if args.json:
        args.json.write_text(json.dumps(rows, indent=1) + "\n")


if __name__ == "__main__":
    main()
