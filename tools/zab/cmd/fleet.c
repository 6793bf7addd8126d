/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * zab fleet EXPERIMENT -i INVENTORY [options] [-- ZAB-RUN-OPTIONS]: the
 * options, the campaign (its id defaults to the experiment's name and the
 * SHA-256 of the experiment file and the inventory), then per run: the
 * SUTs with no run stored for the campaign, the bundle (pack.h), the vars
 * file and ansible-playbook (fleet.h).
 */
#include <errno.h>
#include <getopt.h>
#include <pwd.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include <nettle/sha2.h>

#include "cli.h"
#include "cmd.h"
#include "czstore.h"
#include "fleet/fleet.h"
#include "model/pack.h"
#include "abspath.h"
#include "util.h"

enum { F_STORE = 400, F_CAMPAIGN, F_NAME, F_FORKS, F_SERIAL, F_LIMIT, F_TIMEOUT, F_INSTALL,
       F_PACKAGE, F_RESULTS, F_DRY, F_MIN, F_HTML, F_BISECT };

static void fleet_usage(void)
{
	printf("usage: zab fleet EXPERIMENT -i INVENTORY [--store URL] [--campaign ID] [--name NAME]\n"
	       "                 [--forks N] [--serial N] [--limit PATTERN] [--timeout SECONDS]\n"
	       "                 [--install none|prefix|deb] [--package FILE] [--results DIR]\n"
	       "                 [--min-per-class N] [--html FILE] [--dry-run] [-- ZAB-RUN-OPTIONS...]\n"
	       "       zab fleet --bisect EXPERIMENT -i INVENTORY [...] [-- ZAB-BISECT-OPTIONS...]\n"
	       "(--bisect: zab bisect on one SUT of each class, all classes at once, one answer each)\n");
	zab_help_end(stdout, "fleet");
}

static int whole(const char *opt, const char *v, unsigned max, unsigned *out)
{
	*out = cz_opt_uint(opt, v, 1, max);
	return 0;
}

static int fleet_option(struct fleet *f, int c, const char *v)
{
	switch (c) {
	case 'i': f->inv = v; return 0;
	case F_STORE: f->store = v; return 0;
	case F_CAMPAIGN: f->campaign = v; return 0;
	case F_NAME: f->name = v; return 0;
	case F_LIMIT: f->limit = v; return 0;
	case F_INSTALL: f->install = v; return 0;
	case F_PACKAGE: f->pkg = v; return 0;
	case F_RESULTS: f->results = v; return 0;
	case F_HTML: f->html = v; return 0;
	case F_DRY: f->dry = true; return 0;
	case F_BISECT: f->bisect = true; return 0;
	case F_FORKS: return whole("--forks", v, 100000, &f->forks);
	case F_SERIAL: return whole("--serial", v, 100000, &f->serial);
	case F_TIMEOUT: return whole("--timeout", v, 100000000, &f->timeout);
	case F_MIN: return whole("--min-per-class", v, 100000, &f->min_per_class);
	}
	return -1;
}

/* 0, 1 after --help, -1 after one line (a usage error). */
static int fleet_options(struct fleet *f, int argc, char **argv)
{
	static const struct option lo[] = {
		{ "inventory", required_argument, NULL, 'i' }, { "store", required_argument, NULL, F_STORE },
		{ "campaign", required_argument, NULL, F_CAMPAIGN }, { "name", required_argument, NULL, F_NAME },
		{ "forks", required_argument, NULL, F_FORKS }, { "serial", required_argument, NULL, F_SERIAL },
		{ "limit", required_argument, NULL, F_LIMIT }, { "timeout", required_argument, NULL, F_TIMEOUT },
		{ "install", required_argument, NULL, F_INSTALL }, { "package", required_argument, NULL, F_PACKAGE },
		{ "results", required_argument, NULL, F_RESULTS }, { "dry-run", no_argument, NULL, F_DRY },
		{ "min-per-class", required_argument, NULL, F_MIN }, { "html", required_argument, NULL, F_HTML },
		{ "bisect", no_argument, NULL, F_BISECT },
		{ "help", no_argument, NULL, 'h' }, { NULL, 0, NULL, 0 }
	};
	int c, end;

	for (end = 1; end < argc && strcmp(argv[end], "--"); end++)
		;
	opterr = 0;
	optind = 1;
	while ((c = getopt_long(end, argv, ":hi:", lo, NULL)) != -1) {
		if (c == 'h') {
			fleet_usage();
			return 1;
		}
		if (c == '?' || c == ':') {
			cz_err("fleet: %s '%s' (see zab fleet --help)", c == ':' ? "no value for option" :
			       "unknown option", argv[optind - 1]);
			return -1;
		}
		if (fleet_option(f, c, optarg))
			return -1;
	}
	if (optind < end)
		f->exp = argv[optind++];
	if (optind < end) {
		cz_err("fleet: one EXPERIMENT only ('%s', then '%s')", f->exp, argv[optind]);
		return -1;
	}
	f->zab_args = argv + end + (end < argc);
	f->nzab_args = argc - end - (end < argc);
	return 0;
}

/* The checks that need no file: -1 after one line. */
static int fleet_check_usage(const struct fleet *f)
{
	if (!f->exp)
		cz_err("fleet: no EXPERIMENT (a zab experiment file)");
	else if (!f->inv)
		cz_err("fleet: no inventory (-i INVENTORY: an Ansible INI or YAML file)");
	else if (strcmp(f->install, "none") && strcmp(f->install, "prefix") && strcmp(f->install, "deb"))
		cz_err("fleet: --install '%s': expected none, prefix or deb", f->install);
	else if (f->bisect && (f->html || f->min_per_class))
		cz_err("fleet: --bisect answers per class: no %s (a sweep's report)",
		       f->html ? "--html" : "--min-per-class");
	else if (strcmp(f->install, "none") && !f->pkg)
		cz_err("fleet: --install %s: --package FILE (the %s) needed", f->install,
		       strcmp(f->install, "deb") ? "prefix tarball" : "Debian package");
	else
		return 0;
	return -1;
}

static bool readable_file(const char *what, const char *path)
{
	struct stat st;

	if (!stat(path, &st) && S_ISREG(st.st_mode) && !access(path, R_OK))
		return true;
	cz_err("fleet: %s '%s': not a readable file", what, path);
	return false;
}

/* The playbook folder: $CUSEZERO_ANSIBLE, the installed one, the sources'. */
static char *ansible_dir(void)
{
	const char *env = getenv("CUSEZERO_ANSIBLE");
	struct stat st;

	if (env && *env)
		return cz_xstrdup(env);
#ifdef CZ_PKGDATADIR
	if (!stat(CZ_PKGDATADIR "/ansible/fleet.yml", &st))
		return cz_xstrdup(CZ_PKGDATADIR "/ansible");
#endif
#ifdef CZ_SRC_ANSIBLE_DIR
	return cz_xstrdup(CZ_SRC_ANSIBLE_DIR);
#else
	(void)st;
	return NULL;
#endif
}

/* The SHA-256 of the experiment file then the inventory, first 12 hex digits. */
static int campaign_sum(const struct fleet *f, char out[13])
{
	const char *paths[2] = { f->exp, f->inv };
	unsigned char buf[65536], d[SHA256_DIGEST_SIZE];
	struct sha256_ctx c;
	size_t n;
	int i;

	sha256_init(&c);
	for (i = 0; i < 2; i++) {
		FILE *in = fopen(paths[i], "rb");

		if (!in) {
			cz_err("fleet: %s: %s", paths[i], strerror(errno));
			return -1;
		}
		while ((n = fread(buf, 1, sizeof(buf), in)) > 0)
			sha256_update(&c, n, buf);
		fclose(in);
	}
	sha256_digest(&c, sizeof(d), d);
	for (i = 0; i < 6; i++)
		snprintf(out + 2 * i, 3, "%02x", d[i]);
	return 0;
}

/* s with every byte outside [A-Za-z0-9._-] as '-' (malloc). */
static char *sanitize(const char *s)
{
	char *o = cz_xstrdup(s), *p;

	for (p = o; *p; p++)
		if (!strchr("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789._-", *p))
			*p = '-';
	return o;
}

/* $XDG_CACHE_HOME, else $HOME/.cache, else the passwd entry's home's. */
static char *cache_home(void)
{
	const char *x = getenv("XDG_CACHE_HOME"), *home = getenv("HOME");
	struct passwd *pw;

	if (x && x[0] == '/')
		return cz_xstrdup(x);
	if (!home || home[0] != '/') {
		pw = getpwuid(getuid());
		home = pw && pw->pw_dir && pw->pw_dir[0] == '/' ? pw->pw_dir : "/";
		setenv("HOME", home, 1);        /* for ansible-playbook too */
	}
	return cz_xasprintf("%s/.cache", home);
}

static int mkdirs(const char *path)
{
	char *p = cz_xstrdup(path), *s;
	int ret = 0;

	for (s = p + 1; !ret && (s = strchr(s, '/')); s++) {
		*s = 0;
		if (mkdir(p, 0700) && errno != EEXIST)
			ret = -errno;
		*s = '/';
	}
	if (!ret && mkdir(p, 0700) && errno != EEXIST)
		ret = -errno;
	if (ret)
		cz_err("fleet: cannot make %s: %s", p, strerror(-ret));
	free(p);
	return ret;
}

/* Name, campaign, results folder, paths: 0, or -1 after one line. */
static int fleet_derive(struct fleet *f)
{
	struct zab_experiment e = { .sessions = 1 };
	char sum[13], self[4096], *dir;
	ssize_t n = readlink("/proc/self/exe", self, sizeof(self) - 1);

	size_t v;

	if (zab_experiment_load(&e, f->exp))
		return -1;
	for (v = 0; v < e.nvar; v++)
		f->device |= e.var[v].device;
	if (!f->name)
		f->name = f->own_name = cz_xstrdup(e.name ? e.name : strrchr(f->exp, '/') ?
						   strrchr(f->exp, '/') + 1 : f->exp);
	zab_experiment_free(&e);
	if (!f->campaign) {
		if (campaign_sum(f, sum))
			return -1;
		dir = sanitize(f->name);
		/* a bisect's probes are no sweep's runs: a campaign of their own */
		f->campaign = f->own_campaign = cz_xasprintf("%s-%s%s", dir, sum, f->bisect ? "-bisect" : "");
		free(dir);
	}
	if (!f->results) {
		char *cache = cache_home();

		dir = sanitize(f->campaign);
		f->results = f->own_results = cz_xasprintf("%s/cusezero/fleet/%s%s", cache,
							   dir[0] == '.' ? "_" : "", dir);
		free(dir);
		free(cache);
	} else
		f->results = f->own_results = cz_absolute(f->results);
	f->pkg_abs = f->pkg ? cz_absolute(f->pkg) : cz_xstrdup("");
	f->self = cz_xstrdup(n > 0 ? (self[n] = 0, self) : "zab");
	f->bundle = cz_xasprintf("%s/bundle", f->results);
	return 0;
}

/* Forget what an earlier try left for the SUTs about to run. */
static void fleet_clean(const struct fleet *f)
{
	static const char *const ext[] = { "json", "state" };
	char *path;
	size_t h, i;

	for (h = 0; h < f->nhosts; h++)
		for (i = 0; !f->hosts[h].done && i < 2; i++) {
			path = cz_xasprintf("%s/%s.%s", f->results, f->hosts[h].name, ext[i]);
			unlink(path);
			free(path);
		}
	zab_pack_remove(f->bundle);
}

/* ansible-playbook over the SUTs still to run: -1 when it could not start. */
static int fleet_play(struct fleet *f, size_t todo)
{
	char *vars = cz_xasprintf("%s/vars.yml", f->results), *evars = cz_xasprintf("@%s", vars);
	char *book = cz_xasprintf("%s/fleet.yml", f->ansible_dir), forks[16];
	const char *argv[16];
	int n = 0, rc = -1;

	if (mkdirs(f->results))
		goto out;
	fleet_clean(f);
	if (zab_pack(f->exp, f->bundle, f->sums, &f->shipped) || fleet_write_vars(f, vars))
		goto out;
	argv[n++] = "ansible-playbook";
	argv[n++] = "-i";
	argv[n++] = f->inv;
	argv[n++] = book;
	argv[n++] = "-e";
	argv[n++] = evars;
	if (f->forks) {
		snprintf(forks, sizeof(forks), "%u", f->forks);
		argv[n++] = "--forks";
		argv[n++] = forks;
	}
	if (f->limit) {
		argv[n++] = "--limit";
		argv[n++] = f->limit;
	}
	argv[n] = NULL;
	printf("zab fleet: campaign %s: %zu of %zu SUTs to run\n", f->campaign, todo, f->nhosts);
	if (f->dry) {
		fleet_print_argv(argv);
		rc = 0;
		goto out;
	}
	/* one ssh session per task (the role uses no become); ANSIBLE_PIPELINING=False turns it off */
	setenv("ANSIBLE_PIPELINING", "True", 0);
	fflush(stdout);
	rc = fleet_run(argv, NULL, NULL, 0);
	printf("zab fleet: ansible-playbook exited %d\n", rc);
	rc = rc < 0 ? -1 : 0;
out:
	free(book);
	free(evars);
	free(vars);
	return rc;
}

static int fleet_go(struct fleet *f)
{
	struct czs *s;
	size_t h, todo = 0;
	int ret = 1;

	if (fleet_inventory(f))
		return 1;
	s = zab_store_open(f->store);
	if (!s)
		return 1;
	if (f->bisect) {
		todo = fleet_bisect_pick(f);
		ret = fleet_play(f, todo) ? 1 : f->dry ? 0 : fleet_bisect_collect(f, s, todo);
		goto out;
	}
	if (fleet_mark_stored(f, s, false))
		goto out;
	for (h = 0; h < f->nhosts; h++)
		todo += !f->hosts[h].done;
	if (!todo)
		printf("zab fleet: campaign %s: every SUT has its run in the store\n", f->campaign);
	else if (fleet_play(f, todo))
		goto out;
	if (f->dry) {
		ret = 0;
		goto out;
	}
	if (todo) {
		fleet_collect(f, s);
		zab_pack_remove(f->bundle);
	}
	ret = fleet_summary(f, s);
	for (h = 0; h < f->nhosts && !f->hosts[h].done && !f->hosts[h].stored; h++)
		;
	if (h < f->nhosts)
		fleet_report(f);
out:
	czs_close(s);
	return ret;
}

/* --html goes to zab report: only when this zab's report takes it. */
static bool report_has_html(const struct fleet *f)
{
	const char *argv[] = { f->self, "report", "--help", NULL };
	char *out = NULL, err[256];
	bool has = fleet_run(argv, &out, err, sizeof(err)) == 0 && out && strstr(out, "--html");

	free(out);
	if (!has)
		cz_err("fleet: --html %s: this zab's report has no --html", f->html);
	return has;
}

static void fleet_free(struct fleet *f)
{
	size_t h;

	for (h = 0; h < f->nhosts; h++) {
		free(f->hosts[h].name);
		free(f->hosts[h].cls);
		free(f->hosts[h].state);
		free(f->hosts[h].detail);
	}
	free(f->hosts);
	free(f->own_name);
	free(f->own_campaign);
	free(f->own_results);
	free(f->ansible_dir);
	free(f->self);
	free(f->pkg_abs);
	free(f->bundle);
	json_decref(f->shipped);
}

int zab_cmd_fleet(int argc, char **argv)
{
	struct fleet f = { .timeout = 3600, .install = "none" };
	int ret = fleet_options(&f, argc, argv);
	char *book;

	if (ret)
		return ret > 0 ? 0 : 2;
	if (fleet_check_usage(&f))
		return 2;
	if (!readable_file("experiment", f.exp) || !readable_file("inventory", f.inv) ||
	    (f.pkg && !readable_file("--package", f.pkg)))
		return 1;
	if (fleet_which("ansible-playbook") || fleet_which("ansible-inventory")) {
		cz_err("fleet: ansible-playbook not found (Debian: apt-get install ansible-core)");
		return 1;
	}
	f.ansible_dir = ansible_dir();
	book = cz_xasprintf("%s/fleet.yml", f.ansible_dir ? f.ansible_dir : "");
	if (!f.ansible_dir || !readable_file("playbook", book))
		ret = 1;
	free(book);
	if (!ret && fleet_derive(&f))
		ret = 1;
	if (!ret && f.html && !report_has_html(&f))
		ret = 2;
	if (!ret)
		ret = fleet_go(&f);
	fleet_free(&f);
	return ret;
}
