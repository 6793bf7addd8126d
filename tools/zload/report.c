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

#include "jsonout.h"
#include "zload.h"

#define ZL_MIB (1024.0 * 1024.0)

/* Everything the printers need, summed over jobs (or for one job). */
struct zl_sum {
	struct zl_counters c;
	struct zl_hist clat, lat;
	struct zl_stat slat, bw, iops;
	struct zl_dirstat wr;		/* the writes (clat, lat, slat above: the reads) */
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
	for (unsigned i = 0; i < CZ_ARRAY_SIZE(d->depth); i++) {
		d->depth[i] += c->depth[i];
		d->submit[i] += c->submit[i];
		d->complete[i] += c->complete[i];
	}
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
		r->wr.ios += j->wr.ios;
		r->wr.bytes += j->wr.bytes;
		r->wr.short_ios += j->wr.short_ios;
		zl_hist_merge(&r->wr.clat, &j->wr.clat);
		zl_hist_merge(&r->wr.lat, &j->wr.lat);
		zl_stat_merge(&r->wr.slat, &j->wr.slat);
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
	unsigned lat_qd;		/* the depth kept (latency_target's search) */
	const struct zl_ss *ss;		/* the (first) job's steady state */
};

/*
 * One direction of an entry, in the shape the printers know: the reads (the
 * totals minus the writes) or the writes.  The bandwidth and IOPS samples
 * count both directions: they go to the reads, or to the writes of a job
 * that only writes.  Returned in *v (large: histograms).
 */
static void zl_dir_view(const struct zl_entry *e, int dir, struct zl_entry *v)
{
	const struct zl_dirstat *w = &e->r.wr;
	bool samples = dir == ZL_DIR_WRITE ? e->o->rwmix_read == 0 : e->o->rwmix_read > 0;

	*v = *e;
	if (dir == ZL_DIR_WRITE) {
		v->r.c.ios = w->ios;
		v->r.c.bytes = w->bytes;
		v->r.c.short_reads = w->short_ios;
		v->r.clat = w->clat;
		v->r.lat = w->lat;
		v->r.slat = w->slat;
	} else {
		v->r.c.ios -= w->ios;
		v->r.c.bytes -= w->bytes;
		v->r.c.short_reads -= w->short_ios;
	}
	if (!samples) {
		memset(&v->r.bw, 0, sizeof(v->r.bw));
		memset(&v->r.iops, 0, sizeof(v->r.iops));
	}
}

static struct zl_entry *zl_view_alloc(void)
{
	struct zl_entry *v = malloc(sizeof(*v));

	if (!v)
		cz_die(CZ_EXIT_FAILURE, "out of memory");
	return v;
}

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

/* Shorthands: a fio field rounded as fio prints it. */
#define ZL_F0(x) cz_jfixed((x), 0)
#define ZL_F6(x) cz_jfixed((x), 6)
#define ZL_U(x) cz_juint(x)

static json_t *zl_json_stat(const struct zl_stat *s)
{
	json_t *o = cz_jobj();

	cz_jset(o, "min", ZL_F0(s->min));
	cz_jset(o, "max", ZL_F0(s->max));
	cz_jset(o, "mean", ZL_F6(zl_stat_mean(s)));
	cz_jset(o, "stddev", ZL_F6(zl_stat_stddev(s)));
	cz_jset(o, "N", ZL_U(s->n));
	return o;
}

/* A histogram as fio's clat_ns: min max mean stddev N, "percentile", json+ "bins". */
/* pcts: the percentiles to give (NULL: none), fio's default list when o has none. */
static json_t *zl_json_hist(const struct zl_hist *h, const struct zl_opts *pcts, bool bins)
{
	static const double pct[] = { 1, 5, 10, 20, 30, 40, 50, 60, 70, 80, 90, 95, 99, 99.5,
				      99.9, 99.95, 99.99 };
	json_t *o = cz_jobj(), *x;
	char key[32];
	unsigned i;

	cz_jset(o, "min", ZL_U(h->n ? h->min : 0));
	cz_jset(o, "max", ZL_U(h->max));
	cz_jset(o, "mean", ZL_F6(zl_hist_mean(h)));
	cz_jset(o, "stddev", ZL_F6(zl_hist_stddev(h)));
	cz_jset(o, "N", ZL_U(h->n));
	if (pcts && h->n) {
		const double *list = pcts->npct ? pcts->pct : pct;
		unsigned n = pcts->npct ? pcts->npct : CZ_ARRAY_SIZE(pct);

		x = cz_jset(o, "percentile", cz_jobj());
		for (i = 0; i < n; i++) {
			snprintf(key, sizeof(key), "%.6f", list[i]);
			cz_jset(x, key, ZL_U(zl_hist_percentile(h, list[i])));
		}
	}
	if (bins && h->n) {
		x = cz_jset(o, "bins", cz_jobj());
		for (i = 0; i < ZL_HIST_BUCKETS; i++) {
			if (!h->count[i])
				continue;
			snprintf(key, sizeof(key), "%" PRIu64, zl_bin_value(i));
			cz_jset(x, key, ZL_U(h->count[i]));
		}
	}
	return o;
}

/*
 * fio's bw_agg: the mean of the bandwidth samples (KiB/s) as a percentage of
 * the whole run's bandwidth, at most 100; 0 without samples, as fio's.
 */
static double zl_bw_agg(const struct zl_entry *e, const struct zl_sum *r)
{
	double p;

	if (!e || !r->bw.n || e->total_bw <= 0)
		return 0.0;
	p = zl_stat_mean(&r->bw) * 100.0 / (e->total_bw / 1024.0);
	return p > 100.0 ? 100.0 : p;
}

/* fio's "read" object of one entry. */
static json_t *zl_json_read(const struct zl_entry *e, bool plus)
{
	const struct zl_sum *r = &e->r;
	double bw = zl_rate((double)r->c.bytes, r->seconds);
	json_t *o = cz_jobj();

	cz_jset(o, "io_bytes", ZL_U(r->c.bytes));
	cz_jset(o, "io_kbytes", ZL_U(r->c.bytes / 1024));
	cz_jset(o, "bw_bytes", ZL_F0(bw));
	cz_jset(o, "bw", ZL_F0(bw / 1024.0));
	cz_jset(o, "iops", ZL_F6(zl_rate((double)r->c.ios, r->seconds)));
	cz_jset(o, "runtime", ZL_F0(r->seconds * 1e3));
	cz_jset(o, "total_ios", ZL_U(r->c.ios));
	cz_jset(o, "short_ios", ZL_U(r->c.short_reads));
	cz_jset(o, "drop_ios", json_integer(0));
	cz_jset(o, "slat_ns", zl_json_stat(&r->slat));
	cz_jset(o, "clat_ns", zl_json_hist(&r->clat, e->o, plus));
	cz_jset(o, "lat_ns", zl_json_hist(&r->lat, NULL, false));
	cz_jset(o, "bw_min", ZL_F0(r->bw.min));
	cz_jset(o, "bw_max", ZL_F0(r->bw.max));
	cz_jset(o, "bw_agg", ZL_F6(zl_bw_agg(e, r)));
	cz_jset(o, "bw_mean", ZL_F6(zl_stat_mean(&r->bw)));
	cz_jset(o, "bw_dev", ZL_F6(zl_stat_stddev(&r->bw)));
	cz_jset(o, "bw_samples", ZL_U(r->bw.n));
	cz_jset(o, "iops_min", ZL_F0(r->iops.min));
	cz_jset(o, "iops_max", ZL_F0(r->iops.max));
	cz_jset(o, "iops_mean", ZL_F6(zl_stat_mean(&r->iops)));
	cz_jset(o, "iops_stddev", ZL_F6(zl_stat_stddev(&r->iops)));
	cz_jset(o, "iops_samples", ZL_U(r->iops.n));
	return o;
}

/* fio's latency object of nothing: min max mean stddev N, all zero. */
static json_t *zl_json_zero_lat(void)
{
	json_t *o = cz_jobj();

	cz_jset(o, "min", json_integer(0));
	cz_jset(o, "max", json_integer(0));
	cz_jset(o, "mean", json_real(0));
	cz_jset(o, "stddev", json_real(0));
	cz_jset(o, "N", json_integer(0));
	return o;
}

/* fio's object of a direction that did nothing: zload never writes or trims. */
static json_t *zl_json_idle(void)
{
	static const char *const ints[] = { "io_bytes", "io_kbytes", "bw_bytes", "bw" };
	static const char *const ints2[] = { "runtime", "total_ios", "short_ios", "drop_ios" };
	static const char *const lat[] = { "slat_ns", "clat_ns", "lat_ns" };
	static const char *const tail[] = { "bw_min", "bw_max", "bw_agg", "bw_mean", "bw_dev",
					    "bw_samples", "iops_min", "iops_max", "iops_mean",
					    "iops_stddev", "iops_samples" };
	static const bool tail_real[] = { 0, 0, 1, 1, 1, 0, 0, 0, 1, 1, 0 };
	json_t *o = cz_jobj();
	size_t i;

	for (i = 0; i < CZ_ARRAY_SIZE(ints); i++)
		cz_jset(o, ints[i], json_integer(0));
	cz_jset(o, "iops", json_real(0));
	for (i = 0; i < CZ_ARRAY_SIZE(ints2); i++)
		cz_jset(o, ints2[i], json_integer(0));
	for (i = 0; i < CZ_ARRAY_SIZE(lat); i++)
		cz_jset(o, lat[i], zl_json_zero_lat());
	for (i = 0; i < CZ_ARRAY_SIZE(tail); i++)
		cz_jset(o, tail[i], tail_real[i] ? json_real(0) : json_integer(0));
	return o;
}

static json_t *zl_json_dist(const double *v, unsigned n)
{
	static const char *const keys[] = { "2", "4", "10", "20", "50", "100", "250", "500", "750",
					    "1000", "2000", ">=2000" };
	json_t *o = cz_jobj();
	unsigned i;

	for (i = 0; i < n; i++)
		cz_jset(o, keys[i], ZL_F6(v[i]));
	return o;
}

static json_t *zl_json_options(const struct zl_opts *o)
{
	json_t *j = cz_jobj();
	unsigned i;

	for (i = 0; i < o->ngiven; i++)
		cz_jset(j, o->given[i].key, cz_jstr(o->given[i].val));
	return j;
}

/* fio's iodepth_level / iodepth_submit / iodepth_complete, in % of their counts. */
static void zl_json_maps(json_t *o, const struct zl_counters *c)
{
	static const char *const lvl[] = { "1", "2", "4", "8", "16", "32", ">=64" };
	static const char *const bat[] = { "0", "4", "8", "16", "32", "64", ">=64" };
	const uint64_t *maps[] = { c->depth, c->submit, c->complete };
	static const char *const names[] = { "iodepth_level", "iodepth_submit", "iodepth_complete" };
	unsigned m, i;

	for (m = 0; m < 3; m++) {
		json_t *x = cz_jset(o, names[m], cz_jobj());
		uint64_t sum = 0;

		for (i = 0; i < 7; i++)
			sum += maps[m][i];
		for (i = 0; i < 7; i++)
			cz_jset(x, m ? bat[i] : lvl[i],
				json_real(sum ? 100.0 * (double)maps[m][i] / (double)sum : 0.0));
	}
}

static json_t *zl_json_entry(const struct zl_entry *e, bool plus, int cpu)
{
	const struct zl_sum *r = &e->r;
	struct zl_latdist d;
	json_t *o = cz_jobj(), *x;
	struct zl_entry *v;
	struct zl_hist all = r->lat;

	zl_hist_merge(&all, &r->wr.lat);
	zl_latdist(&all, &d);
	cz_jset(o, "jobname", cz_jstr(e->o->name));
	cz_jset(o, "groupid", json_integer(0));
	/* EIO for a failed I/O, fio's EILSEQ for a failed verify. */
	cz_jset(o, "error", json_integer(r->c.errors ? 5 : r->c.verify_failures ? 84 : 0));
	cz_jset(o, "eta", json_integer(0));
	cz_jset(o, "elapsed", ZL_F0(ceil(r->seconds)));
	cz_jset(o, "job options", zl_json_options(e->o));
	v = zl_view_alloc();
	zl_dir_view(e, ZL_DIR_READ, v);
	cz_jset(o, "read", v->r.c.ios || !r->wr.ios ? zl_json_read(v, plus) : zl_json_idle());
	zl_dir_view(e, ZL_DIR_WRITE, v);
	cz_jset(o, "write", v->r.c.ios ? zl_json_read(v, plus) : zl_json_idle());
	free(v);
	cz_jset(o, "trim", zl_json_idle());
	x = cz_jset(o, "sync", cz_jobj());
	cz_jset(x, "total_ios", json_integer(0));
	cz_jset(x, "lat_ns", zl_json_zero_lat());
	cz_jset(o, "job_runtime", ZL_F0(r->seconds * 1e3));
	cz_jset(o, "usr_cpu", ZL_F6(zl_cpu_pct(r->usr_sec, r, e->n)));
	cz_jset(o, "sys_cpu", ZL_F6(zl_cpu_pct(r->sys_sec, r, e->n)));
	cz_jset(o, "ctx", ZL_U(r->ctx));
	cz_jset(o, "majf", json_integer(0));
	cz_jset(o, "minf", json_integer(0));
	zl_json_maps(o, &r->c);
	cz_jset(o, "latency_ns", zl_json_dist(d.ns, 10));
	cz_jset(o, "latency_us", zl_json_dist(d.us, 10));
	cz_jset(o, "latency_ms", zl_json_dist(d.ms, 12));
	cz_jset(o, "latency_depth", ZL_U(e->lat_qd ? e->lat_qd : e->o->qd));
	cz_jset(o, "latency_target", ZL_U(e->o->lat_target_ns));
	cz_jset(o, "latency_percentile", json_real(e->o->lat_pct));
	cz_jset(o, "latency_window", ZL_U(e->o->lat_window_us));
	if (e->o->ss_kind && e->ss)
		cz_jset(o, "steadystate", zl_ss_json(e->o, e->ss));
	cz_jset(o, "cpu", json_integer(cpu));
	return o;
}

static void zl_json_counters(json_t *o, const struct zl_sum *r)
{
	const struct zl_counters *c = &r->c;
	char flags[256], dropped[256];

	cz_jset(o, "max_inflight", ZL_U(c->max_inflight));
	cz_jset(o, "ops_readv", ZL_U(c->ops_readv));
	cz_jset(o, "ops_read", ZL_U(c->ops_read));
	cz_jset(o, "ops_read_fixed", ZL_U(c->ops_read_fixed));
	cz_jset(o, "fixed_file_ops", ZL_U(c->fixed_file_ops));
	cz_jset(o, "buffers_registered", json_boolean(r->buffers_registered));
	cz_jset(o, "files_registered", json_boolean(r->files_registered));
	cz_jset(o, "sqpoll", json_boolean(r->sqpoll_on));
	cz_jset(o, "sqpoll_wakeups", ZL_U(c->sqpoll_wakeups));
	cz_jset(o, "sq_ring_full", ZL_U(c->sq_ring_full));
	cz_jset(o, "submit_calls", ZL_U(c->submit_calls));
	cz_jset(o, "wait_calls", ZL_U(c->wait_calls));
	cz_jset(o, "max_submit_batch", ZL_U(c->max_submit_batch));
	cz_jset(o, "max_cqe_batch", ZL_U(c->max_cqe_batch));
	cz_jset(o, "setup_flags", cz_jstr(zl_setup_flag_names(r->setup_flags, flags, sizeof(flags))));
	cz_jset(o, "dropped_setup_flags",
		cz_jstr(zl_setup_flag_names(r->dropped_flags, dropped, sizeof(dropped))));
}

/* zload's own flat fields (stable names the tests and scripts read). */
static void zl_json_flat(json_t *d, const struct zl_run *run, const struct zl_job *jobs,
			 const struct zl_sum *r)
{
	const struct zl_opts *o = &run->sect[0];
	const struct zl_counters *c = &r->c;
	const struct zl_hist *h = &r->clat;
	json_t *x;
	unsigned i;

	cz_jset(d, "device", cz_jstr(o->path));
	cz_jset(d, "op", cz_jstr(zl_op_name(o)));
	cz_jset(d, "rw", cz_jstr(o->random ? "randread" : "read"));
	cz_jset(d, "bs", ZL_U(o->bs));
	cz_jset(d, "qd", ZL_U(o->qd));
	cz_jset(d, "numjobs", ZL_U(run->total_jobs));
	cz_jset(d, "batch_submit", ZL_U(o->batch_submit));
	cz_jset(d, "batch_complete", ZL_U(o->batch_complete));
	cz_jset(d, "verify", json_boolean(o->verify));
	cz_jset(d, "seconds", ZL_F6(r->seconds));
	cz_jset(d, "ios", ZL_U(c->ios));
	cz_jset(d, "bytes", ZL_U(c->bytes));
	cz_jset(d, "iops", ZL_F0(zl_rate((double)c->ios, r->seconds)));
	cz_jset(d, "bytes_per_sec", ZL_F0(zl_rate((double)c->bytes, r->seconds)));
	cz_jset(d, "errors", ZL_U(c->errors));
	cz_jset(d, "short_reads", ZL_U(c->short_reads));
	cz_jset(d, "verify_failures", ZL_U(c->verify_failures));
	x = cz_jset(d, "clat_ns", cz_jobj());
	cz_jset(x, "p50", ZL_U(zl_hist_percentile(h, 50)));
	cz_jset(x, "p90", ZL_U(zl_hist_percentile(h, 90)));
	cz_jset(x, "p99", ZL_U(zl_hist_percentile(h, 99)));
	cz_jset(x, "p99.9", ZL_U(zl_hist_percentile(h, 99.9)));
	cz_jset(x, "max", ZL_U(h->max));
	cz_jset(x, "mean", ZL_F0(zl_hist_mean(h)));
	cz_jset(x, "samples", ZL_U(h->n));
	x = cz_jset(d, "job_cpus", cz_jarr());
	for (i = 0; i < run->total_jobs; i++)
		cz_jpush(x, json_integer(jobs[i].ran_cpu));
	zl_json_counters(cz_jset(d, "counters", cz_jobj()), r);
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
		e[i].lat_qd = jobs[e[i].first].qd_now;
		e[i].ss = &jobs[e[i].first].ss;
		e[i].total_bw = total_bw;
		zl_collect(jobs, e[i].first, e[i].n, &e[i].r);
	}
	return n;
}

static void zl_print_json(const struct zl_run *run, const struct zl_job *jobs,
			  const struct zl_sum *r, const struct zl_entry *e, unsigned n, bool plus)
{
	json_t *d = cz_jobj(), *arr;
	struct timeval tv;
	char when[64], ver[64];
	time_t t;
	unsigned i;

	gettimeofday(&tv, NULL);
	t = tv.tv_sec;
	strftime(when, sizeof(when), "%a %b %e %H:%M:%S %Y", localtime(&t));
	/* fio's key, in fio's format: the fio release whose output this is; zload's own next. */
	cz_jset(d, "fio version", cz_jstr(ZL_FIO_FORMAT));
	snprintf(ver, sizeof(ver), "zload-%s", PACKAGE_VERSION);
	cz_jset(d, "zload version", cz_jstr(ver));
	cz_jset(d, "timestamp", json_integer((json_int_t)tv.tv_sec));
	cz_jset(d, "timestamp_ms", json_integer((json_int_t)tv.tv_sec * 1000 + tv.tv_usec / 1000));
	cz_jset(d, "time", cz_jstr(when));
	if (run->nglobal) {
		json_t *g = cz_jset(d, "global options", cz_jobj());

		for (i = 0; i < run->nglobal; i++)
			cz_jset(g, run->global[i].key, cz_jstr(run->global[i].val));
	}
	arr = cz_jset(d, "jobs", cz_jarr());
	for (i = 0; i < n; i++)
		cz_jpush(arr, zl_json_entry(&e[i], plus,
					    e[i].n == 1 ? jobs[e[i].first].ran_cpu : -1));
	arr = zl_du_json(&run->du);
	if (arr)
		cz_jset(d, "disk_util", arr);
	zl_json_flat(d, run, jobs, r);
	cz_json_dump(stdout, d, CZ_JSON_COMPACT);	/* a failed write: cz_stdout_flush() */
	json_decref(d);
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
	       zl_bw_agg(e, r),
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
	struct zl_entry *v;
	unsigned i, slot = 0;

	zl_latdist(&r->clat, &d);
	printf("3;%s;%s;0;%d", ZL_FIO_FORMAT, e->o->name,
	       r->c.errors ? 5 : r->c.verify_failures ? 84 : 0);
	v = zl_view_alloc();
	zl_dir_view(e, ZL_DIR_READ, v);
	zl_terse_dir(v);
	zl_dir_view(e, ZL_DIR_WRITE, v);
	zl_terse_dir(v->r.c.ios ? v : NULL);
	free(v);
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

/* fio's "IO depths" block. */
static void zl_print_maps(const struct zl_counters *c)
{
	static const char *const lvl[] = { "1", "2", "4", "8", "16", "32", ">=64" };
	static const char *const bat[] = { "0", "4", "8", "16", "32", "64", ">=64" };
	static const char *const head[] = { "  IO depths    :", "     submit    :",
					     "     complete  :" };
	const uint64_t *maps[] = { c->depth, c->submit, c->complete };
	unsigned m, i;

	for (m = 0; m < 3; m++) {
		uint64_t sum = 0;

		for (i = 0; i < 7; i++)
			sum += maps[m][i];
		printf("%s", head[m]);
		for (i = 0; i < 7; i++)
			printf("%s %s=%.1f%%", i ? "," : "", m ? bat[i] : lvl[i],
			       sum ? 100.0 * (double)maps[m][i] / (double)sum : 0.0);
		printf("\n");
	}
}

/* fio's num2str for the summary: at most 4 digits, binary or decimal units. */
static const char *zl_units(double v, bool binary, char *buf, size_t len)
{
	static const char *const bu[] = { "B", "KiB", "MiB", "GiB", "TiB", "PiB" };
	static const char *const du[] = { "B", "kB", "MB", "GB", "TB", "PB" };
	double div = binary ? 1024.0 : 1000.0;
	unsigned u = 0;

	while (v >= 10000.0 && u < 5) {
		v /= div;
		u++;
	}
	snprintf(buf, len, "%.0f%s", v, binary ? bu[u] : du[u]);
	return buf;
}

/* fio's "Run status group 0 (all jobs):" and its READ / WRITE lines. */
static void zl_print_group(const struct zl_run *run, const struct zl_job *jobs,
			   const struct zl_sum *r)
{
	static const char *const name[] = { "   READ", "  WRITE" };
	double bw, lo, hi, ms_lo = 0, ms_hi = 0;
	char a[32], b[32], c[32], d[32], e[32], f[32], g[32], h[32];
	unsigned i, dir;

	for (i = 0; i < run->total_jobs; i++) {
		double ms = (double)(jobs[i].t_end - jobs[i].t_start) / 1e6;

		ms_lo = !i || ms < ms_lo ? ms : ms_lo;
		ms_hi = ms > ms_hi ? ms : ms_hi;
	}
	printf("\nRun status group 0 (all jobs):\n");
	for (dir = 0; dir < 2; dir++) {
		uint64_t bytes = dir ? r->wr.bytes : r->c.bytes - r->wr.bytes;

		if (!bytes)
			continue;
		bw = zl_rate((double)bytes, r->seconds);
		lo = hi = -1;
		for (i = 0; i < run->total_jobs; i++) {
			const struct zl_job *j = &jobs[i];
			double s = (double)(j->t_end - j->t_start) / 1e9;
			double jb = zl_rate((double)(dir ? j->wr.bytes : j->c.bytes - j->wr.bytes), s);

			lo = lo < 0 || jb < lo ? jb : lo;
			hi = jb > hi ? jb : hi;
		}
		printf("%s: bw=%s/s (%s/s), %s/s-%s/s (%s/s-%s/s), io=%s (%s), run=%.0f-%.0fmsec\n",
		       name[dir], zl_units(bw, true, a, 32), zl_units(bw, false, b, 32),
		       zl_units(lo, true, c, 32), zl_units(hi, true, d, 32),
		       zl_units(lo, false, e, 32), zl_units(hi, false, f, 32),
		       zl_units((double)bytes, true, g, 32), zl_units((double)bytes, false, h, 32),
		       ms_lo, ms_hi);
	}
}

static void zl_print_normal(const struct zl_entry *e, bool named)
{
	const struct zl_opts *o = e->o;
	const struct zl_sum *r = &e->r;
	const struct zl_counters *c = &r->c;
	const struct zl_hist *h = &r->clat;
	double mean = zl_hist_mean(h);
	char bs[32], flags[256];

	if (named)
		printf("%s: (jobs=%u)\n", o->name, e->n);
	printf("zload: %s: %s %s bs=%s qd=%u jobs=%u%s%s%s\n", o->path, o->random ? "randread" : "read",
	       zl_op_name(o), cz_format_size(o->bs, bs, sizeof(bs)), o->qd, e->n,
	       r->files_registered ? " registerfiles" : "", r->sqpoll_on ? " sqpoll" : "",
	       o->verify ? " verify" : "");
	/* fio's units: MiB/s = 2^20 B/s, MB/s = 10^6 B/s. */
	if (c->ios > r->wr.ios || !r->wr.ios)
		printf("  read: IOPS=%.0f, BW=%.1fMiB/s (%.1fMB/s) (%.1fMiB in %.3fs)\n",
		       zl_rate((double)(c->ios - r->wr.ios), r->seconds),
		       zl_rate((double)(c->bytes - r->wr.bytes), r->seconds) / ZL_MIB,
		       zl_rate((double)(c->bytes - r->wr.bytes), r->seconds) / 1e6,
		       (double)(c->bytes - r->wr.bytes) / ZL_MIB, r->seconds);
	if (r->wr.ios)
		printf("  write: IOPS=%.0f, BW=%.1fMiB/s (%.1fMB/s) (%.1fMiB in %.3fs)\n",
		       zl_rate((double)r->wr.ios, r->seconds),
		       zl_rate((double)r->wr.bytes, r->seconds) / ZL_MIB,
		       zl_rate((double)r->wr.bytes, r->seconds) / 1e6, (double)r->wr.bytes / ZL_MIB,
		       r->seconds);
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
	zl_print_maps(c);
	printf("  errors=%" PRIu64 " short_reads=%" PRIu64 " verify_failures=%" PRIu64 "\n",
	       c->errors, c->short_reads, c->verify_failures);
	printf("  max_inflight=%" PRIu64 " submit_calls=%" PRIu64 " wait_calls=%" PRIu64
	       " max_cqe_batch=%" PRIu64 " setup=%s\n",
	       c->max_inflight, c->submit_calls, c->wait_calls, c->max_cqe_batch,
	       zl_setup_flag_names(r->setup_flags, flags, sizeof(flags)));
}

static void zl_report_one(const struct zl_run *run, const struct zl_job *jobs,
			  const struct zl_sum *r, struct zl_entry *e, unsigned n, enum zl_format f)
{
	unsigned i;

	switch (f) {
	case ZL_OUT_NORMAL:
		/* One section's jobs summed, as zload always printed them. */
		if (run->nsect == 1 || n == 1) {
			e[0].first = 0;
			e[0].n = run->total_jobs;
			zl_collect(jobs, 0, run->total_jobs, &e[0].r);
			zl_print_normal(&e[0], run->nsect > 1);
		} else {
			for (i = 0; i < n; i++)
				zl_print_normal(&e[i], true);
		}
		zl_print_group(run, jobs, r);
		break;
	case ZL_OUT_SIMPLE:
		printf("%.0f\n", zl_rate((double)r->c.bytes, r->seconds));
		break;
	case ZL_OUT_JSON:
	case ZL_OUT_JSONPLUS:
		zl_print_json(run, jobs, r, e, n, f == ZL_OUT_JSONPLUS);
		break;
	case ZL_OUT_TERSE:
		for (i = 0; i < n; i++)
			zl_print_terse(&e[i]);
		break;
	}
}

/* --output-format=A,B: each (normal last: it sums the entries again). */
void zl_report(const struct zl_run *run, const struct zl_job *jobs)
{
	static const enum zl_format order[] = { ZL_OUT_TERSE, ZL_OUT_JSON, ZL_OUT_JSONPLUS,
						ZL_OUT_SIMPLE, ZL_OUT_NORMAL };
	struct zl_entry *e;
	struct zl_sum r;
	unsigned i, n;

	zl_collect(jobs, 0, run->total_jobs, &r);
	e = calloc(run->total_jobs, sizeof(*e));
	if (!e)
		cz_die(CZ_EXIT_FAILURE, "out of memory");
	n = zl_entries(run, jobs, e, zl_rate((double)r.c.bytes, r.seconds));
	if (!run->formats)
		zl_report_one(run, jobs, &r, e, n, run->format);
	for (i = 0; i < CZ_ARRAY_SIZE(order); i++)
		if (run->formats & (1u << order[i]))
			zl_report_one(run, jobs, &r, e, n, order[i]);
	free(e);
}
