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
	atomic_bool done;
};

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

static void *loop_worker_main(void *arg)
{
	struct loop_worker *w = arg;
	struct fuse_buf fbuf = { .mem = NULL };
	sigset_t set;

	sigemptyset(&set);
	sigaddset(&set, SIGINT);
	sigaddset(&set, SIGTERM);
	sigaddset(&set, SIGHUP);
	pthread_sigmask(SIG_BLOCK, &set, NULL);
	loop_sched_self("loop worker", true);
	if (rp_thread_attach(w->idx) == 0)
		loop_serve(w->se, &fbuf, NULL);
	else
		cz_log("worker %u: cannot map its reply buffer", w->idx);
	free(fbuf.mem);
	atomic_store(&w->done, true);
	return NULL;
}

int loop_run(struct fuse_session *se, unsigned nthreads, bool (*after_request)(void))
{
	struct loop_worker *w = NULL;
	struct sigaction sa;
	unsigned i, started = 0;
	int ret;

	struct fuse_buf fbuf = { .mem = NULL };

	loop_sched_self("loop thread", true);	/* the workers inherit, then set their own */
	ret = rp_thread_attach(0);
	if (ret)
		return ret;
	/* Until ready (CUSE: node created), one thread; then the others. */
	if (after_request) {
		ret = loop_serve(se, &fbuf, after_request);
		if (ret != 1)
			goto out;
	}
	if (nthreads > 1 && !fuse_session_exited(se)) {
		memset(&sa, 0, sizeof(sa));
		sa.sa_handler = loop_wake;  /* no SA_RESTART: interrupts read() */
		sigemptyset(&sa.sa_mask);
		sigaction(SIGUSR1, &sa, NULL);
		w = calloc(nthreads, sizeof(*w));
		if (!w)
			return -ENOMEM;
		for (i = 1; i < nthreads; i++) {
			w[i].idx = i;
			w[i].se = se;
			if (pthread_create(&w[i].tid, NULL, loop_worker_main, &w[i]))
				break;
			started = i;
		}
	}
	ret = loop_serve(se, &fbuf, NULL);

	atomic_store(&loop_stop, true);
	for (i = 1; i <= started; i++) {
		struct timespec ts = { 0, 2 * 1000 * 1000 };
		unsigned tries;

		/* The signal may land before the worker blocks in read(): repeat. */
		for (tries = 0; tries < 2500 && !atomic_load(&w[i].done); tries++) {
			pthread_kill(w[i].tid, SIGUSR1);
			nanosleep(&ts, NULL);
		}
		if (atomic_load(&w[i].done))
			pthread_join(w[i].tid, NULL);
		else
			cz_log("worker %u did not stop", i);
	}
	free(w);
out:
	free(fbuf.mem);
	if (cz_params.sched_idle)
		cz_debug("sched-idle guard: %lu starvation(s) seen", sg_demotions());
	return ret;
}
