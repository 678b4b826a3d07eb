"""A warm ``poker analyze --json`` per rules preset, old against new, as whole processes in one run.

    .venv/bin/python benchmarks/warm_analyze.py --old-src DIR [--rules live --rules online] [--runs 9]

``--old-src`` is the ``src`` folder of the code to compare with (a checkout of the previous version
with its compiled kernels, ``fourcards/_aot*.so``). Each preset runs once per version first (filling
the shared caches: the dealer counts, and whatever else a version caches), then the versions and
presets alternate, so the machine's load hits them alike. Whole processes, timed with their CPU
time (user + system of the child), the steadier figure on a shared machine, and wall time.
"""

from __future__ import annotations

import argparse
import os
import platform
import shutil
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
from issue23 import run, summary  # noqa: E402  (the same process timing)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--old-src", type=Path, required=True, help="src folder of the version to compare with")
    ap.add_argument("--new-src", type=Path, default=Path(__file__).resolve().parent.parent / "src",
                    help="src folder of the new version (default: this checkout's)")
    ap.add_argument("--rules", action="append", help="rules presets (default: live and online)")
    ap.add_argument("--runs", type=int, default=9)
    opts = ap.parse_args()
    presets = opts.rules or ["live", "online"]
    cache = Path(tempfile.mkdtemp(prefix="fourcards-warm-analyze-"))
    base = dict(os.environ, FOURCARDS_CACHE_DIR=str(cache), PYTHONDONTWRITEBYTECODE="1")
    base.pop("FOURCARDS_JIT", None)
    versions = {"old": dict(base, PYTHONPATH=str(opts.old_src)), "new": dict(base, PYTHONPATH=str(opts.new_src))}
    load0 = os.getloadavg()
    results: dict[tuple[str, str], list[tuple[float, float]]] = {}
    try:
        for preset in presets:
            for env in versions.values():
                run([sys.executable, "-m", "fourcards", "poker", "analyze", "--rules", preset, "--json"], env)
        for _ in range(opts.runs):
            for preset in presets:
                for name, env in versions.items():
                    cmd = [sys.executable, "-m", "fourcards", "poker", "analyze", "--rules", preset, "--json"]
                    results.setdefault((preset, name), []).append(run(cmd, env))
    finally:
        shutil.rmtree(cache, ignore_errors=True)
    load1 = os.getloadavg()
    print(f"\n{time.strftime('%Y-%m-%d %H:%M')}; {platform.machine()}, {os.cpu_count()} CPUs, "
          f"{platform.system()} {platform.release()}; Python {platform.python_version()}; load average "
          f"{load0[0]:.1f} before, {load1[0]:.1f} after\n")
    print("| warm `poker analyze --json` | CPU median | CPU best | wall median | wall best | runs |")
    print("|---|---|---|---|---|---|")
    for (preset, name), runs in results.items():
        s = summary(runs)
        cpus = sorted(c for _, c in runs)
        print(f"| `--rules {preset}`, {name} | {s['cpu_median']:.2f} s | {cpus[0]:.2f} s | {s['median']:.2f} s | "
              f"{s['best']:.2f} s | {s['n']} |")


if __name__ == "__main__":
    main()
