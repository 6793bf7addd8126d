/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The results store (czstore.h): opening a store by URL, its schema and
 * forward migrations, a run's document in (its samples into the sample
 * table, the rest kept as recorded) and out, and listings.
 */
#include <errno.h>
#include <fcntl.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include <nettle/sha2.h>

#include "store_int.h"

/* store/schema/NNN.sql, compiled in (the build makes schema.inc from them) */
static const char *const schema_files[] = {
	NULL,
#include "store/schema.inc"
};

#define SCHEMA_LATEST ((int)(sizeof(schema_files) / sizeof(schema_files[0])) - 1)

int czs_schema_latest(void)
{
	return SCHEMA_LATEST;
}

const char *czs_schema_sql(int v)
{
	return v >= 1 && v <= SCHEMA_LATEST ? schema_files[v] : NULL;
}

const char *czs_col_text(const struct czs_row *r, int i)
{
	return r->be->col_text(r, i);
}

double czs_col_double(const struct czs_row *r, int i)
{
	return r->be->col_double(r, i);
}

bool czs_col_null(const struct czs_row *r, int i)
{
	return r->be->col_null(r, i);
}

int czs_take_int(void *ctx, const struct czs_row *r)
{
	const char *t = czs_col_text(r, 0);

	*(long long *)ctx = t ? atoll(t) : -1;
	return 0;
}

const char *czs_default_url(char *buf, size_t len)
{
	const char *env = getenv("CUSEZERO_STORE"), *xdg = getenv("XDG_DATA_HOME");
	const char *home = getenv("HOME");

	if (env && *env)
		snprintf(buf, len, "%s", env);
	else if (xdg && xdg[0] == '/')
		snprintf(buf, len, "sqlite:%s/cusezero/results.db", xdg);
	else
		snprintf(buf, len, "sqlite:%s/.local/share/cusezero/results.db",
			 home && home[0] == '/' ? home : "/root");
	return buf;
}

/* ---- small helpers --------------------------------------------------------- */

/* The first column of the first row as an integer (-1: no row). */
static int q_int(struct czs *s, const char *sql, size_t np, const char *const *p, long long *out,
		 char *err, size_t errlen)
{
	*out = -1;
	return s->be->query(s, sql, np, p, czs_take_int, out, err, errlen);
}

static void rollback(struct czs *s)
{
	char e[256];

	s->be->exec(s, "ROLLBACK", e, sizeof(e));
}

static void uuid_from(unsigned char b[16], char uuid[37])
{
	static const char hex[] = "0123456789abcdef";
	int i, o = 0;

	for (i = 0; i < 16; i++) {
		if (i == 4 || i == 6 || i == 8 || i == 10)
			uuid[o++] = '-';
		uuid[o++] = hex[b[i] >> 4];
		uuid[o++] = hex[b[i] & 15];
	}
	uuid[o] = 0;
}

void czs_content_uuid(const json_t *doc, char uuid[37])
{
	unsigned char d[SHA256_DIGEST_SIZE];
	struct sha256_ctx c;
	char *text = json_dumps(doc, JSON_SORT_KEYS | JSON_COMPACT | JSON_ENCODE_ANY |
				     JSON_REAL_PRECISION(17));

	sha256_init(&c);
	sha256_update(&c, text ? strlen(text) : 0, (const uint8_t *)(text ? text : ""));
	sha256_digest(&c, sizeof(d), d);
	free(text);
	d[6] = (d[6] & 0x0f) | 0x80;   /* version 8: custom (RFC 9562), from a hash */
	d[8] = (d[8] & 0x3f) | 0x80;
	uuid_from(d, uuid);
}

void czs_random_uuid(char uuid[37])
{
	unsigned char b[16];
	int fd = open("/dev/urandom", O_RDONLY | O_CLOEXEC);

	if (fd < 0 || read(fd, b, sizeof(b)) != (ssize_t)sizeof(b)) {
		struct timespec ts;

		clock_gettime(CLOCK_REALTIME, &ts);
		for (int i = 0; i < 16; i++)
			b[i] = (unsigned char)((ts.tv_nsec >> (i % 4 * 8)) ^ (getpid() >> (i % 2 * 8)) ^ i);
	}
	if (fd >= 0)
		close(fd);
	b[6] = (b[6] & 0x0f) | 0x40;
	b[8] = (b[8] & 0x3f) | 0x80;
	uuid_from(b, uuid);
}

/* The URL with the password of its user-info part replaced by "***". */
void czs_mask_url(const char *url, char *out, size_t len)
{
	const char *p = strstr(url, "://"), *at, *colon;

	snprintf(out, len, "%s", url);
	if (!p)
		return;
	p += 3;
	at = strchr(p, '@');
	colon = at ? memchr(p, ':', (size_t)(at - p)) : NULL;
	if (colon)
		snprintf(out, len, "%.*s***%s", (int)(colon + 1 - url), url, at);
	/* a password=... parameter, too */
	if ((p = strstr(out, "password=")) != NULL) {
		char tail[1024];
		const char *amp = strchr(p, '&');

		snprintf(tail, sizeof(tail), "%s", amp ? amp : "");
		snprintf((char *)p, len - (size_t)(p - out), "password=***%s", tail);
	}
}

/* ---- open, schema ----------------------------------------------------------- */

/* The schema file of version v with its @ID@ made the back end's. */
static char *schema_text(const struct czs *s, int v)
{
	const char *src = czs_schema_sql(v), *p;
	size_t idl = strlen(s->be->id_type), n = 0;
	char *out = malloc(strlen(src) * (idl + 1) + 1);

	if (!out)
		return NULL;
	for (p = src; *p; p++) {
		if (!strncmp(p, "@ID@", 4)) {
			memcpy(out + n, s->be->id_type, idl);
			n += idl;
			p += 3;
		} else {
			out[n++] = *p;
		}
	}
	out[n] = 0;
	return out;
}

static int migrate(struct czs *s, int from, char *err, size_t errlen)
{
	char e2[512];
	int v, ret;

	ret = s->be->exec(s, s->be == &czs_sqlite ? "BEGIN IMMEDIATE" : "BEGIN", err, errlen);
	for (v = from + 1; !ret && v <= SCHEMA_LATEST; v++) {
		char *sql = schema_text(s, v);

		ret = sql ? s->be->exec(s, sql, e2, sizeof(e2)) : -ENOMEM;
		if (ret)
			snprintf(err, errlen, "migrating to schema version %d: %s", v, e2);
		free(sql);
	}
	if (ret) {
		rollback(s);
		return ret;
	}
	return s->be->exec(s, "COMMIT", err, errlen);
}

/* Check the store is ours and at a version this build knows; create or migrate it. */
static int schema_check(struct czs *s, char *err, size_t errlen)
{
	long long v = -1;
	int ret = s->be->has_table(s, "schema_version", err, errlen);

	if (ret < 0)
		return ret;
	if (!ret) {
		ret = s->be->has_table(s, NULL, err, errlen);
		if (ret < 0)
			return ret;
		if (ret) {
			snprintf(err, errlen, "not a cusezero results store (it has tables, none named schema_version); left as it is");
			return -EINVAL;
		}
		ret = migrate(s, 0, err, errlen);
		/* another process created it meanwhile: read it again */
		if (ret && s->be->has_table(s, "schema_version", err, errlen) > 0)
			ret = 0;
		if (ret)
			return ret;
	}
	ret = q_int(s, "SELECT max(version) FROM schema_version", 0, NULL, &v, err, errlen);
	if (ret)
		return ret;
	if (v < 1) {
		snprintf(err, errlen, "not a cusezero results store (schema_version holds no version); left as it is");
		return -EINVAL;
	}
	if (v > SCHEMA_LATEST) {
		snprintf(err, errlen, "store schema version %lld is newer than this zab's (%d): use a newer cusezero",
			 v, SCHEMA_LATEST);
		return -EPROTO;
	}
	if (v < SCHEMA_LATEST && (ret = migrate(s, (int)v, err, errlen)))
		return ret;
	s->version = SCHEMA_LATEST;
	return 0;
}

int czs_open(const char *url, struct czs **out, char *err, size_t errlen)
{
	struct czs *s = calloc(1, sizeof(*s));
	const char *target = url;
	size_t n = strlen(url);
	char e2[768];
	int ret;

	*out = NULL;
	if (!s)
		return -ENOMEM;
	if (!strncmp(url, "sqlite:", 7)) {
		s->be = &czs_sqlite;
		target = url + 7;
	} else if (!strncmp(url, "postgresql://", 13) || !strncmp(url, "postgres://", 11)) {
#ifdef HAVE_LIBPQ
		s->be = &czs_pg;
#else
		czs_mask_url(url, s->name, sizeof(s->name));
		snprintf(err, errlen, "store %s: this zab was built without libpq (PostgreSQL)", s->name);
		free(s);
		return -ENOTSUP;
#endif
	} else if (n > 3 && !strcmp(url + n - 3, ".db") && !strstr(url, "://")) {
		s->be = &czs_sqlite;
	} else {
		czs_mask_url(url, s->name, sizeof(s->name));
		snprintf(err, errlen, "store '%s': not a store URL (sqlite:PATH, PATH.db or postgresql://...)",
			 s->name);
		free(s);
		return -EINVAL;
	}
	czs_mask_url(url, s->name, sizeof(s->name));
	ret = s->be->open(s, target, e2, sizeof(e2));
	if (ret) {
		snprintf(err, errlen, "store %s: %s", s->name, e2);
		free(s);
		return ret;
	}
	ret = schema_check(s, e2, sizeof(e2));
	/* WAL (SQLite): only now, as it writes the file's header */
	if (!ret && s->be == &czs_sqlite)
		ret = s->be->exec(s, "PRAGMA journal_mode = WAL; PRAGMA foreign_keys = ON", e2, sizeof(e2));
	if (ret) {
		snprintf(err, errlen, "store %s: %s", s->name, e2);
		czs_close(s);
		return ret;
	}
	*out = s;
	return 0;
}

void czs_close(struct czs *s)
{
	if (!s)
		return;
	s->be->close(s);
	free(s);
}

const char *czs_name(const struct czs *s)
{
	return s->name;
}

int czs_version(const struct czs *s)
{
	return s->version;
}
