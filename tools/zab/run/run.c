/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Running an experiment: sessions, the order of variants, the benchmark
 * processes, one cusezero daemon per device variant per session, where
 * they run (co-location) and what the daemons count during each run.
 *
 * A session starts fresh: every device variant gets a new daemon, every run
 * a new process.  Within a session, each round runs every variant once per
 * benchmark, in an order that is random (seeded, replayable), interleaved
 * (ABAB) or sequential (AAA BBB); the first W rounds are warm-ups.
 *
 * Co-location (default for experiments with device variants): in session
 * s every daemon serves on one CPU (`--cpu N`) and every benchmark process
 * is pinned to that CPU.  The CPU rotates over the CPUs zab may use, from a
 * seeded start, so a CPU's own speed is spread over all variants alike.
 * Why: a reader and a daemon on different CPUs pay a cross-CPU wake-up per
 * request whose cost depends on where the scheduler happens to put each
 * fresh process -- a lottery that varies per daemon and per run and buries
 * a routine's effect.  On one CPU the kernel still does all of its work
 * (two context switches, the copy); only the lottery goes.  Pinning both
 * leaves the scheduler no other CPU to pick, so --sched-idle adds nothing
 * here, and it would starve the daemon whenever anything else runs on that
 * CPU (doc/DESIGN.md, "Co-location").
 *
 * In-device result classes: for a device variant, the daemon's counters are
 * read by ioctl just before and just after each run; the difference is
 * exactly that run's routine work (bytes, time inside the routine), so the
 * routine's speed is measured without the transport around it.
 *
 * Placement (placement = random|sweep): before each run its offset, the
 * same for every variant of the slot, goes to the variant's daemon by
 * SET_ALIGN (one daemon per session: no restart per run) and is read back
 * from the daemon's stats after the run; that is the offset recorded.
 * Commands without a device get it as {offset} / $ZAB_OFFSET.
 *
 * placement = rotate: no offset per run; the daemon rotates over the whole
 * set within every run (rotate.c), set once per session before the
 * warm-ups, and each in-device sample carries its per-layout values.
 */
#include <ctype.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <math.h>
#include <sched.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/stat.h>
#include <sys/types.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "cli.h"
#include "run.h"
#include "runner.h"
#include "util.h"
#include "devspawn.h"
#include "devstats.h"

/* ---- result classes --------------------------------------------------------------------- */

struct runner {
	const struct zab_experiment *e;
	const struct zab_run_opts *o;
	struct czres_result *r;
	char *path_env, *cusezero;
	size_t total, done;
	uint64_t t0;
	unsigned session;
	bool any_failed;
	/* result rows of each benchmark: [b][kind], SIZE_MAX when absent */
	size_t row[CZRES_MAX_ITEMS][CZRES_RK_COUNT];
	/* per benchmark: its measure, auto decided by its first run that ended well */
	enum zab_measure measure[CZRES_MAX_ITEMS];
	/* co-location: off, or the session's CPU from cpus[] */
	bool coloc;
	int cpus[CPU_SETSIZE];
	size_t ncpus, cpu0;
	int cpu;             /* this session's, -1 when not co-located */
	int offset;          /* this run's placement offset, -1: fixed placement */
	bool entry;          /* this run's placed point is the entry */
	struct zab_rotrun *rot;   /* placement = rotate: the copies' counters around a run */
	const char *what;    /* the run in messages: "session 1 repeat 2" */
};

/* A device variant whose daemon rotates its copies (placement = rotate). */
static bool rotating(const struct zab_experiment *e, size_t v)
{
	return e->var[v].device && zab_var_placement(e, v)->mode == ZAB_PLACE_ROTATE;
}

static void progress(struct runner *rn, const char *bench, const char *var)
{
	double el, eta;

	if (!rn->o->progress)
		return;
	el = (double)(cz_now_ns() - rn->t0) / 1e9;
	eta = rn->done ? el / (double)rn->done * (double)(rn->total - rn->done) : 0;
	fprintf(stderr, "\r\033[K[session %u/%u] run %zu/%zu  %s / %s  ETA %d:%02d",
		rn->session + 1, rn->e->sessions, rn->done + 1, rn->total, bench, var,
		(int)eta / 60, (int)eta % 60);
	fflush(stderr);
}

static void progress_clear(struct runner *rn)
{
	if (rn->o->progress)
		fprintf(stderr, "\r\033[K");
}

/* The command of benchmark b for variant v (tmpl: this command instead, e.g. --prepare). */
static char *build_cmd(struct runner *rn, size_t b, size_t v, const char *tmpl)
{
	const struct zab_experiment *e = rn->e;
	const struct zab_variant *var = &e->var[v];
	struct zab_kv kv[3 * CZRES_MAX_ITEMS + 8];
	char sess[16], off[16], *bad = NULL, *bcmd, *cmd;
	size_t n = 0, i;

	snprintf(sess, sizeof(sess), "%u", rn->session + 1);
	kv[n++] = (struct zab_kv){ (char *)"dev", zab_daemons[v].dev.path ? zab_daemons[v].dev.path : (char *)"/dev/zero" };
	kv[n++] = (struct zab_kv){ (char *)"routine", var->routine ? var->routine : (char *)"default" };
	kv[n++] = (struct zab_kv){ (char *)"align", var->align ? var->align : (char *)"0" };
	kv[n++] = (struct zab_kv){ (char *)"chunk", var->chunk ? var->chunk : (char *)"4KB" };
	kv[n++] = (struct zab_kv){ (char *)"variant", var->name };
	kv[n++] = (struct zab_kv){ (char *)"session", sess };
	snprintf(off, sizeof(off), "%d", rn->offset);
	kv[n++] = (struct zab_kv){ (char *)"offset", off };
	kv[n++] = (struct zab_kv){ (char *)"point", (char *)(rn->entry ? "entry" : "loop") };
	for (i = 0; i < e->nvars; i++)
		kv[n++] = e->vars[i];
	for (i = 0; i < var->nvars; i++)
		kv[n++] = var->vars[i];
	bcmd = zab_expand(tmpl ? tmpl : e->bench[b].cmd, kv, n, &bad);
	if (!bcmd || !var->cmd || tmpl) {
		free(bad);
		return bcmd;
	}
	kv[n++] = (struct zab_kv){ (char *)"cmd", bcmd };
	cmd = zab_expand(var->cmd, kv, n, &bad);
	free(bad);
	free(bcmd);
	return cmd;
}

/* The environment of every run: the variant's, the device, the ZAB_* facts, PATH. */
static size_t build_env(struct runner *rn, size_t b, size_t v, char **env)
{
	const struct zab_variant *var = &rn->e->var[v];
	size_t nenv = 0, i;

	for (i = 0; i < var->nenv; i++)
		env[nenv++] = cz_xasprintf("%s=%s", var->env[i].key, var->env[i].val);
	if (zab_daemons[v].dev.path && var->device)
		env[nenv++] = cz_xasprintf("CUSEZERO_DEVICE=%s", zab_daemons[v].dev.path);
	env[nenv++] = cz_xasprintf("ZAB_BENCH=%s", rn->e->bench[b].name);
	env[nenv++] = cz_xasprintf("ZAB_VARIANT=%s", var->name);
	env[nenv++] = cz_xasprintf("ZAB_SESSION=%u", rn->session + 1);
	env[nenv++] = cz_xasprintf("ZAB_RUN=%zu", rn->done + 1);
	env[nenv++] = cz_xasprintf("ZAB_SEED=%llu", (unsigned long long)rn->o->seed);
	if (rn->offset >= 0) {
		env[nenv++] = cz_xasprintf("ZAB_OFFSET=%d", rn->offset);
		env[nenv++] = cz_xasprintf("ZAB_POINT=%s", rn->entry ? "entry" : "loop");
	}
	env[nenv++] = cz_xstrdup(rn->path_env);
	return nenv;
}

/* Why a run's output is not a result (one line, malloc'd). */
static char *run_failure(const struct zab_experiment *e, const char *cmd, const struct proc_out *po)
{
	char *st, *out, *why;

	if (po->status == 0 && !*zab_skip_comments(po->out)) {
		out = zab_one_line(po->err, 200);
		why = cz_xasprintf("`%s` printed no number on stdout (stderr: '%s'; --time measures its wall-clock time)",
				   cmd, out);
	} else if (po->status == 0) {
		out = zab_one_line(po->out, 200);
		why = cz_xasprintf("`%s` printed '%s' (expected one number)", cmd, out);
	} else {
		st = zab_timed_out ? cz_xasprintf("timed out after %u s (killed)", e->timeout) :
		     zab_status_text(po->status);
		out = zab_one_line(*po->err ? po->err : po->out, 300);
		why = cz_xasprintf("`%s` %s: %s", cmd, st, *out ? out : "(no output)");
		free(st);
	}
	free(out);
	return why;
}

static void cell_fail(struct runner *rn, size_t row, size_t v, const char *why)
{
	struct czres_cell *c = czres_cell(rn->r, row, v);

	if (c->failed)
		return;
	c->failed = true;
	c->error = cz_xasprintf("session %u: %s", rn->session + 1, why);
	rn->any_failed = true;
}

static void fail_in_device(struct runner *rn, size_t b, size_t v, const char *why)
{
	int k;

	for (k = 0; k < CZRES_RK_COUNT; k++)
		if (zab_rkinds[k].take)
			cell_fail(rn, rn->row[b][k], v, why);
}

/*
 * A rotating daemon's run: per layout its median request, the run's value
 * over the layouts that served one, weighted equally (doc/layouts.md).
 */
static void rotate_samples(struct runner *rn, size_t b, size_t v, const struct cz_devdelta *d)
{
	struct zab_rotrun *rr = rn->rot;
	double val[CUSEZERO_ROTATE_MAX], m;
	struct czres_cell *c;
	unsigned i;
	char *why;
	int ret = zab_daemons[v].has_fd ? zab_rotrun_end(rr, zab_daemons[v].fd) : -EBADF, k;

	if (ret) {
		why = cz_xasprintf("cannot read the layouts of %s: %s", zab_daemons[v].dev.path,
				   ret == -ESTALE ? "they were reset during the run" :
				   ret == -ENOTTY ? "the device is not rotating" : strerror(-ret));
		fail_in_device(rn, b, v, why);
		free(why);
		return;
	}
	m = zab_rotrun_mean(rr);
	if (isnan(m))
		return;
	if (rr->used < rr->count) {
		progress_clear(rn);
		cz_err("%s / %s, %s: %u of %u layouts served no request; left out of this run's in-device figures",
		       rn->e->bench[b].name, rn->e->var[v].name, rn->what, rr->count - rr->used, rr->count);
	}
	for (k = 0; k < CZRES_RK_COUNT; k++) {
		if (!zab_rkinds[k].of_median)
			continue;
		for (i = 0; i < rr->count; i++)
			val[i] = isnan(rr->med[i]) ? NAN : zab_rkinds[k].of_median(rr->med[i], d->chunk);
		c = czres_cell(rn->r, rn->row[b][k], v);
		czres_cell_add_session(c, zab_rkinds[k].of_median(m, d->chunk), rn->session + 1);
		czres_cell_set_pre(c, cz_hist_preempted(d->hist));
		czres_cell_set_rotation(c, rr->off, rr->count);
		czres_cell_set_layouts(c, c->n - 1, val);
	}
}

/*
 * The in-device samples of one successful run: the counters' difference.
 * A run that read nothing from the device adds none (the cells stay "-").
 */
static void add_device_samples(struct runner *rn, size_t b, size_t v, int err_before,
			       const struct cusezero_stats *before)
{
	struct cusezero_stats after;
	struct cz_devdelta d;
	struct czres_cell *c;
	char *why;
	int ret = err_before, k;

	if (!ret)
		ret = zab_daemons[v].has_fd ? cz_devstats_get(zab_daemons[v].fd, &after) : -EBADF;
	if (!ret)
		ret = cz_devstats_delta(before, &after, &d);
	if (ret) {
		why = cz_xasprintf("cannot read the counters of %s: %s", zab_daemons[v].dev.path,
				   ret == -ESTALE ? "they were reset during the run" : strerror(-ret));
		fail_in_device(rn, b, v, why);
		free(why);
		return;
	}
	if (!d.requests || !d.routine_ns)
		return;
	if (rotating(rn->e, v)) {
		rotate_samples(rn, b, v, &d);
		return;
	}
	for (k = 0; k < CZRES_RK_COUNT; k++) {
		if (!zab_rkinds[k].take)
			continue;
		c = czres_cell(rn->r, rn->row[b][k], v);
		czres_cell_add_session(c, zab_rkinds[k].take(&d), rn->session + 1);
		czres_cell_set_pre(c, cz_hist_preempted(d.hist));
	}
}

/*
 * The value of a run that ended well, by the benchmark's measure: its
 * number, or its wall-clock time (auto: time when the first run prints
 * nothing, then for all runs).  false: no value (a failed run).
 */
static bool run_value(struct runner *rn, size_t b, const struct proc_out *po, double *x)
{
	if (po->status)
		return false;
	if (rn->measure[b] == ZAB_MEASURE_AUTO) {
		rn->measure[b] = *zab_skip_comments(po->out) ? ZAB_MEASURE_OUTPUT : ZAB_MEASURE_TIME;
		if (rn->measure[b] == ZAB_MEASURE_TIME) {
			struct czres_bench *rb = &rn->r->b[rn->row[b][CZRES_RK_CMD]];

			free(rb->unit);
			rb->unit = cz_xstrdup("seconds");
			rb->higher = false;
			rb->timed = true;
		}
	}
	if (rn->measure[b] == ZAB_MEASURE_TIME) {
		*x = po->secs;
		return true;
	}
	return zab_parse_output(po->out, x);
}

/* --prepare before a run (not measured): NULL, or why it failed (malloc'd). */
static char *prepare(struct runner *rn, size_t b, size_t v, char **env, size_t nenv)
{
	struct proc_out po;
	char *cmd, *why = NULL, *st, *out;

	if (!rn->e->prepare)
		return NULL;
	cmd = build_cmd(rn, b, v, rn->e->prepare);
	zab_proc_run(cmd, env, nenv, rn->e->timeout, rn->cpu, &po);
	if (po.status && !zab_stop) {
		st = zab_timed_out ? cz_xasprintf("timed out after %u s (killed)", rn->e->timeout) :
		     zab_status_text(po.status);
		out = zab_one_line(*po.err ? po.err : po.out, 300);
		why = cz_xasprintf("--prepare `%s` %s: %s", cmd, st, *out ? out : "(no output)");
		free(st);
		free(out);
	}
	zab_proc_free(&po);
	free(cmd);
	return why;
}

/* The command's sample; rotating: the layouts it ran over (no value per layout). */
static void command_sample(struct runner *rn, size_t b, size_t v, double x)
{
	struct czres_cell *c = czres_cell(rn->r, rn->row[b][CZRES_RK_CMD], v);
	const struct zab_placement *p = zab_var_placement(rn->e, v);

	czres_cell_add_session(c, x, rn->session + 1);
	if (rotating(rn->e, v))
		czres_cell_set_rotation(c, p->set, p->nset);
}

/* One attempt: run, parse, record.  NULL on success, else why it failed (malloc'd). */
static char *attempt(struct runner *rn, size_t b, size_t v, bool warm, const char *cmd,
		     char **env, size_t nenv)
{
	bool dev = rn->row[b][CZRES_RK_DEV_RATE] != SIZE_MAX && rn->e->var[v].device;
	struct cusezero_stats before;
	struct proc_out po;
	int err_before = 0;
	char *why = prepare(rn, b, v, env, nenv);
	double x;

	if (why || zab_stop)
		return why;
	if (dev)
		err_before = zab_daemons[v].has_fd ? cz_devstats_get(zab_daemons[v].fd, &before) : -EBADF;
	if (dev && !warm && rotating(rn->e, v) && zab_daemons[v].has_fd)
		zab_rotrun_begin(rn->rot, zab_daemons[v].fd);
	zab_proc_run(cmd, env, nenv, rn->e->timeout, rn->cpu, &po);
	if (zab_stop) {
		zab_proc_free(&po);
		return NULL;
	}
	if (run_value(rn, b, &po, &x)) {
		if (!warm)
			command_sample(rn, b, v, x);
		if (!warm && dev)
			add_device_samples(rn, b, v, err_before, &before);
	} else {
		why = run_failure(rn->e, cmd, &po);
	}
	zab_proc_free(&po);
	return why;
}

/* The offset of this run of variant v (round: warm-ups first), -1 for fixed placement. */
static void run_offset(struct runner *rn, size_t v, unsigned round)
{
	const struct zab_experiment *e = rn->e;
	const struct zab_placement *p = zab_var_placement(e, v);

	/* warm-ups run at the first measured run's offset: they warm what comes next */
	rn->offset = zab_placement_offset(p, rn->o->seed, e->sessions, rn->session, e->repeats,
					  round < e->warmups ? 0 : round - e->warmups);
	rn->entry = p->entry;
}

/* A device variant placed per run: SET_ALIGN in its daemon.  NULL, or why not. */
static char *place_run(struct runner *rn, size_t v)
{
	struct cusezero_align a = { .offset = rn->offset,
				    .point = rn->entry ? CUSEZERO_POINT_ENTRY : CUSEZERO_POINT_LOOP };

	if (rn->offset < 0 || !rn->e->var[v].device)
		return NULL;
	if (!zab_daemons[v].has_fd)
		return cz_xasprintf("cannot place the routine at offset %d: no device open", rn->offset);
	if (ioctl(zab_daemons[v].fd, CUSEZERO_IOC_SET_ALIGN, &a))
		return cz_xasprintf("%s: SET_ALIGN %d (%s): %s", zab_daemons[v].dev.path, rn->offset,
				    rn->entry ? "entry" : "loop", strerror(errno));
	return NULL;
}

/*
 * After a successful run: the offset the daemon reports in its stats (the
 * one it ran at; a device variant) or the one drawn (a command placed by
 * its own means), on the sample each of the benchmark's rows just got.
 */
static char *record_offset(struct runner *rn, size_t b, size_t v, const size_t *before)
{
	struct cusezero_stats *st;
	int applied = rn->offset;
	size_t k;

	if (rn->e->var[v].device) {
		st = cz_xmalloc(sizeof(*st));
		if (!zab_daemons[v].has_fd || cz_devstats_get(zab_daemons[v].fd, st)) {
			free(st);
			return cz_xasprintf("cannot read back the offset from %s", zab_daemons[v].dev.path);
		}
		applied = st->align;
		if (st->align != rn->offset ||
		    st->point != (rn->entry ? CUSEZERO_POINT_ENTRY : CUSEZERO_POINT_LOOP)) {
			free(st);
			return cz_xasprintf("%s reports offset %d after a run placed at %d",
					    zab_daemons[v].dev.path, applied, rn->offset);
		}
		free(st);
	}
	for (k = 0; k < CZRES_RK_COUNT; k++) {
		struct czres_cell *c;

		if (rn->row[b][k] == SIZE_MAX)
			continue;
		c = czres_cell(rn->r, rn->row[b][k], v);
		if (c->n > before[k])
			czres_cell_set_off(c, applied);
	}
	return NULL;
}

/* One measured or warm-up run (with retries).  Returns false if the cell failed. */
static bool run_one(struct runner *rn, size_t b, size_t v, unsigned round)
{
	const struct zab_experiment *e = rn->e;
	const struct zab_variant *var = &e->var[v];
	char *env[CZRES_MAX_ITEMS + 16], *cmd, *why = NULL, what[64];
	bool warm = round < e->warmups;
	size_t nenv, i, k;
	unsigned n;

	progress(rn, e->bench[b].name, var->name);
	if (zab_daemons[v].error) {
		for (k = 0; k < CZRES_RK_COUNT; k++)
			if (rn->row[b][k] != SIZE_MAX)
				cell_fail(rn, rn->row[b][k], v, zab_daemons[v].error);
		rn->done++;
		return false;
	}
	run_offset(rn, v, round);
	snprintf(what, sizeof(what), "session %u %s %u", rn->session + 1, warm ? "warm-up" : "repeat",
		 warm ? round + 1 : round - e->warmups + 1);
	rn->what = what;
	cmd = build_cmd(rn, b, v, NULL);
	nenv = build_env(rn, b, v, env);
	for (n = 0; n <= e->retries && !zab_stop; n++) {
		size_t before[CZRES_RK_COUNT];

		free(why);
		for (k = 0; k < CZRES_RK_COUNT; k++)
			before[k] = rn->row[b][k] != SIZE_MAX ? czres_cell(rn->r, rn->row[b][k], v)->n : 0;
		why = place_run(rn, v);
		if (!why)
			why = attempt(rn, b, v, warm, cmd, env, nenv);
		if (!why && rn->offset >= 0)
			why = record_offset(rn, b, v, before);
		if (!why)
			break;
		progress_clear(rn);
		cz_err("%s / %s, %s: %s%s", e->bench[b].name, var->name, what, why,
			n < e->retries ? "; retrying" : "; the cell is marked FAILED");
	}
	rn->done++;
	rn->what = NULL;        /* what[] ends here */
	for (i = 0; i < nenv; i++)
		free(env[i]);
	free(cmd);
	if (why) {
		/* the run's in-device figures fail with it: no run, no counters */
		for (k = 0; k < CZRES_RK_COUNT; k++)
			if (rn->row[b][k] != SIZE_MAX)
				cell_fail(rn, rn->row[b][k], v, why);
		free(why);
		return false;
	}
	return true;
}

/* zab's own directory first in PATH (installed: bindir; build tree: the top builddir + pread_z100k/). */
static void runner_paths(struct runner *rn)
{
	char *dir = cz_self_dir(), *sub;
	const char *path = getenv("PATH");

	if (!path)
		path = "/usr/bin:/bin";
	if (dir) {
		sub = cz_xasprintf("%s/pread_z100k/pread_z100k", dir);
		if (access(sub, X_OK) == 0)
			rn->path_env = cz_xasprintf("PATH=%s:%s/pread_z100k:%s", dir, dir, path);
		else
			rn->path_env = cz_xasprintf("PATH=%s:%s", dir, path);
		free(sub);
	} else {
		rn->path_env = cz_xasprintf("PATH=%s", path);
	}
	free(dir);
	rn->cusezero = cz_find_cusezero(rn->o->cusezero);
	if (!rn->cusezero)
		abort();
}

static bool any_device(const struct zab_experiment *e)
{
	size_t v;

	for (v = 0; v < e->nvar; v++)
		if (e->var[v].device)
			return true;
	return false;
}

/* The CPUs co-location may use (zab's affinity mask); -EINVAL if a given CPU is not one of them. */
static int runner_colocation(struct runner *rn)
{
	const struct zab_colocate *c = &rn->e->colocate;
	uint64_t st = rn->o->seed ^ 0xc010ca7eull;
	cpu_set_t set;
	int cpu;

	rn->cpu = -1;
	rn->coloc = c->mode == ZAB_COLOC_CPU || (c->mode == ZAB_COLOC_AUTO && any_device(rn->e));
	if (!rn->coloc)
		return 0;
	if (sched_getaffinity(0, sizeof(set), &set))
		CPU_ZERO(&set);
	for (cpu = 0; cpu < CPU_SETSIZE; cpu++)
		if (CPU_ISSET(cpu, &set))
			rn->cpus[rn->ncpus++] = cpu;
	if (c->mode == ZAB_COLOC_CPU) {
		if (zab_colocate_check(c))
			return -EINVAL;
		rn->cpus[0] = (int)c->cpu;
		rn->ncpus = 1;
	}
	if (!rn->ncpus) {
		rn->coloc = false;
		return 0;
	}
	rn->cpu0 = (size_t)(zab_splitmix64(&st) % rn->ncpus);
	return 0;
}

static int session_cpu(const struct runner *rn, unsigned s)
{
	return rn->coloc ? rn->cpus[(rn->cpu0 + s) % rn->ncpus] : -1;
}

/* A variant in the printed order; placed per run: "@OFFSET" (warm-ups: the session's first). */
static void dry_variant(const struct runner *rn, size_t v, unsigned s, unsigned k)
{
	const struct zab_experiment *e = rn->e;
	int off = zab_placement_offset(zab_var_placement(e, v), rn->o->seed, e->sessions, s, e->repeats,
				       k < e->warmups ? 0 : k - e->warmups);

	if (rotating(e, v))
		printf(" %s@rotate", e->var[v].name);
	else if (off < 0)
		printf(" %s", e->var[v].name);
	else
		printf(" %s@%d", e->var[v].name, off);
}

static void dry_run(const struct runner *rn)
{
	const struct zab_experiment *e = rn->e;
	unsigned rounds = e->warmups + e->repeats, s, k;
	size_t perm[CZRES_MAX_ITEMS], b, i;

	for (s = 0; s < e->sessions; s++) {
		if (rn->coloc)
			printf("session %u: co-located on CPU %d\n", s + 1, session_cpu(rn, s));
		else
			printf("session %u:\n", s + 1);
		for (k = 0; k < rounds; k++)
			for (b = 0; b < e->nbench; b++) {
				printf("  %s %u  %-20s", k < e->warmups ? "warm-up" : "repeat ",
				       k < e->warmups ? k + 1 : k - e->warmups + 1, e->bench[b].name);
				zab_order_round(e->order, rn->o->seed, s, k * (unsigned)e->nbench + (unsigned)b,
						e->nvar, perm);
				for (i = 0; i < e->nvar; i++)
					dry_variant(rn, perm[i], s, k);
				printf("\n");
			}
	}
}

static void run_cell_or_skip(struct runner *rn, size_t b, size_t v, unsigned k)
{
	if (czres_cell(rn->r, rn->row[b][CZRES_RK_CMD], v)->failed)
		rn->done++;
	else
		run_one(rn, b, v, k);
}

/* The runs of one session, in the experiment's order. */
static void session_runs(struct runner *rn)
{
	const struct zab_experiment *e = rn->e;
	unsigned rounds = e->warmups + e->repeats, k;
	size_t perm[CZRES_MAX_ITEMS], b, v, i;

	if (e->order == ZAB_ORDER_SEQUENTIAL) {
		for (v = 0; v < e->nvar && !zab_stop; v++)
			for (b = 0; b < e->nbench && !zab_stop; b++)
				for (k = 0; k < rounds && !zab_stop; k++)
					run_cell_or_skip(rn, b, v, k);
		return;
	}
	for (k = 0; k < rounds && !zab_stop; k++)
		for (b = 0; b < e->nbench && !zab_stop; b++) {
			zab_order_round(e->order, rn->o->seed, rn->session,
					k * (unsigned)e->nbench + (unsigned)b, e->nvar, perm);
			for (i = 0; i < e->nvar && !zab_stop; i++)
				run_cell_or_skip(rn, b, perm[i], k);
		}
}

/*
 * A rotating variant's fresh daemon: its rotation, before any run (the
 * warm-ups run rotating too), the session's seed for every variant.  The
 * read-back goes to the daemon's facts; a failure fails its cells.
 */
static void rotate_daemon(struct runner *rn, size_t v, json_t *info)
{
	struct daemon *d = &zab_daemons[v];
	struct cusezero_rotate got;
	struct cusezero_stats *st;
	json_t *o, *arr;
	uint32_t i;

	if (!rotating(rn->e, v) || !d->up || d->error)
		return;
	if (!d->has_fd) {
		d->error = cz_xasprintf("%s: not open: cannot set the rotation", d->dev.path);
		return;
	}
	d->error = zab_rotate_start(d->fd, d->dev.path, zab_var_placement(rn->e, v),
				    zab_rotate_seed(rn->o->seed, rn->session), &got);
	if (d->error || !json_array_size(info))
		return;
	o = cz_jset(json_array_get(info, json_array_size(info) - 1), "rotation", cz_jobj());
	arr = cz_jset(o, "offsets", cz_jarr());
	for (i = 0; i < got.count; i++)
		cz_jpush(arr, cz_jnum(got.offsets[i]));
	cz_jset(o, "point", cz_jstr(got.point == CUSEZERO_POINT_ENTRY ? "entry" : "loop"));
	cz_jset(o, "period", cz_jnum(got.period));
	cz_jset(o, "seed", cz_jnum(got.seed));
	st = cz_xmalloc(sizeof(*st));
	/* the stats' offset while rotating: CUSEZERO_ALIGN_ROTATE */
	if (!cz_devstats_get(d->fd, st))
		cz_jset(o, "stats_align", cz_jnum(st->align));
	free(st);
}

/* One session: its CPU, fresh daemons, the runs, the daemons stopped. */
static void session(struct runner *rn, unsigned s, json_t *devinfo, json_t *sessinfo)
{
	const struct zab_experiment *e = rn->e;
	json_t *o = cz_jpush(sessinfo, cz_jobj());
	size_t v;

	rn->session = s;
	rn->cpu = session_cpu(rn, s);
	cz_jset(o, "session", cz_jnum(s + 1));
	cz_jset(o, "cpu", rn->cpu >= 0 ? cz_jnum(rn->cpu) : json_null());
	if (rn->cpu >= 0) {
		progress_clear(rn);
		cz_err("session %u/%u: daemons and benchmarks co-located on CPU %d",
			s + 1, e->sessions, rn->cpu);
	}
	for (v = 0; v < e->nvar && !zab_stop; v++)
		if (e->var[v].device) {
			zab_daemon_start(&zab_daemons[v], &e->var[v], v, s, rn->cusezero, rn->cpu,
				     json_array_get(devinfo, v));
			rotate_daemon(rn, v, json_array_get(devinfo, v));
		}
	for (v = 0; v < e->nvar; v++)
		if (zab_daemons[v].error) {
			progress_clear(rn);
			cz_err("variant '%s', session %u: %s", e->var[v].name, s + 1,
				zab_daemons[v].error);
		}
	session_runs(rn);
	zab_daemons_stop_all();
}

static void runner_rows(struct runner *rn)
{
	size_t i;

	memset(rn->row, 0xff, sizeof(rn->row));
	for (i = 0; i < rn->r->nb; i++)
		rn->row[rn->r->b[i].src][rn->r->b[i].kind] = i;
	for (i = 0; i < rn->e->nbench; i++) {
		rn->measure[i] = rn->e->bench[i].measure;
		rn->r->b[rn->row[i][CZRES_RK_CMD]].timed = rn->measure[i] == ZAB_MEASURE_TIME;
	}
}

static void runner_free(struct runner *rn)
{
	free(rn->cusezero);
	free(rn->path_env);
	zab_rotrun_free(rn->rot);
	rn->rot = NULL;
}

int zab_run(const struct zab_experiment *e, const struct zab_run_opts *o,
	    struct czres_result *r, json_t *devinfo, json_t *sessinfo)
{
	static struct runner rn;
	unsigned s;
	size_t v;
	int ret;

	memset(&rn, 0, sizeof(rn));
	rn = (struct runner){ .e = e, .o = o, .r = r };
	runner_rows(&rn);
	runner_paths(&rn);
	rn.total = (size_t)e->sessions * (e->warmups + e->repeats) * e->nbench * e->nvar;
	for (v = 0; v < e->nvar; v++)
		if (rotating(e, v) && !rn.rot)
			rn.rot = zab_rotrun_new();
	ret = runner_colocation(&rn);
	if (ret || o->dry_run) {
		if (!ret)
			dry_run(&rn);
		runner_free(&rn);
		return ret;
	}
	for (v = 0; v < e->nvar; v++)
		cz_jpush(devinfo, cz_jarr());
	if (any_device(e)) {
		const char *td = getenv("TMPDIR");

		/* the daemons' mount points and pidfiles */
		zab_tmpdir = cz_xasprintf("%s/zab.XXXXXX", td && *td ? td : "/tmp");
		if (!mkdtemp(zab_tmpdir)) {
			cz_err("mkdtemp %s: %s", zab_tmpdir, strerror(errno));
			free(zab_tmpdir);
			zab_tmpdir = NULL;
			runner_free(&rn);
			return -errno;
		}
	}
	zab_signals_install();
	rn.t0 = cz_now_ns();
	for (s = 0; s < e->sessions && !zab_stop; s++)
		session(&rn, s, devinfo, sessinfo);
	progress_clear(&rn);
	zab_daemons_stop_all();
	zab_tmpdir_remove();
	runner_free(&rn);
	if (zab_stop) {
		cz_err("interrupted by signal %d; devices stopped", (int)zab_stop);
		return -EINTR;
	}
	return rn.any_failed ? 1 : 0;
}
