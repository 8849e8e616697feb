#!/usr/bin/env python3
"""Generates bench inputs in the providers' real shapes (not committed):

  gen_prices.py aws  OUT.csv  MIB   an EC2 price-list CSV of at least MIB MiB
  gen_prices.py vast OUT.json N [P] a Vast.ai offer search body of N offers,
                                    with P % of them (seeded) 7 % dearer

The AWS file has the real preamble and header; about 4 % of its rows are
GPU instances and about a quarter are OnDemand, as in the us-east-1 file
(most rows are Reserved terms and CPU instances).
"""
import json
import random
import sys

COLS = ["SKU", "OfferTermCode", "RateCode", "TermType", "PriceDescription", "EffectiveDate",
        "StartingRange", "EndingRange", "Unit", "PricePerUnit", "Currency", "RelatedTo",
        "LeaseContractLength", "PurchaseOption", "OfferingClass", "Product Family", "serviceCode",
        "Location", "Location Type", "Instance Type", "Current Generation", "Instance Family",
        "vCPU", "Physical Processor", "Clock Speed", "Memory", "Storage", "Network Performance",
        "Processor Architecture", "Storage Media", "Volume Type", "Max Volume Size",
        "Max IOPS/volume", "Max IOPS Burst Performance", "Max throughput/volume", "Provisioned",
        "Tenancy", "EBS Optimized", "Operating System", "License Model", "Group",
        "Group Description", "Transfer Type", "From Location", "From Location Type",
        "To Location", "To Location Type", "usageType", "operation", "AvailabilityZone",
        "CapacityStatus", "ClassicNetworkingSupport", "Dedicated EBS Throughput", "ECU",
        "Elastic Graphics Type", "Enhanced Networking Supported", "From Region Code", "GPU",
        "GPU Memory", "Instance", "Instance Capacity - 10xlarge", "Intel AVX Available",
        "Intel AVX2 Available", "Intel Turbo Available", "MarketOption",
        "Normalization Size Factor", "Physical Cores", "Pre Installed S/W", "Processor Features",
        "Product Type", "Region Code", "Resource Type", "serviceName", "SnapshotArchiveFeeType",
        "To Region Code", "Volume API Name", "VPCNetworkingSupport"]

GPU = [("p5.48xlarge", "8", "192", "2048 GiB", 98.32), ("g5.xlarge", "1", "4", "16 GiB", 1.006),
       ("g6.xlarge", "1", "4", "16 GiB", 0.8048), ("g6e.12xlarge", "4", "48", "384 GiB", 10.49),
       ("p4d.24xlarge", "8", "96", "1152 GiB", 32.77), ("g4dn.xlarge", "1", "4", "16 GiB", 0.526)]
CPU = [("m5.large", "", "2", "8 GiB", 0.096), ("c6i.2xlarge", "", "8", "16 GiB", 0.34),
       ("r6g.4xlarge", "", "16", "128 GiB", 0.8064), ("t3.micro", "", "2", "1 GiB", 0.0104)]
OSES = ["Linux", "Windows", "RHEL", "SUSE"]


def row(rng, i):
    gpu = rng.random() < 0.04
    itype, count, vcpu, mem, price = rng.choice(GPU if gpu else CPU)
    term = "OnDemand" if rng.random() < 0.25 else "Reserved"
    d = dict.fromkeys(COLS, "")
    d.update({"SKU": "%016X" % i, "OfferTermCode": "JRTCKXETXF",
              "RateCode": "%016X.JRTCKXETXF.6YS6EN2CT7" % i, "TermType": term,
              "PriceDescription": "$%.4f per On Demand Linux %s Instance Hour" % (price, itype),
              "EffectiveDate": "2026-11-01", "StartingRange": "0", "EndingRange": "Inf",
              "Unit": "Hrs", "PricePerUnit": "%.10f" % (price * rng.uniform(0.9, 1.1)),
              "Currency": "USD", "LeaseContractLength": "" if term == "OnDemand" else "1yr",
              "PurchaseOption": "" if term == "OnDemand" else "No Upfront",
              "Product Family": "Compute Instance", "serviceCode": "AmazonEC2",
              "Location": "US East (N. Virginia)", "Location Type": "AWS Region",
              "Instance Type": itype, "Current Generation": "Yes",
              "Instance Family": "GPU instance" if gpu else "General purpose", "vCPU": vcpu,
              "Physical Processor": "AMD EPYC 7R13 Processor", "Clock Speed": "3.6 GHz",
              "Memory": mem, "Storage": "EBS only", "Network Performance": "Up to 12500 Megabit",
              "Processor Architecture": "64-bit", "Tenancy": rng.choice(["Shared", "Shared", "Dedicated", "Host"]),
              "EBS Optimized": "Yes", "Operating System": rng.choice(OSES),
              "License Model": "No License required", "usageType": "BoxUsage:" + itype,
              "operation": "RunInstances", "CapacityStatus": rng.choice(["Used", "Used", "UnusedCapacityReservation"]),
              "ClassicNetworkingSupport": "false", "Dedicated EBS Throughput": "Up to 10000 Mbps",
              "ECU": "NA", "Enhanced Networking Supported": "Yes", "GPU": count,
              "GPU Memory": "NA", "Intel AVX Available": "Yes", "Intel AVX2 Available": "Yes",
              "Intel Turbo Available": "Yes", "MarketOption": "OnDemand",
              "Normalization Size Factor": "4", "Physical Cores": "48",
              "Pre Installed S/W": rng.choice(["NA", "NA", "NA", "SQL Web"]),
              "Processor Features": "AMD Turbo; AVX; AVX2", "Region Code": "us-east-1",
              "serviceName": "Amazon Elastic Compute Cloud", "VPCNetworkingSupport": "true"})
    return ",".join('"%s"' % d[c] for c in COLS)


def aws(out, mib):
    rng = random.Random(7)
    block = "\n".join(row(rng, i) for i in range(4000)) + "\n"
    target = mib << 20
    with open(out, "w") as f:
        f.write('"FormatVersion","v1.0"\n"Disclaimer","This pricing list is for informational '
                'purposes only."\n"Publication Date","2026-11-27T19:12:31Z"\n'
                '"Version","20261127191231"\n"OfferCode","AmazonEC2"\n')
        f.write(",".join('"%s"' % c for c in COLS) + "\n")
        written = 0
        while written < target:
            f.write(block)
            written += len(block)


def vast(out, n, repriced=0.0):
    rng = random.Random(11)
    kinds = [("RTX 4090", 24564, 0.35), ("RTX 3090", 24576, 0.2), ("A100 SXM4", 81920, 1.1),
             ("H100 SXM", 81559, 2.2), ("RTX A6000", 49140, 0.45), ("L40S", 46068, 0.8)]
    offers = []
    for i in range(n):
        name, ram, base = rng.choice(kinds)
        g = rng.choice([1, 1, 2, 4, 8])
        p = round(base * g * rng.uniform(0.8, 1.5), 4)
        offers.append({"id": 100000 + i, "ask_contract_id": 100000 + i, "gpu_name": name,
                       "num_gpus": g, "gpu_ram": ram, "gpu_total_ram": ram * g,
                       "cpu_cores_effective": 8.0 * g, "cpu_ram": 64000 * g, "disk_space": 200.0,
                       "dph_total": p, "dph_base": p * 0.95, "min_bid": round(p * 0.6, 4),
                       "geolocation": rng.choice(["Texas, US", "Quebec, CA", "Oslo, NO"]),
                       "reliability2": 0.99, "verified": True, "compute_cap": 890,
                       "cuda_max_good": 12.4, "driver_version": "550.54.14", "inet_up": 850.0,
                       "inet_down": 900.0, "machine_id": 5000 + i % 700, "rentable": True,
                       "rented": False, "host_id": 900 + i % 300, "public_ipaddr": "203.0.113.7"})
    # The same offers, P % of them repriced: a nightly refresh's churn
    # (bench/refresh.sh), drawn from a generator of its own so the offers
    # themselves are the same whatever P.
    pick = random.Random(12)
    for o in offers:
        if pick.random() * 100 < repriced:
            o["dph_total"] = round(o["dph_total"] * 1.07, 4)
            o["dph_base"] = o["dph_total"] * 0.95
            o["min_bid"] = round(o["dph_total"] * 0.6, 4)
    with open(out, "w") as f:
        json.dump({"offers": offers}, f)


if __name__ == "__main__":
    if sys.argv[1] == "aws":
        aws(sys.argv[2], int(sys.argv[3]))
    else:
        vast(sys.argv[2], int(sys.argv[3]), float(sys.argv[4]) if len(sys.argv) > 4 else 0.0)
