/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * --status-interval, the jobs' side: at a new tick (zl_status_seq, bumped by
 * main in status.c), a job copies what the report reads into its snapshot,
 * under the snapshot's lock (never waiting for it).  Apart from status.c so that job.c and sync.c
 * depend on nothing that depends on them.
 */
#define _GNU_SOURCE 1
#include <sched.h>

#include "util.h"
#include "zload.h"

unsigned zl_status_seq;

/* Job side: copy what the report reads, for tick zl_status_seq. */
void zl_status_copy(struct zl_job *j)
{
	struct zl_snap *s = j->snap;
	unsigned seq = __atomic_load_n(&zl_status_seq, __ATOMIC_ACQUIRE);
	struct rusage ru;

	/*
	 * main holds the lock while it reads the snapshot for its report; a
	 * job never waits for it (main may be off the CPU among many busy
	 * jobs): it copies at a later I/O instead.
	 */
	if (pthread_mutex_trylock(&s->lock))
		return;
	getrusage(RUSAGE_THREAD, &ru);
	s->c = j->c;
	s->wr = j->wr;
	s->hist = j->hist;
	s->lat = j->lat;
	s->slat = j->slat;
	s->ru_start = j->ru_start;
	s->ru_now = ru;
	s->t_start = j->t_start;
	s->t_now = cz_now_ns();
	s->qd_now = j->qd_now;
	s->cpu = sched_getcpu();
	s->valid = true;
	__atomic_store_n(&s->seq, seq, __ATOMIC_RELEASE);
	pthread_mutex_unlock(&s->lock);
	j->snap_seen = seq;
}
