/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * fio's completion-latency histogram log (fio's HOWTO: write_hist_log,
 * log_hist_msec, log_hist_coarseness; "Log File Formats"): once at least
 * log_hist_msec went by since a direction's last entry, the completion of
 * one of its I/Os writes an entry
 *   time (ms since the job started), direction, block size, bin counts
 * holding the clat counts of that window in fio's 1856 log-linear bins
 * (fio's FIO_IO_U_PLAT_NR: 29 groups of 64, the same buckets as zload's
 * histogram, the last one taking everything above), each coarseness step
 * adding pairs of bins.  fio's fiologparser_hist.py reads the file.
 * Without log_hist_msec the file is empty, as fio's.
 */
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "hist.h"
#include "outfile.h"
#include "zload.h"

void zl_hlog_io(struct zl_job *j, const struct zl_slot *s, uint64_t now, uint64_t clat)
{
	struct zl_hlog *h = &j->hlog;
	int d = s->dir == ZL_DIR_WRITE;
	unsigned idx = zl_hist_index(clat);
	uint32_t ms = (uint32_t)((now - j->t_start) / 1000000);
	uint64_t *e;

	if (!j->o->hist_msec)
		return;
	h->win[d][idx < ZL_HLOG_BINS ? idx : ZL_HLOG_BINS - 1]++;
	if (ms - h->last_ms[d] < j->o->hist_msec)
		return;
	if (h->n == h->cap) {
		size_t cap = h->cap ? 2 * h->cap : 16;

		e = realloc(h->e, cap * (ZL_HLOG_BINS + 1) * sizeof(*e));
		if (!e) {
			j->logs.lost++;
			return;
		}
		h->e = e;
		h->cap = cap;
	}
	e = &h->e[h->n++ * (ZL_HLOG_BINS + 1)];
	e[0] = (uint64_t)ms | (uint64_t)d << 32 | (uint64_t)s->len << 33;
	memcpy(e + 1, h->win[d], sizeof(h->win[d]));
	memset(h->win[d], 0, sizeof(h->win[d]));
	h->last_ms[d] = ms;
}

/* The windows so far are dropped (fio's ramp_time, latency_target's restart). */
void zl_hlog_reset(struct zl_job *j)
{
	j->hlog.n = 0;
	j->hlog.last_ms[0] = j->hlog.last_ms[1] = 0;
	memset(j->hlog.win, 0, sizeof(j->hlog.win));
}

int zl_hlog_write(const struct zl_job *j)
{
	const struct zl_hlog *h = &j->hlog;
	unsigned step = 1u << j->o->hist_coarse, b, k;
	struct cz_out out;
	char path[4096];
	int err;
	size_t i;
	FILE *f;

	snprintf(path, sizeof(path), "%s_clat_hist.%d.log", j->o->hist_log, j->id + 1);
	/* a fresh file renamed onto path when whole, never through a link (lib/outfile.h) */
	err = cz_out_open(&out, path, 0666);
	if (err) {
		cz_err("%s: %s", path, strerror(-err));
		return -1;
	}
	f = out.f;
	for (i = 0; i < h->n; i++) {
		const uint64_t *e = &h->e[i * (ZL_HLOG_BINS + 1)];

		fprintf(f, "%" PRIu64 ", %" PRIu64 ", %" PRIu64, e[0] & 0xffffffffu, e[0] >> 32 & 1,
			e[0] >> 33);
		for (b = 0; b < ZL_HLOG_BINS; b += step) {
			uint64_t sum = 0;

			for (k = 0; k < step; k++)
				sum += e[1 + b + k];
			fprintf(f, ", %" PRIu64, sum);
		}
		fputc('\n', f);
	}
	err = cz_out_commit(&out);
	if (err) {
		cz_err("%s: %s", path, strerror(-err));
		return -1;
	}
	return 0;
}
