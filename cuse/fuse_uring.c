/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * FUSE over io_uring for a libfuse 3.14 session: see fuse_uring.h for the
 * design and fuse_uring_abi.h for the kernel ABI it speaks.
 */
#define FUSE_USE_VERSION 34

#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <poll.h>
#include <pthread.h>
#include <signal.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/uio.h>
#include <time.h>
#include <unistd.h>

#include <fuse_lowlevel.h>
#include <linux/fuse.h>
#include <liburing.h>

#include "util.h"
#include "fuse_uring.h"
#include "fuse_uring_abi.h"
#include "log.h"
#include "session_io.h"

#define ENABLE_URING_PARAM "/sys/module/fuse/parameters/enable_uring"
#define CPU_POSSIBLE "/sys/devices/system/cpu/possible"
#define DEFAULT_ENTRIES 2
#define MAX_ENTRIES 64
#define IDLE_TIMEOUT_MS 500

enum cz_uring_state {
	ST_WAIT_INIT,		/* INIT not answered yet */
	ST_STARTING,		/* INIT reply carried the flag, queues registering */
	ST_ACTIVE,		/* every queue has its entries registered */
	ST_CLASSIC,		/* running on /dev/fuse only (dev, or fallback) */
	ST_FAILED,		/* ring setup failed (uring mode: an error) */
};

struct cz_uring_ent {
	struct cz_uring_queue *q;
	struct cz_fuse_uring_req_header *hdr;
	void *payload;
	struct iovec iov[2];
	uint64_t unique;	/* of the request being served */
	bool replied;
	bool live;		/* registered with the kernel, CQE pending */
};

struct cz_uring_queue {
	struct cz_uring *u;
	unsigned qid;
	unsigned nents;
	void *caller_payload;	/* from thread_init: shared by the queue's one entry */
	size_t caller_payload_len;
	pthread_t thread;
	bool thread_started;
	struct io_uring ring;
	bool ring_ok;
	struct cz_uring_ent ents[MAX_ENTRIES];
	char *staging;		/* classic layout for libfuse, built on demand */
	size_t staging_len;
	atomic_uint_fast64_t nreq;
};

struct cz_uring {
	struct fuse_session *se;
	int fd;
	struct cz_uring_params p;
	unsigned nr_queues;
	size_t payload_len;
	struct cz_uring_queue *queues;

	pthread_mutex_t lock;
	pthread_cond_t cond;
	bool dev_closing;		/* under lock: the unmount is about to close fd */
	_Atomic enum cz_uring_state state;	/* written under lock, peeked by the I/O wrapper */
	int err;			/* -errno when ST_FAILED */
	unsigned registered;		/* queues with all entries registered */
	atomic_bool stop;

	/* Seen on the INIT request (classic thread only). */
	uint64_t init_unique;
	bool kernel_offers;
	uint32_t kernel_minor;
	bool patched;

	struct sio_hooks hooks;		/* in the session I/O wrapper */
	char desc[200];
};

/* The only session (libfuse's custom I/O has no per-session pointer of ours). */
static struct cz_uring *the_uring;
/* Set while a ring thread runs libfuse on a ring request: replies go there. */
static __thread struct cz_uring_ent *tl_ent;

int cz_transport_parse(const char *s, enum cz_transport *out)
{
	if (!strcmp(s, "auto"))
		*out = CZ_TRANSPORT_AUTO;
	else if (!strcmp(s, "uring"))
		*out = CZ_TRANSPORT_URING;
	else if (!strcmp(s, "dev"))
		*out = CZ_TRANSPORT_DEV;
	else
		return -EINVAL;
	return 0;
}

const char *cz_transport_name(enum cz_transport t)
{
	switch (t) {
	case CZ_TRANSPORT_AUTO:
		return "auto";
	case CZ_TRANSPORT_URING:
		return "uring";
	case CZ_TRANSPORT_DEV:
		return "dev";
	}
	return "?";
}

int cz_uring_probe(const char **why)
{
	char c = 'N';
	int fd = open(ENABLE_URING_PARAM, O_RDONLY | O_CLOEXEC);

	if (fd < 0) {
		*why = "kernel without CONFIG_FUSE_IO_URING (no " ENABLE_URING_PARAM ")";
		return -ENOSYS;
	}
	if (read(fd, &c, 1) != 1)
		c = 'N';
	close(fd);
	if (c != 'Y' && c != 'y' && c != '1') {
		*why = ENABLE_URING_PARAM " is N (echo Y > it as root)";
		return -EPERM;
	}
	*why = NULL;
	return 0;
}

static int cz_uring_write_param(const char *v)
{
	int fd = open(ENABLE_URING_PARAM, O_WRONLY | O_CLOEXEC);
	int ret = 0;

	if (fd < 0)
		return -errno;
	if (write(fd, v, 1) != 1)
		ret = -errno;
	close(fd);
	return ret;
}

int cz_uring_enable_param(void)
{
	return cz_uring_write_param("Y");
}

int cz_uring_disable_param(void)
{
	return cz_uring_write_param("N");
}

/* Number of queues the kernel makes: num_possible_cpus() (contiguous here). */
int cz_uring_nr_queues(void)
{
	char buf[256];
	struct cz_cpulist possible;
	ssize_t n;
	int fd = open(CPU_POSSIBLE, O_RDONLY | O_CLOEXEC);

	if (fd < 0)
		return -errno;
	n = read(fd, buf, sizeof(buf) - 1);
	close(fd);
	if (n <= 0)
		return -EIO;
	buf[n] = '\0';
	buf[strcspn(buf, "\n")] = '\0';
	if (cz_parse_cpulist(buf, &possible) < 0 || !possible.n)
		return -EINVAL;
	n = possible.highest + 1;
	cz_cpulist_free(&possible);
	return (int)n;
}

static void set_state(struct cz_uring *u, enum cz_uring_state st, int err)
{
	pthread_mutex_lock(&u->lock);
	u->state = st;
	u->err = err;
	pthread_cond_broadcast(&u->cond);
	pthread_mutex_unlock(&u->lock);
}

/* ---- the ring side ------------------------------------------------------- */

static void prep_cmd(struct cz_uring_ent *ent, uint32_t cmd_op, uint64_t commit_id)
{
	struct cz_uring_queue *q = ent->q;
	struct io_uring_sqe *sqe = io_uring_get_sqe(&q->ring);
	struct cz_fuse_uring_cmd_req *req;

	/* The ring has 2 SQEs per entry and each entry has one command in flight. */
	if (!sqe) {
		io_uring_submit(&q->ring);
		sqe = io_uring_get_sqe(&q->ring);
	}
	if (cmd_op == CZ_FUSE_IO_URING_CMD_REGISTER)
		io_uring_prep_rw(IORING_OP_URING_CMD, sqe, q->u->fd, ent->iov, 2, 0);
	else
		io_uring_prep_rw(IORING_OP_URING_CMD, sqe, q->u->fd, NULL, 0, 0);
	/* cmd_op shares its union with off: set it after prep. */
	sqe->cmd_op = cmd_op;
	memset(sqe->cmd, 0, 80);
	req = (struct cz_fuse_uring_cmd_req *)sqe->cmd;
	req->commit_id = commit_id;
	req->qid = q->qid;
	io_uring_sqe_set_data(sqe, ent);
}

static void commit(struct cz_uring_ent *ent, uint64_t unique, int error, uint32_t payload_sz)
{
	struct fuse_out_header *oh = (struct fuse_out_header *)ent->hdr->in_out;

	oh->len = sizeof(*oh) + payload_sz;
	oh->error = error;
	oh->unique = unique;
	ent->hdr->ring_ent_in_out.payload_sz = payload_sz;
	ent->replied = true;
	prep_cmd(ent, CZ_FUSE_IO_URING_CMD_COMMIT_AND_FETCH,
		 ent->hdr->ring_ent_in_out.commit_id);
}

/* libfuse's reply for a ring request: header to in_out, arguments to payload. */
static ssize_t ent_reply(struct cz_uring_ent *ent, const struct iovec *iov, int count)
{
	const struct fuse_out_header *oh = iov[0].iov_base;
	size_t total = 0, len = iov[0].iov_len;
	int i;

	if (ent->replied || iov[0].iov_len < sizeof(*oh))
		return -EINVAL;
	for (i = 1; i < count; i++) {
		if (total + iov[i].iov_len > ent->q->u->payload_len)
			return -EINVAL;
		/* a reply built in the thread's read-path buffer is in the payload already */
		if ((char *)ent->payload + total != iov[i].iov_base)
			memmove((char *)ent->payload + total, iov[i].iov_base, iov[i].iov_len);
		total += iov[i].iov_len;
		len += iov[i].iov_len;
	}
	commit(ent, oh->unique, oh->error, oh->error ? 0 : total);
	return len;
}

static int staging_reserve(struct cz_uring_queue *q, size_t len)
{
	char *p;

	if (len <= q->staging_len)
		return 0;
	p = realloc(q->staging, len);
	if (!p)
		return -ENOMEM;
	q->staging = p;
	q->staging_len = len;
	return 0;
}

static void handle_request(struct cz_uring_ent *ent)
{
	struct cz_uring_queue *q = ent->q;
	struct cz_uring *u = q->u;
	const struct fuse_in_header *in = (const void *)ent->hdr->in_out;
	uint32_t psz = ent->hdr->ring_ent_in_out.payload_sz;
	size_t op_sz;
	struct fuse_buf fb;

	ent->replied = false;
	ent->unique = in->unique;
	atomic_fetch_add_explicit(&q->nreq, 1, memory_order_relaxed);

	if (in->opcode == FUSE_READ && u->p.read) {
		const struct fuse_read_in *ra = (const void *)ent->hdr->op_in;
		size_t size = ra->size < u->payload_len ? ra->size : u->payload_len;
		ssize_t res;

		if (u->p.read(u->p.read_ctx, in, ra, ent->payload, size, &res)) {
			if (res < 0)
				commit(ent, in->unique, (int)res, 0);
			else
				commit(ent, in->unique, 0, (uint32_t)res);
			return;
		}
	}

	/* Rebuild the /dev/fuse layout: in header, per-op header, payload. */
	if (in->len < sizeof(*in) + psz || in->len - sizeof(*in) - psz > CZ_FUSE_URING_OP_IN_OUT_SZ ||
	    psz > u->payload_len) {
		cz_log("io_uring: bad request len %u payload %u (opcode %u)",
			in->len, psz, in->opcode);
		commit(ent, in->unique, -EIO, 0);
		return;
	}
	op_sz = in->len - sizeof(*in) - psz;
	if (staging_reserve(q, in->len) < 0) {
		commit(ent, in->unique, -ENOMEM, 0);
		return;
	}
	memcpy(q->staging, in, sizeof(*in));
	memcpy(q->staging + sizeof(*in), ent->hdr->op_in, op_sz);
	memcpy(q->staging + sizeof(*in) + op_sz, ent->payload, psz);
	memset(&fb, 0, sizeof(fb));
	fb.mem = q->staging;
	fb.size = in->len;

	tl_ent = ent;
	fuse_session_process_buf(u->se, &fb);
	tl_ent = NULL;
	if (!ent->replied) {
		/* A handler that defers its reply cannot work over the ring. */
		cz_log("io_uring: opcode %u got no reply, answering EIO",
			in->opcode);
		commit(ent, in->unique, -EIO, 0);
	}
}

static void *alloc_buf(size_t len)
{
	void *p = mmap(NULL, len, PROT_READ | PROT_WRITE,
		       MAP_PRIVATE | MAP_ANONYMOUS | MAP_POPULATE, -1, 0);

	return p == MAP_FAILED ? NULL : p;
}

static int queue_setup(struct cz_uring_queue *q)
{
	struct cz_uring *u = q->u;
	struct io_uring_params params;
	unsigned i, depth;
	/* Fewer wake-ups first, then what older kernels accept. */
	static const unsigned flag_sets[] = {
		IORING_SETUP_SQE128 | IORING_SETUP_SINGLE_ISSUER | IORING_SETUP_DEFER_TASKRUN,
		IORING_SETUP_SQE128 | IORING_SETUP_COOP_TASKRUN,
		IORING_SETUP_SQE128,
	};
	int ret = -EINVAL;

	if (q->caller_payload && q->caller_payload_len < u->payload_len)
		q->caller_payload = NULL;	/* too small for the kernel: our own */
	q->nents = q->caller_payload ? 1 : u->p.entries;
	depth = 2 * q->nents;
	for (i = 0; i < CZ_ARRAY_SIZE(flag_sets); i++) {
		memset(&params, 0, sizeof(params));
		params.flags = flag_sets[i];
		ret = io_uring_queue_init_params(depth, &q->ring, &params);
		if (ret != -EINVAL)
			break;
	}
	if (ret < 0)
		return ret;
	q->ring_ok = true;

	for (i = 0; i < q->nents; i++) {
		struct cz_uring_ent *ent = &q->ents[i];

		ent->q = q;
		ent->hdr = alloc_buf(sizeof(*ent->hdr));
		if (q->caller_payload)
			ent->payload = q->caller_payload;
		else
			ent->payload = alloc_buf(u->payload_len);
		if (!ent->hdr || !ent->payload)
			return -ENOMEM;
		ent->iov[0].iov_base = ent->hdr;
		ent->iov[0].iov_len = sizeof(*ent->hdr);
		ent->iov[1].iov_base = ent->payload;
		ent->iov[1].iov_len = u->payload_len;
	}
	return 0;
}

static void queue_free(struct cz_uring_queue *q)
{
	unsigned i;

	for (i = 0; i < MAX_ENTRIES; i++) {
		if (q->ents[i].hdr)
			munmap(q->ents[i].hdr, sizeof(*q->ents[i].hdr));
		if (q->ents[i].payload && q->ents[i].payload != q->caller_payload)
			munmap(q->ents[i].payload, q->u->payload_len);
	}
	if (q->ring_ok)
		io_uring_queue_exit(&q->ring);
	free(q->staging);
}

static void queue_registered(struct cz_uring *u)
{
	pthread_mutex_lock(&u->lock);
	if (++u->registered == u->nr_queues && u->state == ST_STARTING) {
		u->state = ST_ACTIVE;
		pthread_cond_broadcast(&u->cond);
	}
	pthread_mutex_unlock(&u->lock);
}

static void queue_failed(struct cz_uring *u, unsigned qid, int err)
{
	cz_log("io_uring queue %u: %s; serving by /dev/fuse",
		qid, strerror(-err));
	set_state(u, u->p.transport == CZ_TRANSPORT_URING ? ST_FAILED : ST_CLASSIC, err);
}

/*
 * Submit REGISTER commands, which name u->fd: only while the device is
 * open.  A queue thread that the scheduler held back (2 vCPUs, --sched-idle,
 * its CPU busy) can reach this after the unmount began, which closes fd
 * (then the number may name another file): -ESHUTDOWN, quietly.
 */
static int queue_submit_open(struct cz_uring_queue *q)
{
	struct cz_uring *u = q->u;
	int ret;

	pthread_mutex_lock(&u->lock);
	if (u->dev_closing || atomic_load(&u->stop))
		ret = -ESHUTDOWN;
	else
		ret = io_uring_submit(&q->ring);
	pthread_mutex_unlock(&u->lock);
	return ret;
}

/*
 * Register every entry.  A REGISTER that succeeds completes only when a
 * request arrives; one that fails posts its CQE during the submit.
 */
static int queue_register(struct cz_uring_queue *q)
{
	unsigned i, tries;
	int ret;

	for (i = 0; i < q->nents; i++)
		prep_cmd(&q->ents[i], CZ_FUSE_IO_URING_CMD_REGISTER, 0);
	for (tries = 0; tries < 1000; tries++) {
		struct io_uring_cqe *cqe;
		unsigned again = 0;

		ret = queue_submit_open(q);
		if (ret < 0)
			return ret;
		while (io_uring_peek_cqe(&q->ring, &cqe) == 0) {
			struct cz_uring_ent *ent = io_uring_cqe_get_data(cqe);
			int res = cqe->res;

			io_uring_cqe_seen(&q->ring, cqe);
			if (res == -EAGAIN) {
				/* INIT reply not processed yet (fc->initialized) */
				prep_cmd(ent, CZ_FUSE_IO_URING_CMD_REGISTER, 0);
				again++;
			} else if (res < 0) {
				return res;
			} else {
				return -EPROTO;	/* a request before registration? */
			}
		}
		if (!again)
			break;
		usleep(1000);
	}
	for (i = 0; i < q->nents; i++)
		q->ents[i].live = true;
	return 0;
}

static void *queue_thread(void *arg)
{
	struct cz_uring_queue *q = arg;
	struct cz_uring *u = q->u;
	struct __kernel_timespec ts = { .tv_sec = 0, .tv_nsec = IDLE_TIMEOUT_MS * 1000000L };
	unsigned live;
	int ret;

	/* Wait for the INIT reply (or for stop). */
	pthread_mutex_lock(&u->lock);
	while (u->state == ST_WAIT_INIT && !atomic_load(&u->stop))
		pthread_cond_wait(&u->cond, &u->lock);
	ret = u->state == ST_STARTING;
	pthread_mutex_unlock(&u->lock);
	if (!ret || atomic_load(&u->stop))
		return NULL;

	if (!u->p.no_pin)
		cz_pin_cpu((int)q->qid);	/* best effort: a CPU may be offline */

	ret = u->p.thread_init ? u->p.thread_init(u->p.read_ctx, q->qid, &q->caller_payload,
						  &q->caller_payload_len) : 0;
	if (ret == 0)
		ret = queue_setup(q);
	if (ret == 0)
		ret = queue_register(q);
	if (ret == -ESHUTDOWN)
		return NULL;	/* stopping before the queue was up: not a failure */
	if (ret < 0) {
		queue_failed(u, q->qid, ret);
		return NULL;
	}
	queue_registered(u);
	if (u->p.thread_ready)
		u->p.thread_ready(u->p.read_ctx, q->qid, q->ring.ring_fd, &q->nreq);
	live = q->nents;

	while (live && !atomic_load(&u->stop)) {
		struct io_uring_cqe *cqe;
		unsigned head, seen = 0;

		/* One syscall: commit the replies, wait for the next requests. */
		ret = io_uring_submit_and_wait_timeout(&q->ring, &cqe, 1, &ts, NULL);
		if (ret == -ETIME || ret == -EINTR)
			continue;
		if (ret < 0) {
			cz_log("io_uring queue %u: wait: %s",
				q->qid, strerror(-ret));
			break;
		}
		io_uring_for_each_cqe(&q->ring, head, cqe) {
			struct cz_uring_ent *ent = io_uring_cqe_get_data(cqe);
			int res = cqe->res;

			seen++;
			if (res == 0) {
				handle_request(ent);
				continue;
			}
			/* Teardown (unmount/abort) ends entries with -ENOTCONN. */
			ent->live = false;
			live--;
			if (res != -ENOTCONN && res != -ECANCELED && res != -ECONNABORTED)
				cz_log("io_uring queue %u: entry: %s",
					q->qid, strerror(-res));
		}
		io_uring_cq_advance(&q->ring, seen);
	}
	if (u->p.thread_exit)
		u->p.thread_exit(u->p.read_ctx, q->qid);
	return NULL;
}

static int start_queues(struct cz_uring *u)
{
	sigset_t all, old;
	unsigned i;
	int ret = 0;

	sigfillset(&all);
	pthread_sigmask(SIG_BLOCK, &all, &old);	/* signals stay with the loop thread */
	for (i = 0; i < u->nr_queues; i++) {
		ret = -pthread_create(&u->queues[i].thread, NULL, queue_thread, &u->queues[i]);
		if (ret)
			break;
		u->queues[i].thread_started = true;
	}
	pthread_sigmask(SIG_SETMASK, &old, NULL);
	return ret;
}

/* ---- the /dev/fuse side: hooks in the session I/O wrapper (session_io.c) ---- */

/* FUSE_INIT: does the kernel offer the ring? */
static void uring_init_request(void *ctx, const struct sio_init *in)
{
	struct cz_uring *u = ctx;

	u->init_unique = in->unique;
	u->kernel_minor = in->minor;
	u->kernel_offers = (in->flags & CZ_FUSE_OVER_IO_URING) && in->major == 7 &&
			   in->minor >= CZ_FUSE_URING_MINOR;
}

/* Ask for the ring in the INIT reply; returns true if we did. */
static bool patch_init_reply(struct cz_uring *u, struct iovec *iov, int count)
{
	struct fuse_init_out *io;

	if (count < 2 || iov[1].iov_len < offsetof(struct fuse_init_out, flags2) + 4)
		return false;
	io = iov[1].iov_base;
	io->flags |= CZ_FUSE_INIT_EXT;
	io->flags2 |= (uint32_t)(CZ_FUSE_OVER_IO_URING >> 32);
	/* The transport is protocol 7.42: say so (the kernel offered >= 42). */
	if (io->minor < CZ_FUSE_URING_MINOR)
		io->minor = CZ_FUSE_URING_MINOR;
	/* The kernel wants each payload buffer >= max(8192, max_write, max_pages pages). */
	u->payload_len = io->max_write;
	if ((io->flags & FUSE_MAX_PAGES) && (size_t)io->max_pages * 4096 > u->payload_len)
		u->payload_len = (size_t)io->max_pages * 4096;
	if (u->payload_len < 8192)
		u->payload_len = 8192;
	u->payload_len = (u->payload_len + 4095) & ~(size_t)4095;
	return true;
}

static void uring_init_reply(void *ctx, struct iovec *iov, int count)
{
	struct cz_uring *u = ctx;
	const struct fuse_out_header *oh = iov[0].iov_base;

	if (!oh->error && u->kernel_offers && u->p.transport != CZ_TRANSPORT_DEV)
		u->patched = patch_init_reply(u, iov, count);
}

/* The kernel processed INIT inside that write: registering may start. */
static void uring_init_written(void *ctx, ssize_t res, int err)
{
	struct cz_uring *u = ctx;

	if (u->p.transport == CZ_TRANSPORT_DEV)
		return;
	if (res < 0 || !u->patched) {
		int e = res < 0 ? -err : -EOPNOTSUPP;

		if (u->p.transport == CZ_TRANSPORT_URING) {
			cz_log("io_uring transport unavailable: %s",
				u->kernel_offers ? strerror(-e) :
				"kernel did not offer FUSE_OVER_IO_URING (enable_uring=N?)");
			set_state(u, ST_FAILED, e);
		} else {
			set_state(u, ST_CLASSIC, 0);
		}
		return;
	}
	set_state(u, ST_STARTING, 0);
}

/*
 * On a ring thread, only the reply to the ring request goes to the entry:
 * libfuse may answer something else meanwhile (EAGAIN to a stale INTERRUPT,
 * whose unique has FUSE_INT_REQ_BIT), that goes to /dev/fuse by writev.
 */
static ssize_t uring_reply(void *ctx, int fd, struct iovec *iov, int count)
{
	const struct fuse_out_header *oh = iov[0].iov_base;
	struct cz_uring *u = ctx;
	ssize_t res;

	if (!tl_ent)
		return SIO_PASS;
	if (oh->unique == tl_ent->unique)
		return ent_reply(tl_ent, iov, count);
	/*
	 * The ring threads outlive the unmount, which closes fd (libfuse's
	 * fuse_session_unmount): never write to it once that may have begun --
	 * the number could name another file by then.  The connection is going
	 * away anyway: ENODEV, as /dev/fuse says after an abort.
	 */
	pthread_mutex_lock(&u->lock);
	if (u->dev_closing) {
		pthread_mutex_unlock(&u->lock);
		errno = ENODEV;
		return -1;
	}
	res = writev(fd, iov, count);
	pthread_mutex_unlock(&u->lock);
	return res;
}

/* ---- public ------------------------------------------------------------- */

int cz_uring_attach(struct fuse_session *se, const struct cz_uring_params *p,
		    struct cz_uring **out)
{
	struct sio_params sp;
	struct cz_uring *u;
	int ret, fd = fuse_session_fd(se);
	unsigned i;

	if (the_uring)
		return -EBUSY;
	if (p->entries > MAX_ENTRIES)
		return -EINVAL;
	u = calloc(1, sizeof(*u));
	if (!u)
		return -ENOMEM;
	u->se = se;
	u->fd = fd;
	u->p = *p;
	if (!u->p.entries)
		u->p.entries = DEFAULT_ENTRIES;
	pthread_mutex_init(&u->lock, NULL);
	pthread_cond_init(&u->cond, NULL);
	/* Only the ring waits for INIT: /dev/fuse alone (or /dev/cuse) is classic now. */
	u->state = p->transport == CZ_TRANSPORT_DEV ? ST_CLASSIC : ST_WAIT_INIT;

	if (u->p.transport != CZ_TRANSPORT_DEV) {
		ret = cz_uring_nr_queues();
		if (ret < 0)
			goto err;
		u->nr_queues = (unsigned)ret;
		u->queues = calloc(u->nr_queues, sizeof(*u->queues));
		if (!u->queues) {
			ret = -ENOMEM;
			goto err;
		}
		for (i = 0; i < u->nr_queues; i++) {
			u->queues[i].u = u;
			u->queues[i].qid = i;
		}
	}
	the_uring = u;
	u->hooks = (struct sio_hooks){
		.ctx = u,
		.init_request = uring_init_request,
		.init_reply = uring_init_reply,
		.init_written = uring_init_written,
		.reply = uring_reply,
	};
	sp = (struct sio_params){
		.poll_us = p->poll_us,
		.splice_reply = p->splice_reply,
		.fuse_init = true,
		.hooks = &u->hooks,
	};
	ret = sio_attach(se, &sp);
	if (ret < 0)
		goto err_global;
	if (u->nr_queues) {
		ret = start_queues(u);
		if (ret < 0)
			goto err_global;
	}
	*out = u;
	return 0;

err_global:
	sio_detach();
	the_uring = NULL;
	atomic_store(&u->stop, true);
	pthread_mutex_lock(&u->lock);
	pthread_cond_broadcast(&u->cond);
	pthread_mutex_unlock(&u->lock);
	for (i = 0; i < u->nr_queues; i++)
		if (u->queues[i].thread_started)
			pthread_join(u->queues[i].thread, NULL);
err:
	free(u->queues);
	free(u);
	return ret;
}

int cz_uring_wait_ready(struct cz_uring *u, int timeout_ms)
{
	struct timespec ts;
	int ret = 0;

	clock_gettime(CLOCK_REALTIME, &ts);
	ts.tv_sec += timeout_ms / 1000;
	ts.tv_nsec += (long)(timeout_ms % 1000) * 1000000L;
	if (ts.tv_nsec >= 1000000000L) {
		ts.tv_sec++;
		ts.tv_nsec -= 1000000000L;
	}
	pthread_mutex_lock(&u->lock);
	while ((u->state == ST_WAIT_INIT || u->state == ST_STARTING) && ret == 0)
		ret = pthread_cond_timedwait(&u->cond, &u->lock, &ts);
	switch (u->state) {
	case ST_ACTIVE:
		ret = 1;
		break;
	case ST_CLASSIC:
		ret = 0;
		break;
	case ST_FAILED:
		ret = u->err ? u->err : -EIO;
		break;
	default:
		ret = -ETIMEDOUT;
	}
	pthread_mutex_unlock(&u->lock);
	return ret;
}

const char *cz_uring_describe(struct cz_uring *u)
{
	enum cz_uring_state st;

	pthread_mutex_lock(&u->lock);
	st = u->state;
	pthread_mutex_unlock(&u->lock);
	switch (st) {
	case ST_ACTIVE:
		snprintf(u->desc, sizeof(u->desc),
			 "io_uring: %u queues x %u entries, %zu KiB payload%s%s",
			 u->nr_queues, u->queues[0].nents, u->payload_len / 1024,
			 u->queues[0].caller_payload ? " (the read path's buffer)" : "",
			 u->p.no_pin ? ", unpinned" : ", pinned");
		break;
	case ST_STARTING:
	case ST_WAIT_INIT:
		snprintf(u->desc, sizeof(u->desc), "io_uring: starting");
		break;
	case ST_FAILED:
		snprintf(u->desc, sizeof(u->desc), "io_uring: failed (%s)", strerror(-u->err));
		break;
	case ST_CLASSIC:
		snprintf(u->desc, sizeof(u->desc), "/dev/fuse%s%s",
			 u->p.transport == CZ_TRANSPORT_DEV ? "" :
			 u->kernel_offers ? " (io_uring fallback)" :
			 " (io_uring not offered by the kernel)",
			 u->p.poll_us ? ", busy-poll" : "");
		break;
	}
	return u->desc;
}

void cz_uring_counts(struct cz_uring *u, uint64_t *ring, uint64_t *dev, uint64_t *spliced)
{
	uint64_t n = 0;
	unsigned i;

	for (i = 0; i < u->nr_queues; i++)
		n += atomic_load(&u->queues[i].nreq);
	*ring = n;
	sio_counts(dev, spliced);
}

void cz_uring_unmounting(struct cz_uring *u)
{
	if (!u)
		return;
	pthread_mutex_lock(&u->lock);
	u->dev_closing = true;
	pthread_mutex_unlock(&u->lock);
}

void cz_uring_detach(struct cz_uring *u)
{
	unsigned i;

	if (!u)
		return;
	atomic_store(&u->stop, true);
	pthread_mutex_lock(&u->lock);
	pthread_cond_broadcast(&u->cond);
	pthread_mutex_unlock(&u->lock);
	/*
	 * Every queue thread ends before any ring is unmapped.  A thread still
	 * setting up its queue (held back by the scheduler) would otherwise map
	 * its ring while another queue's ring is being freed, and the kernel
	 * hands it the same address: liburing maps and unmaps the rings by raw
	 * system calls, which ThreadSanitizer does not see, so the old ring's
	 * accesses (io_uring_cq_advance on the freed queue's thread) and the new
	 * one's (io_uring_peek_cqe in queue_register) meet on one address with
	 * no order between the two threads.  Joining them all first orders every
	 * ring's last use before every munmap, for TSan and for real.
	 */
	for (i = 0; i < u->nr_queues; i++)
		if (u->queues[i].thread_started)
			pthread_join(u->queues[i].thread, NULL);
	for (i = 0; i < u->nr_queues; i++)
		queue_free(&u->queues[i]);
	/* The session keeps the wrapper until destroyed: plain read/writev from now on. */
	sio_detach();
	the_uring = NULL;
	pthread_mutex_destroy(&u->lock);
	pthread_cond_destroy(&u->cond);
	free(u->queues);
	free(u);
}
