/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * cusezero: a /dev/zero whose read path clears each chunk with a selectable
 * zeroing routine placed at a selectable code alignment.
 *
 *     cusezero [OPTIONS]                    serve /dev/NAME (CUSE) or MNT/zero (FUSE)
 *     cusezero run [OPTIONS] -- COMMAND...  run COMMAND with /dev/zero bound to the device
 *     cusezero --routine help               list the routines
 *
 * Examples:
 *     cusezero --name zero1 && zeroctl /dev/zero1 --stats      (CUSE, root)
 *     cusezero --fuse /tmp/z -f & ; dd if=/tmp/z/zero bs=1M count=1 | od
 *     cusezero run --routine rep_stosb -- dd if=/dev/zero bs=1M count=1
 * When CUSE is unavailable (no /dev/cuse and `modprobe cuse` fails) it falls
 * back to FUSE at /run/cusezero/NAME with a one-line note on stderr.
 *
 * Built on libfuse3's low-level API (cuse_lowlevel / fuse_lowlevel) with our
 * own single-threaded loop; doc/DESIGN.md has the module map and the read
 * path.
 */
#include <errno.h>
#include <getopt.h>
#include <grp.h>
#include <limits.h>
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cusezero.h"
#include "ksrc.h"
#include "kpath.h"
#include "front_cuse.h"
#include "front_fuse.h"
#include "fuse_uring_daemon.h"
#include "lifecycle.h"
#include "log.h"
#include "params.h"
#include "readpath.h"
#include "run.h"
#include "cli.h"
#include "util.h"

static void cz_usage(FILE *out)
{
	fprintf(out,
"usage: cusezero [OPTIONS]                     serve a /dev/zero-like device\n"
"       cusezero run [OPTIONS] -- COMMAND...   run COMMAND with /dev/zero bind-mounted to\n"
"                                              the device (private mount namespace, root)\n"
"       cusezero --routine help                list the zeroing routines\n"
"\n"
"  --name NAME          CUSE device /dev/NAME (default cusezero)\n"
"  --fuse MOUNTPOINT    FUSE front end: MOUNTPOINT/{zero,control,stats,stats.json}\n"
"                       (automatic at /run/cusezero/NAME when CUSE is unavailable);\n"
"                       an empty directory where nothing is mounted\n"
"  --force-mount        mount over a directory that is not empty or is a mount point\n"
"  --routine NAME       zeroing routine (default: the first --source, else what the running\n"
"                       kernel runs for clear_user here, else the best usable one; -d says which)\n"
ZERO_KSRC_USAGE
"  --align K            place the routine's code so its align point is at K mod 4096\n"
"  --align-point P      entry | loop (default loop)\n"
"  --rotate SET         place the routine at every offset of SET (e.g. 0..63 or 0..60:4, at\n"
"                       most 64) and move each serving thread to the next copy every\n"
"                       --rotate-period N requests (default 8), shuffled; not with --align\n"
"  --chunk SIZE         bytes per routine call, 1B..1MB (default 4KB; units as perf, or 0x hex)\n"
"  --threads N          worker threads (default 1: own single-threaded loop)\n"
"  --transport T        FUSE front end: auto (io_uring if enabled, else /dev/fuse), uring, dev\n"
"  --reply R            /dev/fuse and /dev/cuse replies: splice (default: vmsplice into a\n"
"                       pipe, then splice) or writev (libfuse's way)\n"
"  --poll-us US         /dev/fuse and /dev/cuse: busy-poll up to US microseconds for the next\n"
"                       request before sleeping (default 0: off; burns CPU while polling)\n"
"  --sched-idle         serving threads run as SCHED_IDLE (opt-in speed lever: a reader the\n"
"                       daemon wakes stays on its CPU); a guard thread moves a starving one\n"
"                       (CPU busy with other work) to SCHED_OTHER for 1..64 s\n"
"  --cpu N              pin the /dev/fuse loop thread(s) to CPU N (io_uring queue threads\n"
"                       are pinned one per CPU anyway)\n"
"  --colocate CPU|auto  run only: COMMAND and the daemon's serving threads on one CPU\n"
"                       (--cpu CPU, COMMAND pinned there; auto: the CPU run\n"
"                       starts on): for single-threaded readers, no cross-CPU wake-up per read\n"
"  --mode OCTAL         node / zero file mode, octal as for chmod (default 0666)\n"
"  --owner USER --group GROUP   node owner, a name or a number (the owner may also\n"
"                       change settings)\n"
"  --major N --minor N  CUSE device number (default dynamic)\n"
"  --user USER          drop privileges to USER (a name or a uid) after set-up\n"
"  --pidfile FILE       write the daemon's pid once ready\n"
"  --poison             (testing) fill the reply buffer with 0xa5 before each routine call\n"
"  -o OPT[,OPT...]      libfuse's mount options: allow_other, default_permissions (both\n"
"                       always on as root), rw, debug (-d), uid=N (--owner), gid=N\n"
"                       (--group); any other is refused by name\n"
"  -f                   stay in the foreground     -d  debug (implies -f)\n"
"  -h, --help           this text\n"
"Numbers are decimal (a leading 0 does not make them octal) or 0x hex; only --mode is octal.\n"
"Without -f it returns once the device is ready; SIGINT/SIGTERM stop it cleanly.\n");
}

enum {
	OPT_NAME = 256, OPT_FUSE, OPT_ROUTINE, OPT_ALIGN, OPT_POINT, OPT_CHUNK, OPT_THREADS,
	OPT_MODE, OPT_OWNER, OPT_GROUP, OPT_MAJOR, OPT_MINOR, OPT_USER, OPT_PIDFILE, OPT_POISON,
	OPT_TRANSPORT, OPT_SCHED_IDLE, OPT_CPU, OPT_REPLY, OPT_POLL_US, OPT_COLOCATE,
	OPT_FORCE_MOUNT, OPT_ROTATE, OPT_ROTATE_PERIOD, OPT_KSRC, OPT_KSRC_LAST = OPT_KSRC + 3,
};

/* --source etc.: kernel source files loaded as routines at start (only there). */
static struct zero_ksrc_set cz_ksrc;

static const struct option cz_options[] = {
	{ "name", required_argument, NULL, OPT_NAME },
	{ "fuse", required_argument, NULL, OPT_FUSE },
	{ "force-mount", no_argument, NULL, OPT_FORCE_MOUNT },
	{ "routine", required_argument, NULL, OPT_ROUTINE },
	ZERO_KSRC_LONGOPTS(OPT_KSRC),
	{ "align", required_argument, NULL, OPT_ALIGN },
	{ "align-point", required_argument, NULL, OPT_POINT },
	{ "rotate", required_argument, NULL, OPT_ROTATE },
	{ "rotate-period", required_argument, NULL, OPT_ROTATE_PERIOD },
	{ "chunk", required_argument, NULL, OPT_CHUNK },
	{ "threads", required_argument, NULL, OPT_THREADS },
	{ "mode", required_argument, NULL, OPT_MODE },
	{ "owner", required_argument, NULL, OPT_OWNER },
	{ "group", required_argument, NULL, OPT_GROUP },
	{ "major", required_argument, NULL, OPT_MAJOR },
	{ "minor", required_argument, NULL, OPT_MINOR },
	{ "user", required_argument, NULL, OPT_USER },
	{ "pidfile", required_argument, NULL, OPT_PIDFILE },
	{ "poison", no_argument, NULL, OPT_POISON },
	{ "transport", required_argument, NULL, OPT_TRANSPORT },
	{ "sched-idle", no_argument, NULL, OPT_SCHED_IDLE },
	{ "reply", required_argument, NULL, OPT_REPLY },
	{ "poll-us", required_argument, NULL, OPT_POLL_US },
	{ "cpu", required_argument, NULL, OPT_CPU },
	{ "colocate", required_argument, NULL, OPT_COLOCATE },
	{ "help", no_argument, NULL, 'h' },
	{ NULL, 0, NULL, 0 },
};

__attribute__((noreturn))
static void cz_bad(const char *opt, const char *val, const char *why)
{
	cz_err("%s %s: %s", opt, val, why);
	exit(2);
}

static bool cz_valid_name(const char *s)
{
	size_t i, n = strlen(s);

	if (!n || n > 63 || !strcmp(s, ".") || !strcmp(s, ".."))
		return false;
	for (i = 0; i < n; i++)
		if (!(s[i] >= 'a' && s[i] <= 'z') && !(s[i] >= 'A' && s[i] <= 'Z') &&
		    !(s[i] >= '0' && s[i] <= '9') && s[i] != '_' && s[i] != '-' && s[i] != '.')
			return false;
	return true;
}

/* --cpu N: a CPU this process may run on (its affinity mask, e.g. set by taskset). */
static int cz_parse_cpu(const char *arg)
{
	char why[128], list[64] = "";
	size_t len = 0;
	cpu_set_t set;
	uint64_t v;
	int c, lo;

	if (sched_getaffinity(0, sizeof(set), &set))
		CPU_ZERO(&set);
	for (c = 0; c < CPU_SETSIZE && len < sizeof(list) - 16; c++) {
		if (!CPU_ISSET(c, &set))
			continue;
		for (lo = c; c + 1 < CPU_SETSIZE && CPU_ISSET(c + 1, &set); c++)
			;
		len += (size_t)snprintf(list + len, sizeof(list) - len, lo == c ? "%s%d" : "%s%d-%d",
					len ? "," : "", lo, c);
	}
	if (cz_parse_u64(arg, 0, CPU_SETSIZE - 1, &v) || !CPU_ISSET((int)v, &set)) {
		snprintf(why, sizeof(why), "must be a CPU this process may run on (%s)", list);
		cz_bad("--cpu", *arg ? arg : "''", why);
	}
	return (int)v;
}

/* run --colocate CPU|auto: COMMAND and the serving threads on one CPU (doc/DESIGN.md, "Co-location"). */
static void cz_parse_colocate(const char *arg, bool run)
{
	if (!run)
		cz_bad("--colocate", arg, "is an option of `cusezero run` (a daemon alone: --cpu N)");
	cz_params.cpu = strcmp(arg, "auto") ? cz_parse_cpu(arg) : sched_getcpu();
	cz_params.colocate = true;
}

/* The read path's options; false if c is not one of them. */
static bool cz_opt_readpath(int c, const char *arg)
{
	uint64_t v;

	switch (c) {
	case OPT_KSRC:
	case OPT_KSRC + 1:
	case OPT_KSRC + 2:
	case OPT_KSRC_LAST: {
		char err[512];
		int r = zero_ksrc_option(&cz_ksrc, c - OPT_KSRC, arg, err, sizeof(err));

		if (r > 0)
			exit(0);        /* --alt help */
		if (r < 0) {
			cz_err("%s", err);
			exit(CZ_EXIT_USAGE);
		}
		return true;
	}
	case OPT_ROUTINE:
		cz_params.routine = arg;
		return true;
	case OPT_ALIGN:
		if (!strcmp(arg, "none"))
			cz_params.align = CUSEZERO_ALIGN_NONE;
		else if (cz_parse_u64(arg, 0, ZERO_PLACE_MAX_OFFSET, &v))
			cz_bad("--align", arg, "must be 0..4095 or none");
		else
			cz_params.align = (int)v;
		return true;
	case OPT_POINT:
		if (!strcmp(arg, "entry"))
			cz_params.point = ZERO_POINT_ENTRY;
		else if (!strcmp(arg, "loop"))
			cz_params.point = ZERO_POINT_LOOP;
		else
			cz_bad("--align-point", arg, "must be entry or loop");
		return true;
	case OPT_ROTATE:
		cz_params.rotate = arg;
		return true;
	case OPT_ROTATE_PERIOD:
		if (cz_parse_u64(arg, 1, CUSEZERO_ROTATE_PERIOD_MAX, &v))
			cz_bad("--rotate-period", arg, "must be 1..1000000 requests");
		cz_params.rotate_period = (unsigned)v;
		return true;
	case OPT_CHUNK:
		if (cz_parse_size(arg, &v) || v < 1 || v > CUSEZERO_CHUNK_MAX)
			cz_bad("--chunk", arg, "must be a size from 1B to 1MB");
		cz_params.chunk = v;
		return true;
	case OPT_POISON:
		cz_params.poison = true;
		return true;
	}
	return false;
}

/* How requests reach the read path: transport, threads, scheduler levers. */
static bool cz_opt_serving(int c, const char *arg)
{
	uint64_t v;

	switch (c) {
	case OPT_TRANSPORT:
		if (!fud_transport_ok(arg))
			cz_bad("--transport", arg, "must be auto, uring or dev");
		cz_params.transport = arg;
		return true;
	case OPT_SCHED_IDLE:
		cz_params.sched_idle = true;
		return true;
	case OPT_REPLY:
		if (strcmp(arg, "splice") && strcmp(arg, "writev"))
			cz_bad("--reply", arg, "must be splice or writev");
		cz_params.reply_writev = !strcmp(arg, "writev");
		return true;
	case OPT_POLL_US:
		if (cz_parse_u64(arg, 0, 1000000, &v))
			cz_bad("--poll-us", arg, "must be 0..1000000 (microseconds)");
		cz_params.poll_us = (unsigned)v;
		return true;
	case OPT_CPU:
		cz_params.cpu = cz_parse_cpu(arg);
		return true;
	case OPT_THREADS:
		if (cz_parse_u64(arg, 1, 64, &v))
			cz_bad("--threads", arg, "must be 1..64");
		cz_params.threads = (unsigned)v;
		return true;
	}
	return false;
}

/* The device node or mount point and who owns it. */
static bool cz_opt_device(int c, const char *arg)
{
	uint64_t v;

	switch (c) {
	case OPT_NAME:
		if (!cz_valid_name(arg))
			cz_bad("--name", arg, "must be 1-63 characters of [A-Za-z0-9_.-]");
		cz_params.name = arg;
		return true;
	case OPT_FUSE:
		if (!*arg)
			cz_bad("--fuse", "''", "empty mount point");
		cz_params.fuse_mnt = arg;
		return true;
	case OPT_FORCE_MOUNT:
		cz_params.force_mount = true;
		return true;
	case OPT_MODE:		/* octal, as chmod(1) takes it */
		if (cz_parse_mode(arg, &cz_params.mode))
			cz_bad("--mode", arg, "must be an octal mode up to 07777");
		return true;
	case OPT_OWNER: {
		gid_t g;

		if (lc_lookup_user(arg, &cz_params.owner, &g))
			cz_bad("--owner", arg, "no such user (a name, or a uid 0..4294967294)");
		cz_params.owner_set = true;
		return true;
	}
	case OPT_GROUP: {
		struct group *gr = getgrnam(arg);

		if (gr)
			cz_params.group = gr->gr_gid;
		else if (!cz_parse_u64(arg, 0, UINT32_MAX - 1, &v))
			cz_params.group = (gid_t)v;
		else
			cz_bad("--group", arg, "no such group (a name, or a gid 0..4294967294)");
		cz_params.group_set = true;
		return true;
	}
	case OPT_MAJOR:         /* Linux dev_t: 12-bit major, 20-bit minor */
		if (cz_parse_u64(arg, 0, 4095, &v))
			cz_bad("--major", arg, "must be 0..4095 (0: dynamic)");
		cz_params.major = (unsigned)v;
		return true;
	case OPT_MINOR:
		if (cz_parse_u64(arg, 0, 1048575, &v))
			cz_bad("--minor", arg, "must be 0..1048575");
		cz_params.minor = (unsigned)v;
		return true;
	}
	return false;
}

/*
 * -o: the FUSE mount options libfuse's programs take, mapped to what cusezero
 * already does or to its own option; the rest are refused one by one (the
 * mount's options are fixed: fsname, subtype, permissions checked by the
 * kernel, a file that takes writes as /dev/zero does).
 */
static void cz_mount_opt(char *o)
{
	char *eq = strchr(o, '=');

	if (!strcmp(o, "allow_other")) {
		/* ff_serve adds it as root; a user's mount would need user_allow_other. */
		if (geteuid())
			cz_bad("-o", o, "needs root (cusezero mounts with allow_other as root)");
	} else if (!strcmp(o, "default_permissions") || !strcmp(o, "rw")) {
		/* always on */
	} else if (!strcmp(o, "debug")) {
		cz_params.debug = true;
		cz_params.foreground = true;
	} else if (eq && !strncmp(o, "uid=", 4)) {
		cz_opt_device(OPT_OWNER, eq + 1);
	} else if (eq && !strncmp(o, "gid=", 4)) {
		cz_opt_device(OPT_GROUP, eq + 1);
	} else if (!strcmp(o, "ro")) {
		cz_bad("-o", o, "not offered: the zero file takes writes, as /dev/zero");
	} else if (eq && !strncmp(o, "umask=", 6)) {
		cz_bad("-o", o, "not offered: use --mode OCTAL");
	} else {
		cz_bad("-o", o, "not supported (allow_other, default_permissions, rw, debug, uid=, gid=)");
	}
}

static void cz_mount_opts(const char *arg)
{
	char buf[512], *save = NULL, *o;

	if (!*arg || strlen(arg) >= sizeof(buf))
		cz_bad("-o", arg, "expected OPT[,OPT...]");
	snprintf(buf, sizeof(buf), "%s", arg);
	for (o = strtok_r(buf, ",", &save); o; o = strtok_r(NULL, ",", &save))
		cz_mount_opt(o);
}

/* The process: privileges, pidfile, foreground, debug. */
static bool cz_opt_process(int c, const char *arg)
{
	uid_t u;
	gid_t g;

	switch (c) {
	case OPT_USER:
		if (lc_lookup_user(arg, &u, &g))
			cz_bad("--user", arg, "no such user (a name, or a uid 0..4294967294)");
		cz_params.user = arg;
		return true;
	case OPT_PIDFILE:
		cz_params.pidfile = arg;
		return true;
	case 'f':
		cz_params.foreground = true;
		return true;
	case 'd':
		cz_params.debug = true;
		cz_params.foreground = true;
		return true;
	case 'o':
		cz_mount_opts(arg);
		return true;
	case 'h':
		cz_usage(stdout);
		exit(0);
	}
	return false;
}

/* `run` takes COMMAND after "--"; the daemon takes no operand. */
static int cz_operands(int argc, char **argv, bool run)
{
	if (run) {
		if (optind >= argc || strcmp(argv[optind - 1], "--")) {
			if (optind < argc)
				cz_err("run %s: put \"--\" before COMMAND", argv[optind]);
			else
				cz_err("run: no COMMAND (usage: cusezero run [OPTIONS] -- COMMAND...)");
			exit(2);
		}
		return optind;
	}
	if (optind < argc) {
		cz_err("%s: unexpected argument (see cusezero --help)", argv[optind]);
		exit(2);
	}
	return argc;
}

/* Parse options; returns the index of COMMAND (after "--") for run, else argc. */
static int cz_parse(int argc, char **argv, bool run)
{
	char bad[8];
	int c;

	opterr = 0;
	while ((c = getopt_long(argc, argv, "+:fdho:", cz_options, NULL)) != -1) {
		if (c == OPT_COLOCATE) {
			cz_parse_colocate(optarg, run);
			continue;
		}
		if (cz_opt_readpath(c, optarg) || cz_opt_serving(c, optarg) ||
		    cz_opt_device(c, optarg) || cz_opt_process(c, optarg))
			continue;
		if (c == ':')
			cz_err("%s: missing value", argv[optind - 1]);
		else
			cz_err_unknown_option(cz_getopt_bad(argv, optind, optopt, bad, sizeof(bad)));
		exit(2);
	}
	return cz_operands(argc, argv, run);
}

/* --rotate SET: parsed into cz_rot, each offset tried once; one-line errors. */
static struct rp_rotspec cz_rot;

static void cz_check_rotate(const struct zero_routine *r)
{
	struct zero_placed placed;
	char why[160];
	size_t i, n;
	int ret;

	if (cz_params.align != CUSEZERO_ALIGN_NONE)
		cz_bad("--rotate", cz_params.rotate, "not with --align (one placement or many)");
	ret = zero_place_parse_small_set(cz_params.rotate, cz_rot.off, CUSEZERO_ROTATE_MAX, &n);
	if (ret == -EDOM)
		cz_bad("--rotate", cz_params.rotate, "holds an offset no instruction can start at");
	if (ret == -E2BIG) {
		snprintf(why, sizeof(why), "%zu offsets; at most %d", n, CUSEZERO_ROTATE_MAX);
		cz_bad("--rotate", cz_params.rotate, why);
	}
	if (ret)
		cz_bad("--rotate", cz_params.rotate, "must be offsets as 0..63, 0..60:4 or 0,8,36");
	for (i = 0; i < n; i++) {
		ret = zero_place(r, cz_params.point, cz_rot.off[i], &placed);
		if (ret) {
			snprintf(why, sizeof(why), "offset %u: %s", cz_rot.off[i],
				 zero_place_strerror(ret));
			cz_bad("--rotate", cz_params.rotate, why);
		}
		zero_unplace(&placed);
	}
	cz_rot.n = (unsigned)n;
	cz_rot.period = cz_params.rotate_period;
}

/* Validate routine/align with a precise one-line message before anything is set up. */
static void cz_check_routine(void)
{
	const struct zero_routine *r;
	struct zero_placed placed;
	const char *why = NULL;
	char val[32];
	int ret;

	if (!cz_params.routine) {
		/* none named: what the running kernel runs for clear_user here, where decided */
		char how[2048];

		r = zero_device_default(how, sizeof(how));
		cz_params.routine = r->name;
		cz_debug("routine %s (no --routine): %s", r->name, how);
	}
	r = zero_lookup(cz_params.routine);
	if (!r)
		cz_bad("--routine", cz_params.routine, "unknown routine (see cusezero --routine help)");
	if (!zero_usable(r, &why))
		cz_bad("--routine", r->name, why);
	if (cz_params.rotate) {
		cz_check_rotate(r);
		return;
	}
	if (cz_params.rotate_period) {
		snprintf(val, sizeof(val), "%u", cz_params.rotate_period);
		cz_bad("--rotate-period", val, "needs --rotate");
	}
	if (cz_params.align == CUSEZERO_ALIGN_NONE)
		return;
	ret = zero_place(r, cz_params.point, (unsigned)cz_params.align, &placed);
	if (ret) {
		snprintf(val, sizeof(val), "%d", cz_params.align);
		cz_bad("--align", val, zero_place_strerror(ret));
	}
	zero_unplace(&placed);
}

int main(int argc, char **argv)
{
	static char defmnt[PATH_MAX], runname[64];
	bool run = argc > 1 && !strcmp(argv[1], "run");
	const char *why = NULL;
	int cmd, ret;
	pid_t pid;

	cz_cli_init("cusezero");
	cz_version_arg(argc, argv, "cusezero");
	if (run) {
		argv++;
		argc--;
		/* a run needs its own device: default name unique per run */
		snprintf(runname, sizeof(runname), "cusezero-run-%d", (int)getpid());
		cz_params.name = runname;
	}
	cmd = cz_parse(argc, argv, run);
	cz_log_init(!cz_params.foreground, cz_params.debug);
	if (cz_ksrc.n) {
		const struct zero_routine *loaded[ZERO_KSRC_MAX_SOURCES];
		char err[1024];

		/* before the daemon forks or starts a thread: the check forks */
		if (zero_sources_load(&cz_ksrc, loaded, err, sizeof(err))) {
			cz_err("%s", err);
			return 1;
		}
		if (!cz_params.routine)
			cz_params.routine = loaded[0]->name;
	}
	if (cz_params.routine && !strcmp(cz_params.routine, "help")) {
		zero_print_help(stdout);
		return 0;
	}
	if (run && geteuid() != 0) {
		cz_err("run: needs root (a private mount namespace and a bind mount)");
		return 1;
	}
	cz_check_routine();
	ret = zero_fault_install();
	if (ret) {
		cz_err("cannot install the fault handler: %s", strerror(-ret));
		return 1;
	}
	ret = rp_init(cz_params.routine, cz_params.align, cz_params.point, cz_params.chunk,
		      cz_params.threads + fud_extra_threads(cz_params.threads), cz_params.poison);
	if (!ret && cz_rot.n) {
		struct rp_change rc = { .rot_set = true, .rot = cz_rot, .point_set = true,
					.point = cz_params.point };

		ret = rp_apply(&rc);
	}
	if (ret) {
		cz_err("read path set-up: %s", strerror(-ret));
		return 1;
	}
	if (!cz_params.fuse_mnt && !fc_available(&why)) {
		snprintf(defmnt, sizeof(defmnt), "/run/cusezero/%s", cz_params.name);
		cz_params.fuse_mnt = defmnt;
		cz_params.fuse_fallback = true;
		cz_err("CUSE unavailable (%s); using FUSE: %s/zero", why, defmnt);
	}
	if (cz_params.fuse_mnt && ff_prepare_mountpoint(cz_params.fuse_mnt, cz_params.fuse_fallback))
		return 1;
	if (lc_pidfile_open()) {
		ff_release_mountpoint();
		return 1;
	}
	if (run)
		return run_main(argv + cmd);
	if (!cz_params.foreground) {
		ret = lc_fork_until_ready(&pid);
		if (ret) {
			lc_start_failed();
			if (ret != -ECHILD)	/* else the daemon did */
				ff_release_mountpoint();
			return 1;
		}
		if (pid)
			return 0;
	}
	ret = cz_params.fuse_mnt ? ff_serve() : fc_serve();
	if (ret)
		lc_start_failed();
	return ret ? 1 : 0;
}
