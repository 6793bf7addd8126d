/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * --sched-idle's starvation guard.
 *
 * A SCHED_IDLE serving thread has weight 3 against 1024 for a nice-0 task:
 * on a CPU busy with other work it runs about once per scheduler tick, and
 * the device then answers in milliseconds (4 ms per 100 KiB read measured
 * here with one CPU hog, 250x slower).  The kernel's own measure of that
 * wait (run_delay in /proc/PID/schedstat) needs schedstats, which are off
 * here.  So a watchdog thread (SCHED_OTHER, every SG_PERIOD_MS) looks at
 * each watched fd -- /dev/fuse or /dev/cuse for the loop threads, each io_uring
 * queue's ring fd -- and at how many requests its threads served: work
 * waiting (POLLIN) at two ticks in a row with fewer than SG_MIN_SERVED
 * served in between means starved (a starving thread runs about once a
 * tick, 4 ms here; a healthy one serves hundreds of requests in 10 ms, and
 * a lightly used one almost never has one waiting at a tick).  It then moves that fd's threads to SCHED_OTHER for a
 * back-off (1 s, doubled while it recurs within two minutes, up to 64 s) and
 * back to SCHED_IDLE after it.  The cost: one poll() per watched fd every
 * SG_PERIOD_MS; nothing on the request path but a relaxed atomic add.
 */
#include <errno.h>
#include <poll.h>
#include <pthread.h>
#include <sched.h>
#include <signal.h>
#include <stdatomic.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "log.h"
#include "schedguard.h"
#include "util.h"

#define SG_PERIOD_MS 10
#define SG_MAX 128
#define SG_MIN_SERVED 4
#define SG_BACKOFF_MIN_NS (1000ull * 1000 * 1000)
#define SG_BACKOFF_MAX_NS (64 * SG_BACKOFF_MIN_NS)
#define SG_RECUR_NS (120 * SG_BACKOFF_MIN_NS)

struct sg_entry {
	bool used;
	int group;
	pthread_t thread;
	atomic_uint_fast64_t own;	/* when the caller has no counter */
	atomic_uint_fast64_t *served;
};

struct sg_group {
	int fd;
	unsigned members;
	uint64_t last_sum;
	bool was_pending, demoted;
	uint64_t until, backoff, last_demote;
};

static pthread_mutex_t sg_lock = PTHREAD_MUTEX_INITIALIZER;
static struct sg_entry sg_entries[SG_MAX];
static struct sg_group sg_groups[SG_MAX];
static unsigned sg_ngroups;
static atomic_ulong sg_ndemoted;
static pthread_once_t sg_once = PTHREAD_ONCE_INIT;

static void sg_policy(pthread_t t, int policy)
{
	struct sched_param sp = { .sched_priority = 0 };

	pthread_setschedparam(t, policy, &sp);	/* a failure leaves it as it was */
}

static void sg_tick(void)
{
	uint64_t now = cz_now_ns();
	unsigned g, i;

	pthread_mutex_lock(&sg_lock);
	for (g = 0; g < sg_ngroups; g++) {
		struct sg_group *gr = &sg_groups[g];
		struct pollfd pfd = { .fd = gr->fd, .events = POLLIN };
		uint64_t sum = 0;
		bool pending;

		if (!gr->members)
			continue;
		for (i = 0; i < SG_MAX; i++)
			if (sg_entries[i].used && sg_entries[i].group == (int)g)
				sum += atomic_load_explicit(sg_entries[i].served, memory_order_relaxed);
		pending = poll(&pfd, 1, 0) == 1 && (pfd.revents & POLLIN);
		if (!gr->demoted && pending && gr->was_pending && sum - gr->last_sum < SG_MIN_SERVED) {
			if (gr->last_demote && now - gr->last_demote < SG_RECUR_NS)
				gr->backoff = gr->backoff * 2 > SG_BACKOFF_MAX_NS ?
					      SG_BACKOFF_MAX_NS : gr->backoff * 2;
			else
				gr->backoff = SG_BACKOFF_MIN_NS;
			gr->demoted = true;
			gr->last_demote = now;
			gr->until = now + gr->backoff;
			for (i = 0; i < SG_MAX; i++)
				if (sg_entries[i].used && sg_entries[i].group == (int)g)
					sg_policy(sg_entries[i].thread, SCHED_OTHER);
			atomic_fetch_add(&sg_ndemoted, 1);
			cz_debug("sched-idle guard: fd %d starved (work waiting %d+ ms, %llu served): "
				 "SCHED_OTHER for %llu s", gr->fd, SG_PERIOD_MS,
				 (unsigned long long)(sum - gr->last_sum),
				 (unsigned long long)(gr->backoff / SG_BACKOFF_MIN_NS));
		} else if (gr->demoted && now >= gr->until) {
			gr->demoted = false;
			for (i = 0; i < SG_MAX; i++)
				if (sg_entries[i].used && sg_entries[i].group == (int)g)
					sg_policy(sg_entries[i].thread, SCHED_IDLE);
		}
		gr->was_pending = pending;
		gr->last_sum = sum;
	}
	pthread_mutex_unlock(&sg_lock);
}

static void *sg_watchdog(void *arg)
{
	struct timespec ts = { 0, SG_PERIOD_MS * 1000L * 1000L };
	struct sched_param sp = { .sched_priority = 0 };
	cpu_set_t all;
	long n = sysconf(_SC_NPROCESSORS_CONF), c;

	(void)arg;
	pthread_setname_np(pthread_self(), "cz-guard");	/* tests/cuse/sched.sh knows it */
	/* Not the creator's SCHED_IDLE nor its --cpu: it must run where the starving thread cannot. */
	pthread_setschedparam(pthread_self(), SCHED_OTHER, &sp);
	CPU_ZERO(&all);
	for (c = 0; c < n && c < CPU_SETSIZE; c++)
		CPU_SET((int)c, &all);
	sched_setaffinity(0, sizeof(all), &all);	/* best effort (cpusets) */
	for (;;) {
		nanosleep(&ts, NULL);
		sg_tick();
	}
	return NULL;
}

static void sg_start(void)
{
	pthread_attr_t attr;
	pthread_t t;
	sigset_t all, old;

	/* Signals stay with the serving threads (their blocking reads must see EINTR). */
	sigfillset(&all);
	pthread_sigmask(SIG_BLOCK, &all, &old);
	pthread_attr_init(&attr);
	pthread_attr_setdetachstate(&attr, PTHREAD_CREATE_DETACHED);
	if (pthread_create(&t, &attr, sg_watchdog, NULL))
		cz_log("sched-idle guard: cannot start its thread: --sched-idle is unguarded");
	pthread_attr_destroy(&attr);
	pthread_sigmask(SIG_SETMASK, &old, NULL);
}

int sg_join(int fd, atomic_uint_fast64_t *served)
{
	unsigned g, i;
	int h = -1;

	pthread_once(&sg_once, sg_start);
	pthread_mutex_lock(&sg_lock);
	for (g = 0; g < sg_ngroups && sg_groups[g].fd != fd; g++)
		;
	if (g == sg_ngroups) {
		if (sg_ngroups == SG_MAX)
			goto out;
		memset(&sg_groups[g], 0, sizeof(sg_groups[g]));
		sg_groups[g].fd = fd;
		sg_ngroups++;
	}
	for (i = 0; i < SG_MAX && sg_entries[i].used; i++)
		;
	if (i == SG_MAX)
		goto out;
	sg_entries[i].used = true;
	sg_entries[i].group = (int)g;
	sg_entries[i].thread = pthread_self();
	atomic_store(&sg_entries[i].own, 0);
	sg_entries[i].served = served ? served : &sg_entries[i].own;
	sg_groups[g].members++;
	if (sg_groups[g].demoted)
		sg_policy(pthread_self(), SCHED_OTHER);
	h = (int)i;
out:
	pthread_mutex_unlock(&sg_lock);
	if (h < 0)
		cz_log("sched-idle guard: too many threads: one is unguarded");
	return h;
}

void sg_served(int h)
{
	if (h >= 0)
		atomic_fetch_add_explicit(&sg_entries[h].own, 1, memory_order_relaxed);
}

void sg_leave(int h)
{
	if (h < 0)
		return;
	pthread_mutex_lock(&sg_lock);
	sg_entries[h].used = false;
	sg_groups[sg_entries[h].group].members--;
	pthread_mutex_unlock(&sg_lock);
}

unsigned long sg_demotions(void)
{
	return atomic_load(&sg_ndemoted);
}
