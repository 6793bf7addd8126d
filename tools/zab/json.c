/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * zab's JSON: a small tree with a writer and a strict reader (RFC 8259
 * subset: no \u escapes beyond Latin-1 are needed for our own files, but
 * they are decoded to UTF-8).
 */
#include <ctype.h>
#include <errno.h>
#include <math.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <sys/utsname.h>

#include "cli.h"
#include "zab.h"
#include "util.h"
#include "zeroing.h"

/* ---- tree ---------------------------------------------------------------- */

struct zj *zj_new(enum zj_type t)
{
	struct zj *v = zab_xmalloc(sizeof(*v));

	v->t = t;
	return v;
}

struct zj *zj_str(const char *s)
{
	struct zj *v;

	if (!s)
		return zj_new(ZJ_NULL);
	v = zj_new(ZJ_STR);
	v->str = zab_xstrdup(s);
	return v;
}

struct zj *zj_num(double x)
{
	struct zj *v = zj_new(ZJ_NUM);

	v->num = x;
	return v;
}

struct zj *zj_bool(bool b)
{
	struct zj *v = zj_new(ZJ_BOOL);

	v->b = b;
	return v;
}

static void zj_grow(struct zj *v)
{
	if (v->n < v->cap)
		return;
	v->cap = v->cap ? 2 * v->cap : 8;
	v->items = zab_xrealloc(v->items, v->cap * sizeof(*v->items));
	if (v->t == ZJ_OBJ)
		v->keys = zab_xrealloc(v->keys, v->cap * sizeof(*v->keys));
}

struct zj *zj_set(struct zj *obj, const char *key, struct zj *val)
{
	size_t i;

	for (i = 0; i < obj->n; i++)
		if (!strcmp(obj->keys[i], key)) {
			zj_free(obj->items[i]);
			obj->items[i] = val;
			return val;
		}
	zj_grow(obj);
	obj->keys[obj->n] = zab_xstrdup(key);
	obj->items[obj->n++] = val;
	return val;
}

struct zj *zj_push(struct zj *arr, struct zj *val)
{
	zj_grow(arr);
	arr->items[arr->n++] = val;
	return val;
}

struct zj *zj_get(const struct zj *obj, const char *key)
{
	size_t i;

	if (!obj || obj->t != ZJ_OBJ)
		return NULL;
	for (i = 0; i < obj->n; i++)
		if (!strcmp(obj->keys[i], key))
			return obj->items[i];
	return NULL;
}

const char *zj_get_str(const struct zj *obj, const char *key)
{
	struct zj *v = zj_get(obj, key);

	return v && v->t == ZJ_STR ? v->str : NULL;
}

bool zj_get_num(const struct zj *obj, const char *key, double *out)
{
	struct zj *v = zj_get(obj, key);

	if (!v || v->t != ZJ_NUM)
		return false;
	*out = v->num;
	return true;
}

struct zj *zj_dup(const struct zj *v)
{
	struct zj *c;
	size_t i;

	if (!v)
		return zj_new(ZJ_NULL);
	c = zj_new(v->t);
	c->b = v->b;
	c->num = v->num;
	c->str = zab_xstrdup(v->str);
	for (i = 0; i < v->n; i++) {
		if (v->t == ZJ_OBJ)
			zj_set(c, v->keys[i], zj_dup(v->items[i]));
		else
			zj_push(c, zj_dup(v->items[i]));
	}
	return c;
}

void zj_free(struct zj *v)
{
	size_t i;

	if (!v)
		return;
	for (i = 0; i < v->n; i++) {
		if (v->keys)
			free(v->keys[i]);
		zj_free(v->items[i]);
	}
	free(v->keys);
	free(v->items);
	free(v->str);
	free(v);
}

/* ---- writer ---------------------------------------------------------------- */

static bool is_scalar(const struct zj *v)
{
	return v->t != ZJ_ARR && v->t != ZJ_OBJ;
}

static void write_value(FILE *f, const struct zj *v, int depth)
{
	size_t i;
	bool flat;

	switch (v->t) {
	case ZJ_NULL:
		fputs("null", f);
		break;
	case ZJ_BOOL:
		fputs(v->b ? "true" : "false", f);
		break;
	case ZJ_NUM:
		if (isfinite(v->num))
			fprintf(f, "%.17g", v->num);
		else
			fputs("null", f);
		break;
	case ZJ_STR:
		cz_json_string(f, v->str);
		break;
	case ZJ_ARR:
		flat = true;
		for (i = 0; i < v->n; i++)
			flat = flat && is_scalar(v->items[i]);
		fputc('[', f);
		for (i = 0; i < v->n; i++) {
			if (flat)
				fputs(i ? ", " : "", f);
			else
				fprintf(f, "%s\n%*s", i ? "," : "", 2 * (depth + 1), "");
			write_value(f, v->items[i], depth + 1);
		}
		if (!flat && v->n)
			fprintf(f, "\n%*s", 2 * depth, "");
		fputc(']', f);
		break;
	case ZJ_OBJ:
		fputc('{', f);
		for (i = 0; i < v->n; i++) {
			fprintf(f, "%s\n%*s", i ? "," : "", 2 * (depth + 1), "");
			cz_json_string(f, v->keys[i]);
			fputs(": ", f);
			write_value(f, v->items[i], depth + 1);
		}
		if (v->n)
			fprintf(f, "\n%*s", 2 * depth, "");
		fputc('}', f);
		break;
	}
}

void zj_write(FILE *f, const struct zj *v)
{
	write_value(f, v, 0);
	fputc('\n', f);
}

/* ---- reader ---------------------------------------------------------------- */

struct parser {
	const char *p;
	int line;
	const char *err;
	int depth;
};

static void skip_ws(struct parser *ps)
{
	for (; *ps->p && strchr(" \t\r\n", *ps->p); ps->p++)
		if (*ps->p == '\n')
			ps->line++;
}

static struct zj *parse_value(struct parser *ps);

static char *parse_string(struct parser *ps)
{
	size_t cap = 32, n = 0;
	char *s = zab_xmalloc(cap);

	ps->p++; /* opening quote */
	for (;;) {
		unsigned c = (unsigned char)*ps->p++;

		if (n + 5 >= cap)
			s = zab_xrealloc(s, cap *= 2);
		if (!c || c == '\n') {
			ps->err = "unterminated string";
			free(s);
			return NULL;
		}
		if (c == '"')
			break;
		if (c != '\\') {
			s[n++] = (char)c;
			continue;
		}
		c = (unsigned char)*ps->p++;
		switch (c) {
		case '"': case '\\': case '/':
			s[n++] = (char)c;
			break;
		case 'n': s[n++] = '\n'; break;
		case 't': s[n++] = '\t'; break;
		case 'r': s[n++] = '\r'; break;
		case 'b': s[n++] = '\b'; break;
		case 'f': s[n++] = '\f'; break;
		case 'u': {
			unsigned u = 0, k;

			for (k = 0; k < 4; k++) {
				int h = *ps->p++;

				if (!isxdigit(h)) {
					ps->err = "bad \\u escape";
					free(s);
					return NULL;
				}
				u = u * 16 + (unsigned)(isdigit(h) ? h - '0' : (tolower(h) - 'a' + 10));
			}
			if (u < 0x80) {
				s[n++] = (char)u;
			} else if (u < 0x800) {
				s[n++] = (char)(0xc0 | (u >> 6));
				s[n++] = (char)(0x80 | (u & 0x3f));
			} else {
				s[n++] = (char)(0xe0 | (u >> 12));
				s[n++] = (char)(0x80 | ((u >> 6) & 0x3f));
				s[n++] = (char)(0x80 | (u & 0x3f));
			}
			break;
		}
		default:
			ps->err = "bad escape in string";
			free(s);
			return NULL;
		}
	}
	s[n] = 0;
	return s;
}

static struct zj *parse_container(struct parser *ps, bool obj)
{
	struct zj *v = zj_new(obj ? ZJ_OBJ : ZJ_ARR), *item;
	char close = obj ? '}' : ']';
	char *key = NULL;

	if (++ps->depth > 64) {
		ps->err = "nesting too deep";
		goto fail;
	}
	ps->p++;
	skip_ws(ps);
	if (*ps->p == close) {
		ps->p++;
		ps->depth--;
		return v;
	}
	for (;;) {
		skip_ws(ps);
		if (obj) {
			if (*ps->p != '"') {
				ps->err = "expected a string key";
				goto fail;
			}
			key = parse_string(ps);
			if (!key)
				goto fail;
			skip_ws(ps);
			if (*ps->p++ != ':') {
				ps->err = "expected ':'";
				goto fail;
			}
		}
		item = parse_value(ps);
		if (!item)
			goto fail;
		if (obj) {
			/* Which of two values was meant?  Refused, never one silently. */
			if (zj_get(v, key)) {
				static char msg[128];	/* outlives the parse, as err must */

				snprintf(msg, sizeof(msg), "key '%.64s' given twice in one object", key);
				ps->err = msg;
				zj_free(item);
				goto fail;
			}
			zj_set(v, key, item);
			free(key);
			key = NULL;
		} else {
			zj_push(v, item);
		}
		skip_ws(ps);
		if (*ps->p == ',') {
			ps->p++;
			continue;
		}
		if (*ps->p == close) {
			ps->p++;
			ps->depth--;
			return v;
		}
		ps->err = obj ? "expected ',' or '}'" : "expected ',' or ']'";
		goto fail;
	}
fail:
	free(key);
	zj_free(v);
	return NULL;
}

/* The length of [0-9]+ at s. */
static size_t digits(const char *s)
{
	size_t n = 0;

	while (isdigit((unsigned char)s[n]))
		n++;
	return n;
}

/*
 * strtod takes far more than a number: "-nan", "inf", "0x10", "0x1p4", and
 * 1e999 as HUGE_VAL.  A result file or a benchmark's output holding one of
 * those is garbage, not a sample, so the text is checked against the
 * grammar first -- RFC 8259's for JSON; for a benchmark's output a plain
 * decimal (an optional sign, digits with an optional point, an exponent) --
 * and the value must be finite.  Underflow to 0 or a denormal is a number.
 */
bool zab_number(const char *s, bool json, char **end, double *x)
{
	const char *p = s;
	size_t n;

	if (*p == '-' || (!json && *p == '+'))
		p++;
	n = digits(p);
	if (json && (!n || (p[0] == '0' && n > 1)))
		return false;	/* no digit, or a leading zero */
	p += n;
	if (*p == '.') {
		size_t frac = digits(p + 1);

		if (json ? !frac : !frac && !n)
			return false;
		p += 1 + frac;
		n += frac;
	}
	if (!n)
		return false;
	if (*p == 'e' || *p == 'E') {
		const char *q = p + 1 + (p[1] == '+' || p[1] == '-');

		if (!digits(q))
			return false;
		p = q + digits(q);
	}
	errno = 0;
	*x = strtod(s, end);
	if (*end != p || !isfinite(*x))
		return false;
	return true;
}

static struct zj *parse_value(struct parser *ps)
{
	struct zj *v;
	char *end;

	skip_ws(ps);
	switch (*ps->p) {
	case '{':
		return parse_container(ps, true);
	case '[':
		return parse_container(ps, false);
	case '"':
		v = zj_new(ZJ_STR);
		v->str = parse_string(ps);
		if (!v->str) {
			free(v);
			return NULL;
		}
		return v;
	case 't':
		if (!strncmp(ps->p, "true", 4)) {
			ps->p += 4;
			return zj_bool(true);
		}
		break;
	case 'f':
		if (!strncmp(ps->p, "false", 5)) {
			ps->p += 5;
			return zj_bool(false);
		}
		break;
	case 'n':
		if (!strncmp(ps->p, "null", 4)) {
			ps->p += 4;
			return zj_new(ZJ_NULL);
		}
		break;
	default:
		if (*ps->p == '-' || isdigit((unsigned char)*ps->p)) {
			double x;

			if (!zab_number(ps->p, true, &end, &x)) {
				ps->err = "not a JSON number, or out of range";
				return NULL;
			}
			ps->p = end;
			return zj_num(x);
		}
	}
	ps->err = *ps->p ? "unexpected character" : "unexpected end of input";
	return NULL;
}

struct zj *zj_parse(const char *text, const char **err, int *line)
{
	struct parser ps = { .p = text, .line = 1 };
	struct zj *v = parse_value(&ps);

	if (v) {
		skip_ws(&ps);
		if (*ps.p) {
			ps.err = "trailing characters after the document";
			zj_free(v);
			v = NULL;
		}
	}
	if (!v) {
		*err = ps.err;
		*line = ps.line;
	}
	return v;
}
