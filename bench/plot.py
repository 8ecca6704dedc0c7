#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""Plots a bwgemm-bench CSV: one PNG per suite, written next to the CSV.

usage: plot.py RESULTS.csv [--outdir DIR]

Throughput suites: grouped bars of TFLOP/s (cuBLAS, dispatch, kernel) per shape,
each bwgemm bar labelled with its throughput over cuBLAS, and below them the
dispatch/cuBLAS and kernel/cuBLAS ratios against a line at 1.0. Suites with eager
and CUDA-graph rates get a second PNG (<stem>-<suite>-rates.png) and a third of
effective bandwidth in the graph against the measured copy bandwidth
(<stem>-<suite>-bandwidth.png). The host suite gets bars of host time per call
with the added cost over cuBLAS and over the bare launch.

Needs matplotlib; without it, says so and exits 0 (the CSV is the result).
"""
import argparse
import csv
import math
import os
import sys

PATH_COLORS = {
    "cublas": "#8c8c8c",
    "dispatch": "#1f77b4",
    "kernel": "#ff7f0e",
    "forward": "#2ca02c",
    "bare": "#9467bd",
}
OTHER_COLORS = ["#8c564b", "#e377c2", "#17becf", "#bcbd22"]
THROUGHPUT_PATHS = ["cublas", "dispatch", "kernel"]
KERNEL_TARGET_US = 2.0  # host cost of the kernel path
KERNEL_OVER_BARE_US = 0.3  # kernel path over the bare launch
FORWARD_TARGET_US = 0.5  # host cost added by forwarding


def color(path):
    if path not in PATH_COLORS:
        PATH_COLORS[path] = OTHER_COLORS[len(PATH_COLORS) % len(OTHER_COLORS)]
    return PATH_COLORS[path]


def number(text):
    try:
        return float(text)
    except (TypeError, ValueError):
        return math.nan


def shape_key(row):
    return (row["shape"], row["op"], row["dtype"], row["batch"], row["ld"])


def shape_label(key, show_ld):
    shape, op, dtype, batch, ld = key
    label = f"{shape}\n{op} {dtype}"
    if show_ld:
        label += f" ld={ld}"
    if batch != "1":
        label += f" b={batch}"
    return label


class Table:
    """The rows of one suite and one metric, indexed by shape and path."""

    def __init__(self, rows, metric):
        self.rows = [r for r in rows if r["metric"] == metric]
        self.keys = []
        self.cell = {}
        for r in self.rows:
            key = shape_key(r)
            if key not in self.cell:
                self.keys.append(key)
                self.cell[key] = {}
            self.cell[key][r["path"]] = r
        show_ld = any(k[4] != "min" for k in self.keys)
        self.labels = [shape_label(k, show_ld) for k in self.keys]

    def values(self, path, column):
        return [number(self.cell[k].get(path, {}).get(column)) for k in self.keys]

    def flags(self, path):
        return [self.cell[k].get(path, {}).get("mismatch") == "1" for k in self.keys]


def context(rows):
    """GPU, mode and clock range, for the title."""
    first = rows[0]
    clocks = sorted({int(r["sm_clock_mhz"]) for r in rows if r["sm_clock_mhz"] not in ("", "0")})
    if not clocks:
        clock = "SM clock n/a"
    elif clocks[0] == clocks[-1]:
        clock = f"SM clock {clocks[0]} MHz"
    else:
        clock = f"SM clock {clocks[0]}-{clocks[-1]} MHz"
    return f"{first['gpu']}, {first['mode']}, {clock} (max {first['max_sm_clock_mhz']})"


def grouped_bars(ax, table, paths, column, annotate_ratio):
    """Bars of `column` per shape and path; bwgemm bars get their ratio to cuBLAS."""
    n = len(table.keys)
    width = 0.8 / len(paths)
    top = max([v for p in paths for v in table.values(p, column) if not math.isnan(v)] or [1.0])
    for i, path in enumerate(paths):
        xs = [j + (i - (len(paths) - 1) / 2) * width for j in range(n)]
        ys = table.values(path, column)
        bad = table.flags(path)
        bars = ax.bar(xs, [0 if math.isnan(y) else y for y in ys], width, label=path,
                      color=color(path),
                      edgecolor=["red" if b else "none" for b in bad])
        for bar, b in zip(bars, bad):
            if b:
                bar.set_hatch("xx")
        if path == "cublas" or not annotate_ratio:
            continue
        ratios = table.values(path, "ratio_vs_cublas")
        for x, y, r, b in zip(xs, ys, ratios, bad):
            if math.isnan(y):
                continue
            text = "MISMATCH" if b else f"{r:.2f}x"
            ax.text(x, y + 0.01 * top, text, ha="center", va="bottom", rotation=90,
                    fontsize=7, color="red" if b else "black")
    ax.set_ylim(0, top * 1.18)
    ax.set_xticks(range(n))
    ax.set_xlim(-0.6, n - 0.4)
    ax.grid(axis="y", alpha=0.3)


def ratio_panel(ax, table, metric_name):
    """Ratios drawn from the 1.0 line, up when faster than cuBLAS, down when slower."""
    n = len(table.keys)
    width = 0.35
    values = []
    for i, path in enumerate(["dispatch", "kernel"]):
        ratios = table.values(path, "ratio_vs_cublas")
        bad = table.flags(path)
        values += [r for r in ratios if not math.isnan(r)]
        xs = [j + (i - 0.5) * width for j in range(n)]
        bars = ax.bar(xs, [0 if math.isnan(r) else r - 1.0 for r in ratios], width, bottom=1.0,
                      color=color(path), label=f"{path} / cublas",
                      edgecolor=["red" if b else "none" for b in bad])
        for bar, b in zip(bars, bad):
            if b:
                bar.set_hatch("xx")
    ax.axhline(1.0, color="black", linestyle="--", linewidth=1)
    lo = min(values + [1.0])
    hi = max(values + [1.0])
    pad = 0.1 * (hi - lo) + 0.05
    ax.set_ylim(max(0.0, lo - pad), hi + pad)
    ax.set_ylabel(f"{metric_name} throughput\nover cuBLAS (x)")
    ax.set_xticks(range(n))
    ax.set_xticklabels(table.labels, rotation=45, ha="right", fontsize=8)
    ax.set_xlim(-0.6, n - 0.4)
    ax.grid(axis="y", alpha=0.3)
    ax.legend(loc="upper left", fontsize=8, ncol=2)


def figure_width(n):
    return max(8.0, 1.0 + 0.75 * n)


def plot_throughput(plt, suite, rows, out):
    table = Table(rows, "device")
    fig, (top, bottom) = plt.subplots(
        2, 1, figsize=(figure_width(len(table.keys)), 9), sharex=True,
        gridspec_kw={"height_ratios": [3, 2]})
    grouped_bars(top, table, THROUGHPUT_PATHS, "tflops", annotate_ratio=True)
    top.set_ylabel("TFLOP/s (median)")
    top.legend(loc="upper right", fontsize=8, ncol=3)
    samples = table.rows[0]["samples"]
    top.set_title(f"bwgemm-bench {suite}: device time, median of {samples} reps\n{context(rows)}",
                  fontsize=10)
    ratio_panel(bottom, table, "device")
    fig.tight_layout()
    fig.savefig(out, dpi=120)
    plt.close(fig)


def plot_rates(plt, suite, rows, out):
    metrics = [("device", "device (events, one call)"),
               ("eager", "eager (N calls back to back, host included)"),
               ("graph", "CUDA graph (N calls replayed)"),
               ("model", "model (a call's share of a graph with another kernel before each call)")]
    present = {r["metric"] for r in rows}
    tables = [(Table(rows, m), title) for m, title in metrics if m in present]
    n = len(tables[0][0].keys)
    fig, axes = plt.subplots(len(tables), 1, figsize=(figure_width(n), 3.2 * len(tables) + 1.5),
                             sharex=True)
    for ax, (table, title) in zip(axes, tables):
        grouped_bars(ax, table, THROUGHPUT_PATHS, "tflops", annotate_ratio=True)
        ax.set_ylabel("TFLOP/s")
        ax.set_title(title, fontsize=9, loc="left")
    axes[0].legend(loc="upper right", fontsize=8, ncol=3)
    axes[-1].set_xticklabels(tables[0][0].labels, rotation=45, ha="right", fontsize=8)
    fig.suptitle(f"bwgemm-bench {suite}: rates per path\n{context(rows)}", fontsize=10)
    fig.tight_layout()
    fig.savefig(out, dpi=120)
    plt.close(fig)


def plot_bandwidth(plt, suite, rows, out):
    """Effective TB/s in the CUDA graph per shape and path, against the copy bandwidth."""
    table = Table(rows, "graph")
    fig, ax = plt.subplots(figsize=(figure_width(len(table.keys)), 6))
    grouped_bars(ax, table, THROUGHPUT_PATHS, "tbps", annotate_ratio=False)
    copy = next((number(r["copy_tbps"]) for r in table.rows if r.get("copy_tbps")), math.nan)
    if not math.isnan(copy):
        ax.axhline(copy, color="black", linestyle="--", linewidth=1,
                   label=f"device-to-device copy {copy:.2f} TB/s")
        ax.set_ylim(0, 1.15 * max(ax.get_ylim()[1], copy))
    ax.set_xticklabels(table.labels, rotation=45, ha="right", fontsize=8)
    ax.set_ylabel("TB/s (bytes of A, B, C, D / graph time per call)")
    ax.legend(loc="upper left", fontsize=8, ncol=4)
    ax.set_title(f"bwgemm-bench {suite}: effective bandwidth in a CUDA graph\n{context(rows)}",
                 fontsize=10)
    fig.tight_layout()
    fig.savefig(out, dpi=120)
    plt.close(fig)


def plot_host(plt, suite, rows, out):
    table = Table(rows, "host")
    paths = list(dict.fromkeys(r["path"] for r in table.rows))  # in the bench's order
    n = len(table.keys)
    fig, ax = plt.subplots(figsize=(max(7.0, 0.9 * len(paths) * n + 2), 5))
    grouped_bars(ax, table, paths, "median_us", annotate_ratio=False)
    width = 0.8 / len(paths)
    for i, path in enumerate(paths):
        xs = [j + (i - (len(paths) - 1) / 2) * width for j in range(n)]
        for x, y, added, over_bare in zip(xs, table.values(path, "median_us"),
                                          table.values(path, "added_us"),
                                          table.values(path, "vs_bare_us")):
            if math.isnan(y):
                continue
            text = f"{y:.2f} us"
            if path != "cublas":
                text += f"\n{added:+.2f} vs cuBLAS"
            if path not in ("cublas", "forward", "bare") and not math.isnan(over_bare):
                text += f"\n{over_bare:+.2f} vs bare"
            ax.text(x, y, text, ha="center", va="bottom", fontsize=7)
    ax.axhline(KERNEL_TARGET_US, color=color("kernel"), linestyle="--", linewidth=1,
               label=f"kernel path target {KERNEL_TARGET_US:g} us")
    top = max(v for p in paths for v in table.values(p, "median_us") if not math.isnan(v))
    ax.set_ylim(0, 1.5 * max(top, KERNEL_TARGET_US))
    ax.set_xticklabels(table.labels, fontsize=9)
    ax.set_ylabel("host time per call (us, median)")
    ax.legend(loc="upper center", fontsize=8, ncol=len(paths) + 1)
    ax.set_title(f"bwgemm-bench {suite}: host cost per call; targets: forwarding "
                 f"+{FORWARD_TARGET_US:g} us over cuBLAS, kernel path +{KERNEL_OVER_BARE_US:g} us "
                 f"over the bare launch\n{context(rows)}", fontsize=10)
    fig.tight_layout()
    fig.savefig(out, dpi=120)
    plt.close(fig)


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("csv", help="CSV written by bwgemm-bench --csv")
    parser.add_argument("--outdir", help="where to write the PNGs (default: the CSV's folder)")
    args = parser.parse_args()

    if not os.path.exists(args.csv):
        print(f"plot.py: {args.csv} does not exist", file=sys.stderr)
        return 1
    with open(args.csv, newline="") as f:
        rows = list(csv.DictReader(f))
    if not rows:
        print(f"plot.py: {args.csv} has no rows; nothing to plot")
        return 0
    try:
        import matplotlib
        matplotlib.use("Agg")
        import matplotlib.pyplot as plt
    except ImportError:
        print("plot.py: matplotlib is not installed; skipping the plots (the CSV has the numbers)")
        return 0

    outdir = args.outdir or os.path.dirname(os.path.abspath(args.csv))
    os.makedirs(outdir, exist_ok=True)
    stem = os.path.splitext(os.path.basename(args.csv))[0]
    suites = {}
    for r in rows:
        suites.setdefault(r["suite"], []).append(r)
    for suite, suite_rows in suites.items():
        metrics = {r["metric"] for r in suite_rows}
        jobs = []
        if "host" in metrics:
            jobs.append((plot_host, f"{stem}-{suite}.png"))
        if "device" in metrics:
            jobs.append((plot_throughput, f"{stem}-{suite}.png"))
        if "eager" in metrics:
            jobs.append((plot_rates, f"{stem}-{suite}-rates.png"))
        if "graph" in metrics:
            jobs.append((plot_bandwidth, f"{stem}-{suite}-bandwidth.png"))
        for plot, name in jobs:
            out = os.path.join(outdir, name)
            plot(plt, suite, suite_rows, out)
            print(f"plot.py: wrote {out}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
