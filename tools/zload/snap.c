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
uint64_t zl_status_epoch, zl_status_tick;

/* How long a job past its runtime waits for the last tick before its end. */
#define ZL_STATUS_GRACE_NS	100000000ULL

/*
 * Job side, past its runtime: is the last tick at or before its end still to
 * come from main (and the job not yet ZL_STATUS_GRACE_NS late)?
 */
bool zl_status_pending(const struct zl_job *j, uint64_t now)
{
	uint64_t iv = j->run ? j->run->status_ns : 0, last;

	if (!iv || j->t_stop < zl_status_epoch + iv || now >= j->t_stop + ZL_STATUS_GRACE_NS)
		return false;
	last = zl_status_epoch + (j->t_stop - zl_status_epoch) / iv * iv;
	return __atomic_load_n(&zl_status_tick, __ATOMIC_ACQUIRE) < last;
}

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
