/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * fio's log files (fio(1), "Log File Formats"), so fio2gnuplot and
 * fio_generate_plots read zload's: one line per entry,
 *   time (ms since the job started), value, data direction (0: read,
 *   1: write), block size (0 in averaged entries), [offset, with
 *   log_offset=1,] priority (log_prio=1: the I/O's ioprio as 0x%04x; else
 *   1 for a real-time class, 0 otherwise)
 * PREFIX_bw.N.log (KiB/s), PREFIX_iops.N.log, PREFIX_lat/clat/slat.N.log (ns),
 * N the job's number from 1.  With log_avg_msec each line is the mean over
 * that window; without, the latency logs get a line per read (as fio's) and
 * bandwidth and IOPS one per 500 ms (fio's bw_avg_time; fio's own line per
 * read holds a rate over a single read, noise no plot wants).
 * The entries are kept in memory and written after the run: no file I/O on
 * the job's thread while it is measured.
 */
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "outfile.h"
#include "zload.h"

static void zl_log_push(struct zl_job *j, struct zl_log *l, uint64_t t, uint64_t val,
			const struct zl_slot *s, uint32_t bs)
{
	struct zl_log_ent *e;

	if (l->n == l->cap) {
		size_t cap = l->cap ? 2 * l->cap : 1024;

		e = realloc(l->e, cap * sizeof(*e));
		if (!e) {
			j->logs.lost++;
			return;
		}
		l->e = e;
		l->cap = cap;
	}
	e = &l->e[l->n++];
	e->ms = (uint32_t)((t - j->t_start) / 1000000);
	e->val = val;
	e->bs = bs;
	e->off = s ? s->offset : 0;
	e->prio = s ? s->ioprio : 0;
	e->dir = s ? (uint8_t)(s->dir == ZL_DIR_WRITE) : 0;
}

static uint64_t zl_log_window(const struct zl_job *j)
{
	return j->o->log_avg_msec ? (uint64_t)j->o->log_avg_msec * 1000000 : ZL_SAMPLE_NS;
}

/* The window [win_start, end) is over: its means and rates. */
static void zl_log_close(struct zl_job *j, uint64_t end)
{
	struct zl_logs *g = &j->logs;
	double sec = (double)(end - g->win_start) / 1e9;

	if (sec <= 0)
		return;
	if (j->o->bw_log)
		zl_log_push(j, &g->bw, end, (uint64_t)((double)g->win_bytes / 1024.0 / sec + 0.5),
			    NULL, 0);
	if (j->o->iops_log)
		zl_log_push(j, &g->iops, end, (uint64_t)((double)g->win_ios / sec + 0.5), NULL, 0);
	if (j->o->lat_log && j->o->log_avg_msec && g->win_ios) {
		zl_log_push(j, &g->lat, end, (uint64_t)(g->win_lat / (double)g->win_ios), NULL, 0);
		zl_log_push(j, &g->clat, end, (uint64_t)(g->win_clat / (double)g->win_ios), NULL, 0);
		zl_log_push(j, &g->slat, end, (uint64_t)(g->win_slat / (double)g->win_ios), NULL, 0);
	}
	g->win_ios = 0;
	g->win_bytes = 0;
	g->win_lat = g->win_clat = g->win_slat = 0;
	g->win_start = end;
}

void zl_log_io(struct zl_job *j, const struct zl_slot *s, uint64_t now, uint64_t slat,
	       uint64_t clat, unsigned bytes)
{
	struct zl_logs *g = &j->logs;
	uint64_t w = zl_log_window(j);

	while (now >= g->win_start + w)
		zl_log_close(j, g->win_start + w);
	g->win_ios++;
	g->win_bytes += bytes;
	if (!j->o->lat_log)
		return;
	if (j->o->log_avg_msec) {
		g->win_lat += (double)(slat + clat);
		g->win_clat += (double)clat;
		g->win_slat += (double)slat;
		return;
	}
	zl_log_push(j, &g->lat, now, slat + clat, s, bytes);
	zl_log_push(j, &g->clat, now, clat, s, bytes);
	zl_log_push(j, &g->slat, now, slat, s, bytes);
}

static int zl_log_file(const struct zl_job *j, const char *prefix, const char *kind,
		       const struct zl_log *l)
{
	struct cz_out out;
	char path[4096];
	int err;
	FILE *f;
	size_t i;

	snprintf(path, sizeof(path), "%s_%s.%d.log", prefix, kind, j->id + 1);
	/* a fresh file renamed onto path when whole, never through a link (lib/outfile.h) */
	err = cz_out_open(&out, path, 0666);
	if (err) {
		cz_err("%s: %s", path, strerror(-err));
		return -1;
	}
	f = out.f;
	for (i = 0; i < l->n; i++) {
		const struct zl_log_ent *e = &l->e[i];

		fprintf(f, "%" PRIu32 ", %" PRIu64 ", %u, %" PRIu32, e->ms, e->val, e->dir, e->bs);
		if (j->o->log_offset)
			fprintf(f, ", %" PRIu64, e->off);
		if (j->o->log_prio)
			fprintf(f, ", 0x%04x\n", e->prio);
		else	/* fio: 1 for a real-time priority (class 1) */
			fprintf(f, ", %u\n", e->prio >> 13 == 1);
	}
	err = cz_out_commit(&out);
	if (err) {
		cz_err("%s: %s", path, strerror(-err));
		return -1;
	}
	return 0;
}

int zl_log_write(struct zl_job *j)
{
	const struct zl_opts *o = j->o;
	struct zl_logs *g = &j->logs;
	int ret = 0;

	if (!j->logging)
		return 0;
	/* The last, partial window, when reads completed in it. */
	if (g->win_ios && j->t_end > g->win_start)
		zl_log_close(j, j->t_end);
	if (g->lost)
		cz_err("job %d: out of memory for the logs: %" PRIu64 " entries lost", j->id, g->lost);
	if (o->bw_log)
		ret |= zl_log_file(j, o->bw_log, "bw", &g->bw);
	if (o->iops_log)
		ret |= zl_log_file(j, o->iops_log, "iops", &g->iops);
	if (o->hist_log)
		ret |= zl_hlog_write(j);
	if (o->lat_log) {
		ret |= zl_log_file(j, o->lat_log, "lat", &g->lat);
		ret |= zl_log_file(j, o->lat_log, "clat", &g->clat);
		ret |= zl_log_file(j, o->lat_log, "slat", &g->slat);
	}
	return ret ? -1 : 0;
}

void zl_log_free(struct zl_job *j)
{
	free(j->logs.bw.e);
	free(j->logs.iops.e);
	free(j->logs.lat.e);
	free(j->logs.clat.e);
	free(j->logs.slat.e);
	free(j->hlog.e);
}
