/* tco.c — the owned monthly cost and the rented setup cost (see tco.h and
 * docs/estimation.md, "Cost of ownership"). */
#include "tco.h"

#include <math.h>

#include "workload.h"

/* Months in a year, to turn the annual capital rate into a monthly one. */
#define MONTHS_PER_YEAR 12.0

/* The level monthly payment that repays `capex` over n months at monthly
 * rate i, less what `resale` (received after n months) is worth now: the
 * annuity formula, P·i / (1 − (1+i)^−n). At rate 0 it is (capex −
 * resale) / n; with no resale and no rate, capex / n as before. */
static double capital_month(double capex, double resale, double n, double i)
{
	if (i <= 0)
		return resale > 0 ? (capex - resale) / n : capex / n;
	double grow = pow(1 + i, n);
	return (capex - resale / grow) * i / (1 - 1 / grow);
}

void tco_owned_month(const struct jobspec *spec, const struct gpu_spec *gpu, int gpus,
                     double price_per_gpu, double watts, double idle_watts, double busy_hours,
                     bool on_hand, struct tco_owned *out)
{
	tco_owned_month_of(spec, gpu, gpus, price_per_gpu, watts, idle_watts, busy_hours,
	                   HOURS_PER_MONTH, on_hand, out);
}

/* The hosts costs.host prices for `gpus` GPUs of kind gpu: none for a
 * Mac or a CPU box, whose purchase price and watts are the whole
 * machine's (docs/spec.md, owned[].gpu). */
static int tco_hosts(const struct tco_costs *c, const struct gpu_spec *gpu, int gpus)
{
	if (gpu && gpu->kind != DEVICE_GPU)
		return 0;
	int per_host = c->host_gpus > 0 ? c->host_gpus : 1;
	/* Past one node of its GPU a job runs on whole nodes (parallel.h),
	 * each node one host of the GPU's board (gpus.json gpus_per_node),
	 * which costs.host's price and watts then price (issue 25). */
	if (gpu && gpu->gpus_per_node > 0 && gpus > gpu->gpus_per_node)
		per_host = gpu->gpus_per_node;
	return (gpus + per_host - 1) / per_host;
}

void tco_owned_month_of(const struct jobspec *spec, const struct gpu_spec *gpu, int gpus,
                        double price_per_gpu, double watts, double idle_watts, double busy_hours,
                        double month_hours, bool on_hand, struct tco_owned *out)
{
	const struct tco_costs *c = &spec->costs;
	out->gpus = gpus;
	out->hosts = tco_hosts(c, gpu, gpus);
	out->host_capex = on_hand ? 0 : c->host_price * out->hosts;
	out->capex = on_hand ? 0 : price_per_gpu * gpus + out->host_capex;
	out->resale = out->capex * c->resale_percent / 100.0;
	out->capital = capital_month(out->capex, out->resale, spec->amortize_months,
	                             c->capital_rate_percent / 100.0 / MONTHS_PER_YEAR);
	out->maintenance = c->maintenance_per_gpu_month * gpus;
	/* Kept on between runs when the GPUs have an idle draw: then the idle
	 * hours and the hosts' whole month are fixed; else the hosts run with
	 * the GPUs. */
	bool kept_on = idle_watts > 0;
	double on_hours = kept_on ? fmax(month_hours, busy_hours) : busy_hours;
	double fixed_power = 0;
	double hourly = power_cost(spec, gpus, watts - idle_watts, 1.0);
	if (kept_on)
		fixed_power += power_cost(spec, gpus, idle_watts, on_hours);
	if (c->host_watts > 0 && kept_on)
		fixed_power += power_cost(spec, out->hosts, c->host_watts, on_hours);
	else if (c->host_watts > 0)
		hourly += power_cost(spec, out->hosts, c->host_watts, 1.0);
	/* Keep power_cost(gpus, watts, hours) as the whole figure when no
	 * other term applies: compare prints the figures it always has. */
	out->power = power_cost(spec, gpus, watts - idle_watts, busy_hours) + fixed_power;
	if (c->host_watts > 0 && !kept_on)
		out->power += power_cost(spec, out->hosts, c->host_watts, busy_hours);
	/* The same terms in kWh (energy_kwh is power_cost at 1 a kWh). */
	out->kwh = energy_kwh(spec, gpus, watts - idle_watts, busy_hours);
	if (kept_on)
		out->kwh += energy_kwh(spec, gpus, idle_watts, on_hours);
	if (c->host_watts > 0)
		out->kwh += energy_kwh(spec, out->hosts, c->host_watts, kept_on ? on_hours : busy_hours);
	out->fixed = out->capital + out->maintenance + fixed_power;
	out->per_hour = hourly;
	out->monthly = out->capital + out->power + out->maintenance;
}

double tco_rented_runs(const struct job *j, double hours)
{
	if (!(hours > 0))
		return 0;
	const struct job_schedule *s = &j->sched;
	int len = schedule_window_minutes(s);
	double span = len >= SCHEDULE_MINUTES_PER_DAY ? HOURS_PER_MONTH : len / 60.0;
	if (s->max_run > 0 && s->max_run < span)
		span = s->max_run;
	return ceil(hours / span - 1e-9);
}

double tco_setup_run(const struct jobspec *spec, int replicas, double price_per_hour)
{
	if (!(spec->costs.setup_hours > 0))
		return 0;
	return replicas * spec->costs.setup_hours * price_per_hour;
}

double tco_setup_cost(const struct jobspec *spec, const struct job *j, double hours, int replicas,
                      double price_per_hour)
{
	return tco_rented_runs(j, hours) * tco_setup_run(spec, replicas, price_per_hour);
}

double tco_owned_floor(const struct jobspec *spec, const struct gpu_spec *gpu, int gpus,
                       double price_per_gpu, double watts, double idle_watts, double busy_hours,
                       bool on_hand)
{
	double busy = power_cost(spec, gpus, watts - idle_watts, busy_hours);
	if (busy < 0)
		return -INFINITY;
	const struct tco_costs *c = &spec->costs;
	double capex = on_hand ? 0 : price_per_gpu * gpus + c->host_price * tco_hosts(c, gpu, gpus);
	/* resale_percent is at most 100, so the capital grows with the capex. */
	double capital =
	    capital_month(capex, capex * c->resale_percent / 100.0, spec->amortize_months,
	                  c->capital_rate_percent / 100.0 / MONTHS_PER_YEAR);
	return capital + c->maintenance_per_gpu_month * gpus + busy;
}
