#!/usr/bin/env python3
"""Writes a spec for bench/fleet.sh: 200 jobs (gen_schedule.py's mix of
models, hours, windows, days, deadlines, run lengths and data classes)
with six GPU types to buy and none owned, in UTC so that December has
744 hours. Buy prices are the reference data's (schema/gpus.json, each
with its source). Fixed seed: the same file every time.
Usage: gen_fleet.py OUT [JOBS] [--owned]"""
import random
import sys

out = sys.argv[1]
n_jobs = int(sys.argv[2]) if len(sys.argv) > 2 and sys.argv[2].isdigit() else 200
owned = "--owned" in sys.argv
rnd = random.Random(20261201)
models = [("llama-3.1-8b", "q4_k_m"), ("qwen2.5-7b", "bf16"), ("mistral-7b", "q8_0"),
          ("qwen2.5-14b", "q4_k_m"), ("gemma-2-27b", "q4_k_m"), ("llama-3.1-70b", "q4_k_m"),
          ("qwen2.5-32b", "bf16")]
windows = ["00:00-24:00", "22:00-06:00", "08:00-18:00", "18:00-08:00", "09:00-17:00",
           "00:00-06:00", "12:00-24:00"]
dayset = [None, "[mon, tue, wed, thu, fri]", "[sat, sun]", "[mon, wed, fri]", "[tue, thu]"]
buy = ["RTX 4090", "RTX 5090", "RTX A6000", "RTX 6000 Ada", "L40S", "A100 80GB"]
with open(out, "w") as f:
    f.write("version: 1\ncurrency: USD\ntimezone: UTC\n"
            "electricity_per_kwh: 0.25\npue: 1.1\namortize_months: 36\n")
    if owned:
        f.write("owned:\n  - {gpu: RTX 4090, count: 2}\n")
    f.write("buy:\n")
    for gpu in buy:
        f.write(f"  - {{gpu: {gpu}, max_count: 8}}\n")
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
