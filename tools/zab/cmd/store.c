/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * zab store import|export|ls|flush: result files into the store
 * (store/czstore.h) and back out, what it holds, and the runs kept in the
 * state folder when they could not be stored.  The store is --store URL, else
 * $CUSEZERO_STORE, else the SQLite file under $XDG_DATA_HOME.
 */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <getopt.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "cli.h"
#include "cmd.h"
#include "czstore.h"
#include "outfile.h"

enum { OPT_EXPERIMENT = 300, OPT_CAMPAIGN, OPT_SUTCLASS, OPT_SUTNAME, OPT_RUN, OPT_FORMAT, OPT_KCIDB };

#define STORE_LONGOPTS							\
	ZAB_STORE_LONGOPTS,						\
	{ "experiment", required_argument, NULL, OPT_EXPERIMENT },	\
	{ "campaign", required_argument, NULL, OPT_CAMPAIGN },		\
	{ "sut-class", required_argument, NULL, OPT_SUTCLASS },		\
	{ "sut-name", required_argument, NULL, OPT_SUTNAME },		\
	{ "run", required_argument, NULL, OPT_RUN },			\
	{ "help", no_argument, NULL, 'h' }

struct store_cli {
	const char *url;
	struct czs_filter f;
	const char *uuids[256];
	const char *out;          /* export -o */
	const char *format;       /* ls --format */
	bool kcidb;               /* export --kcidb */
};

/* A store option shared by the subcommands: 1 taken, 0 not one, -1 bad. */
static int store_option(int c, const char *arg, struct store_cli *sc)
{
	if (zab_store_option(c, arg, &sc->url))
		return 1;
	switch (c) {
	case OPT_EXPERIMENT: sc->f.experiment = arg; return 1;
	case OPT_CAMPAIGN: sc->f.campaign = arg; return 1;
	case OPT_SUTCLASS: sc->f.sut_class = arg; return 1;
	case OPT_SUTNAME: sc->f.sut_name = arg; return 1;
	case OPT_RUN:
		if (sc->f.nuuids == 256) {
			cz_err("--run %s: at most 256 runs", arg);
			return -1;
		}
		sc->uuids[sc->f.nuuids++] = arg;
		sc->f.uuids = sc->uuids;
		return 1;
	}
	return 0;
}

/*
 * One file's runs into the store, opened on the first of them (so files
 * that are all refused make no store): 0, or 1 after one line per run not
 * stored.  *stored: how many are in the store now.
 */
static int import_file(struct czs **s, const char *url, const char *file, size_t *stored)
{
	json_t *doc = czres_json_load(file, ""), *list, *one;
	struct czres_result r;
	char uuid[37];
	size_t j, n;
	int ret = 0, k;

	if (!doc)
		return 1;
	/* a zab report --json file holds several results */
	list = json_object_get(doc, "results");
	n = json_is_array(list) ? json_array_size(list) : 1;
	for (j = 0; j < n; j++) {
		one = json_is_array(list) ? json_array_get(list, j) : doc;
		if (!*s) {
			if (czres_result_from_json(&r, json_incref(one), file)) {
				czres_result_free(&r);
				ret = 1;
				continue;
			}
			czres_result_free(&r);
			if (!(*s = zab_store_open(url))) {
				json_decref(doc);
				return -1;
			}
		}
		k = zab_store_record(*s, one, file, uuid);
		if (k < 0) {
			ret = 1;
		} else {
			printf("%s: %s %s\n", file, k ? "already stored" : "imported", uuid);
			(*stored)++;
		}
	}
	json_decref(doc);
	return ret;
}

static int cmd_import(const char *url, int argc, char **argv)
{
	struct czs *s = NULL;
	size_t stored = 0;
	int i, ret = 0, k;

	if (argc <= optind) {
		cz_err("store import: no FILE.json given");
		return 2;
	}
	for (i = optind; i < argc; i++) {
		k = import_file(&s, url, argv[i], &stored);
		if (k < 0)
			return 1;
		ret |= k;
	}
	/* a store made for runs of which none was stored: nothing left behind */
	if (!stored)
		czs_close_unused(s);
	else
		czs_close(s);
	return ret;
}

/* The store a kept run was meant for (its .store file), or NULL for the default. */
static char *kept_store(const char *dir, const char *name)
{
	char path[4400], line[1100];
	FILE *f;
	size_t n = strlen(name);

	snprintf(path, sizeof(path), "%s/%.*s.store", dir, (int)(n - 5), name);
	f = fopen(path, "re");
	if (!f)
		return NULL;
	if (!fgets(line, sizeof(line), f))
		line[0] = 0;
	fclose(f);
	line[strcspn(line, "\n")] = 0;
	return line[0] ? cz_xstrdup(line) : NULL;
}

/*
 * zab store flush: every run kept in the state folder, imported into the
 * store it was meant for (or --store), its files removed once it is there.
 */
static int cmd_flush(const char *url)
{
	char dir[4096], path[4400];
	struct dirent **ents = NULL;
	size_t stored, nflushed = 0;
	int n, i, ret = 0;

	czs_unstored_dir(dir, sizeof(dir));
	n = scandir(dir, &ents, NULL, alphasort);
	if (n < 0) {
		if (errno != ENOENT) {
			cz_err("store flush: %s: %s", dir, strerror(errno));
			return 1;
		}
		n = 0;
	}
	for (i = 0; i < n; i++) {
		const char *name = ents[i]->d_name;
		size_t len = strlen(name);
		char *meant = NULL;
		struct czs *s = NULL;
		int k;

		if (len <= 5 || strcmp(name + len - 5, ".json"))
			continue;
		meant = url ? NULL : kept_store(dir, name);
		if (meant && strstr(meant, "***")) {
			cz_err("store flush: %s/%s was meant for %s, whose password is not kept: give --store", dir,
			       name, meant);
			free(meant);
			ret = 1;
			continue;
		}
		snprintf(path, sizeof(path), "%s/%s", dir, name);
		stored = 0;
		k = import_file(&s, url ? url : meant, path, &stored);
		czs_close(s);
		if (!k) {
			unlink(path);
			snprintf(path, sizeof(path), "%s/%.*s.store", dir, (int)(len - 5), name);
			unlink(path);
			nflushed++;
		}
		ret |= k ? 1 : 0;
		free(meant);
	}
	for (i = 0; i < n; i++)
		free(ents[i]);
	free(ents);
	if (!nflushed && !ret)
		printf("# no kept run in %s\n", dir);
	return ret;
}

/* out (taken) to -o FILE or standard output: 0, or 1 after one line. */
static int export_write(const struct store_cli *sc, json_t *out, size_t flags)
{
	struct cz_out o = { .f = stdout };
	int ret;

	/* -o FILE: 0600, a fresh file renamed onto FILE when whole, never through a link */
	if (sc->out && strcmp(sc->out, "-") && (ret = cz_out_open(&o, sc->out, 0600))) {
		cz_err("store export -o %s: %s", sc->out, strerror(-ret));
		json_decref(out);
		return 1;
	}
	ret = cz_json_dump(o.f, out, flags);
	if (o.f != stdout && ret)
		cz_out_discard(&o);
	else if (o.f != stdout && cz_out_commit(&o))
		ret = -1;
	json_decref(out);
	if (ret)
		cz_err("store export: cannot write %s", sc->out ? sc->out : "standard output");
	return ret ? 1 : 0;
}

/*
 * Each run's UUID in its document (run.uuid), also for a file from before
 * run.uuid, whose UUID the store derived from its content: both lists are
 * in the store's order (r.id) and runs are only added, after those read.
 */
static int run_uuids(struct czs *s, const struct czs_filter *f, struct czres_result *r, size_t nr)
{
	char err[1024];
	json_t *rows, *run;
	const char *have, *uuid;
	size_t i;

	if (czs_list(s, CZS_RUNS, f, &rows, err, sizeof(err))) {
		cz_err("store export --kcidb: %s", err);
		return -1;
	}
	for (i = 0; i < nr; i++) {
		uuid = json_string_value(json_object_get(json_array_get(rows, i), "uuid"));
		run = json_object_get(r[i].doc, "run");
		have = json_string_value(json_object_get(run, "uuid"));
		if (!uuid || (have && strcmp(have, uuid))) {
			cz_err("store export --kcidb: the runs of %s changed while read: try again", czs_name(s));
			json_decref(rows);
			return -1;
		}
		if (!json_is_object(run))
			run = cz_jset(r[i].doc, "run", cz_jobj());
		if (!have)
			cz_jset(run, "uuid", cz_jstr(uuid));
	}
	json_decref(rows);
	return 0;
}

/* --kcidb: the matching runs' kernel variants as a KCIDB v5 document (kcidb.c). */
static int export_kcidb(struct czs *s, const struct store_cli *sc)
{
	struct czres_result *r = NULL;
	size_t nr = 0, nco = 0, i;
	char err[1024];
	json_t *out = NULL;

	if (czs_load_results(s, &sc->f, &r, &nr, err, sizeof(err))) {
		cz_err("store export --kcidb: %s", err);
		return 1;
	}
	if (!nr)
		cz_err("store export --kcidb: no run in %s matches", czs_name(s));
	else if (run_uuids(s, &sc->f, r, nr))
		nco = 0;
	else if (!(out = zab_kcidb_doc(r, nr, &nco)) || !nco)
		cz_err("store export --kcidb: none of the %zu matching runs in %s has a kernel change "
		       "sequence step or a kernel source variant", nr, czs_name(s));
	for (i = 0; i < nr; i++)
		czres_result_free(&r[i]);
	free(r);
	if (!nco) {
		json_decref(out);
		return 1;
	}
	return export_write(sc, out, CZ_JSON_FLAGS | JSON_SORT_KEYS);
}

static int cmd_export(struct czs *s, const struct store_cli *sc)
{
	char err[1024];
	json_t *docs, *out;

	if (sc->kcidb)
		return export_kcidb(s, sc);
	if (czs_export(s, &sc->f, &docs, err, sizeof(err))) {
		cz_err("store export: %s", err);
		return 1;
	}
	if (!json_array_size(docs)) {
		cz_err("store export: no run in %s matches", czs_name(s));
		json_decref(docs);
		return 1;
	}
	/* one run: its document; several: the form zab report --json writes */
	if (json_array_size(docs) == 1) {
		out = json_incref(json_array_get(docs, 0));
	} else {
		out = cz_jobj();
		cz_jset(out, "zab", cz_jnum(1));
		cz_jset(out, "results", json_incref(docs));
	}
	json_decref(docs);
	return export_write(sc, out, 0);
}

/* A value as text for the table and CSV. */
static void cell_text(FILE *f, const json_t *v, bool csv)
{
	const char *s = json_string_value(v);
	char num[32];

	if (json_is_integer(v)) {
		snprintf(num, sizeof(num), "%lld", (long long)json_integer_value(v));
		s = num;
	}
	if (!s)
		s = csv ? "" : "-";
	if (csv)
		czrep_csv_str(f, s);
	else
		fputs(s, f);
}

static int cmd_ls(struct czs *s, const struct store_cli *sc, const char *what)
{
	enum czs_what w = !what || !strcmp(what, "runs") ? CZS_RUNS :
			  !strcmp(what, "experiments") ? CZS_EXPERIMENTS : !strcmp(what, "suts") ? CZS_SUTS : -1;
	const char *fmt = sc->format ? sc->format : "text";
	char err[1024];
	json_t *rows, *row, *v;
	const char *k, *sep;
	size_t i, j, n;

	if ((int)w < 0) {
		cz_err("store ls %s: expected experiments, runs or suts", what);
		return 2;
	}
	if (strcmp(fmt, "text") && strcmp(fmt, "json") && strcmp(fmt, "csv")) {
		cz_err("--format '%s': expected text, json or csv", fmt);
		return 2;
	}
	if (czs_list(s, w, &sc->f, &rows, err, sizeof(err))) {
		cz_err("store ls: %s", err);
		return 1;
	}
	if (!strcmp(fmt, "json")) {
		cz_json_dump(stdout, rows, 0);
		json_decref(rows);
		return 0;
	}
	/* text: tab-separated with a header (column -t lines it up); csv: RFC 4180 */
	sep = !strcmp(fmt, "csv") ? "," : "\t";
	row = json_array_get(rows, 0);
	if (!row && !strcmp(fmt, "text"))
		printf("# nothing in %s\n", czs_name(s));
	n = json_object_size(row);
	j = 0;
	json_object_foreach(row, k, v)
		printf("%s%s", k, ++j < n ? sep : "\n");
	json_array_foreach(rows, i, row) {
		j = 0;
		json_object_foreach(row, k, v) {
			cell_text(stdout, v, !strcmp(fmt, "csv"));
			fputs(++j < n ? sep : "\n", stdout);
		}
	}
	json_decref(rows);
	return 0;
}

int zab_cmd_store(int argc, char **argv)
{
	static const struct option opts[] = {
		STORE_LONGOPTS,
		{ "output", required_argument, NULL, 'o' },
		{ "format", required_argument, NULL, OPT_FORMAT },
		{ "kcidb", no_argument, NULL, OPT_KCIDB },
		{ NULL, 0, NULL, 0 },
	};
	struct store_cli sc;
	const char *sub = argc > 1 ? argv[1] : NULL;
	struct czs *s;
	char bad[8];
	int c, k, ret;

	memset(&sc, 0, sizeof(sc));
	if (!sub || (strcmp(sub, "import") && strcmp(sub, "export") && strcmp(sub, "ls") &&
		     strcmp(sub, "flush"))) {
		if (sub && (!strcmp(sub, "-h") || !strcmp(sub, "--help"))) {
			zab_usage_of(stdout, "store");
			return 0;
		}
		cz_err("store: expected import, export, ls or flush%s%s", sub ? ", not " : "", sub ? sub : "");
		return 2;
	}
	argc--;
	argv++;
	opterr = 0;
	optind = 1;
	while ((c = getopt_long(argc, argv, ":o:h", opts, NULL)) != -1) {
		if (c == '?' || c == ':') {
			zab_bad_option(c, argv, bad, sizeof(bad));
			return 2;
		}
		k = store_option(c, optarg, &sc);
		if (k < 0)
			return 2;
		if (k)
			continue;
		if (c == 'o')
			sc.out = optarg;
		else if (c == OPT_FORMAT)
			sc.format = optarg;
		else if (c == OPT_KCIDB)
			sc.kcidb = true;
		else if (c == 'h') {
			zab_usage_of(stdout, "store");
			return 0;
		}
	}
	if (strcmp(sub, "import") && optind < argc - (strcmp(sub, "ls") ? 0 : 1)) {
		cz_err("store %s: unexpected argument '%s'", sub, argv[optind]);
		return 2;
	}
	if (sc.kcidb && strcmp(sub, "export")) {
		cz_err("store %s: --kcidb is an option of store export", sub);
		return 2;
	}
	if (!strcmp(sub, "import"))
		return cmd_import(sc.url, argc, argv);
	if (!strcmp(sub, "flush"))
		return cmd_flush(sc.url);
	/* the readers: the store opened read-only, never made */
	s = zab_store_read(sc.url, sc.f.experiment);
	if (!s)
		return 1;
	if (!strcmp(sub, "export"))
		ret = cmd_export(s, &sc);
	else
		ret = cmd_ls(s, &sc, optind < argc ? argv[optind] : NULL);
	czs_close(s);
	return ret;
}
