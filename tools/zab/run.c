/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Running an experiment: sessions, the order of variants, the benchmark
 * processes, and one cusezero daemon per device variant per session.
 *
 * A session starts fresh: every device variant gets a new daemon, every run
 * a new process.  Within a session, each round runs every variant once per
 * benchmark, in an order that is random (seeded, replayable), interleaved
 * (ABAB) or sequential (AAA BBB); the first W rounds are warm-ups.
 */
#include <ctype.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <math.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mount.h>
#include <sys/stat.h>
#include <sys/types.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "zab.h"
#include "util.h"

static volatile sig_atomic_t zab_stop, zab_timed_out;
static volatile pid_t zab_child;

static void on_signal(int sig)
{
	zab_stop = sig;
	if (zab_child > 0)
		kill(-zab_child, SIGTERM);
}

static void on_alarm(int sig)
{
	(void)sig;
	zab_timed_out = 1;
	if (zab_child > 0)
		kill(-zab_child, SIGKILL);
}

/* ---- order ----------------------------------------------------------------------- */

static uint64_t splitmix64(uint64_t *s)
{
	uint64_t z = (*s += 0x9e3779b97f4a7c15ull);

	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
	z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
	return z ^ (z >> 31);
}

void zab_order_round(enum zab_order o, uint64_t seed, unsigned session, unsigned round,
		     size_t nvar, size_t *perm)
{
	uint64_t st = seed ^ ((uint64_t)session << 32) ^ round;
	size_t i, j, t;

	for (i = 0; i < nvar; i++)
		perm[i] = i;
	if (o != ZAB_ORDER_RANDOM)
		return;
	splitmix64(&st);
	for (i = nvar; i > 1; i--) {
		j = (size_t)(splitmix64(&st) % i);
		t = perm[i - 1];
		perm[i - 1] = perm[j];
		perm[j] = t;
	}
}

/* ---- processes ---------------------------------------------------------------------- */

struct proc_out {
	int status;          /* waitpid status, or -errno if it could not start */
	char *out, *err;
};

static char *read_all(int fd, size_t max)
{
	size_t n = 0, cap = 256;
	char *s = zab_xmalloc(cap);
	ssize_t r;

	lseek(fd, 0, SEEK_SET);
	while (n < max && (r = read(fd, s + n, cap - n - 1)) > 0) {
		n += (size_t)r;
		if (n + 1 == cap)
			s = zab_xrealloc(s, cap *= 2);
	}
	s[n] = 0;
	close(fd);
	return s;
}

static int tmp_fd(void)
{
	char path[] = "/tmp/zab-out.XXXXXX";
	int fd = mkstemp(path);

	if (fd >= 0)
		unlink(path);
	return fd;
}

static bool needs_shell(const char *cmd)
{
	return strpbrk(cmd, "|&;<>()$`\\\"'*?[]#~=%{}\n") != NULL;
}

/*
 * Run argv (or "sh -c cmd" when it needs a shell) with env (NAME=VALUE
 * strings) added, stdout and stderr into files (so a daemonising child
 * cannot hold a pipe open).
 */
static void run_proc(const char *cmd, char *const *argv_in, char **env, size_t nenv,
		     unsigned timeout, struct proc_out *po)
{
	int ofd = tmp_fd(), efd = tmp_fd();
	pid_t pid;
	size_t i;

	memset(po, 0, sizeof(*po));
	if (ofd < 0 || efd < 0) {
		po->status = -errno;
		goto out;
	}
	pid = fork();
	if (pid < 0) {
		po->status = -errno;
		goto out;
	}
	if (!pid) {
		char *argv[256], *copy;
		int n = 0;

		setpgid(0, 0);
		signal(SIGINT, SIG_DFL);
		signal(SIGTERM, SIG_DFL);
		dup2(ofd, 1);
		dup2(efd, 2);
		close(ofd);
		close(efd);
		i = (size_t)open("/dev/null", O_RDONLY);
		if ((int)i >= 0) {
			dup2((int)i, 0);
			close((int)i);
		}
		for (i = 0; i < nenv; i++)
			putenv(env[i]);
		if (argv_in) {
			execvp(argv_in[0], argv_in);
			fprintf(stderr, "cannot run %s: %s\n", argv_in[0], strerror(errno));
			_exit(127);
		}
		if (needs_shell(cmd)) {
			execl("/bin/sh", "sh", "-c", cmd, (char *)NULL);
			fprintf(stderr, "cannot run /bin/sh: %s\n", strerror(errno));
			_exit(127);
		}
		copy = strdup(cmd);
		for (char *t = strtok(copy, " \t"); t && n < 255; t = strtok(NULL, " \t"))
			argv[n++] = t;
		argv[n] = NULL;
		if (!n)
			_exit(127);
		execvp(argv[0], argv);
		fprintf(stderr, "cannot run %s: %s\n", argv[0], strerror(errno));
		_exit(127);
	}
	zab_child = pid;
	zab_timed_out = 0;
	if (timeout)
		alarm(timeout);
	while (waitpid(pid, &po->status, 0) < 0) {
		if (errno != EINTR) {
			po->status = -errno;
			break;
		}
	}
	alarm(0);
	zab_child = 0;
out:
	po->out = ofd >= 0 ? read_all(ofd, 1 << 20) : zab_xstrdup("");
	po->err = efd >= 0 ? read_all(efd, 1 << 20) : zab_xstrdup("");
}

static void proc_free(struct proc_out *po)
{
	free(po->out);
	free(po->err);
}

/* One line: newlines -> " | ", at most max bytes. */
static char *one_line(const char *s, size_t max)
{
	size_t n = 0;
	char *o = zab_xmalloc(max + 8);

	while (isspace((unsigned char)*s))
		s++;
	for (; *s && n < max; s++) {
		if (*s == '\n') {
			if (s[1])
				n += (size_t)sprintf(o + n, " | ");
		} else {
			o[n++] = isprint((unsigned char)*s) || (unsigned char)*s >= 0x80 ? *s : '?';
		}
	}
	if (*s)
		n += (size_t)sprintf(o + n, "...");
	o[n] = 0;
	return o;
}

static char *status_text(int st)
{
	if (st < 0)
		return zab_xasprintf("could not start (%s)", strerror(-st));
	if (WIFEXITED(st))
		return zab_xasprintf("exited with status %d", WEXITSTATUS(st));
	if (WIFSIGNALED(st))
		return zab_xasprintf("was killed by signal %d (%s)", WTERMSIG(st), strsignal(WTERMSIG(st)));
	return zab_xasprintf("ended with wait status %#x", st);
}

static const char *skip_blank_and_comments(const char *s)
{
	for (;;) {
		while (isspace((unsigned char)*s))
			s++;
		if (*s != '#')
			return s;
		s += strcspn(s, "\n");   /* "# ..." lines (perf style headers) are ignored */
	}
}

/* The one number a benchmark prints (besides "#" lines); false if there is anything else. */
static bool parse_number(const char *s, double *x)
{
	char *end;

	s = skip_blank_and_comments(s);
	if (!*s)
		return false;
	errno = 0;
	*x = strtod(s, &end);
	if (end == s || errno || !isfinite(*x))
		return false;
	return !*skip_blank_and_comments(end);
}

/* ---- device daemons ------------------------------------------------------------------- */

struct daemon {
	bool up;
	pid_t pid;
	char *mnt;           /* FUSE mount point, or NULL (CUSE) */
	char *path;          /* the device path for {dev} */
	char *error;         /* start failed: why */
};

static char *tmpdir;
static struct daemon daemons[ZAB_MAX_ITEMS];

static bool is_mounted(const char *mnt)
{
	char *line = NULL;
	size_t cap = 0;
	bool found = false;
	FILE *f = fopen("/proc/self/mounts", "r");

	if (!f)
		return false;
	while (!found && getline(&line, &cap, f) > 0) {
		char *p = strchr(line, ' '), *q;

		if (!p)
			continue;
		q = strchr(++p, ' ');
		if (q && (size_t)(q - p) == strlen(mnt) && !strncmp(p, mnt, (size_t)(q - p)))
			found = true;
	}
	free(line);
	fclose(f);
	return found;
}

static void daemon_stop(struct daemon *d)
{
	int i;

	if (d->pid > 0 && kill(d->pid, SIGTERM) == 0) {
		for (i = 0; i < 500; i++) {
			waitpid(d->pid, NULL, WNOHANG);
			if (kill(d->pid, 0) && errno == ESRCH)
				break;
			usleep(10000);
		}
		if (i == 500) {
			fprintf(stderr, "zab: cusezero pid %d did not stop on SIGTERM in 5 s; killing it\n",
				(int)d->pid);
			kill(d->pid, SIGKILL);
			waitpid(d->pid, NULL, 0);
		}
	}
	if (d->mnt) {
		if (is_mounted(d->mnt) && umount2(d->mnt, MNT_DETACH))
			fprintf(stderr, "zab: umount %s: %s\n", d->mnt, strerror(errno));
		rmdir(d->mnt);
	}
	free(d->mnt);
	free(d->path);
	free(d->error);
	memset(d, 0, sizeof(*d));
}

static void daemons_stop_all(void)
{
	size_t i;

	for (i = 0; i < ZAB_MAX_ITEMS; i++)
		if (daemons[i].up || daemons[i].mnt || daemons[i].error)
			daemon_stop(&daemons[i]);
}

static void cleanup_tmpdir(void)
{
	if (tmpdir) {
		rmdir(tmpdir);
		free(tmpdir);
		tmpdir = NULL;
	}
}

static char *read_file(const char *path)
{
	int fd = open(path, O_RDONLY);

	return fd < 0 ? NULL : read_all(fd, 1 << 20);
}

/*
 * Where the daemon's placed routine lives: its anonymous executable mappings
 * (zero_place() maps the copy read+exec, without a file).
 */
static void exec_mappings(pid_t pid, struct zj *o)
{
	char *maps, *path = zab_xasprintf("/proc/%d/maps", (int)pid), *line, *save = NULL;
	struct zj *arr;

	maps = read_file(path);
	free(path);
	if (!maps)
		return;
	arr = zj_set(o, "exec_anon_mappings", zj_new(ZJ_ARR));
	for (line = strtok_r(maps, "\n", &save); line; line = strtok_r(NULL, "\n", &save)) {
		char range[64], perms[8], file[256] = "";
		unsigned long long off;
		unsigned maj, min;
		unsigned long ino;

		if (sscanf(line, "%63s %7s %llx %x:%x %lu %255s", range, perms, &off, &maj, &min, &ino,
			   file) < 6)
			continue;
		if (perms[2] == 'x' && !file[0])
			zj_push(arr, zj_str(range));
	}
	free(maps);
}

static void daemon_start(struct daemon *d, const struct zab_variant *v, size_t vi, unsigned session,
			 const char *cusezero, struct zj *info)
{
	char *argv[64], *pidfile, *name = NULL, *cmdline, *extra = NULL, *pidtxt, *stats, *t;
	struct proc_out po;
	size_t n = 0, i;
	bool cuse = v->frontend && !strcmp(v->frontend, "cuse");
	struct zj *o;

	memset(d, 0, sizeof(*d));
	pidfile = zab_xasprintf("%s/v%zu.pid", tmpdir, vi);
	argv[n++] = (char *)cusezero;
	if (cuse) {
		name = zab_xasprintf("zab%dv%zu", (int)getpid(), vi);
		argv[n++] = (char *)"--name";
		argv[n++] = name;
	} else {
		d->mnt = zab_xasprintf("%s/v%zu", tmpdir, vi);
		if (mkdir(d->mnt, 0755) && errno != EEXIST) {
			d->error = zab_xasprintf("mkdir %s: %s", d->mnt, strerror(errno));
			goto out;
		}
		argv[n++] = (char *)"--fuse";
		argv[n++] = d->mnt;
	}
#define OPT(flag, val) do { if (val) { argv[n++] = (char *)(flag); argv[n++] = (val); } } while (0)
	OPT("--routine", v->routine);
	OPT("--align", v->align);
	OPT("--align-point", v->align_point);
	OPT("--chunk", v->chunk);
	OPT("--threads", v->threads);
#undef OPT
	argv[n++] = (char *)"--pidfile";
	argv[n++] = pidfile;
	if (v->dev_args) {
		extra = zab_xstrdup(v->dev_args);
		for (t = strtok(extra, " \t"); t && n < 62; t = strtok(NULL, " \t"))
			argv[n++] = t;
	}
	argv[n] = NULL;
	cmdline = zab_xstrdup(argv[0]);
	for (i = 1; i < n; i++) {
		char *c = zab_xasprintf("%s %s", cmdline, argv[i]);

		free(cmdline);
		cmdline = c;
	}
	unlink(pidfile);
	run_proc(NULL, argv, NULL, 0, 60, &po);
	if (po.status || !(pidtxt = read_file(pidfile))) {
		char *st = po.status ? status_text(po.status) : zab_xstrdup("wrote no pidfile");
		char *msg = one_line(*po.err ? po.err : po.out, 300);

		d->error = zab_xasprintf("device daemon `%s` %s: %s", cmdline, st, *msg ? msg : "(no output)");
		free(st);
		free(msg);
		proc_free(&po);
		free(cmdline);
		goto out;
	}
	proc_free(&po);
	d->pid = (pid_t)atoi(pidtxt);
	free(pidtxt);
	unlink(pidfile);
	d->up = true;
	if (cuse) {
		char *dev = zab_xasprintf("/dev/%s", name);

		if (access(dev, F_OK) == 0) {
			d->path = dev;
		} else {
			/* no CUSE here: cusezero fell back to FUSE at /run/cusezero/NAME */
			free(dev);
			d->mnt = zab_xasprintf("/run/cusezero/%s", name);
			d->path = zab_xasprintf("%s/zero", d->mnt);
		}
	} else {
		d->path = zab_xasprintf("%s/zero", d->mnt);
	}
	o = zj_push(info, zj_new(ZJ_OBJ));
	zj_set(o, "session", zj_num(session + 1));
	zj_set(o, "command", zj_str(cmdline));
	zj_set(o, "path", zj_str(d->path));
	zj_set(o, "pid", zj_num(d->pid));
	exec_mappings(d->pid, o);
	if (d->mnt) {
		char *sp = zab_xasprintf("%s/stats.json", d->mnt);
		const char *err;
		int line;

		stats = read_file(sp);
		free(sp);
		if (stats) {
			struct zj *sj = zj_parse(stats, &err, &line);

			if (sj)
				zj_set(o, "stats", sj);
			free(stats);
		}
	}
	free(cmdline);
out:
	free(extra);
	free(name);
	free(pidfile);
}

/* ---- the run loop ---------------------------------------------------------------------- */

struct runner {
	const struct zab_experiment *e;
	const struct zab_run_opts *o;
	struct zab_result *r;
	char *path_env;
	size_t total, done;
	uint64_t t0;
	unsigned session;
	bool any_failed;
};

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

static char *build_cmd(struct runner *rn, size_t b, size_t v)
{
	const struct zab_experiment *e = rn->e;
	const struct zab_variant *var = &e->var[v];
	struct zab_kv kv[3 * ZAB_MAX_ITEMS + 8];
	char sess[16], *bad = NULL, *bcmd, *cmd;
	size_t n = 0, i;

	snprintf(sess, sizeof(sess), "%u", rn->session + 1);
	kv[n++] = (struct zab_kv){ (char *)"dev", daemons[v].path ? daemons[v].path : (char *)"/dev/zero" };
	kv[n++] = (struct zab_kv){ (char *)"routine", var->routine ? var->routine : (char *)"default" };
	kv[n++] = (struct zab_kv){ (char *)"align", var->align ? var->align : (char *)"0" };
	kv[n++] = (struct zab_kv){ (char *)"chunk", var->chunk ? var->chunk : (char *)"4KB" };
	kv[n++] = (struct zab_kv){ (char *)"variant", var->name };
	kv[n++] = (struct zab_kv){ (char *)"session", sess };
	for (i = 0; i < e->nvars; i++)
		kv[n++] = e->vars[i];
	for (i = 0; i < var->nvars; i++)
		kv[n++] = var->vars[i];
	bcmd = zab_expand(e->bench[b].cmd, kv, n, &bad);
	if (!bcmd || !var->cmd) {
		free(bad);
		return bcmd;
	}
	kv[n++] = (struct zab_kv){ (char *)"cmd", bcmd };
	cmd = zab_expand(var->cmd, kv, n, &bad);
	free(bad);
	free(bcmd);
	return cmd;
}

/* One measured or warm-up run (with retries).  Returns false if the cell failed. */
static bool run_one(struct runner *rn, size_t b, size_t v, unsigned round)
{
	const struct zab_experiment *e = rn->e;
	const struct zab_variant *var = &e->var[v];
	struct zab_cell *c = zab_cell(rn->r, b, v);
	char *env[ZAB_MAX_ITEMS + 16], *cmd, *why = NULL;
	bool warm = round < e->warmups;
	size_t nenv = 0, i;
	unsigned attempt;
	double x;

	progress(rn, e->bench[b].name, var->name);
	if (daemons[v].error) {
		c->failed = true;
		c->error = zab_xasprintf("session %u: %s", rn->session + 1, daemons[v].error);
		rn->any_failed = true;
		rn->done++;
		return false;
	}
	cmd = build_cmd(rn, b, v);
	for (i = 0; i < var->nenv; i++)
		env[nenv++] = zab_xasprintf("%s=%s", var->env[i].key, var->env[i].val);
	if (daemons[v].path && var->device)
		env[nenv++] = zab_xasprintf("CUSEZERO_DEVICE=%s", daemons[v].path);
	env[nenv++] = zab_xasprintf("ZAB_BENCH=%s", e->bench[b].name);
	env[nenv++] = zab_xasprintf("ZAB_VARIANT=%s", var->name);
	env[nenv++] = zab_xasprintf("ZAB_SESSION=%u", rn->session + 1);
	env[nenv++] = zab_xasprintf("ZAB_RUN=%zu", rn->done + 1);
	env[nenv++] = zab_xasprintf("ZAB_SEED=%llu", (unsigned long long)rn->o->seed);
	env[nenv++] = zab_xstrdup(rn->path_env);

	for (attempt = 0; attempt <= e->retries && !zab_stop; attempt++) {
		struct proc_out po;
		char *st, *out;

		run_proc(cmd, NULL, env, nenv, e->timeout, &po);
		if (zab_stop) {
			proc_free(&po);
			break;
		}
		if (po.status == 0 && parse_number(po.out, &x)) {
			proc_free(&po);
			free(why);
			why = NULL;
			if (!warm)
				zab_cell_add_session(c, x, rn->session + 1);
			break;
		}
		free(why);
		if (po.status == 0 && !*skip_blank_and_comments(po.out)) {
			out = one_line(po.err, 200);
			why = zab_xasprintf("`%s` printed no number on stdout (stderr: '%s')", cmd, out);
		} else if (po.status == 0) {
			out = one_line(po.out, 200);
			why = zab_xasprintf("`%s` printed '%s' (expected one number)", cmd, out);
		} else {
			st = zab_timed_out ? zab_xasprintf("timed out after %u s (killed)", e->timeout) :
			     status_text(po.status);
			out = one_line(*po.err ? po.err : po.out, 300);
			why = zab_xasprintf("`%s` %s: %s", cmd, st, *out ? out : "(no output)");
			free(st);
		}
		free(out);
		proc_free(&po);
		progress_clear(rn);
		fprintf(stderr, "zab: %s / %s, session %u %s %u: %s%s\n", e->bench[b].name, var->name,
			rn->session + 1, warm ? "warm-up" : "repeat",
			warm ? round + 1 : round - e->warmups + 1, why,
			attempt < e->retries ? "; retrying" : "; the cell is marked FAILED");
	}
	rn->done++;
	for (i = 0; i < nenv; i++)
		free(env[i]);
	free(cmd);
	if (why) {
		c->failed = true;
		c->error = zab_xasprintf("session %u: %s", rn->session + 1, why);
		free(why);
		rn->any_failed = true;
		return false;
	}
	return true;
}

static char *self_dir(void)
{
	char buf[PATH_MAX];
	ssize_t n = readlink("/proc/self/exe", buf, sizeof(buf) - 1);
	char *slash;

	if (n <= 0)
		return NULL;
	buf[n] = 0;
	slash = strrchr(buf, '/');
	if (slash)
		*slash = 0;
	return zab_xstrdup(buf);
}

int zab_run(const struct zab_experiment *e, const struct zab_run_opts *o,
	    struct zab_result *r, struct zj *devinfo)
{
	struct runner rn = { .e = e, .o = o, .r = r };
	unsigned rounds = e->warmups + e->repeats, s, k;
	size_t perm[ZAB_MAX_ITEMS], b, v, i;
	bool any_device = false;
	struct sigaction sa;
	char *dir = self_dir();
	const char *path = getenv("PATH");
	char *cusezero;

	/*
	 * zab's own directory first (installed: bindir; build tree: the top
	 * builddir), and in a build tree the folder holding pread_z100k.
	 */
	if (dir) {
		char *sub = zab_xasprintf("%s/pread_z100k/pread_z100k", dir);

		if (access(sub, X_OK) == 0)
			rn.path_env = zab_xasprintf("PATH=%s:%s/pread_z100k:%s", dir, dir,
						    path ? path : "/usr/bin:/bin");
		else
			rn.path_env = zab_xasprintf("PATH=%s:%s", dir, path ? path : "/usr/bin:/bin");
		free(sub);
	} else {
		rn.path_env = zab_xasprintf("PATH=%s", path ? path : "/usr/bin:/bin");
	}
	if (o->cusezero)
		cusezero = zab_xstrdup(o->cusezero);
	else if (dir && (cusezero = zab_xasprintf("%s/cusezero", dir)) && access(cusezero, X_OK)) {
		free(cusezero);
		cusezero = zab_xstrdup("cusezero");
	} else if (!dir) {
		cusezero = zab_xstrdup("cusezero");
	}
	free(dir);
	rn.total = (size_t)e->sessions * rounds * e->nbench * e->nvar;

	if (o->dry_run) {
		for (s = 0; s < e->sessions; s++) {
			printf("session %u:\n", s + 1);
			for (k = 0; k < rounds; k++)
				for (b = 0; b < e->nbench; b++) {
					printf("  %s %u  %-20s", k < e->warmups ? "warm-up" : "repeat ",
					       k < e->warmups ? k + 1 : k - e->warmups + 1, e->bench[b].name);
					zab_order_round(e->order, o->seed, s, k * (unsigned)e->nbench + (unsigned)b,
							e->nvar, perm);
					for (i = 0; i < e->nvar; i++)
						printf(" %s", e->var[perm[i]].name);
					printf("\n");
				}
		}
		free(cusezero);
		free(rn.path_env);
		return 0;
	}

	for (v = 0; v < e->nvar; v++) {
		any_device = any_device || e->var[v].device;
		zj_push(devinfo, zj_new(ZJ_ARR));
	}
	if (any_device) {
		char t[] = "/tmp/zab.XXXXXX";

		if (!mkdtemp(t)) {
			fprintf(stderr, "zab: mkdtemp %s: %s\n", t, strerror(errno));
			free(cusezero);
			free(rn.path_env);
			return -errno;
		}
		tmpdir = zab_xstrdup(t);
	}
	memset(&sa, 0, sizeof(sa));
	sa.sa_handler = on_signal;
	sigaction(SIGINT, &sa, NULL);
	sigaction(SIGTERM, &sa, NULL);
	sigaction(SIGHUP, &sa, NULL);
	sa.sa_handler = on_alarm;
	sigaction(SIGALRM, &sa, NULL);

	rn.t0 = cz_now_ns();
	for (s = 0; s < e->sessions && !zab_stop; s++) {
		rn.session = s;
		for (v = 0; v < e->nvar && !zab_stop; v++)
			if (e->var[v].device)
				daemon_start(&daemons[v], &e->var[v], v, s, cusezero, devinfo->items[v]);
		for (v = 0; v < e->nvar; v++)
			if (daemons[v].error) {
				progress_clear(&rn);
				fprintf(stderr, "zab: variant '%s', session %u: %s\n", e->var[v].name, s + 1,
					daemons[v].error);
			}
		if (e->order == ZAB_ORDER_SEQUENTIAL) {
			for (v = 0; v < e->nvar && !zab_stop; v++)
				for (b = 0; b < e->nbench && !zab_stop; b++)
					for (k = 0; k < rounds && !zab_stop; k++)
						if (zab_cell(r, b, v)->failed)
							rn.done++;
						else
							run_one(&rn, b, v, k);
		} else {
			for (k = 0; k < rounds && !zab_stop; k++)
				for (b = 0; b < e->nbench && !zab_stop; b++) {
					zab_order_round(e->order, o->seed, s,
							k * (unsigned)e->nbench + (unsigned)b, e->nvar, perm);
					for (i = 0; i < e->nvar && !zab_stop; i++)
						if (zab_cell(r, b, perm[i])->failed)
							rn.done++;
						else
							run_one(&rn, b, perm[i], k);
				}
		}
		daemons_stop_all();
	}
	progress_clear(&rn);
	daemons_stop_all();
	cleanup_tmpdir();
	free(cusezero);
	free(rn.path_env);
	if (zab_stop) {
		fprintf(stderr, "zab: interrupted by signal %d; devices stopped\n", (int)zab_stop);
		signal((int)zab_stop, SIG_DFL);
		raise((int)zab_stop);
		return -EINTR;
	}
	return rn.any_failed ? 1 : 0;
}
