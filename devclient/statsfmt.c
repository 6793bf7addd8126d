/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * struct cusezero_stats as text or JSON: the stats / stats.json files and
 * `zeroctl --stats [--json]` print exactly the same thing.  No libfuse here
 * (zeroctl links this file alone).
 */
#include <errno.h>
#include <inttypes.h>
#include <stdarg.h>
#include <stdio.h>

#include "devstats.h"
#include "jsonout.h"
#include "statsfmt.h"

const char *sf_point_name(uint32_t point)
{
	return point == CUSEZERO_POINT_ENTRY ? "entry" : "loop";
}

struct sf_out {
	char *buf;
	size_t len, pos;
	int overflow;
};

__attribute__((format(printf, 2, 3)))
static void sf_printf(struct sf_out *o, const char *fmt, ...)
{
	va_list ap;
	int n;

	va_start(ap, fmt);
	n = vsnprintf(o->buf + o->pos, o->len - o->pos, fmt, ap);
	va_end(ap);
	if (n < 0 || (size_t)n >= o->len - o->pos) {
		o->overflow = 1;
		o->pos = o->len - 1;
		return;
	}
	o->pos += (size_t)n;
}

/*
 * The two derived figures: routine GB/s (2^30 bytes per second of time
 * inside the routine, zbench's unit) and the routine's share of the
 * serving threads' CPU time; both negative when undefined (nothing read).
 */
static void sf_derived(const struct cusezero_stats *st, double *gbps, double *share)
{
	const struct cusezero_counters *t = &st->total;

	*gbps = t->ns ? (double)t->bytes / ((double)t->ns / 1e9) / (1024.0 * 1024.0 * 1024.0) : -1;
	*share = st->busy_ns && t->requests ? (double)t->ns / (double)st->busy_ns : -1;
}

static void sf_text_derived(struct sf_out *o, const struct cusezero_stats *st)
{
	double gbps, share;

	sf_derived(st, &gbps, &share);
	if (gbps < 0)
		sf_printf(o, "routine_gbps    -\n");
	else
		sf_printf(o, "routine_gbps    %.3f\n", gbps);
	sf_printf(o, "busy_ns         %" PRIu64 "\n", st->busy_ns);
	if (share < 0)
		sf_printf(o, "routine_share   -\n");
	else
		sf_printf(o, "routine_share   %.1f%%\n", share * 100);
	sf_printf(o, "elapsed_ns      %" PRIu64 "\n", st->elapsed_ns);
	if (!st->total.requests)
		return;
	/* per-request quantiles: what the totals hide when some requests were preempted */
	sf_printf(o, "request_p50     %.1f ns per 4 KiB\nrequest_p90     %.1f ns per 4 KiB\n"
		  "request_p99     %.1f ns per 4 KiB\npreempted       %.2f%%\n",
		  cz_hist_quantile(st->hist, 0.5), cz_hist_quantile(st->hist, 0.9),
		  cz_hist_quantile(st->hist, 0.99), cz_hist_preempted(st->hist) * 100);
}

static void sf_json_hist(json_t *o, const struct cusezero_stats *st)
{
	if (!st->total.requests)
		return;
	cz_jset(o, "request_p50_ns_4k", cz_jfixed(cz_hist_quantile(st->hist, 0.5), 1));
	cz_jset(o, "request_p90_ns_4k", cz_jfixed(cz_hist_quantile(st->hist, 0.9), 1));
	cz_jset(o, "request_p99_ns_4k", cz_jfixed(cz_hist_quantile(st->hist, 0.99), 1));
	cz_jset(o, "preempted_share", cz_jfixed(cz_hist_preempted(st->hist), 4));
}

/* A rotating device: one entry per copy (offset order as the device holds them). */
static void sf_json_layouts(json_t *o, const struct cz_devlayouts *lay)
{
	json_t *arr, *one;
	unsigned i;

	if (!lay || !lay->count)
		return;
	cz_jset(o, "rotate_point", cz_jstr(sf_point_name(lay->point)));
	cz_jset(o, "rotate_period", cz_juint(lay->period));
	arr = cz_jset(o, "layouts", cz_jarr());
	for (i = 0; i < lay->count; i++) {
		one = cz_jpush(arr, cz_jobj());
		cz_jset(one, "offset", json_integer(lay->offset[i]));
		cz_jset(one, "requests", cz_juint(lay->c[i].requests));
		cz_jset(one, "bytes", cz_juint(lay->c[i].bytes));
		cz_jset(one, "routine_ns", cz_juint(lay->c[i].ns));
		if (!lay->c[i].requests)
			continue;
		cz_jset(one, "request_p50_ns_4k", cz_jfixed(cz_hist_quantile(lay->hist[i], 0.5), 1));
		cz_jset(one, "request_p90_ns_4k", cz_jfixed(cz_hist_quantile(lay->hist[i], 0.9), 1));
	}
}

static void sf_text_layouts(struct sf_out *o, const struct cz_devlayouts *lay)
{
	unsigned i;

	if (!lay || !lay->count)
		return;
	sf_printf(o, "per layout (%s placed at the offset, %u requests per turn):\n"
		  "%8s %12s %16s %12s %12s\n", sf_point_name(lay->point), lay->period, "offset",
		  "requests", "routine_ns", "p50_ns_4k", "p90_ns_4k");
	for (i = 0; i < lay->count; i++) {
		if (!lay->c[i].requests) {
			sf_printf(o, "%8d %12d %16d %12s %12s\n", lay->offset[i], 0, 0, "-", "-");
			continue;
		}
		sf_printf(o, "%8d %12" PRIu64 " %16" PRIu64 " %12.1f %12.1f\n", lay->offset[i],
			  lay->c[i].requests, lay->c[i].ns, cz_hist_quantile(lay->hist[i], 0.5),
			  cz_hist_quantile(lay->hist[i], 0.9));
	}
}

/* The JSON form: one line, keys in this order. */
static int sf_json(const struct cusezero_stats *st, const struct cz_devlayouts *lay, char *buf,
		   size_t len)
{
	const struct cusezero_counters *t = &st->total;
	json_t *o = cz_jobj(), *arr, *one;
	double gbps, share;
	size_t n;
	uint32_t i;

	cz_jset(o, "routine", cz_jstr(st->routine));
	cz_jset(o, "align", json_integer(st->align));
	cz_jset(o, "align_point", cz_jstr(sf_point_name(st->point)));
	cz_jset(o, "chunk", cz_juint(st->chunk));
	cz_jset(o, "requests", cz_juint(t->requests));
	cz_jset(o, "bytes", cz_juint(t->bytes));
	cz_jset(o, "routine_ns", cz_juint(t->ns));
	cz_jset(o, "routine_errors", cz_juint(t->errors));
	cz_jset(o, "writes", cz_juint(st->writes));
	cz_jset(o, "write_bytes", cz_juint(st->write_bytes));
	cz_jset(o, "busy_ns", cz_juint(st->busy_ns));
	cz_jset(o, "elapsed_ns", cz_juint(st->elapsed_ns));
	sf_derived(st, &gbps, &share);
	if (gbps >= 0)
		cz_jset(o, "routine_gbps", cz_jfixed(gbps, 3));
	if (share >= 0)
		cz_jset(o, "routine_share", cz_jfixed(share, 4));
	sf_json_hist(o, st);
	arr = cz_jset(o, "per_routine", cz_jarr());
	for (i = 0; i < st->nroutines && i < CUSEZERO_MAX_ROUTINES; i++) {
		const struct cusezero_routine_stats *r = &st->per_routine[i];

		if (!r->c.requests && !r->c.errors)
			continue;
		one = cz_jpush(arr, cz_jobj());
		cz_jset(one, "name", cz_jstr(r->name));
		cz_jset(one, "requests", cz_juint(r->c.requests));
		cz_jset(one, "bytes", cz_juint(r->c.bytes));
		cz_jset(one, "routine_ns", cz_juint(r->c.ns));
		cz_jset(one, "routine_errors", cz_juint(r->c.errors));
	}
	sf_json_layouts(o, lay);
	n = json_dumpb(o, buf, len, CZ_JSON_COMPACT);
	json_decref(o);
	if (!n || n + 2 > len)
		return -ENOSPC;
	buf[n++] = '\n';
	buf[n] = 0;
	return (int)n;
}

int sf_format(const struct cusezero_stats *st, const struct cz_devlayouts *lay, bool json,
	      char *buf, size_t len)
{
	struct sf_out o = { .buf = buf, .len = len };
	const struct cusezero_counters *t = &st->total;
	uint32_t i;
	int first = 1;

	if (!len)
		return -ENOSPC;
	buf[0] = 0;
	if (json) {
		return sf_json(st, lay, buf, len);
	} else {
		if (st->align == CUSEZERO_ALIGN_NONE)
			sf_printf(&o, "routine         %s\nalign           none\n", st->routine);
		else if (st->align == CUSEZERO_ALIGN_ROTATE)
			sf_printf(&o, "routine         %s\nalign           rotating (%s)\n", st->routine,
				  sf_point_name(st->point));
		else
			sf_printf(&o, "routine         %s\nalign           %" PRId32 " (%s)\n",
				  st->routine, st->align, sf_point_name(st->point));
		sf_printf(&o, "chunk           %" PRIu64 "\nrequests        %" PRIu64
			  "\nbytes           %" PRIu64 "\nroutine_ns      %" PRIu64
			  "\nroutine_errors  %" PRIu64 "\nwrites          %" PRIu64
			  "\nwrite_bytes     %" PRIu64 "\n",
			  st->chunk, t->requests, t->bytes, t->ns, t->errors, st->writes,
			  st->write_bytes);
		sf_text_derived(&o, st);
		for (i = 0; i < st->nroutines && i < CUSEZERO_MAX_ROUTINES; i++) {
			const struct cusezero_routine_stats *r = &st->per_routine[i];

			if (!r->c.requests && !r->c.errors)
				continue;
			if (first)
				sf_printf(&o, "%-28s %12s %16s %16s %8s\n", "per routine:", "requests",
					  "bytes", "routine_ns", "errors");
			first = 0;
			sf_printf(&o, "%-28s %12" PRIu64 " %16" PRIu64 " %16" PRIu64 " %8" PRIu64 "\n",
				  r->name, r->c.requests, r->c.bytes, r->c.ns, r->c.errors);
		}
		sf_text_layouts(&o, lay);
	}
	return o.overflow ? -ENOSPC : (int)o.pos;
}
