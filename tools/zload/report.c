/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * zload's summaries: the text lines, --format simple (bytes/sec), fio's
 * terse line and the JSON document.  The JSON's "jobs" array has fio's shape
 * (fio 3.33 --output-format json: "read", "write" and "trim" objects with
 * io_bytes, bw_bytes, bw in KiB/s, iops, runtime in ms, slat_ns / clat_ns /
 * lat_ns with min max mean stddev N, clat percentiles -- and with json+ the
 * clat histogram's "bins" keyed by fio's bucket values --, bw_* and iops_*
 * over 500 ms samples, usr_cpu / sys_cpu in percent of the job's run time,
 * latency_ns/us/ms distributions), so fio's own tools and scripts written for
 * fio read it; the flat fields after it (ios, bytes_per_sec, counters) are
 * zload's own.  zload only reads: "write" and "trim" are all zeros.
 */
#include <inttypes.h>
#include <math.h>
#include <stdlib.h>
#include <stdio.h>
#include <string.h>
#include <sys/time.h>
#include <time.h>

#include "zload.h"

#define ZL_MIB (1024.0 * 1024.0)

/* Everything the printers need, summed over jobs (or for one job). */
struct zl_sum {
	struct zl_counters c;
	struct zl_hist clat, lat;
	struct zl_stat slat, bw, iops;
	double seconds, usr_sec, sys_sec;
	uint64_t ctx;
	unsigned setup_flags, dropped_flags;
	bool sqpoll_on, buffers_registered, files_registered;
};

static double zl_tv_sec(const struct timeval *tv)
{
	return (double)tv->tv_sec + (double)tv->tv_usec / 1e6;
}

static void zl_add_counters(struct zl_counters *d, const struct zl_counters *c)
{
	d->ios += c->ios;
	d->bytes += c->bytes;
	d->errors += c->errors;
	d->short_reads += c->short_reads;
	d->verify_failures += c->verify_failures;
	d->ops_readv += c->ops_readv;
	d->ops_read += c->ops_read;
	d->ops_read_fixed += c->ops_read_fixed;
	d->fixed_file_ops += c->fixed_file_ops;
	d->submit_calls += c->submit_calls;
	d->wait_calls += c->wait_calls;
	d->sqpoll_wakeups += c->sqpoll_wakeups;
	d->sq_ring_full += c->sq_ring_full;
#define ZL_MAX(f) (d->f = c->f > d->f ? c->f : d->f)
	ZL_MAX(max_inflight);
	ZL_MAX(max_submit_batch);
	ZL_MAX(max_cqe_batch);
#undef ZL_MAX
}

/* Sum jobs [first, first + n); seconds from the earliest start to the last end. */
static void zl_collect(const struct zl_job *jobs, unsigned first, unsigned n, struct zl_sum *r)
{
	uint64_t t0 = UINT64_MAX, t1 = 0;
	unsigned i;

	memset(r, 0, sizeof(*r));
	for (i = first; i < first + n; i++) {
		const struct zl_job *j = &jobs[i];

		zl_add_counters(&r->c, &j->c);
		zl_hist_merge(&r->clat, &j->hist);
		zl_hist_merge(&r->lat, &j->lat);
		zl_stat_merge(&r->slat, &j->slat);
		zl_stat_merge(&r->bw, &j->bw);
		zl_stat_merge(&r->iops, &j->iops);
		r->usr_sec += zl_tv_sec(&j->ru_end.ru_utime) - zl_tv_sec(&j->ru_start.ru_utime);
		r->sys_sec += zl_tv_sec(&j->ru_end.ru_stime) - zl_tv_sec(&j->ru_start.ru_stime);
		r->ctx += (uint64_t)(j->ru_end.ru_nvcsw - j->ru_start.ru_nvcsw +
				     j->ru_end.ru_nivcsw - j->ru_start.ru_nivcsw);
		r->setup_flags |= j->setup_flags;
		r->dropped_flags |= j->dropped_flags;
		r->sqpoll_on |= j->sqpoll_on;
		r->buffers_registered |= j->buffers_registered;
		r->files_registered |= j->files_registered;
		if (j->t_start < t0)
			t0 = j->t_start;
		if (j->t_end > t1)
			t1 = j->t_end;
	}
	r->seconds = t1 > t0 ? (double)(t1 - t0) / 1e9 : 0.0;
}

static double zl_rate(double v, double seconds)
{
	return seconds > 0 ? v / seconds : 0.0;
}

/* CPU time in percent of the wall time of n jobs (fio's usr_cpu / sys_cpu). */
static double zl_cpu_pct(double cpu_sec, const struct zl_sum *r, unsigned n)
{
	return r->seconds > 0 ? 100.0 * cpu_sec / (r->seconds * n) : 0.0;
}

uint64_t zl_failures(const struct zl_run *run, const struct zl_job *jobs)
{
	uint64_t bad = 0;
	unsigned i;

	for (i = 0; i < run->total_jobs; i++)
		bad += jobs[i].c.errors + jobs[i].c.verify_failures;
	return bad;
}

/* One report entry: a job, or every job with --group_reporting. */
struct zl_entry {
	const struct zl_opts *o;	/* the (first) job's options */
	unsigned first, n;
	struct zl_sum r;
	double total_bw;		/* of the whole run: fio's bw_agg */
};

static double zl_hist_mean(const struct zl_hist *h)
{
	return h->n ? (double)h->sum / (double)h->n : 0.0;
}

static double zl_hist_stddev(const struct zl_hist *h)
{
	double mean = zl_hist_mean(h), var = 0.0;

	if (h->n > 1)
		var = (h->sumsq - (double)h->n * mean * mean) / (double)(h->n - 1);
	return var > 0 ? sqrt(var) : 0.0;
}

/* fio's value of histogram bucket idx (plat_idx_to_val: the bucket's middle). */
static uint64_t zl_bin_value(unsigned idx)
{
	unsigned error_bits;

	if (idx < 2 * ZL_HIST_GROUP)
		return idx;
	error_bits = idx / ZL_HIST_GROUP - 1;
	return (uint64_t)((double)(1ULL << (error_bits + ZL_HIST_BITS)) +
			  ((double)(idx % ZL_HIST_GROUP) + 0.5) * (double)(1ULL << error_bits));
}

/*
 * fio's latency distributions in percent: ns[10] by 2 4 10 20 50 100 250 500
 * 750 1000 ns, us[10] the same in us, ms[12] the same in ms plus 2000 and
 * >=2000 (fio's io_u_mark_latency: a value counts under the first limit
 * above it).  From the clat histogram, whose buckets are 1.6% wide at most.
 */
struct zl_latdist {
	double ns[10], us[10], ms[12];
};

static unsigned zl_lat_slot(uint64_t v)
{
	static const uint64_t lim[] = { 2, 4, 10, 20, 50, 100, 250, 500, 750, 1000, 2000 };
	unsigned i;

	for (i = 0; i < CZ_ARRAY_SIZE(lim); i++)
		if (v < lim[i])
			return i;
	return (unsigned)CZ_ARRAY_SIZE(lim);
}

static void zl_latdist(const struct zl_hist *h, struct zl_latdist *d)
{
	unsigned i;

	memset(d, 0, sizeof(*d));
	if (!h->n)
		return;
	for (i = 0; i < ZL_HIST_BUCKETS; i++) {
		uint64_t v = zl_hist_bucket_low(i);
		double pct = 100.0 * (double)h->count[i] / (double)h->n;

		if (!h->count[i])
			continue;
		if (v < 1000)
			d->ns[zl_lat_slot(v)] += pct;
		else if (v < 1000000)
			d->us[zl_lat_slot(v / 1000)] += pct;
		else
			d->ms[zl_lat_slot(v / 1000000)] += pct;
	}
}

/* ---- JSON ------------------------------------------------------------------ */

static void zl_json_stat(const char *name, const struct zl_stat *s)
{
	printf("\"%s\":{\"min\":%.0f,\"max\":%.0f,\"mean\":%.6f,\"stddev\":%.6f,\"N\":%" PRIu64 "}",
	       name, s->min, s->max, zl_stat_mean(s), zl_stat_stddev(s), s->n);
}

/* A histogram as fio's clat_ns: min max mean stddev N, "percentile", json+ "bins". */
static void zl_json_hist(const char *name, const struct zl_hist *h, bool percentiles, bool bins)
{
	static const double pct[] = { 1, 5, 10, 20, 30, 40, 50, 60, 70, 80, 90, 95, 99, 99.5,
				      99.9, 99.95, 99.99 };
	const char *sep = "";
	unsigned i;

	printf("\"%s\":{\"min\":%" PRIu64 ",\"max\":%" PRIu64 ",\"mean\":%.6f,\"stddev\":%.6f,"
	       "\"N\":%" PRIu64, name, h->n ? h->min : 0, h->max, zl_hist_mean(h),
	       zl_hist_stddev(h), h->n);
	if (percentiles && h->n) {
		printf(",\"percentile\":{");
		for (i = 0; i < CZ_ARRAY_SIZE(pct); i++)
			printf("%s\"%.6f\":%" PRIu64, i ? "," : "", pct[i], zl_hist_percentile(h, pct[i]));
		printf("}");
	}
	if (bins && h->n) {
		printf(",\"bins\":{");
		for (i = 0; i < ZL_HIST_BUCKETS; i++) {
			if (!h->count[i])
				continue;
			printf("%s\"%" PRIu64 "\":%" PRIu64, sep, zl_bin_value(i), h->count[i]);
			sep = ",";
		}
		printf("}");
	}
	printf("}");
}

/* fio's "read" object of one entry. */
static void zl_json_read(const struct zl_entry *e, bool plus)
{
	const struct zl_sum *r = &e->r;
	double bw = zl_rate((double)r->c.bytes, r->seconds);

	printf("\"read\":{\"io_bytes\":%" PRIu64 ",\"io_kbytes\":%" PRIu64 ",\"bw_bytes\":%.0f,"
	       "\"bw\":%.0f,\"iops\":%.6f,\"runtime\":%.0f,\"total_ios\":%" PRIu64
	       ",\"short_ios\":%" PRIu64 ",\"drop_ios\":0,",
	       r->c.bytes, r->c.bytes / 1024, bw, bw / 1024.0,
	       zl_rate((double)r->c.ios, r->seconds), r->seconds * 1e3, r->c.ios, r->c.short_reads);
	zl_json_stat("slat_ns", &r->slat);
	printf(",");
	zl_json_hist("clat_ns", &r->clat, true, plus);
	printf(",");
	zl_json_hist("lat_ns", &r->lat, false, false);
	printf(",\"bw_min\":%.0f,\"bw_max\":%.0f,\"bw_agg\":%.6f,\"bw_mean\":%.6f,\"bw_dev\":%.6f,"
	       "\"bw_samples\":%" PRIu64 ",\"iops_min\":%.0f,\"iops_max\":%.0f,"
	       "\"iops_mean\":%.6f,\"iops_stddev\":%.6f,\"iops_samples\":%" PRIu64 "}",
	       r->bw.min, r->bw.max, e->total_bw > 0 ? 100.0 * bw / e->total_bw : 0.0,
	       zl_stat_mean(&r->bw), zl_stat_stddev(&r->bw), r->bw.n,
	       r->iops.min, r->iops.max, zl_stat_mean(&r->iops), zl_stat_stddev(&r->iops),
	       r->iops.n);
}

/* fio's object of a direction that did nothing: zload never writes or trims. */
static void zl_json_idle(const char *name)
{
	static const char *const lat[] = { "slat_ns", "clat_ns", "lat_ns" };
	size_t i;

	printf("\"%s\":{\"io_bytes\":0,\"io_kbytes\":0,\"bw_bytes\":0,\"bw\":0,\"iops\":0.0,"
	       "\"runtime\":0,\"total_ios\":0,\"short_ios\":0,\"drop_ios\":0,", name);
	for (i = 0; i < CZ_ARRAY_SIZE(lat); i++)
		printf("\"%s\":{\"min\":0,\"max\":0,\"mean\":0.0,\"stddev\":0.0,\"N\":0},", lat[i]);
	printf("\"bw_min\":0,\"bw_max\":0,\"bw_agg\":0.0,\"bw_mean\":0.0,\"bw_dev\":0.0,"
	       "\"bw_samples\":0,\"iops_min\":0,\"iops_max\":0,\"iops_mean\":0.0,"
	       "\"iops_stddev\":0.0,\"iops_samples\":0}");
}

static void zl_json_dist(const char *name, const double *v, unsigned n)
{
	static const char *const keys[] = { "2", "4", "10", "20", "50", "100", "250", "500", "750",
					    "1000", "2000", ">=2000" };
	unsigned i;

	printf("\"%s\":{", name);
	for (i = 0; i < n; i++)
		printf("%s\"%s\":%.6f", i ? "," : "", keys[i], v[i]);
	printf("}");
}

static void zl_json_options(const struct zl_opts *o)
{
	unsigned i;

	printf("\"job options\":{");
	for (i = 0; i < o->ngiven; i++) {
		printf("%s", i ? "," : "");
		cz_json_string(stdout, o->given[i].key);
		printf(":");
		cz_json_string(stdout, o->given[i].val);
	}
	printf("}");
}

static void zl_json_entry(const struct zl_entry *e, bool plus, int cpu)
{
	const struct zl_sum *r = &e->r;
	struct zl_latdist d;

	zl_latdist(&r->clat, &d);
	printf("{\"jobname\":");
	cz_json_string(stdout, e->o->name);
	printf(",\"groupid\":0,\"error\":%d,\"eta\":0,\"elapsed\":%.0f,",
	       r->c.errors || r->c.verify_failures ? 5 /* EIO */ : 0, ceil(r->seconds));
	zl_json_options(e->o);
	printf(",");
	zl_json_read(e, plus);
	printf(",");
	zl_json_idle("write");
	printf(",");
	zl_json_idle("trim");
	printf(",\"sync\":{\"total_ios\":0,\"lat_ns\":{\"min\":0,\"max\":0,\"mean\":0.0,"
	       "\"stddev\":0.0,\"N\":0}},\"job_runtime\":%.0f,\"usr_cpu\":%.6f,\"sys_cpu\":%.6f,"
	       "\"ctx\":%" PRIu64 ",\"majf\":0,\"minf\":0,", r->seconds * 1e3,
	       zl_cpu_pct(r->usr_sec, r, e->n), zl_cpu_pct(r->sys_sec, r, e->n), r->ctx);
	zl_json_dist("latency_ns", d.ns, 10);
	printf(",");
	zl_json_dist("latency_us", d.us, 10);
	printf(",");
	zl_json_dist("latency_ms", d.ms, 12);
	printf(",\"latency_depth\":%u,\"latency_target\":0,\"latency_percentile\":100.0,"
	       "\"latency_window\":0,\"cpu\":%d}", e->o->qd, cpu);
}

/* zload's own flat fields (stable names the tests and scripts read). */
static void zl_json_flat(const struct zl_run *run, const struct zl_job *jobs, const struct zl_sum *r)
{
	const struct zl_opts *o = &run->sect[0];
	const struct zl_counters *c = &r->c;
	const struct zl_hist *h = &r->clat;
	char flags[256], dropped[256];
	unsigned i;

	printf("\"device\":");
	cz_json_string(stdout, o->path);
	printf(",\"op\":\"%s\",\"rw\":\"%s\",\"bs\":%u,\"qd\":%u,\"numjobs\":%u,"
	       "\"batch_submit\":%u,\"batch_complete\":%u,\"verify\":%s,",
	       zl_op_name(o), o->random ? "randread" : "read", o->bs, o->qd, run->total_jobs,
	       o->batch_submit, o->batch_complete, o->verify ? "true" : "false");
	printf("\"seconds\":%.6f,\"ios\":%" PRIu64 ",\"bytes\":%" PRIu64
	       ",\"iops\":%.0f,\"bytes_per_sec\":%.0f,",
	       r->seconds, c->ios, c->bytes, zl_rate((double)c->ios, r->seconds),
	       zl_rate((double)c->bytes, r->seconds));
	printf("\"errors\":%" PRIu64 ",\"short_reads\":%" PRIu64 ",\"verify_failures\":%" PRIu64 ",",
	       c->errors, c->short_reads, c->verify_failures);
	printf("\"clat_ns\":{\"p50\":%" PRIu64 ",\"p90\":%" PRIu64 ",\"p99\":%" PRIu64
	       ",\"p99.9\":%" PRIu64 ",\"max\":%" PRIu64 ",\"mean\":%.0f,\"samples\":%" PRIu64 "},",
	       zl_hist_percentile(h, 50), zl_hist_percentile(h, 90), zl_hist_percentile(h, 99),
	       zl_hist_percentile(h, 99.9), h->max, zl_hist_mean(h), h->n);
	printf("\"job_cpus\":[");
	for (i = 0; i < run->total_jobs; i++)
		printf("%s%d", i ? "," : "", jobs[i].ran_cpu);
	printf("],");
	printf("\"counters\":{\"max_inflight\":%" PRIu64 ",\"ops_readv\":%" PRIu64
	       ",\"ops_read\":%" PRIu64 ",\"ops_read_fixed\":%" PRIu64 ",\"fixed_file_ops\":%" PRIu64
	       ",\"buffers_registered\":%s,\"files_registered\":%s,\"sqpoll\":%s"
	       ",\"sqpoll_wakeups\":%" PRIu64 ",\"sq_ring_full\":%" PRIu64 ",\"submit_calls\":%" PRIu64
	       ",\"wait_calls\":%" PRIu64 ",\"max_submit_batch\":%" PRIu64 ",\"max_cqe_batch\":%" PRIu64
	       ",\"setup_flags\":\"%s\",\"dropped_setup_flags\":\"%s\"}",
	       c->max_inflight, c->ops_readv, c->ops_read, c->ops_read_fixed, c->fixed_file_ops,
	       r->buffers_registered ? "true" : "false", r->files_registered ? "true" : "false",
	       r->sqpoll_on ? "true" : "false", c->sqpoll_wakeups, c->sq_ring_full,
	       c->submit_calls, c->wait_calls, c->max_submit_batch, c->max_cqe_batch,
	       zl_setup_flag_names(r->setup_flags, flags, sizeof(flags)),
	       zl_setup_flag_names(r->dropped_flags, dropped, sizeof(dropped)));
}

/* The entries of the report: one per job, or one in all (--group_reporting). */
static unsigned zl_entries(const struct zl_run *run, const struct zl_job *jobs,
			   struct zl_entry *e, double total_bw)
{
	unsigned i, n = run->group_reporting ? 1 : run->total_jobs;

	for (i = 0; i < n; i++) {
		e[i].first = run->group_reporting ? 0 : i;
		e[i].n = run->group_reporting ? run->total_jobs : 1;
		e[i].o = jobs[e[i].first].o;
		e[i].total_bw = total_bw;
		zl_collect(jobs, e[i].first, e[i].n, &e[i].r);
	}
	return n;
}

static void zl_print_json(const struct zl_run *run, const struct zl_job *jobs,
			  const struct zl_sum *r, const struct zl_entry *e, unsigned n)
{
	struct timeval tv;
	char when[64];
	time_t t;
	unsigned i;

	gettimeofday(&tv, NULL);
	t = tv.tv_sec;
	strftime(when, sizeof(when), "%a %b %e %H:%M:%S %Y", localtime(&t));
	printf("{\"zload version\":\"%s\",\"timestamp\":%lld,\"timestamp_ms\":%lld,\"time\":\"%s\","
	       "\"jobs\":[", cz_version(), (long long)tv.tv_sec,
	       (long long)tv.tv_sec * 1000 + tv.tv_usec / 1000, when);
	for (i = 0; i < n; i++) {
		printf("%s", i ? "," : "");
		zl_json_entry(&e[i], run->format == ZL_OUT_JSONPLUS,
			      e[i].n == 1 ? jobs[e[i].first].ran_cpu : -1);
	}
	printf("],");
	zl_json_flat(run, jobs, r);
	printf("}\n");
}

/* ---- terse ------------------------------------------------------------------- */

/* fio's terse "min;max;mean;dev" of a latency, in us. */
static void zl_terse_lat(double min, double max, double mean, double dev)
{
	printf(";%.0f;%.0f;%f;%f", min / 1e3, max / 1e3, mean / 1e3, dev / 1e3);
}

/* A direction's fields of fio's terse version 3 (the read's, or zeros). */
static void zl_terse_dir(const struct zl_entry *e)
{
	static const double pct[] = { 1, 5, 10, 20, 30, 40, 50, 60, 70, 80, 90, 95, 99, 99.5,
				      99.9, 99.95, 99.99 };
	static const struct zl_sum zero;
	const struct zl_sum *r = e ? &e->r : &zero;
	const struct zl_hist *h = &r->clat;
	double bw = zl_rate((double)r->c.bytes, r->seconds);
	size_t i;

	printf(";%" PRIu64 ";%.0f;%.0f;%.0f", r->c.bytes / 1024, bw / 1024.0,
	       zl_rate((double)r->c.ios, r->seconds), r->seconds * 1e3);
	zl_terse_lat(r->slat.min, r->slat.max, zl_stat_mean(&r->slat), zl_stat_stddev(&r->slat));
	zl_terse_lat((double)(h->n ? h->min : 0), (double)h->max, zl_hist_mean(h), zl_hist_stddev(h));
	for (i = 0; i < CZ_ARRAY_SIZE(pct); i++)
		printf(";%f%%=%.0f", pct[i], (double)zl_hist_percentile(h, pct[i]) / 1e3);
	printf(";0%%=0;0%%=0;0%%=0");
	h = &r->lat;
	zl_terse_lat((double)(h->n ? h->min : 0), (double)h->max, zl_hist_mean(h), zl_hist_stddev(h));
	printf(";%.0f;%.0f;%f%%;%f;%f", r->bw.min, r->bw.max,
	       e && e->total_bw > 0 ? 100.0 * bw / e->total_bw : 0.0,
	       zl_stat_mean(&r->bw), zl_stat_stddev(&r->bw));
}

/*
 * fio's terse line, version 3: the read, an idle write, CPU, then the I/O
 * depth and latency distributions.  zload does not sample the depth: it keeps
 * iodepth reads in flight but at the start and the end, so the depth's bucket
 * gets 100%.
 */
static void zl_print_terse(const struct zl_entry *e)
{
	static const unsigned depths[] = { 1, 2, 4, 8, 16, 32, 64 };
	const struct zl_sum *r = &e->r;
	struct zl_latdist d;
	unsigned i, slot = 0;

	zl_latdist(&r->clat, &d);
	printf("3;zload-%s;%s;0;%d", PACKAGE_VERSION, e->o->name,
	       r->c.errors || r->c.verify_failures ? 5 : 0);
	zl_terse_dir(e);
	zl_terse_dir(NULL);
	printf(";%f%%;%f%%;%" PRIu64 ";0;0", zl_cpu_pct(r->usr_sec, r, e->n),
	       zl_cpu_pct(r->sys_sec, r, e->n), r->ctx);
	for (i = 0; i < CZ_ARRAY_SIZE(depths); i++)
		if (e->o->qd >= depths[i])
			slot = i;
	for (i = 0; i < CZ_ARRAY_SIZE(depths); i++)
		printf(";%.1f%%", i == slot ? 100.0 : 0.0);
	for (i = 0; i < 10; i++)
		printf(";%.2f%%", d.us[i] + (i == 0 ? d.ns[0] + d.ns[1] + d.ns[2] + d.ns[3] + d.ns[4] +
					     d.ns[5] + d.ns[6] + d.ns[7] + d.ns[8] + d.ns[9] : 0));
	for (i = 0; i < 12; i++)
		printf(";%.2f%%", d.ms[i]);
	printf("\n");
}

/* ---- text -------------------------------------------------------------------- */

static void zl_print_lat(const char *name, double min, double max, double mean, double dev)
{
	printf("  %s (usec): min=%.2f, max=%.2f, avg=%.2f, stdev=%.2f\n", name,
	       min / 1e3, max / 1e3, mean / 1e3, dev / 1e3);
}

static void zl_print_normal(const struct zl_entry *e, bool named)
{
	const struct zl_opts *o = e->o;
	const struct zl_sum *r = &e->r;
	const struct zl_counters *c = &r->c;
	const struct zl_hist *h = &r->clat;
	double bw = zl_rate((double)c->bytes, r->seconds), mean = zl_hist_mean(h);
	char bs[32], flags[256];

	if (named)
		printf("%s: (jobs=%u)\n", o->name, e->n);
	printf("zload: %s: %s %s bs=%s qd=%u jobs=%u%s%s%s\n", o->path, o->random ? "randread" : "read",
	       zl_op_name(o), cz_format_size(o->bs, bs, sizeof(bs)), o->qd, e->n,
	       r->files_registered ? " registerfiles" : "", r->sqpoll_on ? " sqpoll" : "",
	       o->verify ? " verify" : "");
	/* fio's units: MiB/s = 2^20 B/s, MB/s = 10^6 B/s. */
	printf("  read: IOPS=%.0f, BW=%.1fMiB/s (%.1fMB/s) (%.1fMiB in %.3fs)\n",
	       zl_rate((double)c->ios, r->seconds), bw / ZL_MIB, bw / 1e6,
	       (double)c->bytes / ZL_MIB, r->seconds);
	zl_print_lat("slat", r->slat.min, r->slat.max, zl_stat_mean(&r->slat), zl_stat_stddev(&r->slat));
	zl_print_lat("clat", (double)(h->n ? h->min : 0), (double)h->max, mean, zl_hist_stddev(h));
	printf("  clat (usec): p50=%.2f p90=%.2f p99=%.2f p99.9=%.2f max=%.2f mean=%.2f\n",
	       zl_hist_percentile(h, 50) / 1e3, zl_hist_percentile(h, 90) / 1e3,
	       zl_hist_percentile(h, 99) / 1e3, zl_hist_percentile(h, 99.9) / 1e3,
	       h->max / 1e3, mean / 1e3);
	if (r->bw.n)
		printf("  bw (KiB/s): min=%.0f, max=%.0f, avg=%.0f, stdev=%.0f, samples=%" PRIu64 "\n",
		       r->bw.min, r->bw.max, zl_stat_mean(&r->bw), zl_stat_stddev(&r->bw), r->bw.n);
	printf("  cpu: usr=%.2f%%, sys=%.2f%%, ctx=%" PRIu64 "\n", zl_cpu_pct(r->usr_sec, r, e->n),
	       zl_cpu_pct(r->sys_sec, r, e->n), r->ctx);
	printf("  errors=%" PRIu64 " short_reads=%" PRIu64 " verify_failures=%" PRIu64 "\n",
	       c->errors, c->short_reads, c->verify_failures);
	printf("  max_inflight=%" PRIu64 " submit_calls=%" PRIu64 " wait_calls=%" PRIu64
	       " max_cqe_batch=%" PRIu64 " setup=%s\n",
	       c->max_inflight, c->submit_calls, c->wait_calls, c->max_cqe_batch,
	       zl_setup_flag_names(r->setup_flags, flags, sizeof(flags)));
}

void zl_report(const struct zl_run *run, const struct zl_job *jobs)
{
	struct zl_entry *e;
	struct zl_sum r;
	unsigned i, n;

	zl_collect(jobs, 0, run->total_jobs, &r);
	e = calloc(run->total_jobs, sizeof(*e));
	if (!e)
		cz_die(CZ_EXIT_FAILURE, "out of memory");
	n = zl_entries(run, jobs, e, zl_rate((double)r.c.bytes, r.seconds));
	switch (run->format) {
	case ZL_OUT_NORMAL:
		/* One section's jobs summed, as zload always printed them. */
		if (run->nsect == 1 || n == 1) {
			e[0].first = 0;
			e[0].n = run->total_jobs;
			zl_collect(jobs, 0, run->total_jobs, &e[0].r);
			zl_print_normal(&e[0], run->nsect > 1);
			break;
		}
		for (i = 0; i < n; i++)
			zl_print_normal(&e[i], true);
		break;
	case ZL_OUT_SIMPLE:
		printf("%.0f\n", zl_rate((double)r.c.bytes, r.seconds));
		break;
	case ZL_OUT_JSON:
	case ZL_OUT_JSONPLUS:
		zl_print_json(run, jobs, &r, e, n);
		break;
	case ZL_OUT_TERSE:
		for (i = 0; i < n; i++)
			zl_print_terse(&e[i]);
		break;
	}
	free(e);
}
