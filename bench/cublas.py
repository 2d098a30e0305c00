#!/usr/bin/env python3
"""bench/cublas.py [SIZES]: cuBLAS SGEMM as an outside reference, through PyTorch.

Times C = A B for row-major square (N) or MxNxK float32 matrices on the first CUDA device
with CUDA events: a warm-up, then batches of back-to-back products until about a second has
passed; prints the median GFLOPS (2*M*N*K over the time of one product) of the batches as a
Markdown table, twice: with TF32 off (FP32 arithmetic, what the lessons compute) and with
TF32 allowed (tensor cores, 10-bit mantissa: not an FP32 result). clmm-tutor itself never
needs this; it is run on a machine that has PyTorch and a GPU. Exits 77 when either is
missing. With --json FILE it also writes the figures there, for bench/shapes.sh.
    bench/cublas.py 1024,2048,4096,8192
"""
import datetime
import json
import statistics
import sys


def parse(word):
    parts = [int(x) for x in word.lower().split("x")]
    return (parts[0],) * 3 if len(parts) == 1 else tuple(parts)


def measure(torch, m, n, k, seconds=1.0):
    a = torch.rand(m, k, device="cuda", dtype=torch.float32) - 0.5
    b = torch.rand(k, n, device="cuda", dtype=torch.float32) - 0.5
    c = torch.empty(m, n, device="cuda", dtype=torch.float32)
    for _ in range(3):
        torch.mm(a, b, out=c)
    torch.cuda.synchronize()
    start, end = torch.cuda.Event(enable_timing=True), torch.cuda.Event(enable_timing=True)
    start.record()
    torch.mm(a, b, out=c)
    end.record()
    end.synchronize()
    one = max(start.elapsed_time(end) / 1000.0, 1e-6)
    per_batch = max(1, min(1000, int(0.05 / one)))
    figures, spent = [], 0.0
    while spent < seconds or len(figures) < 5:
        start.record()
        for _ in range(per_batch):
            torch.mm(a, b, out=c)
        end.record()
        end.synchronize()
        t = start.elapsed_time(end) / 1000.0
        spent += t
        figures.append(2.0 * m * n * k * per_batch / t / 1e9)
    return statistics.median(figures)


def main():
    try:
        import torch
    except ImportError:
        print("bench/cublas.py: PyTorch is not installed: skipped", file=sys.stderr)
        return 77
    if not torch.cuda.is_available():
        print("bench/cublas.py: no CUDA device: skipped", file=sys.stderr)
        return 77
    args = sys.argv[1:]
    json_file = None
    if "--json" in args:
        at = args.index("--json")
        json_file = args[at + 1]
        del args[at:at + 2]
    sizes = [parse(w) for w in (args[0] if args else "1024,2048,4096").split(",")]
    label = ["%d" % s[0] if s[0] == s[1] == s[2] else "%dx%dx%d" % s for s in sizes]
    rows = []
    for tf32 in (False, True):
        torch.backends.cuda.matmul.allow_tf32 = tf32
        rows.append([measure(torch, *s) for s in sizes])
    props = torch.cuda.get_device_properties(0)
    print("- Date: %s" % datetime.date.today().isoformat())
    print("- Device: %s (%d SMs); PyTorch %s, CUDA %s, cuBLAS through torch.mm"
          % (props.name, props.multi_processor_count, torch.__version__, torch.version.cuda))
    print("- Command: `bench/cublas.py %s`" % ",".join(label))
    print()
    print("Median GFLOPS over batches of back-to-back products timed with CUDA events, row-major,")
    print("inputs uniform in [-0.5, 0.5).")
    print()
    print("| cuBLAS | " + " | ".join(label) + " |")
    print("|---|" + "---:|" * len(label))
    print("| SGEMM, TF32 off (FP32) | " + " | ".join("%.0f" % g for g in rows[0]) + " |")
    print("| TF32 allowed (not FP32) | " + " | ".join("%.0f" % g for g in rows[1]) + " |")
    if json_file:
        with open(json_file, "w") as f:
            json.dump({"device": props.name, "torch": torch.__version__, "cuda": torch.version.cuda,
                       "results": [{"m": s[0], "n": s[1], "k": s[2], "fp32_gflops": rows[0][i],
                                    "tf32_gflops": rows[1][i]} for i, s in enumerate(sizes)]}, f)
    return 0


if __name__ == "__main__":
    sys.exit(main())
