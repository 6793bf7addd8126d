/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * THE read path, shared by the CUSE and FUSE front ends: what the kernel's
 * read_zero() does, with the routine under test.  A request of n bytes is
 * split into --chunk pieces, each cleared by the selected routine (its
 * placed copy when --align is set) in the calling thread's reply buffer.
 *
 * Hot path rules (what is left of a request's time besides the routine is
 * the device's overhead, bench/device-vs-kernel.sh): no allocation, no
 * lock, no logging, one clock pair per request.  The reply buffer is one
 * page-aligned, pre-faulted
 * mapping per thread, reused for every request.
 *
 * Settings can change while readers run.  A setting is an immutable
 * struct rp_config published through one atomic pointer; a thread announces
 * the config it uses in its hazard slot for the duration of one request, and
 * a replaced config (with its placed code) is freed only once no hazard
 * slot names it.  With one thread the setter never waits.
 *
 * Statistics: each thread owns its counters (relaxed atomic stores, no
 * contention); a reader sums them.  Reset records a baseline instead of
 * writing other threads' counters.  The device's busy time is not timed
 * here at all: it is the serving threads' CPU time, read from the kernel's
 * per-thread CPU clocks (pthread_getcpuclockid) when statistics are taken,
 * so the hot path keeps its one clock pair.  Each request also lands in the
 * thread's histogram of routine time per 4 KiB: the totals are a mean that
 * one preempted request inflates, a quantile of the merged histogram is not.
 *
 * Safety: the reply must never contain a non-zero byte.  A routine that
 * returns "bytes not cleared" (a bug, or a fault recovered through its
 * exception table) is logged, counted, and the rest is cleared by memset.
 */
#include <errno.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <time.h>

#include "devstats.h"
#include "log.h"
#include "readpath.h"
#include "util.h"

#define RP_MAX_THREADS 64

/* A rotation's placed copies (cusezero.h, SET_ROTATE). */
struct rp_rot {
	struct zero_placed placed;
	int offset;
};

struct rp_config {
	const struct zero_routine *routine;
	unsigned ridx;                  /* zero_index(): built-in, then loaded routines */
	zero_fn fn;
	bool placed_ok;
	struct zero_placed placed;
	int align;
	enum zero_point point;
	size_t chunk;
	struct rp_rotspec rot_spec;     /* n == 0: not rotating */
	struct rp_rot rot[CUSEZERO_ROTATE_MAX];
	uint64_t gen;                   /* distinct per config: threads restart their rotation */
	struct rp_config *next_retired;
};

/* One copy's counters in a rotation, per thread. */
struct rp_lay {
	struct cusezero_counters c;
	uint64_t hist[CUSEZERO_HIST_BUCKETS];
};

struct rp_counts {
	struct cusezero_counters total;
	struct cusezero_counters per[CUSEZERO_MAX_ROUTINES];
	uint64_t writes, write_bytes;
	uint64_t hist[CUSEZERO_HIST_BUCKETS];   /* per-request routine ns per 4 KiB */
};

struct rp_thread {
	_Atomic(struct rp_config *) hazard;
	unsigned char *buf;
	struct rp_counts counts;        /* written by the owner only */
	clockid_t cpuclock;             /* this thread's CPU-time clock, if has_cpuclock */
	bool has_cpuclock;
	uint64_t cpu_base, cpu_ns;      /* at attach; last reading (kept if the thread is gone) */
	struct rp_lay *lay;             /* CUSEZERO_ROTATE_MAX, written by the owner only */
	uint64_t rot_gen, rot_rng;      /* the rotation this thread follows; its random stream */
	unsigned rot_left, rot_pos;     /* requests left in this turn; turn in the cycle */
	uint8_t rot_perm[CUSEZERO_ROTATE_MAX];  /* this cycle's order of the copies */
} __attribute__((aligned(64)));

static _Atomic(struct rp_config *) rp_current;
static struct rp_thread rp_threads[RP_MAX_THREADS];
static unsigned rp_nthreads;
static bool rp_poison;
static __thread struct rp_thread *rp_self;

/* Serialises setters, reset and the retired list (never taken on the read path). */
static pthread_mutex_t rp_ctl_lock = PTHREAD_MUTEX_INITIALIZER;
static struct rp_config *rp_retired;
static struct rp_counts rp_baseline;
static uint64_t rp_busy_base, rp_since;       /* busy_ns and time at start / last reset */
static struct rp_lay rp_lay_base[CUSEZERO_ROTATE_MAX];  /* layout counters at the last change */
static struct rp_lay rp_lay_tmp[CUSEZERO_ROTATE_MAX];   /* a reading's sums (rp_ctl_lock) */
static uint64_t rp_gen;                        /* last config generation handed out */

static inline void rp_add(uint64_t *ctr, uint64_t v)
{
	__atomic_store_n(ctr, __atomic_load_n(ctr, __ATOMIC_RELAXED) + v, __ATOMIC_RELAXED);
}

/* The ABI's point (cusezero.h) of a zeroing point. */
static uint32_t rp_point_abi(enum zero_point p)
{
	return p == ZERO_POINT_ENTRY ? CUSEZERO_POINT_ENTRY : CUSEZERO_POINT_LOOP;
}

static void rp_config_free(struct rp_config *c)
{
	unsigned i;

	if (c->placed_ok)
		zero_unplace(&c->placed);
	for (i = 0; i < c->rot_spec.n; i++)
		zero_unplace(&c->rot[i].placed);
	free(c);
}

/* Place r at every offset of spec into c->rot; 0, -EINVAL or -ENOMEM (nothing left placed). */
static int rp_rot_place(struct rp_config *c, const struct zero_routine *r, enum zero_point point,
			const struct rp_rotspec *spec)
{
	unsigned i, j;
	int ret;

	if (spec->n > CUSEZERO_ROTATE_MAX || spec->period > CUSEZERO_ROTATE_PERIOD_MAX)
		return -EINVAL;
	for (i = 0; i < spec->n; i++) {
		if (spec->off[i] > ZERO_PLACE_MAX_OFFSET)
			return -EINVAL;
		for (j = 0; j < i; j++)
			if (spec->off[j] == spec->off[i])
				return -EINVAL;
	}
	for (i = 0; i < spec->n; i++) {
		ret = zero_place(r, point, spec->off[i], &c->rot[i].placed);
		if (ret) {
			cz_debug("place %s at %u: %s", r->name, spec->off[i], zero_place_strerror(ret));
			while (i--)
				zero_unplace(&c->rot[i].placed);
			return ret == -ENOMEM ? -ENOMEM : -EINVAL;
		}
		c->rot[i].offset = spec->off[i];
	}
	c->rot_spec = *spec;
	if (!c->rot_spec.period)
		c->rot_spec.period = CUSEZERO_ROTATE_PERIOD;
	return 0;
}

/*
 * Build a config; 0 or -EINVAL (unknown/unusable routine, bad offset/point/chunk/rotation).
 * rot: a rotation (align is then ignored), or NULL / n == 0 for none.
 */
static int rp_config_new(const struct zero_routine *r, int align, enum zero_point point,
			 size_t chunk, const struct rp_rotspec *rot, struct rp_config **out)
{
	struct rp_config *c;
	int ret;

	if (!r || !zero_usable(r, NULL))
		return -EINVAL;
	if (!(rot && rot->n) && align != CUSEZERO_ALIGN_NONE &&
	    (align < 0 || align > (int)ZERO_PLACE_MAX_OFFSET))
		return -EINVAL;
	if (point != ZERO_POINT_ENTRY && point != ZERO_POINT_LOOP)
		return -EINVAL;
	if (chunk < 1 || chunk > CUSEZERO_CHUNK_MAX)
		return -EINVAL;
	c = calloc(1, sizeof(*c));
	if (!c)
		return -ENOMEM;
	c->routine = r;
	c->ridx = (unsigned)zero_index(r);
	c->fn = r->fn;
	c->align = align;
	c->point = point;
	c->chunk = chunk;
	if (rot && rot->n) {
		ret = rp_rot_place(c, r, point, rot);
		if (ret) {
			free(c);
			return ret;
		}
		c->align = CUSEZERO_ALIGN_ROTATE;
		c->fn = c->rot[0].placed.fn;
	} else if (align != CUSEZERO_ALIGN_NONE) {
		ret = zero_place(r, point, (unsigned)align, &c->placed);
		if (ret) {
			cz_debug("place %s at %d: %s", r->name, align, zero_place_strerror(ret));
			free(c);
			return ret == -ENOMEM ? -ENOMEM : -EINVAL;
		}
		c->placed_ok = true;
		c->fn = c->placed.fn;
	}
	*out = c;
	return 0;
}

static bool rp_hazarded(struct rp_config *c)
{
	unsigned i;

	for (i = 0; i < rp_nthreads; i++)
		if (atomic_load(&rp_threads[i].hazard) == c)
			return true;
	return false;
}

/* Called with rp_ctl_lock held. */
static void rp_lay_sum(struct rp_lay *s, unsigned first, unsigned n);

static void rp_publish(struct rp_config *c)
{
	struct rp_config *old, **pp;

	c->gen = ++rp_gen;
	old = atomic_exchange(&rp_current, c);
	/* every change of settings starts the layout counters afresh (cusezero.h) */
	rp_lay_sum(rp_lay_base, 0, c->rot_spec.n);

	old->next_retired = rp_retired;
	rp_retired = old;
	for (pp = &rp_retired; *pp;) {
		struct rp_config *r = *pp;

		if (rp_hazarded(r)) {
			pp = &r->next_retired;
			continue;
		}
		*pp = r->next_retired;
		rp_config_free(r);
	}
}

int rp_init(const char *routine, int align, enum zero_point point, uint64_t chunk,
	    unsigned nthreads, bool poison)
{
	const struct zero_routine *r = routine ? zero_lookup(routine) : zero_default();
	struct rp_config *c;
	int ret;

	if (nthreads < 1 || nthreads > RP_MAX_THREADS)
		return -EINVAL;
	ret = rp_config_new(r, align, point, chunk, NULL, &c);
	if (ret)
		return ret;
	c->gen = ++rp_gen;
	rp_nthreads = nthreads;
	rp_poison = poison;
	rp_since = cz_now_ns();
	atomic_store(&rp_current, c);
	return 0;
}

static uint64_t rp_clock_ns(clockid_t clk)
{
	struct timespec ts;

	if (clock_gettime(clk, &ts))
		return 0;
	return (uint64_t)ts.tv_sec * 1000000000u + (uint64_t)ts.tv_nsec;
}

int rp_thread_attach(unsigned idx)
{
	struct rp_thread *t = &rp_threads[idx];
	struct rp_lay *lay;
	void *p;

	if (idx >= rp_nthreads)
		return -EINVAL;
	/* Pre-faulted: no page fault on the first request of each size. */
	p = mmap(NULL, CZ_MAX_REQUEST, PROT_READ | PROT_WRITE,
		 MAP_PRIVATE | MAP_ANONYMOUS | MAP_POPULATE, -1, 0);
	if (p == MAP_FAILED)
		return -errno;
	/* the rotation's per-copy counters: allocated here, not on the read path */
	lay = calloc(CUSEZERO_ROTATE_MAX, sizeof(*lay));
	if (!lay) {
		munmap(p, CZ_MAX_REQUEST);
		return -ENOMEM;
	}
	t->buf = p;
	pthread_mutex_lock(&rp_ctl_lock);
	t->lay = lay;	/* under the lock: rp_lay_sum() reads it from other threads */
	/* busy time starts now: the set-up before serving is not device work */
	t->has_cpuclock = pthread_getcpuclockid(pthread_self(), &t->cpuclock) == 0;
	t->cpu_base = t->cpu_ns = rp_clock_ns(CLOCK_THREAD_CPUTIME_ID);
	pthread_mutex_unlock(&rp_ctl_lock);
	rp_self = t;
	return 0;
}

static __attribute__((noinline, cold)) void
rp_routine_failed(struct rp_config *c, unsigned char *p, size_t n, size_t left)
{
	static atomic_ulong nfail;
	unsigned long k = atomic_fetch_add(&nfail, 1);

	if (left > n)
		left = n;
	/* a broken routine fails on every chunk: log the first ten, then every 10000th */
	if (k < 10 || k % 10000 == 0)
		cz_log("routine %s%s left %zu of %zu bytes not cleared; cleared by memset (failure %lu)",
		       c->routine->name, c->placed_ok ? " (placed)" : "", left, n, k + 1);
	memset(p + (n - left), 0, left);
	if (c->ridx < CUSEZERO_MAX_ROUTINES)
		rp_add(&rp_self->counts.per[c->ridx].errors, 1);
	rp_add(&rp_self->counts.total.errors, 1);
}

void *rp_thread_buffer(void)
{
	return rp_self ? rp_self->buf : NULL;
}

static uint64_t rp_rng_next(uint64_t *s)
{
	/* xorshift64* (Vigna, "An experimental exploration of Marsaglia's xorshift generators") */
	*s ^= *s >> 12;
	*s ^= *s << 25;
	*s ^= *s >> 27;
	return *s * 2685821657736338717ull;
}

static void rp_rot_shuffle(struct rp_thread *t, unsigned n)
{
	unsigned i, j;
	uint8_t x;

	for (i = n - 1; i > 0; i--) {
		j = (unsigned)(rp_rng_next(&t->rot_rng) % (i + 1));
		x = t->rot_perm[i];
		t->rot_perm[i] = t->rot_perm[j];
		t->rot_perm[j] = x;
	}
}

/* The copy (index into c->rot) that serves this request of this thread. */
static unsigned rp_rot_slot(struct rp_thread *t, const struct rp_config *c)
{
	unsigned i, n = c->rot_spec.n;

	if (t->rot_gen != c->gen) {
		t->rot_gen = c->gen;
		/* one stream per thread, from the seed; never 0 (xorshift's fixed point) */
		t->rot_rng = ((uint64_t)c->rot_spec.seed << 8 | (uint64_t)(t - rp_threads)) *
			     0x9e3779b97f4a7c15ull + 1;
		for (i = 0; i < n; i++)
			t->rot_perm[i] = (uint8_t)i;
		rp_rot_shuffle(t, n);
		t->rot_pos = 0;
		t->rot_left = c->rot_spec.period;
	} else if (t->rot_left == 0) {
		t->rot_left = c->rot_spec.period;
		if (++t->rot_pos == n) {
			t->rot_pos = 0;
			rp_rot_shuffle(t, n);
		}
	}
	t->rot_left--;
	return t->rot_perm[t->rot_pos];
}

const void *rp_read(size_t size)
{
	struct rp_thread *t = rp_self;
	struct rp_config *c = atomic_load(&rp_current), *again;
	unsigned char *buf = t->buf;
	uint64_t t0, t1;
	size_t off, n, left;
	unsigned slot = 0;
	zero_fn fn;

	/* Announce c, then make sure it is still current (a setter may have swapped it). */
	for (;;) {
		atomic_store(&t->hazard, c);
		again = atomic_load(&rp_current);
		if (again == c)
			break;
		c = again;
	}
	if (size > CZ_MAX_REQUEST)
		size = CZ_MAX_REQUEST;
	if (__builtin_expect(rp_poison, 0))
		memset(buf, 0xa5, size);
	fn = c->fn;
	if (c->rot_spec.n) {
		slot = rp_rot_slot(t, c);
		fn = c->rot[slot].placed.fn;
	}
	t0 = cz_now_ns();
	for (off = 0; off < size; off += n) {
		n = size - off < c->chunk ? size - off : c->chunk;
		left = fn(buf + off, n);
		if (__builtin_expect(left != 0, 0))
			rp_routine_failed(c, buf + off, n, left);
	}
	t1 = cz_now_ns();
	if (size) {
		unsigned b = cusezero_hist_index((t1 - t0) * CUSEZERO_HIST_UNIT / size);

		rp_add(&t->counts.hist[b], 1);
		if (c->rot_spec.n) {
			struct rp_lay *l = &t->lay[slot];

			rp_add(&l->hist[b], 1);
			rp_add(&l->c.requests, 1);
			rp_add(&l->c.bytes, size);
			rp_add(&l->c.ns, t1 - t0);
		}
	}
	rp_add(&t->counts.total.requests, 1);
	rp_add(&t->counts.total.bytes, size);
	rp_add(&t->counts.total.ns, t1 - t0);
	if (c->ridx < CUSEZERO_MAX_ROUTINES) {
		struct cusezero_counters *pc = &t->counts.per[c->ridx];

		rp_add(&pc->requests, 1);
		rp_add(&pc->bytes, size);
		rp_add(&pc->ns, t1 - t0);
	}
	atomic_store_explicit(&t->hazard, NULL, memory_order_release);
	return buf;
}

#ifdef CZ_READPATH_TEST
/*
 * tests/cuse/readpath.c only (built with -DCZ_READPATH_TEST): run fn in
 * place of the current routine -- one that skips bytes, which no routine in
 * the registry does -- to see --poison at work.  Returns the previous fn.
 */
zero_fn rp_test_swap_fn(zero_fn fn)
{
	struct rp_config *c = atomic_load(&rp_current);
	zero_fn old = c->fn;

	c->fn = fn;
	return old;
}
#endif

void rp_set_poison(bool on)
{
	rp_poison = on;
}

void rp_count_write(size_t size)
{
	rp_add(&rp_self->counts.writes, 1);
	rp_add(&rp_self->counts.write_bytes, size);
}

int rp_apply(const struct rp_change *c)
{
	const struct zero_routine *r;
	const struct rp_rotspec *rot = NULL;
	struct rp_config *cur, *n;
	enum zero_point point;
	int align, ret;

	pthread_mutex_lock(&rp_ctl_lock);
	cur = atomic_load(&rp_current);
	r = c->routine ? zero_lookup(c->routine) : cur->routine;
	if (c->rot_set)
		rot = &c->rot;
	else if (!c->align_set && cur->rot_spec.n)
		rot = &cur->rot_spec;	/* a new routine or chunk keeps the rotation */
	align = c->align_set ? c->align : cur->align;
	if (c->rot_set || (rot && !c->align_set))
		align = rot->n ? CUSEZERO_ALIGN_ROTATE : CUSEZERO_ALIGN_NONE;
	if (c->point_set)
		point = c->point;
	else if (align == CUSEZERO_ALIGN_NONE && (c->align_set || c->rot_set))
		point = ZERO_POINT_LOOP;
	else
		point = cur->point;
	if (c->rot_set && c->rot.n && !c->point_set)
		ret = -EINVAL;
	else if (align == CUSEZERO_ALIGN_NONE && point != ZERO_POINT_LOOP)
		ret = -EINVAL;
	else if (c->align_set && align == CUSEZERO_ALIGN_ROTATE)
		ret = -EINVAL;	/* the marker is read back, never set */
	else
		ret = rp_config_new(r, align, point, c->chunk_set ? c->chunk : cur->chunk, rot, &n);
	if (!ret)
		rp_publish(n);
	pthread_mutex_unlock(&rp_ctl_lock);
	return ret;
}

int rp_set_routine(const char *name)
{
	struct rp_change c = { .routine = name };

	return rp_apply(&c);
}

/* Placement off (CUSEZERO_ALIGN_NONE) takes no point: the one given is ignored. */
int rp_set_align(int offset, enum zero_point point)
{
	struct rp_change c = { .align_set = true, .align = offset,
			       .point_set = offset != CUSEZERO_ALIGN_NONE, .point = point };

	return rp_apply(&c);
}

int rp_set_chunk(uint64_t chunk)
{
	struct rp_change c = { .chunk_set = true, .chunk = chunk };

	return rp_apply(&c);
}

static void rp_ctr_sum(struct cusezero_counters *dst, const struct cusezero_counters *src)
{
	dst->requests += __atomic_load_n(&src->requests, __ATOMIC_RELAXED);
	dst->bytes += __atomic_load_n(&src->bytes, __ATOMIC_RELAXED);
	dst->ns += __atomic_load_n(&src->ns, __ATOMIC_RELAXED);
	dst->errors += __atomic_load_n(&src->errors, __ATOMIC_RELAXED);
}

static void rp_ctr_sub(struct cusezero_counters *dst, const struct cusezero_counters *b)
{
	dst->requests -= b->requests;
	dst->bytes -= b->bytes;
	dst->ns -= b->ns;
	dst->errors -= b->errors;
}

/* CPU time of every serving thread so far (called with rp_ctl_lock held). */
static uint64_t rp_busy_ns(void)
{
	uint64_t sum = 0, now;
	unsigned i;

	for (i = 0; i < rp_nthreads; i++) {
		struct rp_thread *t = &rp_threads[i];

		/* 0: the thread is gone; its last reading stands */
		if (t->has_cpuclock && (now = rp_clock_ns(t->cpuclock)) != 0)
			t->cpu_ns = now;
		sum += t->cpu_ns - t->cpu_base;
	}
	return sum;
}

/* Sum of every thread's counters (no baseline). */
static void rp_sum(struct rp_counts *s)
{
	unsigned i, k;

	memset(s, 0, sizeof(*s));
	for (i = 0; i < rp_nthreads; i++) {
		struct rp_counts *c = &rp_threads[i].counts;

		rp_ctr_sum(&s->total, &c->total);
		for (k = 0; k < CUSEZERO_MAX_ROUTINES; k++)
			rp_ctr_sum(&s->per[k], &c->per[k]);
		s->writes += __atomic_load_n(&c->writes, __ATOMIC_RELAXED);
		s->write_bytes += __atomic_load_n(&c->write_bytes, __ATOMIC_RELAXED);
		for (k = 0; k < CUSEZERO_HIST_BUCKETS; k++)
			s->hist[k] += __atomic_load_n(&c->hist[k], __ATOMIC_RELAXED);
	}
}

void rp_get_stats(struct cusezero_stats *st)
{
	struct rp_counts s;
	struct rp_config *cur;
	unsigned k, n;

	memset(st, 0, sizeof(*st));
	pthread_mutex_lock(&rp_ctl_lock);
	rp_sum(&s);
	rp_ctr_sub(&s.total, &rp_baseline.total);
	for (k = 0; k < CUSEZERO_MAX_ROUTINES; k++)
		rp_ctr_sub(&s.per[k], &rp_baseline.per[k]);
	s.writes -= rp_baseline.writes;
	s.write_bytes -= rp_baseline.write_bytes;
	for (k = 0; k < CUSEZERO_HIST_BUCKETS; k++)
		s.hist[k] -= rp_baseline.hist[k];
	cur = atomic_load(&rp_current);
	st->version = CUSEZERO_STATS_VERSION;
	snprintf(st->routine, sizeof(st->routine), "%s", cur->routine->name);
	st->align = cur->align;
	st->point = rp_point_abi(cur->point);
	st->chunk = cur->chunk;
	st->busy_ns = rp_busy_ns() - rp_busy_base;
	st->elapsed_ns = cz_now_ns() - rp_since;
	pthread_mutex_unlock(&rp_ctl_lock);

	st->writes = s.writes;
	st->write_bytes = s.write_bytes;
	st->total = s.total;
	memcpy(st->hist, s.hist, sizeof(st->hist));
	n = zero_count() < CUSEZERO_MAX_ROUTINES ? (unsigned)zero_count() : CUSEZERO_MAX_ROUTINES;
	st->nroutines = n;
	for (k = 0; k < n; k++) {
		const struct zero_routine *zr = zero_at(k);

		snprintf(st->per_routine[k].name, sizeof(st->per_routine[k].name), "%s",
			 zr ? zr->name : "");
		st->per_routine[k].c = s.per[k];
	}
}

/*
 * Sum of every thread's counters of copies first..n-1 into s[first..n-1]
 * (with rp_ctl_lock held).  Only the copies of the rotation in use are read or
 * baselined: the others are never reported, and a daemon that does not
 * rotate never touches these 8 KiB per copy and thread.
 */
static void rp_lay_sum(struct rp_lay *s, unsigned first, unsigned n)
{
	unsigned i, k, b;

	memset(s + first, 0, sizeof(*s) * (n - first));
	for (i = 0; i < rp_nthreads; i++) {
		const struct rp_lay *l = rp_threads[i].lay;

		if (!l)		/* not attached (yet) */
			continue;
		for (k = first; k < n; k++) {
			rp_ctr_sum(&s[k].c, &l[k].c);
			for (b = 0; b < CUSEZERO_HIST_BUCKETS; b++)
				s[k].hist[b] += __atomic_load_n(&l[k].hist[b], __ATOMIC_RELAXED);
		}
	}
}

void rp_get_rotate(struct cusezero_rotate *r)
{
	const struct rp_config *cur;
	unsigned i;

	memset(r, 0, sizeof(*r));
	pthread_mutex_lock(&rp_ctl_lock);
	cur = atomic_load(&rp_current);
	r->count = cur->rot_spec.n;
	if (r->count) {
		r->point = rp_point_abi(cur->point);
		r->period = cur->rot_spec.period;
		r->seed = cur->rot_spec.seed;
		for (i = 0; i < r->count; i++)
			r->offsets[i] = cur->rot_spec.off[i];
	}
	pthread_mutex_unlock(&rp_ctl_lock);
}

/* Copy k's counters since the last change or reset, from sum[k] (rp_ctl_lock held). */
static void rp_lay_since_base(const struct rp_lay *sum, unsigned k, struct cusezero_counters *c,
			      uint64_t *hist)
{
	unsigned b;

	*c = sum[k].c;
	rp_ctr_sub(c, &rp_lay_base[k].c);
	for (b = 0; b < CUSEZERO_HIST_BUCKETS; b++)
		hist[b] = sum[k].hist[b] - rp_lay_base[k].hist[b];
}

int rp_get_layout(struct cusezero_layout *l)
{
	struct rp_lay *sum = rp_lay_tmp;
	const struct rp_config *cur;
	unsigned k = l->index;
	int ret = 0;

	pthread_mutex_lock(&rp_ctl_lock);
	cur = atomic_load(&rp_current);
	memset(l, 0, sizeof(*l));
	l->index = k;
	l->count = cur->rot_spec.n;
	if (k >= cur->rot_spec.n) {
		ret = -EINVAL;
		goto out;
	}
	rp_lay_sum(sum, k, k + 1);
	l->offset = cur->rot[k].offset;
	l->point = rp_point_abi(cur->point);
	rp_lay_since_base(sum, k, &l->c, l->hist);
out:
	pthread_mutex_unlock(&rp_ctl_lock);
	return ret;
}

void rp_get_layouts(struct cz_devlayouts *l)
{
	struct rp_lay *sum = rp_lay_tmp;
	const struct rp_config *cur;
	unsigned k;

	memset(l, 0, sizeof(*l));
	pthread_mutex_lock(&rp_ctl_lock);
	cur = atomic_load(&rp_current);
	if (cur->rot_spec.n) {
		rp_lay_sum(sum, 0, cur->rot_spec.n);
		l->count = cur->rot_spec.n;
		l->point = rp_point_abi(cur->point);
		l->period = cur->rot_spec.period;
	}
	for (k = 0; k < l->count; k++) {
		l->offset[k] = cur->rot[k].offset;
		rp_lay_since_base(sum, k, &l->c[k], l->hist[k]);
	}
	pthread_mutex_unlock(&rp_ctl_lock);
}

void rp_reset_stats(void)
{
	pthread_mutex_lock(&rp_ctl_lock);
	rp_sum(&rp_baseline);
	rp_lay_sum(rp_lay_base, 0, atomic_load(&rp_current)->rot_spec.n);
	rp_busy_base = rp_busy_ns();
	rp_since = cz_now_ns();
	pthread_mutex_unlock(&rp_ctl_lock);
}
