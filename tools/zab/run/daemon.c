/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The cusezero daemons of a session (runner.h): one per device variant,
 * started fresh with the variant's settings (devclient/devspawn.h), its
 * device open for the counters, its facts (the placed routine's mappings,
 * its stats) recorded; stopped at the session's end or on a signal.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cli.h"
#include "devspawn.h"
#include "run.h"
#include "runner.h"

char *zab_tmpdir;
struct daemon zab_daemons[CZRES_MAX_ITEMS];

void zab_daemon_stop(struct daemon *d)
{
	if (d->has_fd)
		close(d->fd);
	cz_dev_stop(&d->dev, "zab");
	free(d->error);
	memset(d, 0, sizeof(*d));
}

void zab_daemons_stop_all(void)
{
	size_t i;

	for (i = 0; i < CZRES_MAX_ITEMS; i++)
		if (zab_daemons[i].up || zab_daemons[i].error)
			zab_daemon_stop(&zab_daemons[i]);
}

void zab_tmpdir_remove(void)
{
	if (zab_tmpdir) {
		rmdir(zab_tmpdir);
		free(zab_tmpdir);
		zab_tmpdir = NULL;
	}
}

static char *read_file(const char *path)
{
	int fd = open(path, O_RDONLY);

	return fd < 0 ? NULL : zab_proc_read(fd, 1 << 20);
}

/*
 * Where the daemon's placed routine lives: its anonymous executable mappings
 * (zero_place() maps the copy read+exec, without a file).
 */
static void exec_mappings(pid_t pid, json_t *o)
{
	char *maps, *path = cz_xasprintf("/proc/%d/maps", (int)pid), *line, *save = NULL;
	json_t *arr;

	maps = read_file(path);
	free(path);
	if (!maps)
		return;
	arr = cz_jset(o, "exec_anon_mappings", cz_jarr());
	for (line = strtok_r(maps, "\n", &save); line; line = strtok_r(NULL, "\n", &save)) {
		char range[64], perms[8], file[256] = "";
		unsigned long long off;
		unsigned maj, min;
		unsigned long ino;

		if (sscanf(line, "%63s %7s %llx %x:%x %lu %255s", range, perms, &off, &maj, &min, &ino,
			   file) < 6)
			continue;
		if (perms[2] == 'x' && !file[0])
			cz_jpush(arr, cz_jstr(range));
	}
	free(maps);
}

/* The facts of one started daemon, for the JSON document. */
static void daemon_info(const struct daemon *d, unsigned session, int cpu, json_t *info)
{
	json_t *o = cz_jpush(info, cz_jobj());
	char *stats, *sp;

	cz_jset(o, "session", cz_jnum(session + 1));
	cz_jset(o, "command", cz_jstr(d->dev.cmdline));
	cz_jset(o, "path", cz_jstr(d->dev.path));
	cz_jset(o, "pid", cz_jnum(d->dev.pid));
	if (cpu >= 0)
		cz_jset(o, "cpu", cz_jnum(cpu));
	exec_mappings(d->dev.pid, o);
	if (!d->dev.mnt)
		return;
	sp = cz_xasprintf("%s/stats.json", d->dev.mnt);
	stats = read_file(sp);
	free(sp);
	if (stats) {
		json_t *sj = json_loads(stats, JSON_REJECT_DUPLICATES, NULL);

		if (sj)
			cz_jset(o, "stats", sj);
		free(stats);
	}
}

void zab_daemon_start(struct daemon *d, const struct zab_variant *v, size_t vi, unsigned session,
			 const char *cusezero, int cpu, json_t *info)
{
	char **args = cz_xmalloc((v->ndev + 16) * sizeof(*args)), *mnt = NULL, *name = NULL;
	char *pidfile, cpus[16], err[1024];
	bool cuse = v->frontend && !strcmp(v->frontend, "cuse");
	size_t n = 0;

	memset(d, 0, sizeof(*d));
	args[n++] = (char *)cusezero;
#define OPT(flag, val) do { if (val) { args[n++] = (char *)(flag); args[n++] = (val); } } while (0)
	/* routine = default: the daemon's own choice (zero_device_default()), as a device variant */
	if (v->routine && strcmp(v->routine, "default"))
		OPT("--routine", v->routine);
	OPT("--align", v->align);
	OPT("--align-point", v->align_point);
	OPT("--chunk", v->chunk);
	OPT("--threads", v->threads);
#undef OPT
	if (cpu >= 0) {
		snprintf(cpus, sizeof(cpus), "%d", cpu);
		args[n++] = (char *)"--cpu";
		args[n++] = cpus;
	}
	/* one argument each, as they were given: a file name is never split */
	for (size_t i = 0; i < v->ndev; i++)
		args[n++] = v->dev_argv[i];
	pidfile = cz_xasprintf("%s/v%zu.pid", zab_tmpdir, vi);
	if (cuse)
		name = cz_xasprintf("zab%dv%zu", (int)getpid(), vi);
	else
		mnt = cz_xasprintf("%s/v%zu", zab_tmpdir, vi);
	if (cz_dev_start(&d->dev, args, n, mnt, name, pidfile, 60, err, sizeof(err))) {
		d->error = cz_xstrdup(err);
	} else {
		d->up = true;
		d->fd = open(d->dev.path, O_RDONLY | O_CLOEXEC);
		d->has_fd = d->fd >= 0;
		daemon_info(d, session, cpu, info);
	}
	free(pidfile);
	free(mnt);
	free(name);
	free(args);
}

