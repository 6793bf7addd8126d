/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The results store (czstore.h): opening a store by URL, its schema and
 * forward migrations, a run's document in (its samples into the sample
 * table, the rest kept as recorded) and out, and listings.
 */
#include <errno.h>
#include <fcntl.h>
#include <math.h>
#include <pwd.h>
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

const char *czs_home(void)
{
	const char *home = getenv("HOME");
	struct passwd *pw;

	if (home && home[0] == '/')
		return home;
	pw = getpwuid(geteuid());
	return pw && pw->pw_dir && pw->pw_dir[0] == '/' ? pw->pw_dir : "/";
}

const char *czs_default_url(char *buf, size_t len)
{
	const char *env = getenv("CUSEZERO_STORE"), *xdg = getenv("XDG_DATA_HOME");

	if (env && *env)
		snprintf(buf, len, "%s", env);
	else if (xdg && xdg[0] == '/')
		snprintf(buf, len, "sqlite:%s/cusezero/results.db", xdg);
	else
		snprintf(buf, len, "sqlite:%s/.local/share/cusezero/results.db", czs_home());
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

/* Append n bytes of t to out (len bytes, *o used), always terminated. */
static void put(char *out, size_t len, size_t *o, const char *t, size_t n)
{
	while (n-- && *o + 1 < len)
		out[(*o)++] = *t++;
	out[*o < len ? *o : len - 1] = 0;
}

static int hexval(char c)
{
	return c >= '0' && c <= '9' ? c - '0' : c >= 'a' && c <= 'f' ? c - 'a' + 10 :
	       c >= 'A' && c <= 'F' ? c - 'A' + 10 : -1;
}

/* Whether the query key k (n bytes, percent-encoded as libpq takes it) names a password. */
static bool password_key(const char *k, size_t n)
{
	char d[64];
	size_t i, o = 0;

	for (i = 0; i < n && o + 1 < sizeof(d); i++) {
		if (k[i] == '%' && i + 2 < n && hexval(k[i + 1]) >= 0 && hexval(k[i + 2]) >= 0) {
			d[o++] = (char)(hexval(k[i + 1]) * 16 + hexval(k[i + 2]));
			i += 2;
		} else {
			d[o++] = k[i];
		}
	}
	d[o] = 0;
	return !strcmp(d, "password") || !strcmp(d, "sslpassword");
}

/*
 * The URL with every password replaced by "***": the user-info's (from its
 * first ':' to the authority's last '@') and the value of a password or
 * sslpassword parameter, its key decoded as libpq decodes it (?pass%77ord=).
 */
void czs_mask_url(const char *url, char *out, size_t len)
{
	const char *p = strstr(url, "://"), *auth, *end, *at = NULL, *colon, *q, *amp, *eq;
	size_t o = 0;

	if (!len)
		return;
	out[0] = 0;
	if (!p) {
		put(out, len, &o, url, strlen(url));
		return;
	}
	auth = p + 3;
	end = auth + strcspn(auth, "/?#");
	for (q = auth; q < end; q++)
		if (*q == '@')
			at = q;
	colon = at ? memchr(auth, ':', (size_t)(at - auth)) : NULL;
	if (colon) {
		put(out, len, &o, url, (size_t)(colon + 1 - url));
		put(out, len, &o, "***", 3);
		put(out, len, &o, at, (size_t)(end - at));
	} else {
		put(out, len, &o, url, (size_t)(end - url));
	}
	q = strchr(end, '?');
	if (!q) {
		put(out, len, &o, end, strlen(end));
		return;
	}
	put(out, len, &o, end, (size_t)(q + 1 - end));
	for (p = q + 1; *p; p = *amp ? amp + 1 : amp) {
		amp = p + strcspn(p, "&");
		eq = memchr(p, '=', (size_t)(amp - p));
		if (eq && password_key(p, (size_t)(eq - p))) {
			put(out, len, &o, p, (size_t)(eq + 1 - p));
			put(out, len, &o, "***", 3);
		} else {
			put(out, len, &o, p, (size_t)(amp - p));
		}
		if (*amp)
			put(out, len, &o, "&", 1);
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

/*
 * What the store holds, seen in one snapshot (a read transaction): its
 * schema version (-1: no schema_version table) and whether it has tables
 * at all.  Two looks outside a transaction raced a first writer: the
 * version table not there yet, then its tables there -- "not a store".
 */
static int look(struct czs *s, long long *v, bool *tables, char *err, size_t errlen)
{
	int ret = s->be->has_table(s, "schema_version", err, errlen);

	*v = -1;
	*tables = ret > 0;
	if (ret > 0)
		return q_int(s, "SELECT max(version) FROM schema_version", 0, NULL, v, err, errlen);
	if (!ret && (ret = s->be->has_table(s, NULL, err, errlen)) >= 0) {
		*tables = ret > 0;
		ret = 0;
	}
	return ret;
}

/* 0: the schema this build writes; 1: to be made or migrated; -errno with err. */
static int judge(long long v, bool tables, char *err, size_t errlen)
{
	if (v < 0 && tables) {
		snprintf(err, errlen, "not a cusezero results store (it has tables, none named schema_version); left as it is");
		return -EINVAL;
	}
	if (v < 0)
		return 1;
	if (v < 1) {
		snprintf(err, errlen, "not a cusezero results store (schema_version holds no version); left as it is");
		return -EINVAL;
	}
	if (v > SCHEMA_LATEST) {
		snprintf(err, errlen, "store schema version %lld is newer than this zab's (%d): use a newer cusezero",
			 v, SCHEMA_LATEST);
		return -EPROTO;
	}
	return v < SCHEMA_LATEST;
}

/* Key of the advisory lock that first writers and migrations of a PostgreSQL store take. */
#define PG_SCHEMA_LOCK "SELECT pg_advisory_xact_lock(7166124893045629696)"

/*
 * Create or migrate under a write lock, looking again once it is held:
 * SQLite's BEGIN IMMEDIATE, PostgreSQL's transaction-scoped advisory lock
 * (its DDL is transactional, but two creators would both find nothing).
 */
static int update(struct czs *s, char *err, size_t errlen)
{
	bool sq = s->be == &czs_sqlite, tables;
	long long v = -1;
	char e2[512];
	int ret, k;

	ret = s->be->exec(s, sq ? "BEGIN IMMEDIATE" : "BEGIN", err, errlen);
	if (ret)
		return ret;
	if (!sq)
		ret = s->be->query(s, PG_SCHEMA_LOCK, 0, NULL, NULL, NULL, err, errlen);
	if (!ret)
		ret = look(s, &v, &tables, err, errlen);
	k = ret ? ret : judge(v, tables, err, errlen);
	for (int n = (int)(v < 0 ? 0 : v) + 1; k == 1 && !ret && n <= SCHEMA_LATEST; n++) {
		char *sql = schema_text(s, n);

		ret = sql ? s->be->exec(s, sql, e2, sizeof(e2)) : -ENOMEM;
		if (ret)
			snprintf(err, errlen, "%s schema version %d: %s", v < 0 ? "making" : "migrating to", n, e2);
		free(sql);
	}
	if (k < 0 || ret) {
		rollback(s);
		return k < 0 ? k : ret;
	}
	return s->be->exec(s, "COMMIT", err, errlen);
}

/*
 * Check the store is ours and at a version this build knows; a writer
 * creates or migrates it.  -EROFS: a reader found a store to migrate.
 */
static int schema_check(struct czs *s, char *err, size_t errlen)
{
	bool sq = s->be == &czs_sqlite, tables = false;
	long long v = -1;
	int ret = s->be->exec(s, sq ? "BEGIN" : "BEGIN ISOLATION LEVEL REPEATABLE READ", err, errlen);

	if (!ret) {
		ret = look(s, &v, &tables, err, errlen);
		rollback(s);
	}
	if (!ret)
		ret = judge(v, tables, err, errlen);
	if (ret == 1 && !s->writer && v < 0) {
		snprintf(err, errlen, "no cusezero store in it (zab run or zab store import makes one)");
		return -ENOENT;
	}
	if (ret == 1 && !s->writer)
		return -EROFS;
	if (ret == 1)
		ret = update(s, err, errlen);
	if (!ret)
		s->version = SCHEMA_LATEST;
	return ret;
}

/* Remove the SQLite file this open made, its journals and the folders made for it. */
static void discard_created(struct czs *s)
{
	static const char *const sfx[] = { "", "-wal", "-shm", "-journal" };
	char f[4400];

	if (!s->created || s->be != &czs_sqlite)
		return;
	for (size_t i = 0; i < sizeof(sfx) / sizeof(sfx[0]); i++) {
		snprintf(f, sizeof(f), "%s%s", s->path.base, sfx[i]);
		unlinkat(s->path.dfd, f, 0);
	}
	czs_path_unmake(&s->path);
	s->created = false;
}

/* The back end's open and the schema check: 0, or -errno with err (nothing left open). */
static int open_checked(struct czs *s, const char *target, char *err, size_t errlen)
{
	int ret = s->be->open(s, target, err, errlen);

	if (ret) {
		discard_created(s);
		czs_path_free(&s->path);
		s->created = false;
		return ret;
	}
	ret = schema_check(s, err, errlen);
	/* WAL (SQLite): only now, as it writes the file's header; a reader leaves it */
	if (!ret && s->be == &czs_sqlite)
		ret = s->be->exec(s, s->writer ? "PRAGMA journal_mode = WAL; PRAGMA foreign_keys = ON" :
				  "PRAGMA foreign_keys = ON", err, errlen);
	/* a reader's PostgreSQL session writes nothing */
	if (!ret && s->be != &czs_sqlite && !s->writer)
		ret = s->be->exec(s, "SET SESSION CHARACTERISTICS AS TRANSACTION READ ONLY", err, errlen);
	if (ret) {
		s->be->close(s);
		/* busy: other writers are in it (their open, their run), so it stays */
		if (ret != -EBUSY)
			discard_created(s);
		s->created = false;
		czs_path_free(&s->path);
	}
	return ret;
}

int czs_open_mode(const char *url, enum czs_mode mode, struct czs **out, char *err, size_t errlen)
{
	struct czs *s = calloc(1, sizeof(*s));
	const char *target = url;
	size_t n = strlen(url);
	char e2[768];
	int ret;

	*out = NULL;
	if (!s)
		return -ENOMEM;
	s->path.dfd = -1;
	s->writer = mode == CZS_WRITE;
	czs_mask_url(url, s->name, sizeof(s->name));
	if (!strncmp(url, "sqlite:", 7)) {
		s->be = &czs_sqlite;
		target = url + 7;
	} else if (!strncmp(url, "postgresql://", 13) || !strncmp(url, "postgres://", 11)) {
#ifdef HAVE_LIBPQ
		s->be = &czs_pg;
#else
		snprintf(err, errlen, "store %s: this zab was built without libpq (PostgreSQL)", s->name);
		free(s);
		return -ENOTSUP;
#endif
	} else if (n > 3 && !strcmp(url + n - 3, ".db") && !strstr(url, "://")) {
		s->be = &czs_sqlite;
	} else {
		snprintf(err, errlen, "store '%s': not a store URL (sqlite:PATH, PATH.db or postgresql://...)",
			 s->name);
		free(s);
		return -EINVAL;
	}
	ret = open_checked(s, target, e2, sizeof(e2));
	/* SQLite busy past its timeout (first writers converting a new file to WAL): again */
	for (int k = 1; ret == -EBUSY && k <= 4; k++) {
		usleep(100000u * (unsigned)k);
		ret = open_checked(s, target, e2, sizeof(e2));
	}
	if (ret == -EROFS) {
		/* a reader of an older schema: migrated by a writer's open (nothing created) */
		s->writer = true;
		ret = open_checked(s, target, e2, sizeof(e2));
	}
	if (ret) {
		snprintf(err, errlen, "store %s: %s", s->name, e2);
		free(s);
		return ret;
	}
	if (s->be == &czs_sqlite)
		snprintf(s->url, sizeof(s->url), "sqlite:%s", s->path.file);
	else
		snprintf(s->url, sizeof(s->url), "%s", s->name);
	*out = s;
	return 0;
}

int czs_open(const char *url, struct czs **out, char *err, size_t errlen)
{
	return czs_open_mode(url, CZS_WRITE, out, err, errlen);
}

void czs_close_unused(struct czs *s)
{
	long long runs = -1;
	char e[256];

	if (s && s->created && !s->be->exec(s, "BEGIN IMMEDIATE", e, sizeof(e))) {
		q_int(s, "SELECT count(*) FROM runs", 0, NULL, &runs, e, sizeof(e));
		if (runs == 0) {
			s->be->close(s);
			discard_created(s);
		} else {
			rollback(s);
		}
	}
	czs_close(s);
}

void czs_close(struct czs *s)
{
	if (!s)
		return;
	if (s->db)
		s->be->close(s);
	czs_path_free(&s->path);
	free(s);
}

const char *czs_name(const struct czs *s)
{
	return s->name;
}

const char *czs_url(const struct czs *s)
{
	return s->url;
}

int czs_version(const struct czs *s)
{
	return s->version;
}
