/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * zab expand EXPERIMENT [-o FILE] (sequence.h): the experiment file as
 * written, but each sequence variant replaced by one [variant NAME@K]
 * section per step naming its files by absolute path, with the step's
 * provenance as plain keys; source= and patch= of the other variants made
 * absolute too.  What `zab run` measures is the same either way.
 */
#include <ctype.h>
#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cli.h"
#include "outfile.h"
#include "sequence.h"
#include "abspath.h"
#include "util.h"

/* The keys a step's section gets from its expansion, not from the written section. */
static const char *const step_keys[] = {
	"source", "patch", "series", "kernel", "git", "sequence", "sequence-kind", "step",
	"steps", "label", "kernel-version", "git-commit",
};

/* The key of a "KEY = VALUE" line (in key[]), or "" for anything else. */
static void line_key(const char *line, char *key, size_t len)
{
	const char *s = line, *eq;
	char buf[256];

	while (isspace((unsigned char)*s))
		s++;
	eq = strchr(s, '=');
	key[0] = 0;
	if (!eq || *s == '#' || *s == ';' || *s == '[')
		return;
	snprintf(buf, sizeof(buf), "%.*s", (int)(eq - s), s);
	snprintf(key, len, "%s", cz_trim(buf));
}

static bool is_step_key(const char *k)
{
	size_t i;

	for (i = 0; i < sizeof(step_keys) / sizeof(step_keys[0]); i++)
		if (!strcmp(k, step_keys[i]))
			return true;
	return false;
}

/* "[variant NAME]": NAME (in name[]), else "". */
static void variant_section(const char *line, char *name, size_t len)
{
	char buf[1024], *s;

	snprintf(buf, sizeof(buf), "%s", line);
	s = cz_trim(buf);
	name[0] = 0;
	if (*s != '[' || !strchr(s, ']'))
		return;
	*strchr(s, ']') = 0;
	s = cz_trim(s + 1);
	if (strncmp(s, "variant", 7) || !isspace((unsigned char)s[7]))
		return;
	snprintf(name, len, "%s", cz_trim(s + 8));
}

/* A plain variant's line: source= and patch= values made absolute, the rest as written. */
static void plain_line(FILE *out, const char *line)
{
	char key[64], *copy, *w, *save = NULL;

	line_key(line, key, sizeof(key));
	if (strcmp(key, "source") && strcmp(key, "patch")) {
		fputs(line, out);
		return;
	}
	copy = cz_xstrdup(strchr(line, '=') + 1);
	fprintf(out, "%s =", key);
	for (w = strtok_r(copy, " \t\n", &save); w; w = strtok_r(NULL, " \t\n", &save)) {
		char *a = !strncmp(w, "kpath:", 6) ? cz_xstrdup(w) : cz_absolute(w);

		fprintf(out, " %s", a);
		free(a);
	}
	fputc('\n', out);
	free(copy);
}

/* The values of v's daemon arguments starting with opt ("--source=", "--patch="), blank-separated, or NULL. */
static char *words_of(const struct zab_variant *v, const char *opt)
{
	char *out = NULL, *t;
	size_t i, len = strlen(opt);

	for (i = 0; i < v->ndev; i++) {
		if (strncmp(v->dev_argv[i], opt, len))
			continue;
		t = cz_xasprintf("%s%s%s", out ? out : "", out ? " " : "", v->dev_argv[i] + len);
		free(out);
		out = t;
	}
	return out;
}

/* One step's section: source first (alt= and kconfig= must follow it), the rest, provenance. */
static void step_section(FILE *out, const struct zab_variant *v, char **body, size_t nbody)
{
	char *src = words_of(v, "--source="), *pat = words_of(v, "--patch=");
	char key[64];
	size_t i;

	fprintf(out, "[variant %s]\n", v->name);
	fprintf(out, "source = %s\n", src ? src : "");
	for (i = 0; i < nbody; i++) {
		line_key(body[i], key, sizeof(key));
		if (key[0] && !is_step_key(key))
			fputs(body[i], out);
	}
	if (pat)
		fprintf(out, "patch = %s\n", pat);
	fprintf(out, "sequence = %s\n", v->seq);
	fprintf(out, "sequence-kind = %s\n", v->seq_kind);
	fprintf(out, "step = %u\nsteps = %u\n", v->step, v->steps);
	fprintf(out, "label = %s\n", v->label);
	if (v->kversion)
		fprintf(out, "kernel-version = %s\n", v->kversion);
	if (v->git_commit)
		fprintf(out, "git-commit = %s\n", v->git_commit);
	fputc('\n', out);
	free(src);
	free(pat);
}

/* The steps of sequence `name` (its comments first), from e's expanded variants. */
static void sequence_sections(FILE *out, const struct zab_experiment *e, const char *name,
			      char **body, size_t nbody)
{
	size_t v, i;

	for (i = 0; i < nbody; i++)
		if (body[i][strspn(body[i], " \t")] == '#' || body[i][strspn(body[i], " \t")] == ';')
			fputs(body[i], out);
	fprintf(out, "# sequence %s, expanded by zab expand\n", name);
	for (v = 0; v < e->nvar; v++)
		if (e->var[v].seq && !strcmp(e->var[v].seq, name))
			step_section(out, &e->var[v], body, nbody);
}

static bool expanded(const struct zab_experiment *e, const char *name)
{
	size_t i;

	for (i = 0; i < e->nseqs; i++)
		if (!strcmp(e->seqs[i].name, name))
			return true;
	return false;
}

/* "[experiment]" (blanks inside the brackets allowed, as the loader allows them)? */
static bool is_experiment(const char *line)
{
	char buf[256], *s, *end;

	snprintf(buf, sizeof(buf), "%s", line);
	s = cz_trim(buf);
	end = strchr(s, ']');
	if (*s != '[' || !end)
		return false;
	*end = 0;
	return !strcmp(cz_trim(s + 1), "experiment");
}

/* An [experiment] line: base = NAME of a sequence is its step 0 in the expanded file. */
static void base_line(FILE *out, const char *line, const struct zab_experiment *e)
{
	char key[64], val[1024];

	line_key(line, key, sizeof(key));
	if (!strcmp(key, "base")) {
		snprintf(val, sizeof(val), "%s", strchr(line, '=') + 1);
		if (expanded(e, cz_trim(val))) {
			fprintf(out, "base = %s@0\n", cz_trim(val));
			return;
		}
	}
	fputs(line, out);
}

/* The text of in, sequence sections replaced: 0, or -errno. */
static int rewrite(FILE *in, FILE *out, const struct zab_experiment *e)
{
	char *line = NULL, name[1024], seq[1024] = "", **body = NULL;
	size_t cap = 0, nbody = 0, i;
	bool plain_var = false, in_exp = false;

	for (;;) {
		ssize_t got = getline(&line, &cap, in);
		bool section = got > 0 && line[strspn(line, " \t")] == '[';

		if ((got <= 0 || section) && seq[0]) {
			sequence_sections(out, e, seq, body, nbody);
			for (i = 0; i < nbody; i++)
				free(body[i]);
			nbody = 0;
			seq[0] = 0;
		}
		if (got <= 0)
			break;
		if (section) {
			variant_section(line, name, sizeof(name));
			plain_var = name[0] != 0;
			if (name[0] && expanded(e, name)) {
				snprintf(seq, sizeof(seq), "%s", name);
				plain_var = false;
				continue;
			}
		}
		if (section)
			in_exp = is_experiment(line);
		if (seq[0]) {
			body = cz_xrealloc(body, (nbody + 1) * sizeof(*body));
			body[nbody++] = cz_xasprintf("%s%s", line, line[got - 1] == '\n' ? "" : "\n");
		} else if (plain_var) {
			plain_line(out, line);
		} else if (in_exp) {
			base_line(out, line, e);
		} else {
			fputs(line, out);
		}
	}
	free(body);
	free(line);
	return ferror(in) ? -EIO : 0;
}

int zab_expand_file(const char *in_path, const char *out_path)
{
	struct zab_experiment e = { 0 };
	bool to_stdout = !out_path || !strcmp(out_path, "-");
	struct cz_out o = { .f = stdout };
	FILE *in, *out;
	int ret;

	if (zab_experiment_load(&e, in_path) || zab_experiment_check(&e)) {
		zab_experiment_free(&e);
		return -EINVAL;
	}
	in = fopen(in_path, "r");
	ret = !in ? -errno : to_stdout ? 0 : cz_out_open(&o, out_path, 0666);   /* lib/outfile.h */
	out = o.f;
	if (!in || ret) {
		cz_err("%s: %s", !in ? in_path : out_path, strerror(-ret));
		if (in)
			fclose(in);
		zab_experiment_free(&e);
		return ret == -EINVAL ? -EIO : ret;
	}
	ret = rewrite(in, out, &e);
	fclose(in);
	if (to_stdout && (fflush(out) || ferror(out)))
		ret = -EIO;
	if (!to_stdout && ret)
		cz_out_discard(&o);
	else if (!to_stdout)
		ret = cz_out_commit(&o);
	if (ret)
		cz_err("%s: %s", to_stdout ? "standard output" : out_path, strerror(-ret));
	zab_experiment_free(&e);
	return ret == -EINVAL ? -EIO : ret;
}
