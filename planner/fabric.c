/* fabric.c — the catalogue of joinable rented instances (fabric.h). Each
 * rate is the instance's documented fabric bandwidth divided by its GPUs:
 * planner's link model (parallel.c) reads Gb/s per GPU, one direction. */
#include "fabric.h"

#include <stdio.h>
#include <string.h>

static const struct fabric_entry catalogue[] = {
    /* "P5 and P5e instances support up to 32 network cards and can
     * deliver up to 3,200 Gbps of network bandwidth" with EFA: 8 H100s,
     * 400 Gb/s each. */
    {"aws", "p5.48xlarge", "efa", 400.0,
     "docs.aws.amazon.com/AWSEC2/latest/UserGuide/p5-efa.html, read 2026-12-02"},
    {"aws", "p5e.48xlarge", "efa", 400.0,
     "docs.aws.amazon.com/AWSEC2/latest/UserGuide/p5-efa.html, read 2026-12-02"},
    /* "8 x 40 GB NVIDIA Tesla A100 GPUs with NVSwitch and 400 Gbps
     * Elastic Fabric Adapter (EFA)": 50 Gb/s a GPU. The post names
     * p4d.24xlarge only, so p4de.24xlarge is not in the catalogue. */
    {"aws", "p4d.24xlarge", "efa", 50.0,
     "aws.amazon.com/blogs/compute/amazon-ec2-p4d-instances-deep-dive/ (2020-11-03), "
     "read 2026-12-02"},
    /* "Each GPU within the VM is provided with its own dedicated,
     * topology-agnostic 400 Gb/s NVIDIA Quantum-2 CX7 InfiniBand
     * connection", configured between VMs of one virtual machine scale
     * set. */
    {"azure", "Standard_ND96isr_H100_v5", "infiniband", 400.0,
     "learn.microsoft.com/azure/virtual-machines/sizes/gpu-accelerated/ndh100v5-series, "
     "read 2026-12-02"},
};

const struct fabric_entry *fabric_catalogue(size_t *n)
{
	*n = sizeof catalogue / sizeof *catalogue;
	return catalogue;
}

const struct fabric_entry *fabric_find(const char *provider, const char *offer)
{
	/* The providers first: most rows are of none of them, and a refresh
	 * of 100,000 Vast.ai rows asks for each. */
	for (size_t i = 0; i < sizeof catalogue / sizeof *catalogue; i++)
		if (!strcmp(catalogue[i].provider, provider) && !strcmp(catalogue[i].offer, offer))
			return &catalogue[i];
	return NULL;
}

void fabric_mark_offer(struct offer *o)
{
	if (o->fabric[0])
		return;
	const struct fabric_entry *e = fabric_find(o->provider, o->offer);
	if (!e)
		return;
	snprintf(o->fabric, sizeof o->fabric, "%s", e->fabric);
	o->fabric_gbps = e->gbps_per_gpu;
}

enum node_fabric fabric_kind(const char *name)
{
	return !strcmp(name, "efa")          ? NODE_FABRIC_EFA
	       : !strcmp(name, "infiniband") ? NODE_FABRIC_INFINIBAND
	       : !strcmp(name, "roce")       ? NODE_FABRIC_ROCE
	                                     : NODE_FABRIC_UNKNOWN;
}
