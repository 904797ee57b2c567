#!/usr/bin/env python3
"""Runs zkpipe's arithmetic benchmark programs and prints one summary table.

Usage: arith-summary.py BUILD_DIR OUT_DIR

Each row names a Google Benchmark program, a filter for one benchmark in it, and
(where one exists) blst's single-threaded figure on the same kind of machine
(AMD EPYC Zen 4, 2.6 GHz, 2026-12-01), so the ratio column reads "times blst".
Raw JSON results are kept in OUT_DIR for docs/BENCHMARKS.md.
"""
import json
import os
import re
import subprocess
import sys

# (program, exact benchmark name, label, blst reference in ns or None)
ROWS = [
    ("bench_field", "BM_FpMul", "Fp mul", 36.0),
    ("bench_field", "BM_FrMul", "Fr mul", 18.6),
    ("bench_field", "BM_FpInverse", "Fp inverse", 2440.0),
    ("bench_curve", "G1/mixed_add_jacobian", "G1 mixed add", 540.0),
    ("bench_curve", "G2/mixed_add_jacobian", "G2 mixed add", 1320.0),
    ("bench_curve", "G1/scalar_mul_vartime", "G1 scalar mul", 86.8e3),
    ("bench_curve", "G2/scalar_mul_vartime", "G2 scalar mul", 167e3),
    ("bench_pairing", "BM_Pairing", "pairing", 0.60e6),
    ("bench_msm", "G1Msm/12/1", "G1 MSM 2^12, 1 thread", 52e6),
    ("bench_msm", "G1Msm/16/1", "G1 MSM 2^16, 1 thread", 0.60e9),
    ("bench_msm", "G1Msm/20/1", "G1 MSM 2^20, 1 thread", 7.7e9),
    ("bench_msm", "G1Msm/16/0", "G1 MSM 2^16, all threads", None),
    ("bench_msm", "G2Msm/16/1", "G2 MSM 2^16, 1 thread", 1.53e9),
    ("bench_ntt", "BM_Forward/20", "NTT 2^20, all threads", None),
]

UNIT_NS = {"ns": 1.0, "us": 1e3, "ms": 1e6, "s": 1e9}


def run_program(build, out, program, names):
    path = os.path.join(build, "bench", program)
    if not os.access(path, os.X_OK):
        print(f"  (missing {path}; skipped)", file=sys.stderr)
        return {}
    pattern = "^(" + "|".join(re.escape(n) for n in names) + ")(/|$)"
    json_path = os.path.join(out, f"{program}.json")
    print(f"running {program} ...", flush=True)
    subprocess.run(
        [path, f"--benchmark_filter={pattern}", f"--benchmark_out={json_path}",
         "--benchmark_out_format=json", "--benchmark_format=console"],
        check=True, stdout=subprocess.DEVNULL)
    with open(json_path) as f:
        results = json.load(f)["benchmarks"]
    by_name = {}
    for r in results:
        name = r["run_name"] if "run_name" in r else r["name"]
        name = re.sub(r"/(min_time:[^/]*|real_time|process_time)", "", name)
        by_name[name] = r["real_time"] * UNIT_NS[r["time_unit"]]
    return by_name


def fmt(ns):
    for unit, scale in (("s", 1e9), ("ms", 1e6), ("us", 1e3)):
        if ns >= scale:
            return f"{ns / scale:.3g} {unit}"
    return f"{ns:.3g} ns"


def main():
    if len(sys.argv) != 3:
        sys.exit(__doc__)
    build, out = sys.argv[1], sys.argv[2]
    os.makedirs(out, exist_ok=True)
    programs = {}
    for program, name, _, _ in ROWS:
        programs.setdefault(program, []).append(name)
    measured = {}
    for program, names in programs.items():
        measured.update(run_program(build, out, program, names))
    print()
    print(f"{'operation':<28} {'zkpipe':>12} {'blst':>12} {'zkpipe/blst':>12}")
    for _, name, label, ref in ROWS:
        t = measured.get(name)
        shown = fmt(t) if t is not None else "n/a"
        ref_shown = fmt(ref) if ref else "-"
        ratio = f"{t / ref:.2f}x" if (t is not None and ref) else "-"
        print(f"{label:<28} {shown:>12} {ref_shown:>12} {ratio:>12}")
    print(f"\nraw results: {out}/bench_*.json")


if __name__ == "__main__":
    main()
