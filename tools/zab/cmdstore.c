/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * zab store import|export|ls: result files into the store (store/czstore.h)
 * and back out, and what it holds.  The store is --store URL, else
 * $CUSEZERO_STORE, else the SQLite file under $XDG_DATA_HOME.
 */
#include <errno.h>
#include <getopt.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "cli.h"
#include "cmd.h"
#include "czstore.h"
#include "zab.h"

enum { OPT_STORE = 300, OPT_EXPERIMENT, OPT_CAMPAIGN, OPT_SUTCLASS, OPT_SUTNAME, OPT_RUN, OPT_FORMAT };

#define STORE_LONGOPTS							\
	{ "store", required_argument, NULL, OPT_STORE },		\
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
};

/* A store option shared by the subcommands: 1 taken, 0 not one, -1 bad. */
static int store_option(int c, const char *arg, struct store_cli *sc)
{
	switch (c) {
	case OPT_STORE: sc->url = arg; return 1;
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

struct czs *zab_store_open(const char *url)
{
	char buf[4096], err[1024];
	struct czs *s;

	if (!url)
		url = czs_default_url(buf, sizeof(buf));
	if (czs_open(url, &s, err, sizeof(err))) {
		cz_err("%s", err);
		return NULL;
	}
	return s;
}

int zab_store_record(struct czs *s, json_t *doc, const char *what, char uuid[37])
{
	char err[1024];
	bool already;
	int ret = czs_put_run(s, doc, what, uuid, &already, err, sizeof(err));

	if (ret) {
		if (err[0])
			cz_err("%s: not stored in %s: %s", what, czs_name(s), err);
		return -1;
	}
	return already ? 1 : 0;
}

static int cmd_import(struct czs *s, int argc, char **argv)
{
	char uuid[37];
	int i, ret = 0, k;

	if (argc <= optind) {
		cz_err("store import: no FILE.json given");
		return 2;
	}
	for (i = optind; i < argc; i++) {
		json_t *doc = zab_json_load(argv[i], ""), *list;
		size_t j, n;

		if (!doc) {
			ret = 1;
			continue;
		}
		/* a zab report --json file holds several results */
		list = json_object_get(doc, "results");
		n = json_is_array(list) ? json_array_size(list) : 1;
		for (j = 0; j < n; j++) {
			k = zab_store_record(s, json_is_array(list) ? json_array_get(list, j) : doc, argv[i], uuid);
			if (k < 0)
				ret = 1;
			else
				printf("%s: %s %s\n", argv[i], k ? "already stored" : "imported", uuid);
		}
		json_decref(doc);
	}
	return ret;
}

static int cmd_export(struct czs *s, const struct store_cli *sc)
{
	char err[1024];
	json_t *docs, *out;
	FILE *f = stdout;
	int ret;

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
	if (sc->out && strcmp(sc->out, "-") && !(f = fopen(sc->out, "w"))) {
		cz_err("store export -o %s: %s", sc->out, strerror(errno));
		json_decref(out);
		return 1;
	}
	ret = cz_json_dump(f, out, 0);
	if (f != stdout && fclose(f))
		ret = -1;
	json_decref(out);
	if (ret)
		cz_err("store export: cannot write %s", sc->out ? sc->out : "standard output");
	return ret ? 1 : 0;
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
		zab_csv_str(f, s);
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
		{ NULL, 0, NULL, 0 },
	};
	struct store_cli sc;
	const char *sub = argc > 1 ? argv[1] : NULL;
	struct czs *s;
	char bad[8];
	int c, k, ret;

	memset(&sc, 0, sizeof(sc));
	if (!sub || (strcmp(sub, "import") && strcmp(sub, "export") && strcmp(sub, "ls"))) {
		if (sub && (!strcmp(sub, "-h") || !strcmp(sub, "--help"))) {
			zab_usage(stdout);
			return 0;
		}
		cz_err("store: expected import, export or ls%s%s", sub ? ", not " : "", sub ? sub : "");
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
		else if (c == 'h') {
			zab_usage(stdout);
			return 0;
		}
	}
	if (strcmp(sub, "import") && optind < argc - (strcmp(sub, "ls") ? 0 : 1)) {
		cz_err("store %s: unexpected argument '%s'", sub, argv[optind]);
		return 2;
	}
	s = zab_store_open(sc.url);
	if (!s)
		return 1;
	if (!strcmp(sub, "import"))
		ret = cmd_import(s, argc, argv);
	else if (!strcmp(sub, "export"))
		ret = cmd_export(s, &sc);
	else
		ret = cmd_ls(s, &sc, optind < argc ? argv[optind] : NULL);
	czs_close(s);
	return ret;
}
