/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * fio's --status-interval (fio's HOWTO, "Command line options"): every
 * interval, a full report of cumulative values from each job's start to now,
 * in the selected output formats; bandwidths are running averages.  Then the
 * final report as always.
 *
 * The worker threads own their counters and histograms, so main never reads
 * them while they run.  At a tick main bumps zl_status_seq; each running job,
 * where it publishes its live counters after an I/O (job.c, sync.c), sees the
 * new number and copies what the report reads into its snapshot under the
 * snapshot's lock (a try: it never waits for main, it copies at a later I/O),
 * with its own RUSAGE_THREAD (snap.c).  A job ends its runtime itself
 * (zl_time_check()), so a long dump stretches no run.  main waits for the
 * copies (at most ZL_STATUS_WAIT_NS: a job in a long sleep or I/O gives its
 * previous copy), builds a view of every job from the snapshots (a finished job: its
 * final values) and runs report.c over the view.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "util.h"
#include "zload.h"

#define ZL_STATUS_WAIT_NS	100000000ULL

/* The jobs as the report sees them at a tick (main's only). */
static struct zl_job *zl_view;

void zl_status_init(const struct zl_run *run, struct zl_job *jobs)
{
	unsigned i;

	if (!run->status_ns)
		return;
	zl_view = calloc(run->total_jobs, sizeof(*zl_view));
	if (!zl_view)
		cz_die(CZ_EXIT_FAILURE, "out of memory");
	for (i = 0; i < run->total_jobs; i++) {
		jobs[i].snap = calloc(1, sizeof(*jobs[i].snap));
		if (!jobs[i].snap)
			cz_die(CZ_EXIT_FAILURE, "out of memory");
		pthread_mutex_init(&jobs[i].snap->lock, NULL);
	}
}

void zl_status_free(const struct zl_run *run, struct zl_job *jobs)
{
	unsigned i;

	if (!run->status_ns)
		return;
	for (i = 0; i < run->total_jobs; i++) {
		pthread_mutex_destroy(&jobs[i].snap->lock);
		free(jobs[i].snap);
		jobs[i].snap = NULL;
	}
	free(zl_view);
	zl_view = NULL;
}

/* Every running job has copied for tick seq (jobs not started or finished need not). */
static bool zl_status_caught_up(const struct zl_run *run, const struct zl_job *jobs, unsigned seq)
{
	unsigned i;

	for (i = 0; i < run->total_jobs; i++) {
		const struct zl_job *j = &jobs[i];

		if (__atomic_load_n(&j->finished, __ATOMIC_ACQUIRE) ||
		    !__atomic_load_n(&j->t_go, __ATOMIC_ACQUIRE))
			continue;
		if (__atomic_load_n(&j->snap->seq, __ATOMIC_ACQUIRE) != seq)
			return false;
	}
	return true;
}

/*
 * Job j as the report sees it now: a finished job as it ended; a running one
 * from its snapshot, with what main itself keeps (bandwidth samples, steady
 * state) and what was set before the start barrier; a job not started yet
 * (stonewall, startdelay) with nothing done, in no time.
 */
static void zl_status_view(const struct zl_job *j, struct zl_job *v, uint64_t now)
{
	struct zl_snap *s = j->snap;

	/* finished: as it ended, unless it copied for this tick on its way out */
	if (__atomic_load_n(&j->finished, __ATOMIC_ACQUIRE) &&
	    __atomic_load_n(&s->seq, __ATOMIC_ACQUIRE) != zl_status_seq) {
		*v = *j;
		return;
	}
	memset(v, 0, sizeof(*v));
	v->id = j->id;
	v->sect = j->sect;
	v->id_in_sect = j->id_in_sect;
	v->run = j->run;
	v->cpu = j->cpu;
	v->o = j->o;
	v->setup_flags = j->setup_flags;
	v->dropped_flags = j->dropped_flags;
	v->sqpoll_on = j->sqpoll_on;
	v->buffers_registered = j->buffers_registered;
	v->files_registered = j->files_registered;
	v->bw = j->bw;
	v->iops = j->iops;
	v->ss = j->ss;
	v->qd_now = j->o->qd;
	v->ran_cpu = -1;
	v->t_start = v->t_end = now;
	pthread_mutex_lock(&s->lock);
	if (s->valid) {
		v->c = s->c;
		v->wr = s->wr;
		v->hist = s->hist;
		v->lat = s->lat;
		v->slat = s->slat;
		v->ru_start = s->ru_start;
		v->ru_end = s->ru_now;
		v->t_start = s->t_start;
		v->t_end = s->t_now;
		v->qd_now = s->qd_now;
		v->ran_cpu = s->cpu;
	}
	pthread_mutex_unlock(&s->lock);
}

/* One status dump: every job from its start to now, in the run's formats. */
void zl_status_dump(const struct zl_run *run, const struct zl_job *jobs, uint64_t tick)
{
	unsigned seq, i;
	uint64_t until = cz_now_ns() + ZL_STATUS_WAIT_NS, now;
	struct zl_run at = *run;

	/* the tick first: a job past its end that waits for it sees the new seq */
	seq = __atomic_add_fetch(&zl_status_seq, 1, __ATOMIC_RELEASE);
	__atomic_store_n(&zl_status_tick, tick, __ATOMIC_RELEASE);

	while (!zl_status_caught_up(run, jobs, seq) && cz_now_ns() < until)
		zl_nap(1000000);
	now = cz_now_ns();
	for (i = 0; i < run->total_jobs; i++)
		zl_status_view(&jobs[i], &zl_view[i], now);
	zl_du_stop(&at.du);		/* the disks' counters so far */
	zl_report(&at, zl_view);
	/* fio's normal output: a blank line before the next dump's first job. */
	if (run->formats ? run->formats & (1u << ZL_OUT_NORMAL) : run->format == ZL_OUT_NORMAL)
		putchar('\n');
	fflush(stdout);			/* for whoever watches the output */
}
