/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Our own session loop: receive one request into a buffer that lives as
 * long as the thread, process it, repeat.  libfuse's multi-threaded loop
 * (lib/fuse_loop_mt.c, 3.14) starts a new worker whenever none is idle and
 * lets idle ones above max_idle_threads exit, so a stream of requests from
 * one reader pays thread creations and cross-thread wake-ups: several times
 * slower per 100 KiB read than one thread on a 2-vCPU VM
 * (bench/device-vs-kernel.sh measures the device against /dev/zero).  The calling thread
 * is worker 0; --threads N adds N-1 workers reading the same /dev/fuse fd.
 *
 * Stopping: SIGINT/SIGTERM (libfuse's handlers, installed without
 * SA_RESTART) make the blocking read return EINTR in the main thread, which
 * sees fuse_session_exited().  Extra workers block those signals and are
 * woken with SIGUSR1 (a no-op handler, no SA_RESTART) until they are joined.
 * ENODEV (connection aborted, e.g. unmounted from outside) ends every worker.
 *
 * Every worker first applies the scheduler levers to itself (opt-in, both
 * off by default): --cpu N pins it to CPU N; --sched-idle makes it SCHED_IDLE,
 * so that the scheduler's wake-up path (select_idle_sibling) counts its CPU
 * as idle and leaves a reader it wakes on that CPU instead of moving the
 * reader to another -- a cross-CPU wake-up per request in this VM.  The
 * price: on a CPU busy with other work a SCHED_IDLE thread gets almost
 * nothing (weight 3 against 1024).
 */
#define FUSE_USE_VERSION 314

#include <errno.h>
#include <pthread.h>
#include <sched.h>
#include <signal.h>
#include <stdatomic.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "log.h"
#include "loop.h"
#include "params.h"
#include "readpath.h"
#include "schedguard.h"
#include "util.h"
#include <fuse_lowlevel.h>

static atomic_bool loop_stop;

struct loop_worker {
	pthread_t tid;
	unsigned idx;
	struct fuse_session *se;
	struct fuse_buf fbuf;
	int status;		/* under lp.lock: 0 setting up, 1 ready, -errno failed */
	atomic_bool done;
};

/*
 * The workers, set up before the first request: each maps its read-path
 * buffer and allocates its receive buffer, then waits for go.  A worker
 * that could not allocate used to leave with fuse_session_exit() while
 * serving, and libfuse drops (never answers) a request read after that:
 * the reader waited in the kernel, unkillable, until the next request.
 */
static struct {
	pthread_mutex_t lock;
	pthread_cond_t cond;
	unsigned nset;		/* workers done setting up, either way */
	bool go;		/* serve (or leave, with loop_stop) */
	bool prepared;
	unsigned started;	/* workers 1..started run */
	struct loop_worker *w;
	struct fuse_buf fbuf;	/* the loop thread's */
	pthread_t main;
} lp = { .lock = PTHREAD_MUTEX_INITIALIZER, .cond = PTHREAD_COND_INITIALIZER };

void loop_sched_self(const char *who, bool pin)
{
	struct sched_param sp = { .sched_priority = 0 };
	int ret;

	if (pin && cz_params.cpu >= 0) {
		ret = cz_pin_cpu(cz_params.cpu);
		if (ret)
			cz_log("%s: --cpu %d: %s", who, cz_params.cpu, strerror(-ret));
	}
	if (cz_params.sched_idle) {
		ret = pthread_setschedparam(pthread_self(), SCHED_IDLE, &sp);
		if (ret)
			cz_log("%s: --sched-idle: %s", who, strerror(ret));
	}
	if (cz_params.sched_idle || (pin && cz_params.cpu >= 0))
		cz_debug("%s: %s%s", who, cz_params.sched_idle ? "SCHED_IDLE" : "SCHED_OTHER",
			 pin && cz_params.cpu >= 0 ? ", pinned by --cpu" : "");
}

static void loop_wake(int sig)
{
	(void)sig;
}

/*
 * One worker: never exits on a failed reply or an interrupted request.
 * With after_request, returns 1 as soon as it returns true (fbuf kept).
 */
static int loop_serve(struct fuse_session *se, struct fuse_buf *fbufp,
		      bool (*after_request)(void))
{
	struct fuse_buf fbuf = *fbufp;
	int res, ret = 0;
	int guard = cz_params.sched_idle ? sg_join(fuse_session_fd(se), NULL) : -1;

	while (!fuse_session_exited(se) && !atomic_load(&loop_stop)) {
		res = fuse_session_receive_buf(se, &fbuf);
		if (res == -EINTR || res == -EAGAIN)
			continue;
		if (res <= 0) {
			/* 0: connection gone (ENODEV) -- a normal end */
			if (res < 0) {
				cz_log("reading the fuse device: %s", strerror(-res));
				ret = res;
			}
			fuse_session_exit(se);
			break;
		}
		fuse_session_process_buf(se, &fbuf);
		sg_served(guard);
		if (after_request && after_request()) {
			ret = 1;
			break;
		}
	}
	sg_leave(guard);
	*fbufp = fbuf;
	return ret;
}

/*
 * The receive buffer, allocated now rather than by libfuse at the first
 * request.  libfuse 3.14 to 3.16 read se->bufsize bytes into buf->mem, and
 * se->bufsize is FUSE_MAX_MAX_PAGES (256) pages plus FUSE_BUFFER_HEADER_SIZE
 * (4096) (lib/fuse_lowlevel.c, fuse_session_new); with another libfuse the
 * size is not known here and libfuse allocates it at the first request (its
 * failure then stops the daemon: see loop_serve).
 */
static int loop_buf_alloc(struct fuse_buf *fb)
{
#if FUSE_MAJOR_VERSION == 3 && FUSE_MINOR_VERSION <= 16
	fb->mem = malloc(256 * (size_t)sysconf(_SC_PAGESIZE) + 4096);
	if (!fb->mem)
		return -ENOMEM;
#else
	(void)fb;
#endif
	return 0;
}

static void *loop_worker_main(void *arg)
{
	struct loop_worker *w = arg;
	sigset_t set;
	int ret;

	sigemptyset(&set);
	sigaddset(&set, SIGINT);
	sigaddset(&set, SIGTERM);
	sigaddset(&set, SIGHUP);
	pthread_sigmask(SIG_BLOCK, &set, NULL);
	loop_sched_self("loop worker", true);
	ret = rp_thread_attach(w->idx);
	if (!ret)
		ret = loop_buf_alloc(&w->fbuf);
	pthread_mutex_lock(&lp.lock);
	w->status = ret ? ret : 1;
	lp.nset++;
	pthread_cond_broadcast(&lp.cond);
	while (!lp.go)
		pthread_cond_wait(&lp.cond, &lp.lock);
	pthread_mutex_unlock(&lp.lock);
	/*
	 * A worker that stops on an error has ended the session: wake the loop
	 * thread out of its read, so the daemon stops and closes /dev/fuse --
	 * which makes the kernel abort any request libfuse read and dropped.
	 */
	if (!ret && !atomic_load(&loop_stop) && loop_serve(w->se, &w->fbuf, NULL) < 0)
		pthread_kill(lp.main, SIGUSR1);
	free(w->fbuf.mem);
	atomic_store(&w->done, true);
	return NULL;
}

/* Let the workers go: to serve, or (stop) to leave. */
static void loop_release(bool stop)
{
	if (stop)
		atomic_store(&loop_stop, true);
	pthread_mutex_lock(&lp.lock);
	lp.go = true;
	pthread_cond_broadcast(&lp.cond);
	pthread_mutex_unlock(&lp.lock);
}

/* Stop and join every worker started; free them. */
static void loop_join(void)
{
	unsigned i, tries;

	loop_release(true);
	for (i = 1; i <= lp.started; i++) {
		struct timespec ts = { 0, 2 * 1000 * 1000 };

		/* The signal may land before the worker blocks in read(): repeat. */
		for (tries = 0; tries < 2500 && !atomic_load(&lp.w[i].done); tries++) {
			pthread_kill(lp.w[i].tid, SIGUSR1);
			nanosleep(&ts, NULL);
		}
		if (atomic_load(&lp.w[i].done))
			pthread_join(lp.w[i].tid, NULL);
		else
			cz_log("worker %u did not stop", i);
	}
	free(lp.w);
	lp.w = NULL;
	lp.started = 0;
}

/* Start workers 1..nthreads-1 and wait until each has its buffers: 0 or -errno. */
static int loop_start_workers(struct fuse_session *se, unsigned nthreads)
{
	struct sigaction sa;
	unsigned i;
	int ret = 0;

	memset(&sa, 0, sizeof(sa));
	sa.sa_handler = loop_wake;  /* no SA_RESTART: interrupts read() */
	sigemptyset(&sa.sa_mask);
	sigaction(SIGUSR1, &sa, NULL);
	lp.w = calloc(nthreads, sizeof(*lp.w));
	if (!lp.w)
		return -ENOMEM;
	for (i = 1; i < nthreads && !ret; i++) {
		lp.w[i].idx = i;
		lp.w[i].se = se;
		ret = -pthread_create(&lp.w[i].tid, NULL, loop_worker_main, &lp.w[i]);
		if (ret)
			cz_log("--threads %u: cannot start worker %u: %s (a memory or process limit?)",
			       nthreads, i, strerror(-ret));
		else
			lp.started = i;
	}
	pthread_mutex_lock(&lp.lock);
	while (lp.nset < lp.started)
		pthread_cond_wait(&lp.cond, &lp.lock);
	for (i = 1; i <= lp.started && !ret; i++)
		if (lp.w[i].status < 0) {
			ret = lp.w[i].status;
			cz_log("--threads %u: worker %u cannot allocate its buffers: %s",
			       nthreads, i, strerror(-ret));
		}
	pthread_mutex_unlock(&lp.lock);
	return ret;
}

int loop_prepare(struct fuse_session *se, unsigned nthreads)
{
	int ret;

	if (lp.prepared)
		return 0;
	lp.prepared = true;
	lp.main = pthread_self();
	loop_sched_self("loop thread", true);	/* the workers inherit, then set their own */
	ret = rp_thread_attach(0);
	if (!ret)
		ret = loop_buf_alloc(&lp.fbuf);
	if (ret) {
		cz_log("cannot allocate the loop thread's buffers: %s", strerror(-ret));
		return ret;
	}
	if (nthreads > 1) {
		ret = loop_start_workers(se, nthreads);
		if (ret)
			loop_join();
	}
	return ret;
}

int loop_run(struct fuse_session *se, unsigned nthreads, bool (*after_request)(void))
{
	int ret;

	ret = loop_prepare(se, nthreads);
	if (ret)
		goto out;
	/* Until ready (CUSE: node created), one thread; then the others. */
	if (after_request) {
		ret = loop_serve(se, &lp.fbuf, after_request);
		if (ret != 1)
			goto out;
	}
	loop_release(fuse_session_exited(se));
	ret = loop_serve(se, &lp.fbuf, NULL);
out:
	loop_join();
	free(lp.fbuf.mem);
	lp.fbuf.mem = NULL;
	if (cz_params.sched_idle)
		cz_debug("sched-idle guard: %lu starvation(s) seen", sg_demotions());
	return ret;
}
