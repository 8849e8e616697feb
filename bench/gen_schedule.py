#!/usr/bin/env python3
"""Writes a month for bench/schedule.sh: 1,000 jobs, 64 owned GPUs of four
models, mixed windows, days, deadlines, run lengths and data classes.
Fixed seed: the same file every time. Usage: gen_schedule.py OUT [JOBS]"""
import random
import sys

out = sys.argv[1]
n_jobs = int(sys.argv[2]) if len(sys.argv) > 2 else 1000
rnd = random.Random(20260301)
models = [("llama-3.1-8b", "q4_k_m"), ("qwen2.5-7b", "bf16"), ("mistral-7b", "q8_0"),
          ("qwen2.5-14b", "q4_k_m"), ("gemma-2-27b", "q4_k_m"), ("llama-3.1-70b", "q4_k_m"),
          ("qwen2.5-32b", "bf16")]
windows = ["00:00-24:00", "22:00-06:00", "08:00-18:00", "18:00-08:00", "09:00-17:00",
           "00:00-06:00", "12:00-24:00"]
dayset = [None, "[mon, tue, wed, thu, fri]", "[sat, sun]", "[mon, wed, fri]", "[tue, thu]"]
with open(out, "w") as f:
    f.write("version: 1\ncurrency: USD\ntimezone: Europe/Amsterdam\n"
            "electricity_per_kwh: 0.25\npue: 1.1\nowned:\n")
    for gpu in ("RTX 4090", "RTX 3090", "A100 80GB", "L40S"):
        f.write(f"  - {{gpu: {gpu}, count: 16}}\n")
    f.write("jobs:\n")
    for i in range(n_jobs):
        model, prec = rnd.choice(models)
        f.write(f"  - name: job-{i:04d}\n    model: {model}\n    precision: {prec}\n")
        f.write(f"    hours_per_month: {rnd.choice([4, 8, 12, 20, 30, 40, 60, 80, 120])}\n")
        f.write(f"    data: {rnd.choices(['public', 'confidential', 'restricted'], [5, 3, 1])[0]}\n")
        if rnd.random() < 0.5:
            f.write("    interruptible: true\n")
        sched = [f'window: "{rnd.choice(windows)}"']
        d = rnd.choice(dayset)
        if d:
            sched.append(f"days: {d}")
        if rnd.random() < 0.3:
            sched.append(f"deadline: {rnd.randint(15, 28)}")
        if rnd.random() < 0.3:
            sched.append(f"min_run: {rnd.randint(2, 4)}")
        sched.append(f"priority: {rnd.randint(0, 5)}")
        f.write("    schedule: {" + ", ".join(sched) + "}\n")
        f.write(f'    run: {{command: "python run.py --job {i}", image: "ghcr.io/acme/job:1"}}\n')
