/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * zeroctl: control a running cusezero device through its ioctls.
 *
 *     zeroctl DEVICE [--routine NAME] [--align K|none] [--align-point entry|loop]
 *                    [--rotate SET|none [--rotate-period N]] [--chunk SIZE] [--reset]
 *                    [--stats [--json]]
 *
 * DEVICE is the CUSE node (/dev/NAME) or the FUSE file (MNT/zero), or
 * /dev/zero inside `cusezero run`.  The settings given are sent in one
 * CUSEZERO_IOC_SET_CONFIG: the daemon applies them all or none (a refused
 * value changes nothing), then --reset, then --stats.  Without options it
 * prints the current settings.  --rotate is its own ioctl (SET_ROTATE),
 * sent after the others; when the device refuses it, the settings read
 * before are put back, so the whole change still happens or not at all.
 *
 * zeroctl talks only to a cusezero device and only through its ioctls: the
 * file is identified first (a character device -- the CUSE node -- or a
 * file on a FUSE mount, answering CUSEZERO_IOC_GET_STATS with this header's
 * version).  It never writes a file beside DEVICE: a directory may hold an
 * unrelated file named control, and a write there would destroy it.
 *
 * When the daemon refuses a change (EINVAL), zeroctl names the value by the
 * rules the daemon applies (the same libzeroing: routine known and usable
 * here, placeable at the offset, a point only with an offset), and says
 * that nothing changed.
 */
#include <errno.h>
#include <fcntl.h>
#include <getopt.h>
#include <limits.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/stat.h>
#include <sys/vfs.h>
#include <unistd.h>

#include "cusezero.h"
#include "devstats.h"
#include "statsfmt.h"
#include "cli.h"
#include "util.h"
#include "zeroing.h"

struct zc_params {
	const char *device;
	const char *routine;
	const char *align_arg, *point_arg, *chunk_arg;
	const char *rotate_arg, *period_arg;
	bool align_set, point_set, chunk_set, stats, json, reset;
	struct cusezero_align align;
	uint64_t chunk;
	struct cusezero_rotate rot;     /* with rotate_arg: count 0 is "none" */
};

/* statfs(2)'s f_type of every FUSE mount (linux/magic.h). */
#define ZC_FUSE_SUPER_MAGIC 0x65735546

static void zc_usage(FILE *out)
{
	fprintf(out,
"usage: zeroctl DEVICE [--routine NAME] [--align K|none] [--align-point entry|loop]\n"
"                      [--rotate SET|none [--rotate-period N]] [--chunk SIZE] [--reset]\n"
"                      [--stats [--json]]\n"
"DEVICE: /dev/NAME (CUSE), MOUNTPOINT/zero (FUSE), /dev/zero inside `cusezero run`.\n"
"The settings given are applied together or not at all.  Without options: print\n"
"the current settings.\n"
"--rotate SET: the routine placed at every offset of SET (0..63, 0..60:4, 0,8,36; at\n"
"most 64; its --align-point, default loop), each serving thread moving to the next copy\n"
"every N requests (default 8) in a shuffled order; --stats then shows each copy.\n"
"K: decimal (a leading 0 is not octal) or 0x hex; SIZE: the same with perf units (4KB).\n");
}

static const char *zc_hint(int err)
{
	switch (err) {
	case EPERM:
		return " (only root, the daemon's user or its --owner may change settings)";
	case ENOTTY:
		return " (not a cusezero device?)";
	}
	return "";
}

static int zc_err(const char *what, const char *val, int err)
{
	cz_err("%s%s%s: %s%s", what, val ? " " : "", val ? val : "",
		strerror(err), zc_hint(err));
	return 1;
}

static int zc_not_ours(const char *dev, const char *why)
{
	cz_err("%s: not a cusezero device (%s)", dev, why);
	return 1;
}

/*
 * Is fd a cusezero device?  0, or the exit status after one error line.
 * A CUSE node is a character device; the FUSE zero file (and /dev/zero bound
 * over by `cusezero run`) sits on a FUSE mount.  Either must answer
 * GET_STATS -- open to every user -- with our stats version: an unrelated
 * file's ioctl is ENOTTY, and another FUSE file system's is refused too.
 */
static int zc_identify(int fd, const char *dev)
{
	struct cusezero_stats st;
	struct statfs sfs;
	struct stat sb;
	char why[96];

	if (fstat(fd, &sb))
		return zc_err(dev, NULL, errno);
	if (S_ISREG(sb.st_mode)) {
		if (fstatfs(fd, &sfs))
			return zc_err(dev, NULL, errno);
		if (sfs.f_type != ZC_FUSE_SUPER_MAGIC)
			return zc_not_ours(dev, "a regular file outside any FUSE mount");
	} else if (!S_ISCHR(sb.st_mode)) {
		return zc_not_ours(dev, "neither a character device nor a FUSE file");
	}
	if (ioctl(fd, CUSEZERO_IOC_GET_STATS, &st)) {
		snprintf(why, sizeof(why), "it answers no cusezero ioctl: %s", strerror(errno));
		return zc_not_ours(dev, why);
	}
	if (st.version != CUSEZERO_STATS_VERSION) {
		snprintf(why, sizeof(why), "statistics version %u, expected %u",
			 (unsigned)st.version, (unsigned)CUSEZERO_STATS_VERSION);
		return zc_not_ours(dev, why);
	}
	return 0;
}

static const struct option zc_options[] = {
	{ "routine", required_argument, NULL, 'r' },
	{ "align", required_argument, NULL, 'a' },
	{ "align-point", required_argument, NULL, 'p' },
	{ "chunk", required_argument, NULL, 'c' },
	{ "rotate", required_argument, NULL, 'o' },
	{ "rotate-period", required_argument, NULL, 'P' },
	{ "stats", no_argument, NULL, 's' },
	{ "json", no_argument, NULL, 'j' },
	{ "reset", no_argument, NULL, 'R' },
	{ "help", no_argument, NULL, 'h' },
	{ NULL, 0, NULL, 0 },
};

/* --rotate SET|none into p->rot: 0, or the exit status. */
static int zc_rotate_arg(struct zc_params *p, const char *arg)
{
	size_t n;
	int ret;

	p->rotate_arg = arg;
	if (!strcmp(arg, "none"))
		return 0;
	ret = zero_place_parse_small_set(arg, p->rot.offsets, CUSEZERO_ROTATE_MAX, &n);
	if (ret == -EDOM)
		cz_err("--rotate %s: holds an offset no instruction can start at", arg);
	else if (ret == -E2BIG)
		cz_err("--rotate %s: %zu offsets; at most %d", arg, n, CUSEZERO_ROTATE_MAX);
	else if (ret)
		cz_err("--rotate %s: must be offsets as 0..63, 0..60:4 or 0,8,36, or none", arg);
	p->rot.count = ret ? 0 : (uint32_t)n;
	return ret ? 2 : 0;
}

/* A setting into p: 0, or the exit status. */
static int zc_setting(struct zc_params *p, int c, const char *arg)
{
	uint64_t v;

	switch (c) {
	case 'r':
		if (strlen(arg) >= CUSEZERO_NAME_MAX) {
			cz_err("--routine %s: name too long", arg);
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
			cz_err("--align %s: must be 0..4095 or none", arg);
			return 2;
		} else {
			p->align.offset = (int32_t)v;
		}
		return 0;
	case 'o':
		return zc_rotate_arg(p, arg);
	case 'P':
		p->period_arg = arg;
		if (cz_parse_u64(arg, 1, CUSEZERO_ROTATE_PERIOD_MAX, &v)) {
			cz_err("--rotate-period %s: must be 1..%u requests", arg,
			       CUSEZERO_ROTATE_PERIOD_MAX);
			return 2;
		}
		p->rot.period = (uint32_t)v;
		return 0;
	case 'p':
		p->point_set = true;
		p->point_arg = arg;
		if (strcmp(arg, "entry") && strcmp(arg, "loop")) {
			cz_err("--align-point %s: must be entry or loop", arg);
			return 2;
		}
		p->align.point = strcmp(arg, "entry") ? CUSEZERO_POINT_LOOP : CUSEZERO_POINT_ENTRY;
		return 0;
	}
	/* 'c' */
	if (cz_parse_size(arg, &v) || v < 1 || v > CUSEZERO_CHUNK_MAX) {
		cz_err("--chunk %s: must be a size from 1B to 1MB", arg);
		return 2;
	}
	p->chunk_set = true;
	p->chunk_arg = arg;
	p->chunk = v;
	return 0;
}

/* One option into p: 0, or the exit status (-1: --help printed, exit 0). */
static int zc_option(struct zc_params *p, int c, const char *arg, const char *opt)
{
	switch (c) {
	case 'r':
	case 'a':
	case 'p':
	case 'c':
	case 'o':
	case 'P':
		return zc_setting(p, c, arg);
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
		cz_err("%s: missing value", opt);
		return 2;
	}
	cz_err_unknown_option(opt);
	return 2;
}

/* Options and DEVICE into p: 0, or the exit status (-1: exit 0). */
static int zc_parse(struct zc_params *p, int argc, char **argv)
{
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
	if (p->rotate_arg && p->align_set) {
		cz_err("--rotate %s: not with --align (one placement or many)", p->rotate_arg);
		return 2;
	}
	if (p->period_arg && (!p->rotate_arg || !p->rot.count)) {
		cz_err("--rotate-period %s: needs --rotate SET", p->period_arg);
		return 2;
	}
	return 0;
}

/* The settings as one SET_CONFIG. */
static void zc_config(const struct zc_params *p, struct cusezero_config *cfg)
{
	memset(cfg, 0, sizeof(*cfg));
	if (p->routine) {
		cfg->set |= CUSEZERO_SET_ROUTINE;
		snprintf(cfg->routine, sizeof(cfg->routine), "%s", p->routine);
	}
	if (p->align_set) {
		cfg->set |= CUSEZERO_SET_OFFSET;
		cfg->offset = p->align.offset;
	}
	if (p->point_set) {
		cfg->set |= CUSEZERO_SET_POINT;
		cfg->point = p->align.point;
	}
	if (p->chunk_set) {
		cfg->set |= CUSEZERO_SET_CHUNK;
		cfg->chunk = p->chunk;
	}
}

static int zc_refused_line(const char *opt, const char *val, const char *why)
{
	cz_err("%s %s: %s; nothing changed", opt, val, why);
	return 1;
}

/*
 * Would the daemon place r's point (CUSEZERO_POINT_*) at offset?  NULL if
 * so; else why ("routine NAME: reason", in buf) -- the rule it applies, by
 * the same libzeroing.
 */
static const char *zc_unplaceable(const struct zero_routine *r, uint32_t point, unsigned offset,
				  char *buf, size_t len)
{
	struct zero_placed placed;
	int ret;

	ret = zero_place(r, point == CUSEZERO_POINT_ENTRY ? ZERO_POINT_ENTRY : ZERO_POINT_LOOP,
			 offset, &placed);
	if (!ret) {
		zero_unplace(&placed);
		return NULL;
	}
	snprintf(buf, len, "routine %s: %s", r->name, zero_place_strerror(ret));
	return buf;
}

/*
 * The daemon refused the change (EINVAL): find the value by its rules --
 * the routine known and usable here, placeable at the offset (with the
 * point), a point other than loop only with an offset.
 */
static int zc_refused(int fd, const struct zc_params *p)
{
	const struct zero_routine *r = NULL;
	struct cusezero_routine cur_r;
	struct cusezero_align cur = { CUSEZERO_ALIGN_NONE, CUSEZERO_POINT_LOOP };
	const char *why = NULL;
	char buf[256], val[16];
	int32_t offset;
	uint32_t point;

	if (p->routine) {
		r = zero_lookup(p->routine);
		if (!r)
			return zc_refused_line("--routine", p->routine,
					       "unknown routine (see cusezero --routine help)");
		if (!zero_usable(r, &why))
			return zc_refused_line("--routine", p->routine, why);
	} else if (!ioctl(fd, CUSEZERO_IOC_GET_ROUTINE, &cur_r)) {
		r = zero_lookup(cur_r.name);
	}
	if (ioctl(fd, CUSEZERO_IOC_GET_ALIGN, &cur))
		cur.offset = CUSEZERO_ALIGN_NONE;
	offset = p->align_set ? p->align.offset : cur.offset;
	point = p->point_set ? p->align.point : p->align_set ? CUSEZERO_POINT_LOOP : cur.point;
	if (offset == CUSEZERO_ALIGN_NONE && point != CUSEZERO_POINT_LOOP)
		return zc_refused_line("--align-point", p->point_arg ? p->point_arg : "entry",
				       "a point needs an offset (--align K)");
	if (r && offset != CUSEZERO_ALIGN_NONE &&
	    (why = zc_unplaceable(r, point, (unsigned)offset, buf, sizeof(buf))) != NULL) {
		snprintf(val, sizeof(val), "%d", (int)offset);
		return zc_refused_line("--align", p->align_arg ? p->align_arg : val, why);
	}
	return zc_refused_line("the settings", "given", "refused by the device (Invalid argument)");
}

/* Put back the settings read before a refused --rotate (best effort: the device just had them). */
static void zc_restore(int fd, const struct cusezero_stats *old, const struct cusezero_rotate *orot)
{
	struct cusezero_config cfg = { .set = CUSEZERO_SET_ROUTINE | CUSEZERO_SET_OFFSET |
					      CUSEZERO_SET_POINT | CUSEZERO_SET_CHUNK };

	memcpy(cfg.routine, old->routine, sizeof(cfg.routine));
	cfg.chunk = old->chunk;
	cfg.offset = old->align == CUSEZERO_ALIGN_ROTATE ? CUSEZERO_ALIGN_NONE : old->align;
	cfg.point = cfg.offset == CUSEZERO_ALIGN_NONE ? CUSEZERO_POINT_LOOP : old->point;
	if (ioctl(fd, CUSEZERO_IOC_SET_CONFIG, &cfg) ||
	    (orot->count && ioctl(fd, CUSEZERO_IOC_SET_ROTATE, orot)))
		cz_err("could not put the earlier settings back: %s", strerror(errno));
}

/* Why the device refused --rotate (EINVAL), by the rules it applies. */
static int zc_rotate_refused(const struct zc_params *p, const char *routine)
{
	const struct zero_routine *r = zero_lookup(routine);
	char buf[256], why[300];
	unsigned i;

	for (i = 0; r && i < p->rot.count; i++)
		if (zc_unplaceable(r, p->rot.point, p->rot.offsets[i], buf, sizeof(buf))) {
			snprintf(why, sizeof(why), "offset %u: %s", p->rot.offsets[i], buf);
			return zc_refused_line("--rotate", p->rotate_arg, why);
		}
	return zc_refused_line("--rotate", p->rotate_arg, "refused by the device (Invalid argument)");
}

/*
 * --rotate with the other settings: those first with placement off (so an
 * earlier placement cannot stand in the way), then SET_ROTATE; when that is
 * refused, the settings read before are put back.  0 or the exit status.
 */
static int zc_apply_rotate(int fd, struct zc_params *p, struct cusezero_config *cfg)
{
	struct cusezero_stats *old = malloc(sizeof(*old));
	struct cusezero_rotate orot;
	int err = 0;

	if (!old) {
		cz_err("out of memory");
		return 1;
	}
	if (ioctl(fd, CUSEZERO_IOC_GET_STATS, old) || ioctl(fd, CUSEZERO_IOC_GET_ROTATE, &orot)) {
		err = errno;
		free(old);
		return zc_err(p->device, NULL, err);
	}
	p->rot.point = p->point_set ? p->align.point : CUSEZERO_POINT_LOOP;
	cfg->set |= CUSEZERO_SET_OFFSET | CUSEZERO_SET_POINT;
	cfg->offset = CUSEZERO_ALIGN_NONE;
	cfg->point = CUSEZERO_POINT_LOOP;
	if (ioctl(fd, CUSEZERO_IOC_SET_CONFIG, cfg)) {
		err = errno;
		free(old);
		return err == EINVAL && p->routine ? zc_refused(fd, p) :
		       zc_err("--rotate", p->rotate_arg, err);
	}
	if (p->rot.count && ioctl(fd, CUSEZERO_IOC_SET_ROTATE, &p->rot)) {
		err = errno;
		zc_restore(fd, old, &orot);
		err = err == EINVAL ? zc_rotate_refused(p, p->routine ? p->routine : old->routine) :
		      zc_err("--rotate", p->rotate_arg, err);
	}
	free(old);
	return err;
}

/* The settings (all or nothing), then --reset.  0 or the exit status. */
static int zc_apply(int fd, struct zc_params *p)
{
	struct cusezero_config cfg;
	int err;

	zc_config(p, &cfg);
	if (p->rotate_arg) {
		err = zc_apply_rotate(fd, p, &cfg);
		if (err)
			return err;
	} else if (cfg.set) {
		err = ioctl(fd, CUSEZERO_IOC_SET_CONFIG, &cfg) ? errno : 0;
		if (err == EINVAL)
			return zc_refused(fd, p);
		if (err)
			return zc_err(p->routine ? "--routine" : p->align_set ? "--align" :
				      p->point_set ? "--align-point" : "--chunk",
				      p->routine ? p->routine : p->align_set ? p->align_arg :
				      p->point_set ? p->point_arg : p->chunk_arg, err);
	}
	if (p->reset) {
		err = ioctl(fd, CUSEZERO_IOC_RESET_STATS) ? errno : 0;
		if (err)
			return zc_err("--reset", NULL, err);
	}
	return 0;
}

/* --stats [--json], or the settings when nothing else was asked.  0 or the exit status. */
static int zc_show(int fd, const struct zc_params *p)
{
	static char buf[1 << 17];	/* stats with 64 layouts: ~20 KiB of text */
	static struct cz_devlayouts lay;
	struct cusezero_stats st;
	unsigned i;
	int ret;

	if (ioctl(fd, CUSEZERO_IOC_GET_STATS, &st))
		return zc_err(p->device, NULL, errno);
	ret = cz_devlayouts_get(fd, &lay);
	if (ret == -ENOTTY)	/* a daemon from before rotation: not rotating */
		ret = 0;
	if (ret)
		return zc_err(p->device, "(layouts)", -ret);
	if (p->stats) {
		if (sf_format(&st, &lay, p->json, buf, sizeof(buf)) < 0)
			return zc_err("--stats", NULL, ENOSPC);
		fputs(buf, stdout);
	} else if (lay.count) {
		printf("routine=%s\nalign=rotate\nalign_point=%s\nrotate=", st.routine,
		       sf_point_name(lay.point));
		for (i = 0; i < lay.count; i++)
			printf("%s%d", i ? "," : "", lay.offset[i]);
		printf("\nrotate_period=%u\nchunk=%llu\n", lay.period, (unsigned long long)st.chunk);
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

	cz_cli_init("zeroctl");
	cz_version_arg(argc, argv, "zeroctl");
	ret = zc_parse(&p, argc, argv);
	if (ret)
		return ret < 0 ? 0 : ret;
	/* O_NONBLOCK: a FIFO given by mistake must not wait for a writer. */
	fd = open(p.device, O_RDONLY | O_CLOEXEC | O_NONBLOCK | O_NOCTTY);
	if (fd < 0)
		return zc_err(p.device, NULL, errno);
	ret = zc_identify(fd, p.device);
	if (ret) {
		close(fd);
		return ret;
	}
	ret = zc_apply(fd, &p);
	if (!ret && (p.stats || (!p.routine && !p.align_set && !p.point_set && !p.chunk_set &&
				 !p.reset && !p.rotate_arg)))
		ret = zc_show(fd, &p);
	close(fd);
	if (cz_stdout_flush() && !ret)
		ret = 1;
	return ret;
}
