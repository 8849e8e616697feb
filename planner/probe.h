/* probe.h — the NVIDIA GPUs of this machine, read from the output of
 *   nvidia-smi --query-gpu=index,name,memory.total,power.limit
 *              --format=csv,noheader,nounits
 * and mapped to the reference table, and its CPU or Apple chip (model,
 * cores, memory) from Linux's /proc/cpuinfo and /proc/meminfo or from
 * macOS's `sysctl hw machdep.cpu` (probe_host.c), so `planner probe` can
 * print an `owned:` block for a job spec. Parsing is separate from
 * running the command or reading the files so it can be tested on
 * recorded output. */
#ifndef PLANNER_PROBE_H
#define PLANNER_PROBE_H

#include <stddef.h>

#include <stdbool.h>

#include "refdata.h"
#include "util.h"

/* The arguments planner passes to nvidia-smi. */
#define PROBE_QUERY_ARGS                                                                           \
	"--query-gpu=index,name,memory.total,power.limit", "--format=csv,noheader,nounits"

struct probe_gpu {
	int index;                  /* nvidia-smi's GPU index */
	char name[96];              /* as nvidia-smi reports it */
	const struct gpu_spec *gpu; /* canonical GPU; NULL when not in the reference table */
	double vram_gib;            /* memory.total (MiB) / 1024; 0 when [N/A] */
	double power_limit_w;       /* power.limit, W; 0 when [N/A] or [Not Supported] */
};

/* Parses nvidia-smi's CSV rows (blank lines skipped). Returns PLANNER_OK
 * and a malloc'd array in *out (NULL when *n is 0), or PLANNER_EINPUT with
 * *err quoting the first line that is not a GPU row, such as the driver's
 * "NVIDIA-SMI has failed because it couldn't communicate with the NVIDIA
 * driver" message. */
int probe_parse(const char *text, const struct refdata *ref, struct probe_gpu **out, size_t *n,
		char **err);

/* The `owned:` YAML block for gpus: one entry per canonical GPU with its
 * count, and watts when every such GPU reports the same power limit; GPUs
 * not in the reference table become comment lines naming them. Returns a
 * malloc'd string, or NULL when out of memory. */
char *probe_owned_yaml(const struct probe_gpu *gpus, size_t n);

struct probe_host;

/* The same, followed by the host (probe_host_yaml) when host is not
 * NULL and its kind is not PROBE_HOST_NONE. */
char *probe_owned_yaml_host(const struct probe_gpu *gpus, size_t n, const struct probe_host *host);

/* The arguments planner passes to sysctl on macOS: every hw.* value
 * (memory, cores, performance levels, ISA flags) and the chip's name. */
#define PROBE_SYSCTL_ARGS "hw", "machdep.cpu"

/* What the host's memory is to a model: a CPU's RAM, or memory the chip's
 * GPU shares (Apple silicon). */
enum probe_host_kind {
	PROBE_HOST_NONE,    /* nothing could be read */
	PROBE_HOST_CPU,     /* kind: cpu */
	PROBE_HOST_UNIFIED, /* kind: unified */
};

/* Instruction-set extensions llama.cpp's CPU kernels use (its ggml-cpu
 * backend builds variants for each). */
enum {
	PROBE_ISA_AVX2 = 1 << 0,
	PROBE_ISA_AVX512 = 1 << 1, /* AVX-512F */
	PROBE_ISA_AMX = 1 << 2,    /* Intel AMX tiles */
	PROBE_ISA_NEON = 1 << 3,   /* Arm Advanced SIMD */
	PROBE_ISA_SVE = 1 << 4,
};

struct probe_host {
	enum probe_host_kind kind;
	char model[96];    /* "AMD EPYC", "Apple M1 Pro", sanitised; "" when not given */
	int sockets;       /* distinct physical ids / hw.packages; 0 unknown */
	int cores;         /* physical cores, all sockets; 0 unknown */
	int threads;       /* logical CPUs; 0 unknown */
	int perf_cores;    /* hw.perflevel0.physicalcpu (Apple); 0 when none */
	double memory_gib; /* MemTotal or hw.memsize, GiB; 0 unknown */
	unsigned isa;      /* PROBE_ISA_* */
	const struct gpu_spec *device; /* its entry in the device table; NULL when none */
	char family[160];              /* without one, the entries it may be (probe_host_family) */
};

/* Reads Linux's /proc/cpuinfo and /proc/meminfo text (either may be NULL)
 * into h, kind PROBE_HOST_CPU. Returns false, h's kind PROBE_HOST_NONE,
 * when neither gives a CPU or a memory size. Can't fail otherwise. */
bool probe_host_linux(const char *cpuinfo, const char *meminfo, struct probe_host *h);

/* The same from macOS `sysctl` output ("name: value" lines; others are
 * skipped): PROBE_HOST_UNIFIED on Apple silicon (hw.optional.arm64 or an
 * "Apple" brand), else PROBE_HOST_CPU. */
bool probe_host_sysctl(const char *text, struct probe_host *h);

/* Reads root/proc/cpuinfo and root/proc/meminfo (root "" for this
 * machine; tests give a recorded tree) into h. Returns false when neither
 * could be read or parsed. */
bool probe_host_read(const char *root, struct probe_host *h);

/* The name the device table spells a brand string with, into dst: the
 * vendor, "(R)", "(TM)", "Processor", "CPU", "16-Core" and what follows
 * "@" or "w/" taken off ("AMD Ryzen 9 7950X 16-Core Processor" -> "Ryzen
 * 9 7950X", "Apple M1 Pro" -> "M1 Pro"). Can't fail; "" for no name. */
void probe_host_short_name(const char *model, char *dst, size_t len);

/* h's entry in the device table, by its brand string as written or its
 * short name; NULL when neither is there. */
const struct gpu_spec *probe_host_device(const struct refdata *ref, const struct probe_host *h);

/* The device table's names that are h's short name and more, ", "
 * between them, into dst ("M1 Max" -> "M1 Max 24-core, M1 Max 32-core":
 * Apple's Max and Ultra chips come with two GPU-core counts, which
 * sysctl does not give); "" when none. Can't fail. */
void probe_host_family(const struct refdata *ref, const struct probe_host *h, char *dst,
                       size_t len);

/* The threads llama.cpp runs on by default for h: its performance cores
 * on Apple silicon, else its physical cores. */
int probe_host_threads(const struct probe_host *h);

/* One line on h for a person: "cpu: AMD EPYC, 2 cores, 2 threads, 23.5
 * GiB memory, AVX2 AVX-512". malloc'd; NULL when out of memory. */
char *probe_host_summary(const struct probe_host *h);

/* Appends to the owned: block of b the host: an entry when the device
 * table knows it, else comment lines describing it as a spec-level
 * custom device (kind, memory, threads) with what to fill in. Returns
 * false when out of memory. */
bool probe_host_yaml(struct buf *b, const struct probe_host *h);

#endif
