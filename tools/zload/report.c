/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * zload's summaries: the text lines, --format simple (bytes/sec) and the
 * JSON document.  The JSON's "jobs" array has fio's shape (fio --output-format
 * json, "jobs[].read": io_bytes, bw_bytes, bw in KiB/s, iops, runtime in ms,
 * slat_ns / clat_ns / lat_ns with min max mean stddev N, clat percentiles,
 * bw_min/max/mean/dev and iops_* over 500 ms samples, usr_cpu / sys_cpu in
 * percent of the job's run time), so scripts written for fio read it; the
 * flat fields after it (ios, bytes_per_sec, counters) are zload's own.
 */
#include <inttypes.h>
#include <math.h>
#include <stdio.h>
#include <string.h>

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

uint64_t zl_failures(const struct zl_opts *o, const struct zl_job *jobs)
{
	uint64_t bad = 0;
	unsigned i;

	for (i = 0; i < o->jobs; i++)
		bad += jobs[i].c.errors + jobs[i].c.verify_failures;
	return bad;
}

/* ---- JSON ------------------------------------------------------------------ */

static void zl_json_stat(const char *name, const struct zl_stat *s)
{
	printf("\"%s\":{\"min\":%.0f,\"max\":%.0f,\"mean\":%.3f,\"stddev\":%.3f,\"N\":%" PRIu64 "}",
	       name, s->min, s->max, zl_stat_mean(s), zl_stat_stddev(s), s->n);
}

/* A histogram as fio's clat_ns: min max mean stddev N and "percentile". */
static void zl_json_hist(const char *name, const struct zl_hist *h, bool percentiles)
{
	static const double pct[] = { 1, 5, 10, 20, 30, 40, 50, 60, 70, 80, 90, 95, 99, 99.5,
				      99.9, 99.95, 99.99 };
	double mean = h->n ? (double)h->sum / (double)h->n : 0.0, var = 0.0;
	size_t i;

	if (h->n > 1)
		var = (h->sumsq - (double)h->n * mean * mean) / (double)(h->n - 1);
	printf("\"%s\":{\"min\":%" PRIu64 ",\"max\":%" PRIu64 ",\"mean\":%.3f,\"stddev\":%.3f,"
	       "\"N\":%" PRIu64, name, h->n ? h->min : 0, h->max, mean, var > 0 ? sqrt(var) : 0.0, h->n);
	if (percentiles) {
		printf(",\"percentile\":{");
		for (i = 0; i < CZ_ARRAY_SIZE(pct); i++)
			printf("%s\"%.6f\":%" PRIu64, i ? "," : "", pct[i], zl_hist_percentile(h, pct[i]));
		printf("}");
	}
	printf("}");
}

/* fio's "read" object of one job (or of all jobs, with n > 1). */
static void zl_json_read(const struct zl_sum *r)
{
	double bw = zl_rate((double)r->c.bytes, r->seconds);

	printf("\"read\":{\"io_bytes\":%" PRIu64 ",\"io_kbytes\":%" PRIu64 ",\"bw_bytes\":%.0f,"
	       "\"bw\":%.0f,\"iops\":%.3f,\"runtime\":%.0f,\"total_ios\":%" PRIu64
	       ",\"short_ios\":%" PRIu64 ",",
	       r->c.bytes, r->c.bytes / 1024, bw, bw / 1024.0,
	       zl_rate((double)r->c.ios, r->seconds), r->seconds * 1e3, r->c.ios, r->c.short_reads);
	zl_json_stat("slat_ns", &r->slat);
	printf(",");
	zl_json_hist("clat_ns", &r->clat, true);
	printf(",");
	zl_json_hist("lat_ns", &r->lat, false);
	printf(",\"bw_min\":%.0f,\"bw_max\":%.0f,\"bw_mean\":%.3f,\"bw_dev\":%.3f,"
	       "\"bw_samples\":%" PRIu64 ",\"iops_min\":%.0f,\"iops_max\":%.0f,"
	       "\"iops_mean\":%.3f,\"iops_stddev\":%.3f,\"iops_samples\":%" PRIu64 "}",
	       r->bw.min, r->bw.max, zl_stat_mean(&r->bw), zl_stat_stddev(&r->bw), r->bw.n,
	       r->iops.min, r->iops.max, zl_stat_mean(&r->iops), zl_stat_stddev(&r->iops),
	       r->iops.n);
}

static void zl_json_jobs(const struct zl_opts *o, const struct zl_job *jobs)
{
	struct zl_sum r;
	unsigned i;

	printf("\"jobs\":[");
	for (i = 0; i < o->jobs; i++) {
		zl_collect(jobs, i, 1, &r);
		printf("%s{\"jobname\":\"job%u\",\"error\":%d,\"cpu\":%d,", i ? "," : "", i,
		       r.c.errors || r.c.verify_failures ? 5 /* EIO */ : 0, jobs[i].ran_cpu);
		zl_json_read(&r);
		printf(",\"usr_cpu\":%.6f,\"sys_cpu\":%.6f,\"ctx\":%" PRIu64 "}",
		       zl_cpu_pct(r.usr_sec, &r, 1), zl_cpu_pct(r.sys_sec, &r, 1), r.ctx);
	}
	printf("],");
}

/* zload's own flat fields (stable names the tests and scripts read). */
static void zl_json_flat(const struct zl_opts *o, const struct zl_job *jobs, const struct zl_sum *r)
{
	const struct zl_counters *c = &r->c;
	const struct zl_hist *h = &r->clat;
	char flags[256], dropped[256];
	unsigned i;

	printf("\"device\":");
	cz_json_string(stdout, o->path);
	printf(",\"op\":\"%s\",\"rw\":\"%s\",\"bs\":%u,\"qd\":%u,\"numjobs\":%u,"
	       "\"batch_submit\":%u,\"batch_complete\":%u,\"verify\":%s,",
	       zl_op_name(o), o->random ? "randread" : "read", o->bs, o->qd, o->jobs,
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
	       zl_hist_percentile(h, 99.9), h->max, h->n ? (double)h->sum / (double)h->n : 0.0, h->n);
	printf("\"job_cpus\":[");
	for (i = 0; i < o->jobs; i++)
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

static void zl_print_json(const struct zl_opts *o, const struct zl_job *jobs, const struct zl_sum *r)
{
	printf("{\"zload version\":\"%s\",", cz_version());
	zl_json_jobs(o, jobs);
	zl_json_flat(o, jobs, r);
	printf("}\n");
}

/* ---- text -------------------------------------------------------------------- */

static void zl_print_lat(const char *name, double min, double max, double mean, double dev)
{
	printf("  %s (usec): min=%.2f, max=%.2f, avg=%.2f, stdev=%.2f\n", name,
	       min / 1e3, max / 1e3, mean / 1e3, dev / 1e3);
}

static void zl_print_normal(const struct zl_opts *o, const struct zl_sum *r)
{
	const struct zl_counters *c = &r->c;
	const struct zl_hist *h = &r->clat;
	double bw = zl_rate((double)c->bytes, r->seconds), mean, var = 0;
	char bs[32], flags[256];

	printf("zload: %s: %s %s bs=%s qd=%u jobs=%u%s%s%s\n", o->path, o->random ? "randread" : "read",
	       zl_op_name(o), cz_format_size(o->bs, bs, sizeof(bs)), o->qd, o->jobs,
	       r->files_registered ? " registerfiles" : "", r->sqpoll_on ? " sqpoll" : "",
	       o->verify ? " verify" : "");
	/* fio's units: MiB/s = 2^20 B/s, MB/s = 10^6 B/s. */
	printf("  read: IOPS=%.0f, BW=%.1fMiB/s (%.1fMB/s) (%.1fMiB in %.3fs)\n",
	       zl_rate((double)c->ios, r->seconds), bw / ZL_MIB, bw / 1e6,
	       (double)c->bytes / ZL_MIB, r->seconds);
	zl_print_lat("slat", r->slat.min, r->slat.max, zl_stat_mean(&r->slat), zl_stat_stddev(&r->slat));
	mean = h->n ? (double)h->sum / (double)h->n : 0.0;
	if (h->n > 1)
		var = (h->sumsq - (double)h->n * mean * mean) / (double)(h->n - 1);
	zl_print_lat("clat", (double)(h->n ? h->min : 0), (double)h->max, mean, var > 0 ? sqrt(var) : 0);
	printf("  clat (usec): p50=%.2f p90=%.2f p99=%.2f p99.9=%.2f max=%.2f mean=%.2f\n",
	       zl_hist_percentile(h, 50) / 1e3, zl_hist_percentile(h, 90) / 1e3,
	       zl_hist_percentile(h, 99) / 1e3, zl_hist_percentile(h, 99.9) / 1e3,
	       h->max / 1e3, mean / 1e3);
	if (r->bw.n)
		printf("  bw (KiB/s): min=%.0f, max=%.0f, avg=%.0f, stdev=%.0f, samples=%" PRIu64 "\n",
		       r->bw.min, r->bw.max, zl_stat_mean(&r->bw), zl_stat_stddev(&r->bw), r->bw.n);
	printf("  cpu: usr=%.2f%%, sys=%.2f%%, ctx=%" PRIu64 "\n", zl_cpu_pct(r->usr_sec, r, o->jobs),
	       zl_cpu_pct(r->sys_sec, r, o->jobs), r->ctx);
	printf("  errors=%" PRIu64 " short_reads=%" PRIu64 " verify_failures=%" PRIu64 "\n",
	       c->errors, c->short_reads, c->verify_failures);
	printf("  max_inflight=%" PRIu64 " submit_calls=%" PRIu64 " wait_calls=%" PRIu64
	       " max_cqe_batch=%" PRIu64 " setup=%s\n",
	       c->max_inflight, c->submit_calls, c->wait_calls, c->max_cqe_batch,
	       zl_setup_flag_names(r->setup_flags, flags, sizeof(flags)));
}

void zl_report(const struct zl_opts *o, const struct zl_job *jobs)
{
	struct zl_sum r;

	zl_collect(jobs, 0, o->jobs, &r);
	switch (o->format) {
	case CZ_FORMAT_DEFAULT:
		zl_print_normal(o, &r);
		break;
	case CZ_FORMAT_SIMPLE:
		printf("%.0f\n", zl_rate((double)r.c.bytes, r.seconds));
		break;
	case CZ_FORMAT_JSON:
		zl_print_json(o, jobs, &r);
		break;
	}
}
