/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * fio's job files (fio(1) "JOB FILE FORMAT", fio's HOWTO "Job file format"):
 * INI sections, key[=value] lines, comments from the first ';' or '#' of a
 * line to its end (fio 3.33 reads "bs=8k ; note" and "rw=read;x" as bs=8k and
 * rw=read), "include FILE" (relative to the including file's folder),
 * $VAR and ${VAR} from the environment, $pagesize, $ncpus, $mb_memory.
 */
#include <ctype.h>
#include <errno.h>
#include <libgen.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "opts.h"
#include "util.h"

#define ZL_MAX_INCLUDE	8

/* Expand ${VAR}, $VAR, $pagesize, $ncpus, $mb_memory in a job file's value. */
static void zl_expand(const struct zl_where *w, const char *in, char *out, size_t size)
{
	size_t used = 0;

	while (*in) {
		char name[128], val[64];
		const char *v = NULL, *s = in + 1;
		size_t n = 0;

		if (*in != '$') {
			if (used + 1 < size)
				out[used++] = *in;
			in++;
			continue;
		}
		if (*s == '{') {
			const char *e = strchr(s, '}');

			if (!e || (size_t)(e - s - 1) >= sizeof(name))
				cz_usage_die("%s: unterminated '${' in '%s'", w->label, in);
			n = (size_t)(e - s - 1);
			memcpy(name, s + 1, n);
			name[n] = '\0';
			v = getenv(name);
			if (!v)
				cz_usage_die("%s: ${%s} is not set in the environment", w->label, name);
			in = e + 1;
		} else {
			while (isalnum((unsigned char)s[n]) || s[n] == '_')
				n++;
			if (n == 8 && !strncmp(s, "pagesize", n))
				snprintf(val, sizeof(val), "%ld", sysconf(_SC_PAGESIZE));
			else if (n == 5 && !strncmp(s, "ncpus", n))
				snprintf(val, sizeof(val), "%ld", sysconf(_SC_NPROCESSORS_ONLN));
			else if (n == 9 && !strncmp(s, "mb_memory", n))
				snprintf(val, sizeof(val), "%lld", (long long)sysconf(_SC_PHYS_PAGES) *
					 sysconf(_SC_PAGESIZE) >> 20);
			else if (n && n < sizeof(name)) {
				memcpy(name, s, n);
				name[n] = '\0';
				v = getenv(name);
				if (!v)
					cz_usage_die("%s: $%s is not set in the environment", w->label, name);
			} else {
				cz_usage_die("%s: a lone '$' in '%s' (zload expands ${VAR}, $VAR, $pagesize, "
					     "$ncpus, $mb_memory)", w->label, in);
			}
			if (v != val && v) {
				used += (size_t)snprintf(out + used, used < size ? size - used : 0, "%s", v);
				in = s + n;
				continue;
			}
			v = val;
			in = s + n;
		}
		used += (size_t)snprintf(out + used, used < size ? size - used : 0, "%s", v);
	}
	if (used >= size)
		cz_usage_die("%s: value too long", w->label);
	out[used] = '\0';
}

/* One "key[=value]" line of a job file into the current section. */
static void zl_job_line(struct zl_parser *p, char *s, struct zl_where *w)
{
	char *eq = strchr(s, '='), *key = s, *val = NULL, buf[4096];
	const struct zl_optdef *d;

	if (eq) {
		*eq = '\0';
		key = cz_trim(s);
		val = cz_trim(eq + 1);
	}
	snprintf(w->label, sizeof(w->label), "%s:%u: %s", w->file, w->line, key);
	d = p->lookup(key, strlen(key));
	if (!d && val) {
		zl_expand(w, val, buf, sizeof(buf));
		val = buf;
	}
	if (!d && zl_fio_moot(key, val, w->label))
		return;
	if (!d)
		cz_usage_die("%s:%u: option '%s' is not supported by zload (see zload(1), JOB FILES)",
			     w->file, w->line, key);
	if (val && val != buf) {
		zl_expand(w, val, buf, sizeof(buf));
		val = buf;
	}
	p->apply(p, d, val, w);
}

/* "include FILE": relative to the folder of the file that includes it. */
static void zl_include(struct zl_parser *p, const char *from, const char *name, unsigned line)
{
	char *copy, path[4096];

	if (p->depth >= ZL_MAX_INCLUDE)
		cz_usage_die("%s:%u: include %s: nested more than %d deep", from, line, name,
			     ZL_MAX_INCLUDE);
	if (name[0] == '/') {
		snprintf(path, sizeof(path), "%s", name);
	} else {
		copy = strdup(from);
		if (!copy)
			cz_die(CZ_EXIT_FAILURE, "out of memory");
		snprintf(path, sizeof(path), "%s/%s", dirname(copy), name);
		free(copy);
	}
	p->depth++;
	zl_parse_jobfile(p, path);
	p->depth--;
}

/* fio's comments: from the first ';' or '#' to the end of the line. */
static void zl_strip_comment(char *s)
{
	s[strcspn(s, ";#")] = '\0';
}

void zl_parse_jobfile(struct zl_parser *p, const char *path)
{
	struct zl_where w = { .file = path };
	FILE *f = fopen(path, "r");
	char line[4096], *s, *e;

	if (!f)
		cz_die(CZ_EXIT_FAILURE, "open %s: %s", path, strerror(errno));
	if (!p->depth)
		p->cur = &p->global;
	while (fgets(line, sizeof(line), f)) {
		w.line++;
		zl_strip_comment(line);
		s = cz_trim(line);
		if (!*s)
			continue;
		if (*s == '[') {
			e = strchr(s, ']');
			if (!e || e == s + 1)
				cz_usage_die("%s:%u: bad section header '%s'", path, w.line, s);
			*e = '\0';
			p->cur = !strcmp(s + 1, "global") ? &p->global : p->new_sect(p, s + 1);
			continue;
		}
		if (!strncmp(s, "include", 7) && isspace((unsigned char)s[7])) {
			zl_include(p, path, cz_trim(s + 8), w.line);
			continue;
		}
		zl_job_line(p, s, &w);
	}
	if (ferror(f))
		cz_die(CZ_EXIT_FAILURE, "read %s: %s", path, strerror(errno));
	fclose(f);
}

/*
 * A regular file whose first line that says something is a [section] (or
 * an include line).  Only
 * its first 4 KiB are read, and a NUL byte says "data": the FUSE device's
 * zero file is a regular file of 1 EiB of zeros without a newline.
 */
bool zl_is_jobfile(const char *path)
{
	struct stat st;
	char buf[4097], *s, *nl;
	size_t n;
	FILE *f;

	if (stat(path, &st) || !S_ISREG(st.st_mode))
		return false;
	f = fopen(path, "r");
	if (!f)
		return false;
	n = fread(buf, 1, sizeof(buf) - 1, f);
	fclose(f);
	if (memchr(buf, '\0', n))
		return false;
	buf[n] = '\0';
	for (s = buf; *s; s = nl + 1) {
		nl = strchr(s, '\n');
		if (nl)
			*nl = '\0';
		s = cz_trim(s);
		if (*s && *s != '#' && *s != ';')
			return *s == '[' || (!strncmp(s, "include", 7) && isspace((unsigned char)s[7]));
		if (!nl)
			break;
	}
	return false;
}

