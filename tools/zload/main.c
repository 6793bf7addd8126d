/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * zload - reads of a device or file through io_uring, in the spirit of
 * fio's io_uring engine and fio's t/io_uring, for comparing the cusezero
 * device with the kernel's /dev/zero.
 *
 *   zload [OPTIONS] DEVICE
 *   zload --bs 4KB --qd 32 --time 5 /dev/zero
 *   zload --bs=100k --iodepth=1 --fixedbufs --registerfiles --output-format=json /dev/zero
 *
 * Each job is a thread with its own ring, descriptor and buffers.  Reads are
 * sequential from offset 0 (--rw read) or at random --bs-aligned offsets
 * (--rw randread); offsets stay below the size of a regular file (or block
 * device) rounded down to --bs, below 1 TiB on a character device (a CUSE
 * device always sees pos 0 anyway).  opts.c takes fio's option names and
 * job files; this file runs the jobs of every section at once, as fio does.
 */
#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <time.h>
#include <unistd.h>

#include "zload.h"
#include "devstats.h"
#include "outfile.h"

static volatile sig_atomic_t zl_signalled;

/* First signal: stop issuing, drain, summarize.  Second: a read that never
 * completes must not hold the terminal hostage. */
static void zl_on_signal(int sig)
{
	if (__atomic_exchange_n(&zl_stop, 1, __ATOMIC_RELAXED) && zl_signalled)
		_exit(128 + sig);
	zl_signalled = 1;
}

static void zl_sleep_ns(uint64_t ns)
{
	struct timespec ts = { .tv_sec = (time_t)(ns / 1000000000ULL),
			       .tv_nsec = (long)(ns % 1000000000ULL) };

	nanosleep(&ts, NULL);
}

/* fio's bw/iops logs: each job's KiB/s and IOPS over the last ZL_SAMPLE_NS. */
static void zl_sample(const struct zl_run *run, struct zl_job *jobs, uint64_t now)
{
	unsigned i;

	for (i = 0; i < run->total_jobs; i++) {
		struct zl_job *j = &jobs[i];
		uint64_t ios = __atomic_load_n(&j->live_ios, __ATOMIC_RELAXED);
		uint64_t bytes = __atomic_load_n(&j->live_bytes, __ATOMIC_RELAXED);
		double dt = (double)(now - j->sample_t) / 1e9;

		if (__atomic_load_n(&j->finished, __ATOMIC_ACQUIRE) || dt <= 0)
			continue;
		/* fio's ramp_time: no bandwidth samples before the measured run. */
		if (j->o->ramp_sec > 0 && !__atomic_load_n(&j->ramped, __ATOMIC_ACQUIRE)) {
			j->sample_ios = ios;
			j->sample_bytes = bytes;
			j->sample_t = now;
			continue;
		}
		zl_stat_add(&j->bw, (double)(bytes - j->sample_bytes) / 1024.0 / dt);
		zl_stat_add(&j->iops, (double)(ios - j->sample_ios) / dt);
		j->sample_ios = ios;
		j->sample_bytes = bytes;
		j->sample_t = now;
	}
}

static void zl_progress(const struct zl_run *run, const struct zl_job *jobs, uint64_t elapsed,
			uint64_t *last_ios, uint64_t *last_bytes, double dt)
{
	uint64_t ios = 0, bytes = 0;
	unsigned i;

	for (i = 0; i < run->total_jobs; i++) {
		ios += __atomic_load_n(&jobs[i].live_ios, __ATOMIC_RELAXED);
		bytes += __atomic_load_n(&jobs[i].live_bytes, __ATOMIC_RELAXED);
	}
	fprintf(stderr, "\rzload: %5.0fs  %10.0f IOPS  %9.1f MiB/s ", (double)elapsed / 1e9,
		(double)(ios - *last_ios) / dt, (double)(bytes - *last_bytes) / dt / 1048576.0);
	*last_ios = ios;
	*last_bytes = bytes;
}

/* Each job's --runtime: stop the jobs whose time is over. */
static uint64_t zl_deadlines(const struct zl_run *run, struct zl_job *jobs, uint64_t now)
{
	uint64_t next = UINT64_MAX;
	unsigned i;

	for (i = 0; i < run->total_jobs; i++) {
		const struct zl_opts *o = jobs[i].o;
		uint64_t end;

		uint64_t go = __atomic_load_n(&jobs[i].t_go, __ATOMIC_ACQUIRE);

		if (o->time_sec <= 0 || !go)
			continue;
		/* fio's runtime does not count the ramp, startdelay or a stonewall's wait. */
		end = go + (uint64_t)((o->time_sec + o->ramp_sec) * 1e9);
		if (now >= end)
			__atomic_store_n(&jobs[i].stop, 1, __ATOMIC_RELAXED);
		else if (end < next)
			next = end;
	}
	return next;
}

/*
 * Sleep in short steps: enforce --time, sample bandwidth, draw the progress
 * line, dump the status every --status-interval from epoch (before the jobs
 * started, as fio's clock: a tick comes before a --runtime that ends with it).
 */
static void zl_supervise(const struct zl_run *run, struct zl_job *jobs, uint64_t epoch)
{
	bool tty = isatty(STDERR_FILENO) && !run->output && !run->status_ns, drew = false;
	uint64_t start = cz_now_ns(), last_draw = start;
	uint64_t next_sample = start + ZL_SAMPLE_NS, last_ios = 0, last_bytes = 0;
	uint64_t next_status = run->status_ns ? epoch + run->status_ns : UINT64_MAX;
	unsigned i;

	for (i = 0; i < run->total_jobs; i++)
		jobs[i].sample_t = start;
	for (;;) {
		uint64_t now = cz_now_ns(), step = 50000000ULL, next;
		unsigned done = 0;

		for (i = 0; i < run->total_jobs; i++)
			done += __atomic_load_n(&jobs[i].finished, __ATOMIC_ACQUIRE);
		if (done == run->total_jobs)
			break;
		if (now >= next_sample) {
			zl_sample(run, jobs, now);
			next_sample += ZL_SAMPLE_NS;
			/* fio's steady state: a sample a second. */
			if (((next_sample - start) / ZL_SAMPLE_NS) % 2 == 0)
				for (i = 0; i < run->total_jobs; i++)
					zl_ss_tick(&jobs[i], now);
		}
		if (now >= next_status) {
			zl_status_dump(run, jobs, next_status);
			while (next_status <= cz_now_ns())
				next_status += run->status_ns;
		}
		next = zl_deadlines(run, jobs, now);
		if (next_status < next)
			next = next_status;
		if (next != UINT64_MAX && next - now < step)
			step = next > now ? next - now : 0;
		if (tty && now - last_draw >= 1000000000ULL) {
			zl_progress(run, jobs, now - start, &last_ios, &last_bytes,
				    (double)(now - last_draw) / 1e9);
			last_draw = now;
			drew = true;
		}
		zl_sleep_ns(step);
	}
	if (drew)
		fprintf(stderr, "\r\033[K");
}

/*
 * fio's stonewall (and new_group): wait for every job before it; wait_for=NAME:
 * for the jobs of section NAME (before it, as fio requires).  first: the
 * section's first job; the waits go into *j.
 */
static void zl_waits(const struct zl_run *run, unsigned s, unsigned first, struct zl_job *j)
{
	const struct zl_opts *o = &run->sect[s];
	unsigned t, k = 0;

	j->wait_first = 0;
	j->wait_n = 0;
	if (o->stonewall) {
		j->wait_n = (int)first;
		return;
	}
	if (!o->wait_for)
		return;
	for (t = 0; t < s; k += run->sect[t].jobs, t++) {
		if (!strcmp(run->sect[t].name, o->wait_for)) {
			j->wait_first = (int)k;
			j->wait_n = (int)run->sect[t].jobs;
			return;
		}
	}
	cz_usage_die("job '%s': wait_for=%s: no job of that name before it", o->name, o->wait_for);
}

/* Start the jobs, report the first set-up failure; 0 or -1 (reported). */
static int zl_start(const struct zl_run *run, struct zl_job *jobs)
{
	unsigned i, s, k = 0, n = run->total_jobs;
	int ret;

	pthread_barrier_init(&zl_setup_done, NULL, n + 1);
	pthread_barrier_init(&zl_go, NULL, n + 1);
	for (s = 0; s < run->nsect; s++) {
		const struct zl_opts *o = &run->sect[s];

		zl_waits(run, s, k, jobs + k);
		for (i = 0; i < o->jobs; i++, k++) {
			jobs[k].id = (int)k;
			jobs[k].id_in_sect = i;
			jobs[k].run = run;
			jobs[k].wait_first = jobs[k - i].wait_first;
			jobs[k].wait_n = jobs[k - i].wait_n;
			jobs[k].sect = s;
			jobs[k].o = o;
			jobs[k].cpu = o->cpus.n && !o->cpus_shared ? o->cpus.cpu[i % o->cpus.n] : -1;
		}
	}
	for (k = 0; k < n; k++) {
		ret = pthread_create(&jobs[k].thread, NULL, zl_job_main, &jobs[k]);
		if (ret)
			cz_die(CZ_EXIT_FAILURE, "pthread_create: %s", strerror(ret));
	}
	pthread_barrier_wait(&zl_setup_done);
	for (i = 0; i < n && !zl_abort; i++) {
		struct zl_job *j = &jobs[i];

		if (!j->setup_err)
			continue;
		if (j->setup_msg[0])
			cz_err("%s", j->setup_msg);
		else if (j->cpu >= 0 && !strcmp(j->setup_what, "pin to --cpu"))
			cz_err("--cpu: cannot pin job %u to CPU %d: %s", i, j->cpu,
			       strerror(-j->setup_err));
		else
			cz_err("job %u: %s %s: %s", i, j->setup_what, j->o->path,
			       strerror(-j->setup_err));
		zl_abort = 1;
	}
	pthread_barrier_wait(&zl_go);
	return zl_abort ? -1 : 0;
}

/* Fail on a missing or unreadable DEVICE before starting any thread. */
static void zl_check_paths(const struct zl_run *run)
{
	unsigned s;
	int fd;

	for (s = 0; s < run->nsect; s++) {
		fd = open(run->sect[s].path, O_RDONLY);
		if (fd < 0)
			cz_die(CZ_EXIT_FAILURE, "open %s: %s", run->sect[s].path, strerror(errno));
		close(fd);
	}
}

/*
 * --output FILE: the report goes there, as fio's; notes stay on stderr.
 * Standard output is a fresh file renamed onto FILE at the end (at exit
 * too, after an error line): never written through a link planted at
 * FILE (lib/outfile.h).
 */
static struct cz_out zl_out;

/* 0, or -1 after one line. */
static int zl_close_output(void)
{
	char *path;
	int err;

	if (!zl_out.f)
		return 0;
	path = strdup(zl_out.path);
	fflush(stdout);
	err = cz_out_commit(&zl_out);
	if (err)
		cz_err("--output %s: %s", path ? path : "", strerror(-err));
	free(path);
	return err ? -1 : 0;
}

static void zl_close_output_at_exit(void)
{
	zl_close_output();
}

static void zl_open_output(const struct zl_run *run)
{
	int err;

	if (!run->output)
		return;
	err = cz_out_open(&zl_out, run->output, 0666);
	if (!err && (fflush(stdout) || dup2(fileno(zl_out.f), STDOUT_FILENO) < 0)) {
		err = -errno;
		cz_out_discard(&zl_out);
	}
	if (err)
		cz_die(CZ_EXIT_FAILURE, "--output %s: %s", run->output, strerror(-err));
	atexit(zl_close_output_at_exit);
}

int main(int argc, char **argv)
{
	struct sigaction sa = { .sa_handler = zl_on_signal };
	struct cz_devshare share = { .fd = -1 };
	struct zl_run run;
	struct zl_job *jobs;
	int status = CZ_EXIT_OK;
	uint64_t epoch;
	unsigned i;

	cz_cli_init("zload");
	zl_parse_args(argc, argv, &run);
	zl_check_paths(&run);
	zl_open_output(&run);

	jobs = calloc(run.total_jobs, sizeof(*jobs));
	if (!jobs)
		cz_die(CZ_EXIT_FAILURE, "out of memory");
	sigemptyset(&sa.sa_mask);
	sigaction(SIGINT, &sa, NULL);
	sigaction(SIGTERM, &sa, NULL);

	if (run.device_share)
		cz_devshare_begin(&share, run.sect[0].path);	/* off when not a cusezero device */
	zl_du_start(&run.du, &run);
	zl_status_init(&run, jobs);
	epoch = cz_now_ns();
	zl_status_epoch = epoch;
	if (!zl_start(&run, jobs))
		zl_supervise(&run, jobs, epoch);
	for (i = 0; i < run.total_jobs; i++)
		pthread_join(jobs[i].thread, NULL);
	zl_du_stop(&run.du);
	if (zl_abort) {
		status = CZ_EXIT_FAILURE;
	} else {
		zl_report(&run, jobs);
		if (cz_stdout_flush())	/* the report before the device's share on stderr */
			status = CZ_EXIT_FAILURE;
		cz_devshare_end(&share, "zload", stderr);
		if (zl_failures(&run, jobs))
			status = CZ_EXIT_FAILURE;
		for (i = 0; i < run.total_jobs; i++)
			if (zl_log_write(&jobs[i]))
				status = CZ_EXIT_FAILURE;
	}
	if (cz_stdout_flush() || zl_close_output())
		status = CZ_EXIT_FAILURE;
	for (i = 0; i < run.total_jobs; i++)
		zl_log_free(&jobs[i]);
	zl_status_free(&run, jobs);
	zl_run_free(&run);
	free(jobs);
	return status;
}
