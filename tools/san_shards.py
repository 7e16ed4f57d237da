#!/usr/bin/env python3
"""Split the GPU suite into compute-sanitizer shards and collect their summaries
(issue 44, docs/RELIABILITY.md).

  python3 tools/san_shards.py plan --tool memcheck --shards 12
      prints one tools/gpu_sanitize.sh command line per shard; each shard's files
      are balanced by their number of tests (collected with pytest --collect-only),
      so one shard fits one device call (-k cuda keeps the GPU cases).
  python3 tools/san_shards.py collect DIR... [--commit C] [--out docs/SANITIZERS.md]
      reads the san-*.log files gpu_sanitize.sh wrote under each DIR and appends
      one row per shard (date, commit, tool, files, tests passed/failed, errors).

The cpu cases are left out (-k cuda): the sanitizers watch GPU memory and kernels.
"""
import argparse
import collections
import datetime
import pathlib
import re
import subprocess
import sys

ROOT = pathlib.Path(__file__).resolve().parent.parent
TOOLS = ("memcheck", "racecheck", "initcheck", "synccheck")


def test_counts(k):
    """Tests per file that -k selects, from one collection run."""
    out = subprocess.run([sys.executable, "-m", "pytest", "--collect-only", "-q",
                          "-p", "no:cacheprovider", "-k", k, str(ROOT / "tests")],
                         capture_output=True, text=True, cwd=ROOT).stdout
    counts = collections.Counter()
    for line in out.splitlines():
        if "::" in line:
            counts[line.split("::", 1)[0]] += 1
    return counts


def balance(counts, shards):
    """Files into `shards` groups of about equal test counts (largest first)."""
    groups = [[0, []] for _ in range(shards)]
    for f, n in sorted(counts.items(), key=lambda kv: -kv[1]):
        g = min(groups, key=lambda g: g[0])
        g[0] += n
        g[1].append(f)
    return [g for g in groups if g[1]]


def plan(args):
    counts = test_counts(args.k)
    for i, (n, files) in enumerate(balance(counts, args.shards)):
        rel = ",".join(sorted(files))  # pytest prints them from the root: tests/...
        print(f"# shard {i}: {n} tests in {len(files)} files")
        print(f"SAN_TIMEOUT={args.timeout} SANITIZE_K='{args.k}' bash tools/gpu_sanitize.sh "
              f"s{i}-{args.tool}={args.tool}*{args.workers}:{rel}")


def summarize(log):
    text = log.read_text(errors="replace")
    errors = re.findall(r"(?:ERROR|RACECHECK) SUMMARY: (\d+)", text)
    passed = re.findall(r"(\d+) passed", text)
    failed = re.findall(r"(\d+) failed", text)
    cut = "rc=124" in text or "rc=137" in text
    return {"errors": int(errors[-1]) if errors else None,
            "passed": int(passed[-1]) if passed else 0,
            "failed": int(failed[-1]) if failed else 0, "cut": cut}


def collect(args):
    rows = []
    day = datetime.date.today().isoformat()
    for d in args.dirs:
        for log in sorted(pathlib.Path(d).glob("san-*.log")):
            name = log.stem[len("san-"):]
            tool = next((t for t in TOOLS if t in name), "?")
            s = summarize(log)
            err = "no summary" if s["errors"] is None else str(s["errors"])
            rows.append(f"| {day} | {args.commit} | {tool} | {name} | {s['passed']} | "
                        f"{s['failed']} | {err} | {'cut by the time limit' if s['cut'] else ''} |")
    out = ROOT / args.out
    if not out.exists():
        out.write_text("# compute-sanitizer over the GPU suite, by shard\n\n"
                       "Written by `tools/san_shards.py collect`.\n\n"
                       "| date | commit | tool | shard | passed | failed | errors | note |\n"
                       "|---|---|---|---|---|---|---|---|\n")
    with out.open("a") as f:
        f.write("\n".join(rows) + ("\n" if rows else ""))
    print("\n".join(rows))


def main():
    ap = argparse.ArgumentParser(description=__doc__,
                                 formatter_class=argparse.RawDescriptionHelpFormatter)
    sub = ap.add_subparsers(dest="cmd", required=True)
    p = sub.add_parser("plan")
    p.add_argument("--tool", choices=TOOLS, default="memcheck")
    p.add_argument("--shards", type=int, default=12)
    p.add_argument("--workers", type=int, default=4)
    p.add_argument("--timeout", type=int, default=500)
    p.add_argument("-k", default="cuda and not fork and not big_memory")
    p.set_defaults(fn=plan)
    c = sub.add_parser("collect")
    c.add_argument("dirs", nargs="+")
    c.add_argument("--commit", default="?")
    c.add_argument("--out", default="docs/SANITIZERS.md")
    c.set_defaults(fn=collect)
    args = ap.parse_args()
    args.fn(args)


if __name__ == "__main__":
    main()
