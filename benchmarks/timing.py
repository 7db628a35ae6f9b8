"""The benchmarks' timing harness, in the repository (issue 21: no file from outside it).

Every figure is measured the same way as the OpenSpiel and RLCard anchors
(``shared/anchors/harness.py``, whose output format this keeps so that its
``summarize.py`` reads ours): ``warmup`` unmeasured repetitions, then ``reps`` measured
ones, each a fixed amount of work seeded by its index; every counter becomes a rate per
repetition (counter / seconds), reported as median, min and max.  A work function may
return ``"_t"``: the seconds to use instead of the wall time (e.g. CPU time).

Prints one human line and one ``ANCHOR {json}`` line per result.  Standard library only.
"""

from __future__ import annotations

import gc
import json
import os
import platform
import statistics
import time
from collections.abc import Callable
from importlib import metadata


def machine_info() -> dict[str, object]:
    """Python version, CPU model, visible CPUs, this process's CPU affinity, platform."""
    cpu = platform.processor() or ""
    try:
        with open("/proc/cpuinfo") as fh:
            for line in fh:
                if line.startswith("model name"):
                    cpu = line.split(":", 1)[1].strip()
                    break
    except OSError:
        pass
    try:
        affinity = sorted(os.sched_getaffinity(0))
    except AttributeError:  # not Linux
        affinity = []
    return {"python": platform.python_version(), "cpu": cpu, "cpus_visible": os.cpu_count(),
            "affinity": affinity, "platform": platform.platform()}


def header(script: str, versions: dict[str, str]) -> None:
    """Print the run's ``HEADER {json}`` line (script, package versions, machine)."""
    info = {"script": script, "versions": versions, **machine_info()}
    print("# " + json.dumps(info, sort_keys=True), flush=True)
    print("HEADER " + json.dumps(info, sort_keys=True), flush=True)


def pkg_version(dist: str) -> str:
    """The installed version of distribution ``dist``, or ``"not installed"``."""
    try:
        return metadata.version(dist)
    except metadata.PackageNotFoundError:
        return "not installed"


def _stats(vals: list[float]) -> dict[str, float]:
    return {"median": statistics.median(vals), "min": min(vals), "max": max(vals)}


def measure(name: str, work: Callable[[int], dict[str, float]], reps: int = 7, warmup: int = 1,
            meta: dict[str, object] | None = None, primary: str | None = None) -> dict[str, object]:
    """Run ``work(rep)`` ``warmup`` + ``reps`` times (warm-ups get negative indexes) and
    return, after printing them, the rates (``<counter>_per_s``: median/min/max per second)."""
    for i in range(warmup):
        work(-1 - i)
    gc.collect()
    samples = []
    for i in range(reps):
        t0 = time.perf_counter()
        counters = work(i)
        dt = time.perf_counter() - t0
        samples.append((counters.pop("_t", dt), counters))
    keys = list(samples[0][1])
    rates = {k + "_per_s": _stats([c[k] / dt for dt, c in samples if dt > 0]) for k in keys}
    result: dict[str, object] = {
        "anchor": name, "reps": reps, "warmup": warmup,
        "rep_seconds": _stats([dt for dt, _ in samples]),
        "totals": {k: sum(c[k] for _, c in samples) for k in keys},
        "rates": rates, "per_unit": {},
        "primary": (primary + "_per_s") if primary else None, "meta": meta or {},
    }
    parts = [f"{k}={st['median']:,.0f} [{st['min']:,.0f}..{st['max']:,.0f}]" for k, st in rates.items()]
    print(f"{name}: " + "  ".join(parts) + f"  (reps={reps})", flush=True)
    print("ANCHOR " + json.dumps(result, sort_keys=True), flush=True)
    return result
