/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * One zload job: a thread with its own ring, file descriptor and buffers,
 * keeping up to --qd sequential reads in flight (t/io_uring's loop shape).
 */
#include <errno.h>
#include <limits.h>
#include <fcntl.h>
#include <sched.h>
#include <linux/fs.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <time.h>
#include <sys/uio.h>
#include <unistd.h>

#include "util.h"
#include "zload.h"

/* Offsets on a character device run over [0, 1 TiB): /dev/zero and the
 * cusezero FUSE file ignore them, a CUSE device always sees pos 0. */
#define ZL_DEV_RANGE	(1ULL << 40)

pthread_barrier_t zl_setup_done, zl_go;

static pthread_mutex_t zl_note_lock = PTHREAD_MUTEX_INITIALIZER;
static unsigned zl_noted_flags;

static const struct {
	unsigned flag;
	const char *name;
} zl_flag_names[] = {
	{ IORING_SETUP_IOPOLL, "IOPOLL" },
	{ IORING_SETUP_SQPOLL, "SQPOLL" },
	{ IORING_SETUP_SQ_AFF, "SQ_AFF" },
	{ IORING_SETUP_CQSIZE, "CQSIZE" },
	{ IORING_SETUP_CLAMP, "CLAMP" },
	{ IORING_SETUP_ATTACH_WQ, "ATTACH_WQ" },
	{ IORING_SETUP_R_DISABLED, "R_DISABLED" },
	{ IORING_SETUP_SUBMIT_ALL, "SUBMIT_ALL" },
	{ IORING_SETUP_COOP_TASKRUN, "COOP_TASKRUN" },
	{ IORING_SETUP_TASKRUN_FLAG, "TASKRUN_FLAG" },
	{ IORING_SETUP_SQE128, "SQE128" },
	{ IORING_SETUP_CQE32, "CQE32" },
	{ IORING_SETUP_SINGLE_ISSUER, "SINGLE_ISSUER" },
	{ IORING_SETUP_DEFER_TASKRUN, "DEFER_TASKRUN" },
};

const char *zl_setup_flag_names(unsigned flags, char *buf, size_t len)
{
	size_t i, used = 0;

	buf[0] = '\0';
	for (i = 0; i < CZ_ARRAY_SIZE(zl_flag_names); i++) {
		if (!(flags & zl_flag_names[i].flag))
			continue;
		used += (size_t)snprintf(buf + used, used < len ? len - used : 0, "%s%s",
					 used ? "|" : "", zl_flag_names[i].name);
	}
	return buf;
}

/* One note per flag per run, whichever job hits it first. */
static void zl_note_dropped(unsigned flag, int err)
{
	char name[32];

	pthread_mutex_lock(&zl_note_lock);
	if (!(zl_noted_flags & flag)) {
		zl_noted_flags |= flag;
		fprintf(stderr, "zload: note: kernel rejected IORING_SETUP_%s (%s), continuing without it\n",
			zl_setup_flag_names(flag, name, sizeof(name)), strerror(-err));
	}
	pthread_mutex_unlock(&zl_note_lock);
}

static int zl_ring_try(struct zl_job *j, unsigned flags)
{
	struct io_uring_params p;

	memset(&p, 0, sizeof(p));
	p.flags = flags;
	p.cq_entries = 2 * j->o->qd;
	if (flags & IORING_SETUP_SQ_AFF)
		p.sq_thread_cpu = (unsigned)j->o->sqpoll_cpu;
	/* With SQPOLL, SQ entries are freed late (see zl_run): give them room. */
	return io_uring_queue_init_params(flags & IORING_SETUP_SQPOLL ? 2 * j->o->qd : j->o->qd,
					  &j->ring, &p);
}

static unsigned zl_without(unsigned flags, unsigned flag)
{
	flags &= ~flag;
	/* SQ_AFF means nothing without SQPOLL. */
	if (flag == IORING_SETUP_SQPOLL)
		flags &= ~IORING_SETUP_SQ_AFF;
	return flags;
}

/*
 * Ask for what fio's io_uring engine asks for and drop what the running
 * kernel rejects.  The kernel says only EINVAL, so find the flag whose
 * removal alone makes the setup work (one setup per candidate: cheap); if
 * none does, drop the most recent feature and look again.  SQPOLL excludes
 * the task-run flags (the kernel refuses IPI-related flags with an SQ thread).
 */
static int zl_ring_init(struct zl_job *j)
{
	static const unsigned drop_order[] = {
		IORING_SETUP_DEFER_TASKRUN,
		IORING_SETUP_SINGLE_ISSUER,
		IORING_SETUP_COOP_TASKRUN,
		IORING_SETUP_SUBMIT_ALL,
		IORING_SETUP_SQ_AFF,
		IORING_SETUP_SQPOLL,
		IORING_SETUP_CQSIZE,
	};
	const struct zl_opts *o = j->o;
	unsigned want = IORING_SETUP_CQSIZE | IORING_SETUP_SUBMIT_ALL | IORING_SETUP_SINGLE_ISSUER;
	size_t i;
	int ret;

	if (o->sqpoll) {
		want |= IORING_SETUP_SQPOLL;
		if (o->sqpoll_cpu >= 0)
			want |= IORING_SETUP_SQ_AFF;
	} else {
		want |= IORING_SETUP_COOP_TASKRUN | IORING_SETUP_DEFER_TASKRUN;
	}
	while ((ret = zl_ring_try(j, want)) != 0) {
		int first = -1;
		bool found;

		if (ret != -EINVAL && !(ret == -EPERM && (want & IORING_SETUP_SQPOLL)))
			return ret;
		for (i = 0; i < CZ_ARRAY_SIZE(drop_order); i++) {
			if (!(want & drop_order[i]))
				continue;
			if (first < 0)
				first = (int)i;
			if (!zl_ring_try(j, zl_without(want, drop_order[i])))
				break;
		}
		found = i < CZ_ARRAY_SIZE(drop_order);	/* the ring is set up */
		if (!found) {
			if (first < 0)
				return ret;
			i = (size_t)first;	/* no single culprit */
		}
		want = zl_without(want, drop_order[i]);
		j->dropped_flags |= drop_order[i];
		zl_note_dropped(drop_order[i], ret);
		if (found)
			break;
	}
	j->ring_ready = true;
	j->setup_flags = want;
	j->sqpoll_on = want & IORING_SETUP_SQPOLL;
	return 0;
}

static int zl_file_wrap(struct zl_job *j)
{
	uint32_t bs = j->o->bs_max;
	struct stat st;
	uint64_t size;

	if (fstat(j->fd, &st))
		return -errno;
	if (S_ISDIR(st.st_mode)) {
		snprintf(j->setup_msg, sizeof(j->setup_msg), "%s: is a directory", j->o->path);
		return -EISDIR;
	}
	if (S_ISREG(st.st_mode) && st.st_size > 0) {
		if ((uint64_t)st.st_size < bs) {
			snprintf(j->setup_msg, sizeof(j->setup_msg),
				 "%s: file size %llu is smaller than --bs %u", j->o->path,
				 (unsigned long long)st.st_size, bs);
			return -EFBIG;
		}
		j->wrap = (uint64_t)st.st_size / bs * bs;
	} else if (S_ISBLK(st.st_mode)) {
		if (ioctl(j->fd, BLKGETSIZE64, &size))
			return -errno;
		if (size < bs) {
			snprintf(j->setup_msg, sizeof(j->setup_msg),
				 "%s: device size %llu is smaller than --bs %u", j->o->path,
				 (unsigned long long)size, bs);
			return -EFBIG;
		}
		j->wrap = size / bs * bs;
	} else {
		/* Character devices, FIFOs-like files and size-less files. */
		j->wrap = ZL_DEV_RANGE / bs * bs;
	}
	/* fio's offset (and offset_increment): the region starts there. */
	j->base = j->o->offset + (uint64_t)j->id_in_sect * j->o->offset_inc;
	if (j->base >= j->wrap) {
		snprintf(j->setup_msg, sizeof(j->setup_msg), "%s: offset %llu is past the end (%llu)",
			 j->o->path, (unsigned long long)j->base, (unsigned long long)j->wrap);
		return -EINVAL;
	}
	j->wrap -= j->base;
	/* fio's filesize and size: the region the offsets wrap in. */
	if (j->o->filesize >= bs && j->o->filesize / bs * bs < j->wrap)
		j->wrap = j->o->filesize / bs * bs;
	if (j->o->size >= bs && j->o->size / bs * bs < j->wrap)
		j->wrap = j->o->size / bs * bs;
	if (j->wrap < bs)
		j->wrap = bs;
	return 0;
}

/* --cpus_allowed: fio's shared policy, every CPU of the list for every job. */
static int zl_allow_cpus(const struct cz_cpulist *l)
{
	size_t size = CPU_ALLOC_SIZE(l->highest + 1);
	cpu_set_t *set = CPU_ALLOC(l->highest + 1);
	unsigned i;
	int ret = 0;

	if (!set)
		return -ENOMEM;
	CPU_ZERO_S(size, set);
	for (i = 0; i < l->n; i++)
		CPU_SET_S(l->cpu[i], size, set);
	if (sched_setaffinity(0, size, set))
		ret = -errno;
	CPU_FREE(set);
	return ret;
}

static int zl_setup(struct zl_job *j, struct zl_slot **slotsp, char **bufp, size_t *stridep)
{
	const struct zl_opts *o = j->o;
	struct zl_slot *slots;
	struct iovec *iovs = NULL;
	size_t stride = ((size_t)o->bs_max + 4095) & ~(size_t)4095;
	char *buf;
	unsigned i;
	int ret;

	if (j->cpu >= 0) {
		ret = cz_pin_cpu(j->cpu);
		if (ret) {
			j->setup_what = "pin to --cpu";
			return ret;
		}
	} else if (o->cpus_shared) {
		ret = zl_allow_cpus(&o->cpus);
		if (ret) {
			j->setup_what = "set --cpus_allowed for";
			return ret;
		}
	}
	j->fd = open(o->path, (o->rwmix_read < 100 ? O_RDWR : O_RDONLY) | (o->direct ? O_DIRECT : 0));
	if (j->fd < 0) {
		j->setup_what = "open";
		return -errno;
	}
	ret = zl_file_wrap(j);
	if (ret) {
		j->setup_what = "fstat";
		return ret;
	}
	ret = posix_memalign((void **)&buf, 4096, stride * o->qd);
	if (ret) {
		j->setup_what = "allocate buffers";
		return -ret;
	}
	*bufp = buf;
	*stridep = stride;
	/* Prefault outside the timed loop. */
	memset(buf, o->verify ? ZL_FILL : 0, stride * o->qd);

	slots = calloc(o->qd, sizeof(*slots));
	if (!slots) {
		j->setup_what = "allocate slots";
		return -ENOMEM;
	}
	*slotsp = slots;
	for (i = 0; i < o->qd; i++) {
		slots[i].iov.iov_base = buf + (size_t)i * stride;
		slots[i].iov.iov_len = o->bs_max;
	}
	if (o->engine >= ZL_ENG_SYNC)
		return 0;		/* no ring */

	ret = zl_ring_init(j);
	if (ret) {
		j->setup_what = "io_uring_queue_init_params";
		return ret;
	}
	if (o->fixedbufs) {
		iovs = calloc(o->qd, sizeof(*iovs));
		if (!iovs) {
			j->setup_what = "allocate iovecs";
			return -ENOMEM;
		}
		for (i = 0; i < o->qd; i++)
			iovs[i] = slots[i].iov;
		ret = io_uring_register_buffers(&j->ring, iovs, o->qd);
		free(iovs);
		if (ret) {
			j->setup_what = "io_uring_register_buffers";
			return ret;
		}
		j->buffers_registered = true;
	}
	if (o->registerfiles) {
		ret = io_uring_register_files(&j->ring, &j->fd, 1);
		if (ret) {
			j->setup_what = "io_uring_register_files";
			return ret;
		}
		j->files_registered = true;
	}
	return 0;
}

static void zl_prep(struct zl_job *j, struct io_uring_sqe *sqe, struct zl_slot *s, unsigned idx)
{
	const struct zl_opts *o = j->o;
	int fd = j->files_registered ? 0 : j->fd;
	bool w = s->dir == ZL_DIR_WRITE;

	s->iov.iov_len = s->len;
	if (o->verify && !w)
		memset(s->iov.iov_base, ZL_FILL, s->len);
	if (o->fixedbufs) {
		if (w)
			io_uring_prep_write_fixed(sqe, fd, s->iov.iov_base, s->len, s->offset, (int)idx);
		else
			io_uring_prep_read_fixed(sqe, fd, s->iov.iov_base, s->len, s->offset, (int)idx);
		j->c.ops_read_fixed++;
	} else if (o->nonvectored) {
		if (w)
			io_uring_prep_write(sqe, fd, s->iov.iov_base, s->len, s->offset);
		else
			io_uring_prep_read(sqe, fd, s->iov.iov_base, s->len, s->offset);
		j->c.ops_read++;
	} else {
		if (w)
			io_uring_prep_writev(sqe, fd, &s->iov, 1, s->offset);
		else
			io_uring_prep_readv(sqe, fd, &s->iov, 1, s->offset);
		j->c.ops_readv++;
	}
	sqe->ioprio = s->ioprio;
	if (j->files_registered) {
		sqe->flags |= IOSQE_FIXED_FILE;
		j->c.fixed_file_ops++;
	}
	io_uring_sqe_set_data64(sqe, idx);
}

/* The state of one job's loop. */
struct zl_loop {
	uint64_t limit, issued;		/* I/Os (number_ios) */
	uint64_t limit_bytes, issued_bytes;
	struct zl_seq q;
	unsigned *free_idx, nfree, inflight;
	uint64_t stamp;			/* time of the last reap */
	bool stamp_fresh;		/* ... and still good as "now" */
};

/* Prepare up to --batch-submit I/Os; returns how many. */
static unsigned zl_issue(struct zl_job *j, struct zl_slot *slots, struct zl_loop *l)
{
	const struct zl_opts *o = j->o;
	unsigned n = l->nfree < o->batch_submit ? l->nfree : o->batch_submit, i;
	uint64_t t_prep;

	if (l->limit - l->issued < n)
		n = (unsigned)(l->limit - l->issued);
	/* latency_target's depth (qd_now <= iodepth) */
	if (l->inflight + n > j->qd_now)
		n = l->inflight < j->qd_now ? j->qd_now - l->inflight : 0;
	if (n && (o->rate[0] || o->rate[1] || o->rate_iops[0] || o->rate_iops[1] || o->thinktime_us ||
		  o->flow)) {
		if (l->inflight)
			return 0;	/* throttled: reap first, as fio with rate */
		zl_throttle(j);
		l->stamp_fresh = false;
	}
	t_prep = l->stamp_fresh ? l->stamp : cz_now_ns();
	for (i = 0; i < n && l->issued_bytes < l->limit_bytes; i++) {
		struct io_uring_sqe *sqe = io_uring_get_sqe(&j->ring);
		unsigned idx;

		/* With SQPOLL an entry is free only once the SQ thread took it,
		 * not when its read completed. */
		if (!sqe)
			break;
		idx = l->free_idx[--l->nfree];
		zl_next_io(j, &l->q, &slots[idx]);
		slots[idx].t_prep = t_prep;
		l->issued_bytes += slots[idx].len;
		zl_prep(j, sqe, &slots[idx], idx);
	}
	l->issued += i;
	return i;
}

/* Submit n prepared reads, waiting for completions when the queue is full. */
static int zl_submit(struct zl_job *j, struct zl_slot *slots, struct zl_loop *l, unsigned n)
{
	const struct zl_opts *o = j->o;
	bool more = l->issued < l->limit && l->issued_bytes < l->limit_bytes && l->inflight + n < j->qd_now;
	unsigned wait_nr, i;
	uint64_t now;
	int ret;

	wait_nr = more ? 0 : (o->batch_complete < l->inflight + n ? o->batch_complete : l->inflight + n);
	/* fio's split: slat = preparation -> submit call, clat = submit call -> reap. */
	now = cz_now_ns();
	for (i = 0; i < n; i++) {
		struct zl_slot *s = &slots[l->free_idx[l->nfree + i]];

		s->t_submit = now;
		zl_stat_add(s->dir == ZL_DIR_WRITE ? &j->wr.slat : &j->slat, (double)(now - s->t_prep));
	}
	if (j->sqpoll_on && (IO_URING_READ_ONCE(*j->ring.sq.kflags) & IORING_SQ_NEED_WAKEUP))
		j->c.sqpoll_wakeups++;
	j->c.submit_calls++;
	ret = io_uring_submit_and_wait(&j->ring, wait_nr);
	/* Prepared SQEs sit in the SQ ring until the kernel takes them. */
	l->inflight += n;
	zl_map_add(j->c.depth, l->inflight, false);
	zl_map_add(j->c.submit, n, true);
	if (n > j->c.max_submit_batch)
		j->c.max_submit_batch = n;
	if (l->inflight > j->c.max_inflight)
		j->c.max_inflight = l->inflight;
	return ret;
}

/*
 * Reap up to max completions (fio's iodepth_batch_complete_max, which
 * defaults to iodepth_batch_complete_min: one at a time keeps iodepth I/Os
 * out); returns how many.
 */
static unsigned zl_reap(struct zl_job *j, struct zl_slot *slots, struct zl_loop *l, unsigned max)
{
	uint64_t now = cz_now_ns();
	struct io_uring_cqe *cqe;
	unsigned head, seen = 0;

	io_uring_for_each_cqe(&j->ring, head, cqe) {
		unsigned idx = (unsigned)io_uring_cqe_get_data64(cqe);

		zl_complete(j, &slots[idx], cqe->res, now);
		l->free_idx[l->nfree++] = idx;
		if (++seen == max)
			break;
	}
	io_uring_cq_advance(&j->ring, seen);
	/*
	 * One clock read saved per I/O at qd 1: the time a single completion
	 * was reaped is, within the few ns of the loop, the time the next
	 * preparation starts.  Larger batches (or --verify scanning buffers)
	 * take long enough to need a fresh read.
	 */
	l->stamp = now;
	l->stamp_fresh = seen <= 1 && !j->o->verify;
	l->inflight -= seen;
	if (seen)
		zl_map_add(j->c.complete, seen, true);
	if (seen > j->c.max_cqe_batch)
		j->c.max_cqe_batch = seen;
	if (j->ramp_end && now >= j->ramp_end)
		zl_ramp_done(j, now);
	/* Cumulative over the ramp: the supervisor's samples are differences. */
	__atomic_store_n(&j->live_ios, j->ramp_ios + j->c.ios, __ATOMIC_RELAXED);
	__atomic_store_n(&j->live_bytes, j->ramp_bytes + j->c.bytes, __ATOMIC_RELAXED);
	zl_time_check(j, now);
	zl_status_poll(j);
	return seen;
}

/*
 * SQPOLL with every slot submitted but no SQ entry free: the SQ thread posts
 * a read's CQE before it moves the SQ head past its SQE, so every read can
 * be reaped while the ring still looks full.  0 or -errno (reported).
 */
static int zl_wait_sq(struct zl_job *j)
{
	int ret;

	j->c.sq_ring_full++;
	ret = io_uring_sqring_wait(&j->ring);
	if (ret < 0 && ret != -EINTR) {
		fprintf(stderr, "zload: job %d: io_uring_sqring_wait: %s\n", j->id, strerror(-ret));
		return ret;
	}
	return 0;
}

/* Bytes a job moves before it stops: io_size, or size times loops; 0: no limit. */
static uint64_t zl_limit_bytes(const struct zl_opts *o)
{
	if (o->zbd_empty)
		return 0;
	if (o->time_based)
		return UINT64_MAX;
	if (o->io_size)
		return o->io_size;
	if (o->size)
		return o->size * (o->loops ? o->loops : 1);
	return UINT64_MAX;
}

static int zl_run(struct zl_job *j, struct zl_slot *slots)
{
	const struct zl_opts *o = j->o;
	struct zl_loop l = {
		.limit = o->number_ios ? o->number_ios : UINT64_MAX,
		.limit_bytes = zl_limit_bytes(o),
		.nfree = o->qd,
	};
	struct io_uring_cqe *cqe;
	unsigned i;
	int ret = 0;

	if (o->engine >= ZL_ENG_SYNC)
		return zl_run_sync(j, slots, l.limit_bytes, l.limit);
	l.free_idx = malloc(o->qd * sizeof(*l.free_idx));
	if (!l.free_idx)
		return -ENOMEM;
	for (i = 0; i < o->qd; i++)
		l.free_idx[i] = o->qd - 1 - i;

	for (;;) {
		bool issuing = !__atomic_load_n(&zl_stop, __ATOMIC_RELAXED) &&
			       !__atomic_load_n(&j->stop, __ATOMIC_RELAXED) && l.issued < l.limit &&
			       l.issued_bytes < l.limit_bytes;
		unsigned n = issuing ? zl_issue(j, slots, &l) : 0;

		if (!n && !l.inflight) {
			if (!issuing || (ret = zl_wait_sq(j)))
				break;
			continue;
		}
		if (n) {
			ret = zl_submit(j, slots, &l, n);
			/*
			 * fio's depth: an I/O is in flight until it is reaped, and
			 * completions are reaped only once iodepth I/Os are out, even
			 * when the file completed them at submission (/dev/zero).
			 */
			if (ret >= 0 && l.inflight < j->qd_now && l.nfree && issuing) {
				l.stamp_fresh = false;
				continue;
			}
		} else {
			j->c.wait_calls++;
			ret = io_uring_wait_cqe_nr(&j->ring, &cqe,
						   o->batch_complete < l.inflight ? o->batch_complete : l.inflight);
		}
		if (ret < 0 && ret != -EINTR && ret != -EAGAIN && ret != -EBUSY && ret != -ETIME) {
			fprintf(stderr, "zload: job %d: io_uring_enter: %s\n", j->id, strerror(-ret));
			break;
		}
		ret = 0;
		zl_reap(j, slots, &l, issuing ? o->batch_complete : UINT_MAX);
	}
	free(l.free_idx);
	return ret;
}

/* fio's stonewall / wait_for, then startdelay; false: the run was stopped. */
static bool zl_wait_turn(struct zl_job *j)
{
	const struct zl_job *all = j - j->id;
	int i;

	for (i = j->wait_first; i < j->wait_first + j->wait_n; i++)
		while (!__atomic_load_n(&all[i].finished, __ATOMIC_ACQUIRE))
			if (__atomic_load_n(&zl_stop, __ATOMIC_RELAXED))
				return false;
			else
				zl_nap(1000000);
	if (j->o->startdelay > 0)
		zl_nap((uint64_t)(j->o->startdelay * 1e9));
	return !__atomic_load_n(&zl_stop, __ATOMIC_RELAXED);
}

void *zl_job_main(void *arg)
{
	struct zl_job *j = arg;
	struct zl_slot *slots = NULL;
	char *buf = NULL;
	size_t stride = 0;

	j->fd = -1;
	/* --rw randread: the same offsets every run (fio's randrepeat=1), one stream per job. */
	j->rand_state = 0x9E3779B97F4A7C15ULL * (uint64_t)(j->id + 1);
	if (j->o->have_seed)
		j->rand_state ^= j->o->randseed;
	else if (!j->o->randrepeat)
		j->rand_state ^= cz_now_ns();	/* randrepeat=0: other offsets every run */
	if (!j->rand_state)
		j->rand_state = 1;
	j->mix_state = 0xD1B54A32D192ED03ULL * (uint64_t)(j->id + 1);
	j->setup_err = zl_setup(j, &slots, &buf, &stride);
	pthread_barrier_wait(&zl_setup_done);
	/* main looks at every job's setup_err between the two barriers */
	pthread_barrier_wait(&zl_go);
	if (!__atomic_load_n(&zl_abort, __ATOMIC_RELAXED) && zl_wait_turn(j)) {
		if (j->o->ioprio >= 0)
			syscall(SYS_ioprio_set, 1 /* IOPRIO_WHO_PROCESS */, 0, j->o->ioprio);
		getrusage(RUSAGE_THREAD, &j->ru_start);
		j->t_start = cz_now_ns();
		__atomic_store_n(&j->t_go, j->t_start, __ATOMIC_RELEASE);
		j->logging = j->o->bw_log || j->o->iops_log || j->o->lat_log || j->o->hist_log;
		j->logs.win_start = j->t_start;
		zl_lt_init(j, j->t_start);
		if (j->o->ramp_sec > 0)
			j->ramp_end = j->t_start + (uint64_t)(j->o->ramp_sec * 1e9);
		/* as main's zl_deadlines(): the ramp is not part of the runtime */
		if (j->o->time_sec > 0)
			j->t_stop = j->t_start + (uint64_t)((j->o->time_sec + j->o->ramp_sec) * 1e9);
		zl_run(j, slots);
		zl_verify_phase(j, buf, __atomic_load_n(&zl_stop, __ATOMIC_RELAXED));
		j->t_end = cz_now_ns();
		getrusage(RUSAGE_THREAD, &j->ru_end);
		j->ran_cpu = sched_getcpu();
		if (j->c.errors > ZL_MAX_ERR_LINES)
			fprintf(stderr, "zload: job %d: %llu more failed reads not shown\n", j->id,
				(unsigned long long)(j->c.errors - ZL_MAX_ERR_LINES));
		if (j->c.verify_failures > ZL_MAX_ERR_LINES)
			fprintf(stderr, "zload: job %d: %llu more verify failures not shown\n", j->id,
				(unsigned long long)(j->c.verify_failures - ZL_MAX_ERR_LINES));
	}
	if (j->ring_ready)
		io_uring_queue_exit(&j->ring);
	if (j->fd >= 0)
		close(j->fd);
	free(slots);
	free(buf);
	if (j->run && j->run->exitall)
		__atomic_store_n(&zl_stop, 1, __ATOMIC_RELAXED);	/* fio's exitall */
	__atomic_store_n(&j->finished, true, __ATOMIC_RELEASE);
	return NULL;
}
