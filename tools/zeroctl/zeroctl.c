/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * zeroctl: control a running cusezero device through its ioctls.
 *
 *     zeroctl DEVICE [--routine NAME] [--align K|none] [--align-point entry|loop]
 *                    [--chunk SIZE] [--reset] [--stats [--json]]
 *
 * DEVICE is the CUSE node (/dev/NAME) or the FUSE file (MNT/zero), or
 * /dev/zero inside `cusezero run`.  Settings are applied in the order
 * routine, align, chunk; then --reset, then --stats.  Without options it
 * prints the current settings.  If the file does not answer the ioctls
 * (ENOTTY), the FUSE sibling files MNT/control and MNT/stats are used.
 */
#include <errno.h>
#include <fcntl.h>
#include <getopt.h>
#include <libgen.h>
#include <limits.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <unistd.h>

#include "cusezero.h"
#include "statsfmt.h"
#include "cli.h"
#include "util.h"

struct zc_params {
	const char *device;
	const char *routine;
	const char *align_arg;
	bool align_set, point_set, chunk_set, stats, json, reset;
	struct cusezero_align align;
	uint64_t chunk;
	char dir[PATH_MAX];      /* FUSE mount dir, for the control-file fallback */
};

static void zc_usage(FILE *out)
{
	fprintf(out,
"usage: zeroctl DEVICE [--routine NAME] [--align K|none] [--align-point entry|loop]\n"
"                      [--chunk SIZE] [--reset] [--stats [--json]]\n"
"DEVICE: /dev/NAME (CUSE), MOUNTPOINT/zero (FUSE), /dev/zero inside `cusezero run`.\n"
"Without options: print the current settings.\n"
"K: decimal (a leading 0 is not octal) or 0x hex; SIZE: the same with perf units (4KB).\n");
}

static const char *zc_hint(int err)
{
	switch (err) {
	case EPERM:
		return " (only root, the daemon's user or its --owner may change settings)";
	case EINVAL:
		return " (unknown/unusable routine, offset not 0..4095, routine not relocatable, or chunk not 1B..1MB)";
	case ENOTTY:
		return " (not a cusezero device?)";
	}
	return "";
}

static int zc_err(const char *what, const char *val, int err)
{
	fprintf(stderr, "zeroctl: %s%s%s: %s%s\n", what, val ? " " : "", val ? val : "",
		strerror(err), zc_hint(err));
	return 1;
}

/* FUSE fallback: write one command to MNT/control. */
static int zc_control_write(const struct zc_params *p, const char *cmd)
{
	char path[PATH_MAX + 16];
	int fd, ret = 0;

	snprintf(path, sizeof(path), "%s/control", p->dir);
	fd = open(path, O_WRONLY | O_CLOEXEC);
	if (fd < 0)
		return errno == ENOENT ? ENOTTY : errno;
	if (write(fd, cmd, strlen(cmd)) < 0)
		ret = errno;
	close(fd);
	return ret;
}

static int zc_cat(const struct zc_params *p, const char *leaf)
{
	char path[PATH_MAX + 16], buf[16384];
	ssize_t n;
	int fd;

	snprintf(path, sizeof(path), "%s/%s", p->dir, leaf);
	fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return errno == ENOENT ? ENOTTY : errno;
	while ((n = read(fd, buf, sizeof(buf))) > 0)
		fwrite(buf, 1, (size_t)n, stdout);
	close(fd);
	return n < 0 ? errno : 0;
}

static int zc_do(int fd, unsigned long cmd, void *arg, const struct zc_params *p,
		 const char *fallback_cmd)
{
	if (!ioctl(fd, cmd, arg))
		return 0;
	if ((errno == ENOTTY || errno == ENOSYS) && fallback_cmd)
		return zc_control_write(p, fallback_cmd);
	return errno;
}

static const struct option zc_options[] = {
	{ "routine", required_argument, NULL, 'r' },
	{ "align", required_argument, NULL, 'a' },
	{ "align-point", required_argument, NULL, 'p' },
	{ "chunk", required_argument, NULL, 'c' },
	{ "stats", no_argument, NULL, 's' },
	{ "json", no_argument, NULL, 'j' },
	{ "reset", no_argument, NULL, 'R' },
	{ "help", no_argument, NULL, 'h' },
	{ NULL, 0, NULL, 0 },
};

/* One option into p: 0, or the exit status (-1: --help printed, exit 0). */
static int zc_option(struct zc_params *p, int c, const char *arg, const char *opt)
{
	uint64_t v;

	switch (c) {
	case 'r':
		if (strlen(arg) >= CUSEZERO_NAME_MAX) {
			fprintf(stderr, "zeroctl: --routine %s: name too long\n", arg);
			return 2;
		}
		p->routine = arg;
		return 0;
	case 'a':
		p->align_set = true;
		p->align_arg = arg;
		if (!strcmp(arg, "none")) {
			p->align.offset = CUSEZERO_ALIGN_NONE;
		} else if (cz_parse_u64(arg, 0, 4095, &v)) {
			fprintf(stderr, "zeroctl: --align %s: must be 0..4095 or none\n", arg);
			return 2;
		} else {
			p->align.offset = (int32_t)v;
		}
		return 0;
	case 'p':
		p->point_set = true;
		if (!strcmp(arg, "entry")) {
			p->align.point = CUSEZERO_POINT_ENTRY;
		} else if (!strcmp(arg, "loop")) {
			p->align.point = CUSEZERO_POINT_LOOP;
		} else {
			fprintf(stderr, "zeroctl: --align-point %s: must be entry or loop\n", arg);
			return 2;
		}
		return 0;
	case 'c':
		if (cz_parse_size(arg, &v) || v < 1 || v > CUSEZERO_CHUNK_MAX) {
			fprintf(stderr, "zeroctl: --chunk %s: must be a size from 1B to 1MB\n", arg);
			return 2;
		}
		p->chunk_set = true;
		p->chunk = v;
		return 0;
	case 's':
		p->stats = true;
		return 0;
	case 'j':
		p->json = true;
		p->stats = true;
		return 0;
	case 'R':
		p->reset = true;
		return 0;
	case 'h':
		zc_usage(stdout);
		return -1;
	case ':':
		fprintf(stderr, "zeroctl: %s: missing value\n", opt);
		return 2;
	}
	fprintf(stderr, "zeroctl: %s: unknown option\n", opt);
	return 2;
}

/* Options and DEVICE into p: 0, or the exit status (-1: exit 0). */
static int zc_parse(struct zc_params *p, int argc, char **argv)
{
	char tmp[PATH_MAX];
	int c, ret;

	opterr = 0;
	while ((c = getopt_long(argc, argv, ":h", zc_options, NULL)) != -1) {
		ret = zc_option(p, c, optarg, argv[optind - 1]);
		if (ret)
			return ret;
	}
	if (optind != argc - 1) {
		zc_usage(stderr);
		return 2;
	}
	p->device = argv[optind];
	snprintf(tmp, sizeof(tmp), "%s", p->device);
	snprintf(p->dir, sizeof(p->dir), "%s", dirname(tmp));
	return 0;
}

/* Settings in the order routine, align, chunk; then --reset.  0 or the exit status. */
static int zc_apply(int fd, struct zc_params *p)
{
	char cmd[128];
	int err;

	if (p->routine) {
		struct cusezero_routine r = { { 0 } };

		snprintf(r.name, sizeof(r.name), "%s", p->routine);
		snprintf(cmd, sizeof(cmd), "routine=%s", p->routine);
		err = zc_do(fd, CUSEZERO_IOC_SET_ROUTINE, &r, p, cmd);
		if (err)
			return zc_err("--routine", p->routine, err);
	}
	if (p->point_set && !p->align_set) {
		struct cusezero_align cur;

		/* keep the offset, change the point */
		if (ioctl(fd, CUSEZERO_IOC_GET_ALIGN, &cur))
			return zc_err("--align-point", NULL, errno);
		p->align.offset = cur.offset;
		p->align_set = true;
	}
	if (p->align_set) {
		if (p->align.offset == CUSEZERO_ALIGN_NONE)
			snprintf(cmd, sizeof(cmd), "align=none");
		else
			snprintf(cmd, sizeof(cmd), "align_point=%s align=%d",
				 sf_point_name(p->align.point), (int)p->align.offset);
		err = zc_do(fd, CUSEZERO_IOC_SET_ALIGN, &p->align, p, cmd);
		if (err)
			return zc_err("--align", p->align_arg ? p->align_arg : "", err);
	}
	if (p->chunk_set) {
		snprintf(cmd, sizeof(cmd), "chunk=%llu", (unsigned long long)p->chunk);
		err = zc_do(fd, CUSEZERO_IOC_SET_CHUNK, &p->chunk, p, cmd);
		if (err)
			return zc_err("--chunk", NULL, err);
	}
	if (p->reset) {
		err = zc_do(fd, CUSEZERO_IOC_RESET_STATS, NULL, p, "reset");
		if (err)
			return zc_err("--reset", NULL, err);
	}
	return 0;
}

/* --stats [--json], or the settings when nothing else was asked.  0 or the exit status. */
static int zc_show(int fd, const struct zc_params *p)
{
	struct cusezero_stats st;
	char buf[16384];
	int err;

	if (ioctl(fd, CUSEZERO_IOC_GET_STATS, &st)) {
		err = errno;
		if (err == ENOTTY || err == ENOSYS)
			err = zc_cat(p, p->json ? "stats.json" : "stats");
		return err ? zc_err("--stats", NULL, err) : 0;
	}
	if (p->stats) {
		if (sf_format(&st, p->json, buf, sizeof(buf)) < 0)
			return zc_err("--stats", NULL, ENOSPC);
		fputs(buf, stdout);
	} else if (st.align == CUSEZERO_ALIGN_NONE) {
		printf("routine=%s\nalign=none\nchunk=%llu\n", st.routine,
		       (unsigned long long)st.chunk);
	} else {
		printf("routine=%s\nalign=%d\nalign_point=%s\nchunk=%llu\n", st.routine,
		       (int)st.align, sf_point_name(st.point), (unsigned long long)st.chunk);
	}
	return 0;
}

int main(int argc, char **argv)
{
	struct zc_params p = { .align = { .offset = CUSEZERO_ALIGN_NONE, .point = CUSEZERO_POINT_LOOP } };
	int fd, ret;

	cz_version_arg(argc, argv, "zeroctl");
	ret = zc_parse(&p, argc, argv);
	if (ret)
		return ret < 0 ? 0 : ret;
	fd = open(p.device, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return zc_err(p.device, NULL, errno);
	ret = zc_apply(fd, &p);
	if (!ret && (p.stats || (!p.routine && !p.align_set && !p.chunk_set && !p.reset)))
		ret = zc_show(fd, &p);
	close(fd);
	if (fflush(stdout) && !ret)
		ret = 1;
	return ret;
}
