/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * zab judge: one revision's good/bad for `git bisect run`.  Run in the
 * work tree git bisect checked out, it measures the routine of the work
 * tree's file (--source PATH:SYMBOL, PATH from the top of the tree) against
 * the same routine of that file at a fixed good revision (--good REV, read
 * with git cat-file: no textconv, no hooks, no transport), in process: an
 * experiment of two variants whose benchmark is `zbench memset --source`,
 * written into a private temporary folder and run by zab's own runner
 * (`zab run`, nothing stored).  No device, no root.
 *
 * Exit as git bisect run reads it: 0 good (as the good revision within the
 * band, or faster), 1 bad (a regression beyond the band, marked (R)), 125
 * skip (the routine does not build or run at this revision, or the
 * sessions could not decide).  A usage or set-up error (a bad option, a
 * --good that is no commit, a good side that does not run) is one line
 * and exit 255, which makes git bisect run stop: no revision could be
 * judged by a broken command.  SIGINT, SIGTERM or SIGHUP goes on to the
 * run, the private folder is removed, and judge exits 128 + the signal
 * (git bisect run stops too).
 */
#include <errno.h>
#include <getopt.h>
#include <math.h>
#include <signal.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "cli.h"
#include "cmd.h"
#include "model/sequence.h"
#include "views/views.h"

#define JD_GOOD 0
#define JD_BAD 1
#define JD_SKIP 125
#define JD_ABORT 255
#define JD_AGAIN (-1)   /* undecided: run again with twice the sessions */
#define JD_TRIES 3

/* As seqgit.c runs git: no transport, no fsmonitor (a repository's config runs nothing). */
#define JD_GIT "git", "-c", "protocol.allow=never", "-c", "core.fsmonitor=false"

static volatile sig_atomic_t jd_signal;
static volatile pid_t jd_child;     /* zab run while it runs */

static void jd_on_signal(int sig)
{
	jd_signal = sig;
	if (jd_child > 0)
		kill(jd_child, sig);
}

/* Caught (passed on to the run), but for one ignored when judge started (nohup). */
static void jd_signals(void)
{
	static const int sigs[] = { SIGTERM, SIGINT, SIGHUP };
	struct sigaction sa, was;
	size_t i;

	memset(&sa, 0, sizeof(sa));
	sa.sa_handler = jd_on_signal;
	sigemptyset(&sa.sa_mask);
	for (i = 0; i < 3; i++)
		if (!sigaction(sigs[i], NULL, &was) && was.sa_handler != SIG_IGN)
			sigaction(sigs[i], &sa, NULL);
}

struct jd {
	const char *source, *good, *size, *seed;
	unsigned sessions, repeats, loops;
	double band;
	char *top, *rel, *sym, *base;   /* the tree's top; PATH in it; SYMBOL; PATH's file name */
	char *good_hash, *head, *tmp;
};

static int jd_uint(const char *opt, const char *v, unsigned max, unsigned *out)
{
	char *end;
	unsigned long u;

	errno = 0;
	u = strtoul(v, &end, 10);
	if (errno || end == v || *end || v[0] == '-' || u < 1 || u > max) {
		cz_err("judge: %s '%s': expected a whole number from 1 to %u", opt, v, max);
		return -1;
	}
	*out = (unsigned)u;
	return 0;
}

static void jd_usage(void)
{
	printf("Usage: zab judge --source PATH:SYMBOL --good REV [--band PCT] [--sessions N]\n"
	       "                 [--repeats N] [--size SIZE] [--loops N] [--seed N]\n"
	       "In a kernel tree's work tree (as git bisect checked it out): the routine SYMBOL of\n"
	       "the work tree's PATH vs the same at REV, in process (zbench memset --source), as\n"
	       "the command of git bisect run.  Exit: 0 good (within +-PCT, default 2, or faster),\n"
	       "1 bad (a regression beyond the band, (R)), 125 skip (does not build or run here, or\n"
	       "undecided), 255 a usage or set-up error (git bisect run stops).\n");
	zab_help_end(stdout, "judge");
}

/* 0, 1 (--help shown) or -1 after one line. */
static int jd_parse(int argc, char **argv, struct jd *j)
{
	static const struct option opts[] = {
		{ "source", required_argument, NULL, 'S' }, { "good", required_argument, NULL, 'g' },
		{ "band", required_argument, NULL, 'b' }, { "sessions", required_argument, NULL, 's' },
		{ "repeats", required_argument, NULL, 'r' }, { "size", required_argument, NULL, 'z' },
		{ "loops", required_argument, NULL, 'l' }, { "seed", required_argument, NULL, 'd' },
		{ "help", no_argument, NULL, 'h' }, { NULL, 0, NULL, 0 },
	};
	char bad[8], *end;
	int c;

	opterr = 0;
	while ((c = getopt_long(argc, argv, ":h", opts, NULL)) != -1) {
		switch (c) {
		case 'S': j->source = optarg; break;
		case 'g': j->good = optarg; break;
		case 'z': j->size = optarg; break;
		case 'd': j->seed = optarg; break;
		case 's': if (jd_uint("--sessions", optarg, 100, &j->sessions)) return -1; break;
		case 'r': if (jd_uint("--repeats", optarg, 1000, &j->repeats)) return -1; break;
		case 'l': if (jd_uint("--loops", optarg, 100000000, &j->loops)) return -1; break;
		case 'b':
			errno = 0;
			j->band = strtod(optarg, &end);
			if (errno || end == optarg || *end || !(j->band >= 0 && j->band < 100)) {
				cz_err("judge: --band %s: not a per cent from 0 to 100", optarg);
				return -1;
			}
			break;
		case 'h': jd_usage(); return 1;
		default: zab_bad_option(c, argv, bad, sizeof(bad)); return -1;
		}
	}
	if (optind < argc)
		cz_err("judge: '%s': no operands (see zab judge --help)", argv[optind]);
	else if (!j->source || !j->good)
		cz_err("judge: give --source PATH:SYMBOL and --good REV (see zab judge --help)");
	else if (j->seed && strspn(j->seed, "0123456789") != strlen(j->seed))
		cz_err("judge: --seed '%s': expected a non-negative integer", j->seed);
	else if (strspn(j->size, "0123456789KMGBkmgb") != strlen(j->size) || !j->size[0])
		cz_err("judge: --size '%s': expected a size such as 100KB", j->size);
	else
		return 0;
	return -1;
}

/* git ARGS... in the current folder: its output (trailing newline cut), or NULL with err. */
static char *jd_git(const char *const *argv, size_t *len, char *err, size_t errlen)
{
	char *out = NULL;
	size_t n;
	int ret = zab_run_capture(argv, &out, len ? len : &n, err, errlen);

	if (ret) {
		if (ret < 0)
			snprintf(err, errlen, "git: %s", strerror(-ret));
		free(out);
		return NULL;
	}
	if (!len)
		out[strcspn(out, "\n")] = 0;
	return out;
}

/* PATH:SYMBOL into rel, sym, base: 0, or -1 after one line. */
static int jd_split(struct jd *j)
{
	const char *colon = strrchr(j->source, ':'), *p;

	if (!colon || colon == j->source || !colon[1] || j->source[0] == '/' ||
	    strspn(colon + 1, "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789_.") !=
	    strlen(colon + 1)) {
		cz_err("judge: --source '%s': expected PATH:SYMBOL, PATH from the top of the tree", j->source);
		return -1;
	}
	j->rel = cz_xasprintf("%.*s", (int)(colon - j->source), j->source);
	while (!strncmp(j->rel, "./", 2))
		memmove(j->rel, j->rel + 2, strlen(j->rel) - 1);
	for (p = j->rel; p; p = strchr(p, '/'), p = p ? p + 1 : NULL)
		if (!strncmp(p, "../", 3) || !strcmp(p, "..")) {
			cz_err("judge: --source '%s': a path inside the tree, not through '..'", j->source);
			return -1;
		}
	j->sym = cz_xstrdup(colon + 1);
	p = strrchr(j->rel, '/');
	j->base = cz_xstrdup(p ? p + 1 : j->rel);
	return 0;
}

/* The tree's top, the good revision's commit, HEAD's short name: 0, or -1 after one line. */
static int jd_tree(struct jd *j)
{
	const char *top[] = { JD_GIT, "rev-parse", "--show-toplevel", NULL };
	char *spec = cz_xasprintf("%s^{commit}", j->good), err[512];
	const char *good[] = { JD_GIT, "rev-parse", "--verify", "--end-of-options", spec, NULL };
	const char *head[] = { JD_GIT, "rev-parse", "--short", "--verify", "--end-of-options",
			       "HEAD^{commit}", NULL };

	j->top = jd_git(top, NULL, err, sizeof(err));
	if (!j->top || !j->top[0]) {
		cz_err("judge: not in a git work tree (%s)", err[0] ? err : "git rev-parse --show-toplevel");
		free(spec);
		return -1;
	}
	j->good_hash = jd_git(good, NULL, err, sizeof(err));
	free(spec);
	if (!j->good_hash) {
		cz_err("judge: --good %s: not a commit of %s", j->good, j->top);
		return -1;
	}
	j->head = jd_git(head, NULL, err, sizeof(err));
	if (!j->head)
		j->head = cz_xstrdup("the work tree");
	return 0;
}

static int jd_write(const char *path, const char *data, size_t len)
{
	FILE *f = fopen(path, "wx");
	int ret = 0;

	if (!f || (len && fwrite(data, 1, len, f) != len))
		ret = -1;
	if (f && fclose(f))
		ret = -1;
	if (ret)
		cz_err("judge: cannot write %s: %s", path, strerror(errno));
	return ret;
}

/* The whole of a regular file, or NULL (errno set). */
static char *jd_read(const char *path, size_t *len)
{
	const char *kind;
	int fd = zab_open_regular(path, &kind);
	size_t cap = 65536, n = 0;
	char *buf;
	ssize_t got;

	if (fd < 0)
		return NULL;
	buf = cz_xmalloc(cap);
	while ((got = read(fd, buf + n, cap - n - 1)) > 0 || (got < 0 && errno == EINTR))
		if (got > 0 && (n += (size_t)got) + 1 == cap)
			buf = cz_xrealloc(buf, cap *= 2);
	close(fd);
	buf[n] = 0;
	*len = n;
	return buf;
}

/* The private folder: $TMPDIR when its path is plain, else /tmp. */
static int jd_tmp(struct jd *j)
{
	const char *t = getenv("TMPDIR");
	char *dir;

	if (!t || t[0] != '/' || strspn(t, "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789/._-") !=
	    strlen(t))
		t = "/tmp";
	dir = cz_xasprintf("%s/zab-judge.XXXXXX", t);
	if (!mkdtemp(dir)) {
		cz_err("judge: cannot make a folder in %s: %s", t, strerror(errno));
		free(dir);
		return -1;
	}
	j->tmp = dir;
	return 0;
}

static char *jd_path(const struct jd *j, const char *side)
{
	return side ? cz_xasprintf("%s/%s/%s", j->tmp, side, j->base) : NULL;
}

/* Both files into the folder: 0, JD_SKIP (this revision has no such routine) or JD_ABORT. */
static int jd_files(struct jd *j)
{
	char *spec = cz_xasprintf("%s:%s", j->good_hash, j->rel), err[512], *data, *path, *dir;
	const char *blob[] = { JD_GIT, "-C", j->top, "cat-file", "blob", spec, NULL };
	size_t len;
	int ret = 0;

	data = jd_git(blob, &len, err, sizeof(err));
	free(spec);
	if (!data) {
		cz_err("judge: --good %s: %s is not in the tree there", j->good, j->rel);
		return JD_ABORT;
	}
	dir = cz_xasprintf("%s/good", j->tmp);
	path = jd_path(j, "good");
	if (mkdir(dir, 0700) || jd_write(path, data, len))
		ret = JD_ABORT;
	free(dir);
	free(path);
	free(data);
	if (ret)
		return ret;
	path = cz_xasprintf("%s/%s", j->top, j->rel);
	data = jd_read(path, &len);
	if (!data)
		cz_err("judge: cannot test %s: %s: %s", j->head, path, strerror(errno));
	else if (!strstr(data, j->sym))
		cz_err("judge: cannot test %s: %s has no %s", j->head, j->rel, j->sym);
	free(path);
	if (!data || !strstr(data, j->sym)) {
		free(data);
		return JD_SKIP;
	}
	dir = cz_xasprintf("%s/tested", j->tmp);
	path = jd_path(j, "tested");
	if (mkdir(dir, 0700) || jd_write(path, data, len))
		ret = JD_ABORT;
	free(dir);
	free(path);
	free(data);
	return ret;
}

/* The experiment: good (the base) and tested, zbench memset of each side's routine. */
static int jd_experiment(const struct jd *j, const char *path)
{
	char *g = jd_path(j, "good"), *t = jd_path(j, "tested"), *text;
	int ret;

	text = cz_xasprintf("[experiment]\nname = zab judge %s\nsessions = %u\nwarmups = 1\n"
			    "repeats = %u\nverdict = paired\nkernel-ref = no\norder = random\n\n"
			    "[benchmark memset]\n"
			    "cmd = zbench memset -s %s -l %u --source {src} --format simple | grep -v \"^#\"\n"
			    "unit = bytes/sec\nbetter = higher\n\n"
			    "[variant good]\nvar.src = %s:%s\n\n[variant tested]\nvar.src = %s:%s\n",
			    j->sym, j->sessions, j->repeats, j->size, j->loops, g, j->sym, t, j->sym);
	ret = jd_write(path, text, strlen(text));
	free(text);
	free(g);
	free(t);
	return ret;
}

/* zab run on it, its table on stderr: zab run's exit status, or -1. */
static int jd_run(const struct jd *j, const char *exp, const char *json)
{
	const char *argv[16];
	int n = 0, st;
	pid_t pid, w;

	argv[n++] = "zab";
	argv[n++] = "run";
	argv[n++] = "--no-store";
	argv[n++] = "--no-progress";
	argv[n++] = "--base";
	argv[n++] = "good";
	argv[n++] = "--json";
	argv[n++] = json;
	if (j->seed) {
		argv[n++] = "--seed";
		argv[n++] = j->seed;
	}
	argv[n++] = exp;
	argv[n] = NULL;
	fflush(NULL);
	pid = jd_signal ? -1 : fork();
	if (pid == 0) {
		signal(SIGTERM, SIG_DFL);
		signal(SIGINT, SIG_DFL);
		signal(SIGHUP, SIG_DFL);
		dup2(2, 1);
		execv("/proc/self/exe", (char *const *)argv);
		cz_err("judge: cannot run zab run: %s", strerror(errno));
		_exit(127);
	}
	jd_child = pid;
	if (pid > 0 && jd_signal)
		kill(pid, jd_signal);      /* it came between fork and jd_child */
	while (pid > 0 && (w = waitpid(pid, &st, 0)) < 0 && errno == EINTR)
		;
	jd_child = 0;
	if (jd_signal)
		return -1;
	if (pid < 0 || !WIFEXITED(st)) {
		cz_err("judge: zab run %s", pid < 0 ? strerror(errno) : "was stopped by a signal");
		return -1;
	}
	return WEXITSTATUS(st);
}

/*
 * The verdict of the run's document: the exit status, one line on stdout;
 * JD_AGAIN (a line on stderr) when undecided and not the last try.
 */
static int jd_decide(const struct jd *j, const char *json, bool last)
{
	json_t *doc = czres_json_load(json, "judge");
	struct czres_result r;
	size_t ti, gi;
	double pct = 0;
	int v, ret;

	memset(&r, 0, sizeof(r));
	if (!doc || czres_result_from_json(&r, doc, json))
		return JD_SKIP;
	ti = czres_name_index(r.vname, r.nv, "tested");
	gi = czres_name_index(r.vname, r.nv, "good");
	if (gi < r.nv && r.nb && (czres_cell(&r, 0, gi)->failed || !czres_cell(&r, 0, gi)->n)) {
		cz_err("judge: the good side (%s at %.12s) did not run: nothing to judge against", j->rel,
		       j->good_hash);
		czres_result_free(&r);
		return JD_ABORT;
	}
	v = ti < r.nv && gi < r.nv && r.nb ? czst_change(&r, 0, ti, &pct) : CZST_CHANGE_NONE;
	czres_result_free(&r);
	if (v == 0 && pct <= -j->band && !last) {
		cz_err("judge: %s: %+.2f%% in %u sessions, beyond the +-%.1f%% band but not marked (R): "
		       "again with %u", j->head, pct, j->sessions, j->band, 2 * j->sessions);
		return JD_AGAIN;
	}
	printf("zab judge: %s:%s at %s vs %s: ", j->rel, j->sym, j->head, j->good);
	if (v == CZST_CHANGE_NONE) {
		printf("no verdict (the routine failed or has too few samples here): skip\n");
		ret = JD_SKIP;
	} else if (v < 0 && pct <= -j->band) {
		printf("%+.2f%% (R), beyond the +-%.1f%% band: bad\n", pct, j->band);
		ret = JD_BAD;
	} else if (v == 0 && pct <= -j->band) {
		printf("%+.2f%%, beyond the +-%.1f%% band but not marked (R): undecided, skip\n", pct, j->band);
		ret = JD_SKIP;
	} else {
		printf("%+.2f%%%s: good\n", pct, v > 0 ? " (I)" : v < 0 ? " (R) inside the band" :
		       fabs(pct) < j->band ? ", inside the band" : ", faster, not marked");
		ret = JD_GOOD;
	}
	return ret;
}

static void jd_clean(const struct jd *j)
{
	static const char *const names[] = { "judge.ini", "result.json" };
	char *p;
	size_t i;

	if (!j->tmp)
		return;
	for (i = 0; i < 2; i++) {
		p = cz_xasprintf("%s/%s", j->tmp, names[i]);
		unlink(p);
		free(p);
	}
	for (i = 0; i < 2; i++) {
		p = jd_path(j, i ? "tested" : "good");
		unlink(p);
		free(p);
		p = cz_xasprintf("%s/%s", j->tmp, i ? "tested" : "good");
		rmdir(p);
		free(p);
	}
	rmdir(j->tmp);
}

/* Files, experiment, run, verdict: the exit status. */
static int jd_go(struct jd *j)
{
	char *exp, *json;
	int ret, rc, try;

	if (jd_split(j) || jd_tree(j) || jd_tmp(j))
		return JD_ABORT;
	ret = jd_files(j);
	if (ret)
		return ret;
	exp = cz_xasprintf("%s/judge.ini", j->tmp);
	json = cz_xasprintf("%s/result.json", j->tmp);
	for (try = 1, ret = JD_AGAIN; ret == JD_AGAIN; try++, j->sessions *= 2) {
		unlink(exp);
		unlink(json);
		if (jd_experiment(j, exp)) {
			ret = JD_ABORT;
			break;
		}
		rc = jd_run(j, exp, json);
		if (jd_signal)
			break;
		if (rc < 0 || rc > 1) {
			cz_err("judge: cannot test %s: zab run exit %d", j->head, rc);
			ret = rc < 0 ? JD_SKIP : JD_ABORT;
		} else {
			/* a cell FAILED (exit 1): the tested routine did not build or run: skip */
			ret = jd_decide(j, json, try == JD_TRIES);
		}
	}
	free(exp);
	free(json);
	return ret;
}

int zab_cmd_judge(int argc, char **argv)
{
	struct jd j = { .size = "100KB", .sessions = 3, .repeats = 5, .loops = 2000, .band = 2.0 };
	int ret = jd_parse(argc, argv, &j);

	if (ret)
		return ret > 0 ? 0 : JD_ABORT;
	jd_signals();
	ret = jd_go(&j);
	if (jd_signal) {
		cz_err("judge: stopped by signal %d: nothing judged", (int)jd_signal);
		ret = 128 + jd_signal;
	}
	fflush(stdout);
	jd_clean(&j);
	free(j.top);
	free(j.rel);
	free(j.sym);
	free(j.base);
	free(j.good_hash);
	free(j.head);
	free(j.tmp);
	return ret;
}
