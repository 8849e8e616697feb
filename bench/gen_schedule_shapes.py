#!/usr/bin/env python3
"""Writes one of the schedule shapes bench/schedule_shapes.sh times: the
spec shapes that took the solver longest before it stopped on convergence
(issue 16). Fixed seeds: the same file every time.
Usage: gen_schedule_shapes.py SHAPE OUT [SEED]

Shapes (jobs x owned GPUs):
  one-gpu-10     10 jobs on one RTX 4090
  small-pools    5-12 jobs on 3-4 pools of one to two GPUs (SEED picks one)
  gpus8-1000     1,000 jobs on 8 GPUs of two models
  month-1000     1,000 jobs on 64 GPUs of four models (bench/schedule.sh's)
  watts-256      1,000 jobs on 256 owned entries of one GPU each, every
                 one a distinct wattage (256 pools)
  watts-1000     1,000 jobs on 1,000 such entries over 16 models (beyond
                 the 256-GPU target; kept to show the curve)
  one-pool-5000  5,000 jobs on one pool of 64 RTX 4090s"""
import random
import sys

MODELS = [("llama-3.1-8b", "q4_k_m"), ("qwen2.5-7b", "bf16"), ("mistral-7b", "q8_0"),
          ("qwen2.5-14b", "q4_k_m"), ("gemma-2-27b", "q4_k_m"), ("llama-3.1-70b", "q4_k_m"),
          ("qwen2.5-32b", "bf16")]
WINDOWS = ["00:00-24:00", "22:00-06:00", "08:00-18:00", "18:00-08:00", "09:00-17:00",
           "00:00-06:00", "12:00-24:00"]
DAYSET = [None, "[mon, tue, wed, thu, fri]", "[sat, sun]", "[mon, wed, fri]", "[tue, thu]"]
# 24 GiB and larger cards of `planner gpus`, so most models fit somewhere
CARDS = ["RTX 4090", "RTX 3090", "A100 80GB", "L40S", "RTX A6000", "RTX 6000 Ada", "A40",
         "L40", "RTX 5090", "H100 PCIe", "H100 SXM", "H100 NVL", "H200", "A100 40GB",
         "V100 32GB", "RTX 3090 Ti"]


def jobs(f, rnd, n, hours=(4, 8, 12, 20, 30, 40, 60, 80, 120)):
    f.write("jobs:\n")
    for i in range(n):
        model, prec = rnd.choice(MODELS)
        f.write(f"  - name: job-{i:04d}\n    model: {model}\n    precision: {prec}\n")
        f.write(f"    hours_per_month: {rnd.choice(hours)}\n")
        f.write(f"    data: {rnd.choices(['public', 'confidential', 'restricted'], [5, 3, 1])[0]}\n")
        if rnd.random() < 0.5:
            f.write("    interruptible: true\n")
        sched = [f'window: "{rnd.choice(WINDOWS)}"']
        d = rnd.choice(DAYSET)
        if d:
            sched.append(f"days: {d}")
        if rnd.random() < 0.3:
            sched.append(f"deadline: {rnd.randint(15, 28)}")
        if rnd.random() < 0.3:
            sched.append(f"min_run: {rnd.randint(2, 4)}")
        if rnd.random() < 0.1:
            sched.append(f"max_run: {rnd.randint(6, 12)}")
        sched.append(f"priority: {rnd.randint(0, 5)}")
        f.write("    schedule: {" + ", ".join(sched) + "}\n")


def main():
    shape, out = sys.argv[1], sys.argv[2]
    seed = int(sys.argv[3]) if len(sys.argv) > 3 else 1
    rnd = random.Random(f"{shape}/{seed}")
    owned = []  # (gpu, count, watts or None)
    n_jobs = 1000
    hours = (4, 8, 12, 20, 30, 40, 60, 80, 120)
    if shape == "one-gpu-10":
        owned, n_jobs, hours = [("RTX 4090", 1, None)], 10, (20, 40, 80, 120, 200)
    elif shape == "small-pools":
        k = rnd.randint(3, 4)
        owned = [(c, rnd.randint(1, 2), None) for c in rnd.sample(CARDS[:8], k)]
        n_jobs, hours = rnd.randint(5, 12), (20, 40, 80, 120, 200, 300)
    elif shape == "gpus8-1000":
        owned = [("RTX 4090", 4, None), ("A100 80GB", 4, None)]
    elif shape == "month-1000":
        owned = [(c, 16, None) for c in ("RTX 4090", "RTX 3090", "A100 80GB", "L40S")]
    elif shape == "watts-256":
        owned = [(CARDS[i % 4], 1, 200 + i) for i in range(256)]
    elif shape == "watts-1000":
        owned = [(CARDS[i % 16], 1, 200 + i) for i in range(1000)]
    elif shape == "one-pool-5000":
        owned, n_jobs = [("RTX 4090", 64, None)], 5000
    else:
        sys.exit(f"gen_schedule_shapes.py: unknown shape {shape}")
    with open(out, "w") as f:
        f.write("version: 1\ncurrency: USD\ntimezone: Europe/Amsterdam\n"
                "electricity_per_kwh: 0.25\npue: 1.1\nowned:\n")
        for gpu, count, watts in owned:
            w = f", watts: {watts}" if watts else ""
            f.write(f"  - {{gpu: {gpu}, count: {count}{w}}}\n")
        jobs(f, rnd, n_jobs, hours)


main()
