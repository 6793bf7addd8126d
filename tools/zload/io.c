/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The per-I/O steps every engine shares (io_uring in job.c, the synchronous
 * family in sync.c): the next I/O's direction, size and offset as fio draws
 * them, its completion into the statistics, the pacing (rate, rate_iops,
 * thinktime, flow) and the end of ramp_time.
 */
#include <errno.h>
#include <sched.h>
#include <stdio.h>
#include <string.h>
#include <time.h>

#include "util.h"
#include "zload.h"

int zl_stop;
int zl_abort;

const char *zl_engine_name(enum zl_engine e)
{
	static const char *const names[] = { "io_uring", "libaio", "sync", "psync", "pvsync",
					     "pvsync2" };

	return (unsigned)e < CZ_ARRAY_SIZE(names) ? names[e] : "?";
}

void zl_map_add(uint64_t *map, unsigned v, bool batch)
{
	unsigned i = 0;

	if (batch) {
		/* 0, 1-4, 5-8, 9-16, 17-32, 33-64, more */
		while (i < 6 && v > (i ? 2u << i : 0u))
			i++;
	} else {
		/* 1, 2-3, 4-7, ... 32-63, 64 and more */
		while (i < 6 && v >= 2u << i)
			i++;
	}
	map[i]++;
}

const char *zl_op_name(const struct zl_opts *o)
{
	if (o->engine >= ZL_ENG_SYNC)
		return zl_engine_name(o->engine);
	if (o->fixedbufs)
		return "read_fixed";
	return o->nonvectored ? "read" : "readv";
}

static void zl_io_failed(struct zl_job *j, const struct zl_slot *s, int res)
{
	if (j->c.errors++ < ZL_MAX_ERR_LINES)
		fprintf(stderr, "zload: job %d: %s %s of %u bytes at offset %llu failed: res %d (%s)\n",
			j->id, zl_op_name(j->o), s->dir == ZL_DIR_WRITE ? "write" : "read", s->len,
			(unsigned long long)s->offset, res, res ? strerror(-res) : "end of file");
	/* As fio without continue_on_error: stop issuing, drain. */
	__atomic_store_n(&zl_stop, 1, __ATOMIC_RELAXED);
}

/* latency.c's verdict: restart the statistics, end the job, or fail it. */
static void zl_lt_apply(struct zl_job *j, int what, uint64_t lat, uint64_t now)
{
	if (what == ZL_LT_RESET) {
		zl_ramp_done(j, now);
	} else if (what == ZL_LT_DONE) {
		__atomic_store_n(&j->stop, 1, __ATOMIC_RELAXED);
	} else if (what == ZL_LT_FATAL) {
		if (!j->c.errors++)
			fprintf(stderr, "zload: job %d: latency of %llu nsec exceeds specified max "
				"(%llu nsec)\n", j->id, (unsigned long long)lat,
				(unsigned long long)j->o->lat_target_ns);
		__atomic_store_n(&j->stop, 1, __ATOMIC_RELAXED);
	}
}

void zl_complete(struct zl_job *j, struct zl_slot *s, int res, uint64_t now)
{
	const struct zl_opts *o = j->o;
	bool w = s->dir == ZL_DIR_WRITE;
	uint64_t clat = now > s->t_submit ? now - s->t_submit : 0;
	uint64_t lat = now > s->t_prep ? now - s->t_prep : 0;
	size_t bad;

	zl_hist_add(w ? &j->wr.clat : &j->hist, clat);
	zl_hist_add(w ? &j->wr.lat : &j->lat, lat);
	if (j->logging && res > 0) {
		zl_log_io(j, s, now, s->t_submit - s->t_prep, clat, (unsigned)res);
		if (o->hist_log)
			zl_hlog_io(j, s, now, clat);
	}
	if (res <= 0) {
		/* res 0: end of file where there should be data, nothing to measure. */
		zl_io_failed(j, s, res);
		return;
	}
	j->c.ios++;
	j->c.bytes += (uint64_t)res;
	if (o->lat_target_ns)
		zl_lt_apply(j, zl_lt_complete(j, lat, now), lat, now);
	/*
	 * Not an error: io_uring does not retry short reads of character
	 * devices, and /dev/zero stops early when it would reschedule.
	 */
	if ((unsigned)res < s->len)
		j->c.short_reads++;
	if (w) {
		if (!j->wr.ios && !j->ramp_ios) {
			j->verify_off = s->offset;
			j->verify_len = s->len;
		}
		j->wr.ios++;
		j->wr.bytes += (uint64_t)res;
		j->wr.short_ios += (unsigned)res < s->len;
		return;
	}
	if (o->verify_hdr)
		zl_verify_hdr(j, s, s->iov.iov_base, (size_t)res);
	if (o->verify) {
		bad = cz_first_nonzero(s->iov.iov_base, (size_t)res);
		if (bad < (size_t)res) {
			if (j->c.verify_failures++ < ZL_MAX_ERR_LINES)
				fprintf(stderr, "zload: verify: job %d: byte at offset %llu = %#04x, expected 0\n",
					j->id, (unsigned long long)(s->offset + bad),
					((unsigned char *)s->iov.iov_base)[bad]);
			__atomic_store_n(&zl_stop, 1, __ATOMIC_RELAXED);
		}
	}
}

void zl_nap(uint64_t ns)
{
	struct timespec ts = { .tv_sec = (time_t)(ns / 1000000000ULL),
			       .tv_nsec = (long)(ns % 1000000000ULL) };

	while (nanosleep(&ts, &ts) && errno == EINTR)
		;
}

static uint64_t zl_rand(uint64_t *state)
{
	uint64_t x = *state;

	x ^= x >> 12;
	x ^= x << 25;
	x ^= x >> 27;
	*state = x;
	return x * 0x2545F4914F6CDD1DULL;
}

/* A size from fio's bssplit (percentages of I/Os), or the direction's bs. */
static uint32_t zl_pick_bs(struct zl_job *j, int dir)
{
	const struct zl_bss *b = &j->o->bss[dir];
	unsigned r, i, acc = 0;

	if (j->o->bsr_hi[dir]) {
		uint32_t lo = j->o->bsr_lo[dir];

		return lo + (uint32_t)(zl_rand(&j->mix_state) % ((j->o->bsr_hi[dir] - lo) / lo + 1)) * lo;
	}
	if (!b->n)
		return dir == ZL_DIR_WRITE ? j->o->bs_w : j->o->bs;
	r = (unsigned)(zl_rand(&j->mix_state) % 100);
	for (i = 0; i < b->n; i++) {
		acc += b->pct[i];
		if (r < acc)
			return b->bs[i];
	}
	return b->bs[b->n - 1];
}

/* A random block in [0, wrap): uniform, or fio's random_distribution=zoned. */
static uint64_t zl_pick_random(struct zl_job *j, uint32_t len, uint64_t wrap)
{
	const struct zl_zones *z = &j->o->zones;
	uint64_t blocks = wrap / len, lo = 0, hi = blocks, r = zl_rand(&j->rand_state);
	unsigned i, acc = 0, size_acc = 0, p;

	if (j->o->blockalign && !z->n)	/* fio's blockalign: any multiple of it */
		return r % ((wrap - len) / j->o->blockalign + 1) * j->o->blockalign;
	if (z->n) {
		p = (unsigned)(zl_rand(&j->mix_state) % 100);
		for (i = 0; i < z->n; i++) {
			lo = blocks * size_acc / 100;
			size_acc += z->size_pct[i];
			hi = blocks * size_acc / 100;
			acc += z->pct[i];
			if (p < acc)
				break;
		}
		if (hi <= lo)
			hi = lo + 1;
	}
	return (lo + r % (hi - lo)) * len;
}

/*
 * Where the next I/O of job j goes with zonemode=strided: *off (from the
 * job's base) is kept in the current zone.  The zone moves on once
 * zonesize bytes went to it.  Returns the zone's usable length.
 */
static uint64_t zl_zone_strided(struct zl_job *j, struct zl_seq *q, uint64_t *off, uint32_t len)
{
	const struct zl_opts *o = j->o;
	uint64_t range;

	if (j->zone_bytes >= o->zone_size) {
		j->zone_bytes = 0;
		j->zone_start += o->zone_range + o->zone_skip;
		if (j->zone_start >= j->wrap)
			j->zone_start = 0;
		q->next_off[0] = q->next_off[1] = j->zone_start;
		*off = j->zone_start;
	}
	range = j->wrap - j->zone_start < o->zone_range ? j->wrap - j->zone_start : o->zone_range;
	if (*off < j->zone_start || *off + len > j->zone_start + range)
		*off = j->zone_start;
	j->zone_bytes += len;
	return range;
}

/*
 * The next I/O's direction (rwmixread), size (bs, bssplit) and offset: fio's
 * sequential streams (one per direction) with rw=...:N added after each I/O,
 * or random blocks, a new one every rand_nr I/Os.  Offsets are relative to
 * the job's base and wrap in [0, wrap).
 */
void zl_next_io(struct zl_job *j, struct zl_seq *q, struct zl_slot *s)
{
	const struct zl_opts *o = j->o;
	int dir = o->rwmix_read >= 100 ? ZL_DIR_READ : o->rwmix_read == 0 ? ZL_DIR_WRITE :
		  zl_rand(&j->mix_state) % 100 < o->rwmix_read ? ZL_DIR_READ : ZL_DIR_WRITE;
	uint32_t len = zl_pick_bs(j, dir);
	uint64_t off = q->next_off[dir];
	int64_t next;

	if (o->zonemode == ZL_ZONE_STRIDED) {
		uint64_t range = zl_zone_strided(j, q, &off, len);

		if (o->random && !q->left[dir] && range >= len) {
			off = j->zone_start + zl_pick_random(j, len, range);
			q->left[dir] = o->rand_nr;
		}
	} else if (o->random && !q->left[dir]) {
		off = zl_pick_random(j, len, j->wrap);
		q->left[dir] = o->rand_nr;
	}
	if (off + len > j->wrap)
		off = 0;
	if (q->left[dir])
		q->left[dir]--;
	next = (int64_t)(off + len) + o->seq_add;
	while (next < 0)
		next += (int64_t)j->wrap;
	q->next_off[dir] = (uint64_t)next % j->wrap;
	s->dir = dir;
	s->len = len;
	s->offset = j->base + off;
	s->ioprio = o->cmdprio.have_pct || o->cmdprio.have_bss ?
		    zl_cmdprio_pick(o, dir, len, (unsigned)(zl_rand(&j->mix_state) % 100)) :
		    o->prio_default;
}

/*
 * fio's flow: the jobs of one flow_id keep their I/O counts in the ratio of
 * their flow weights.  A job ahead of the slowest running job of its group
 * (by I/Os per unit of weight) waits flow_sleep us and looks again.
 */
static void zl_flow(struct zl_job *j)
{
	const struct zl_job *all = j - j->id;
	unsigned n = j->run ? j->run->total_jobs : 0, i;

	for (;;) {
		double mine = (double)(j->ramp_ios + j->c.ios) / j->o->flow, least = mine;

		for (i = 0; i < n; i++) {
			const struct zl_job *k = &all[i];

			if (k == j || !k->o->flow || k->o->flow_id != j->o->flow_id ||
			    !__atomic_load_n(&k->t_go, __ATOMIC_ACQUIRE) ||
			    __atomic_load_n(&k->finished, __ATOMIC_ACQUIRE))
				continue;
			double theirs = (double)__atomic_load_n(&k->live_ios, __ATOMIC_RELAXED) / k->o->flow;

			if (theirs < least)
				least = theirs;
		}
		if (mine <= least + 1.0 || __atomic_load_n(&zl_stop, __ATOMIC_RELAXED) ||
		    __atomic_load_n(&j->stop, __ATOMIC_RELAXED))
			return;
		if (j->o->flow_sleep_us)
			zl_nap(j->o->flow_sleep_us * 1000);
		else
			sched_yield();
	}
}

/* fio's rate and rate_iops (per direction, summed here), thinktime and flow. */
void zl_throttle(struct zl_job *j)
{
	const struct zl_opts *o = j->o;
	uint64_t rate = o->rate[0] + o->rate[1], iops = o->rate_iops[0] + o->rate_iops[1];
	uint64_t now, due = 0, done_bytes = j->ramp_bytes + j->c.bytes;
	uint64_t done_ios = j->ramp_ios + j->c.ios;

	if (o->thinktime_us && done_ios)
		zl_nap(o->thinktime_us * 1000);
	if (o->flow)
		zl_flow(j);
	if (!rate && !iops)
		return;
	if (rate)
		due = (uint64_t)((double)done_bytes / (double)rate * 1e9);
	if (iops && (uint64_t)((double)done_ios / (double)iops * 1e9) > due)
		due = (uint64_t)((double)done_ios / (double)iops * 1e9);
	due += j->t_go;
	now = cz_now_ns();
	while (now < due && !__atomic_load_n(&zl_stop, __ATOMIC_RELAXED) &&
	       !__atomic_load_n(&j->stop, __ATOMIC_RELAXED)) {
		zl_nap(due - now < 10000000ULL ? due - now : 10000000ULL);
		now = cz_now_ns();
	}
}

/*
 * fio's ramp_time is over: what was measured so far is dropped, the run's
 * clock and CPU times start now.  Errors and verify failures are kept: a
 * failure during the ramp is still a failure.
 */
void zl_ramp_done(struct zl_job *j, uint64_t now)
{
	struct zl_counters keep = j->c;

	j->ramp_ios += keep.ios;
	j->ramp_bytes += keep.bytes;
	memset(&j->c, 0, sizeof(j->c));
	j->c.errors = keep.errors;
	j->c.verify_failures = keep.verify_failures;
	memset(&j->hist, 0, sizeof(j->hist));
	memset(&j->lat, 0, sizeof(j->lat));
	memset(&j->slat, 0, sizeof(j->slat));
	memset(&j->wr, 0, sizeof(j->wr));
	j->logs.bw.n = j->logs.iops.n = j->logs.lat.n = j->logs.clat.n = j->logs.slat.n = 0;
	zl_hlog_reset(j);
	j->logs.win_start = now;
	j->logs.win_ios = j->logs.win_bytes = 0;
	j->logs.win_lat = j->logs.win_clat = j->logs.win_slat = 0;
	j->t_start = now;
	getrusage(RUSAGE_THREAD, &j->ru_start);
	j->ramp_end = 0;
	__atomic_store_n(&j->ramped, 1, __ATOMIC_RELEASE);
}

