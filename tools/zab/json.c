/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * zab's JSON: a small tree with a writer and a strict reader (RFC 8259
 * subset: no \u escapes beyond Latin-1 are needed for our own files, but
 * they are decoded to UTF-8), and the result <-> JSON mapping.
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

/* ---- results <-> JSON ------------------------------------------------------------ */

void zab_cell_add(struct zab_cell *c, double x)
{
	if (c->n == c->cap) {
		c->cap = c->cap ? 2 * c->cap : 16;
		c->x = zab_xrealloc(c->x, c->cap * sizeof(*c->x));
		if (c->sess)
			c->sess = zab_xrealloc(c->sess, c->cap * sizeof(*c->sess));
		if (c->pre)
			c->pre = zab_xrealloc(c->pre, c->cap * sizeof(*c->pre));
		if (c->off)
			c->off = zab_xrealloc(c->off, c->cap * sizeof(*c->off));
	}
	if (c->pre)
		c->pre[c->n] = NAN;
	if (c->off)
		c->off[c->n] = -1;
	c->x[c->n++] = x;
}

void zab_cell_set_pre(struct zab_cell *c, double share)
{
	size_t i;

	if (!c->n)
		return;
	if (!c->pre) {
		c->pre = zab_xmalloc(c->cap * sizeof(*c->pre));
		for (i = 0; i < c->n; i++)
			c->pre[i] = NAN;
	}
	c->pre[c->n - 1] = share;
}

void zab_cell_set_off(struct zab_cell *c, int offset)
{
	size_t i;

	if (!c->n)
		return;
	if (!c->off) {
		c->off = zab_xmalloc(c->cap * sizeof(*c->off));
		for (i = 0; i < c->n; i++)
			c->off[i] = -1;
	}
	c->off[c->n - 1] = offset;
}

void zab_cell_add_session(struct zab_cell *c, double x, unsigned session)
{
	if (!c->sess && c->n) {
		zab_cell_add(c, x);   /* mixed: keep samples, forget sessions */
		return;
	}
	if (!c->sess)
		c->sess = zab_xmalloc((c->cap ? c->cap : 16) * sizeof(*c->sess));
	zab_cell_add(c, x);
	if (c->n > 0)
		c->sess[c->n - 1] = session;
}

void zab_result_free(struct zab_result *r)
{
	size_t i;

	for (i = 0; r->cells && i < r->nb * r->nv; i++) {
		free(r->cells[i].x);
		free(r->cells[i].sess);
		free(r->cells[i].pre);
		free(r->cells[i].off);
		free(r->cells[i].error);
	}
	for (i = 0; i < r->nb; i++) {
		free(r->b[i].name);
		free(r->b[i].group);
		free(r->b[i].unit);
	}
	for (i = 0; i < r->nv; i++)
		free(r->vname[i]);
	free(r->cells);
	free(r->sut);
	free(r->title);
	zj_free(r->doc);
	memset(r, 0, sizeof(*r));
}

struct zj *zab_environment(void)
{
	struct zj *env = zj_new(ZJ_OBJ);
	const struct zero_cpu *cpu = zero_cpu();
	struct utsname u;
	char *model = zab_xasprintf("%.*s", (int)zab_trimmed_len(cpu->model), cpu->model);

	/* CPUID brand strings are padded with blanks (AMD's to 48 bytes): not part of the name */
	zj_set(env, "cpu", zj_str(model[0] ? model : "unknown"));
	free(model);
	if (!uname(&u)) {
		zj_set(env, "kernel", zj_str(u.release));
		zj_set(env, "kernel_version", zj_str(u.version));
		zj_set(env, "machine", zj_str(u.machine));
		zj_set(env, "hostname", zj_str(u.nodename));
	}
	zj_set(env, "default_routine", zj_str(zero_default()->name));
	return env;
}

char *zab_default_sut(void)
{
	const struct zero_cpu *cpu = zero_cpu();
	const char *m = cpu->model[0] ? cpu->model : "unknown";
	char *s = zab_xmalloc(strlen(m) + 1), *d = s;

	/*
	 * Drop trademark marks, which would read like the tables' (R) regression
	 * mark, and collapse runs of blanks: "Intel(R) Xeon(R)  CPU" -> "Intel Xeon CPU".
	 * The raw model stays in the JSON environment.
	 */
	for (; *m; m++) {
		if (!strncmp(m, "(R)", 3) || !strncmp(m, "(r)", 3)) {
			m += 2;
			continue;
		}
		if (!strncmp(m, "(TM)", 4) || !strncmp(m, "(tm)", 4)) {
			m += 3;
			continue;
		}
		if (!(isspace((unsigned char)*m) && (d == s || d[-1] == ' ')))
			*d++ = isspace((unsigned char)*m) ? ' ' : *m;
	}
	while (d > s && d[-1] == ' ')
		d--;
	*d = 0;
	return s;
}

static struct zj *kv_obj(const struct zab_kv *kv, size_t n)
{
	struct zj *o = zj_new(ZJ_OBJ);
	size_t i;

	for (i = 0; i < n; i++)
		zj_set(o, kv[i].key, zj_str(kv[i].val));
	return o;
}

static const char *const rkind_names[] = {
	[ZAB_RK_CMD] = "command",
	[ZAB_RK_DEV_RATE] = "device: bytes per second of routine time",
	[ZAB_RK_DEV_NS] = "device: routine ns per chunk",
};

static const char *colocate_name(const struct zab_colocate *c)
{
	return c->mode == ZAB_COLOC_OFF ? "off" : c->mode == ZAB_COLOC_CPU ? "cpu" : "auto";
}

static void experiment_json(struct zj *doc, const struct zab_result *r,
			    const struct zab_experiment *e, struct zj *sessinfo, uint64_t seed)
{
	struct zj *ex = zj_set(doc, "experiment", zj_new(ZJ_OBJ));

	zj_set(ex, "name", zj_str(r->title));
	zj_set(ex, "file", zj_str(e->file));
	zj_set(ex, "sessions", zj_num(r->sessions));
	zj_set(ex, "warmups", zj_num(r->warmups));
	zj_set(ex, "repeats", zj_num(r->repeats));
	zj_set(ex, "retries", zj_num(e->retries));
	zj_set(ex, "order", zj_str(zab_order_name(e->order)));
	zj_set(ex, "seed", zj_num((double)seed));
	zj_set(ex, "base", zj_str(r->vname[r->base]));
	zj_set(ex, "vars", kv_obj(e->vars, e->nvars));
	zj_set(ex, "colocate", zj_str(colocate_name(&e->colocate)));
	/* the offsets of each run follow from this and the seed (sample_offsets has them) */
	zj_set(ex, "placement", zj_str(e->placement.spec ? e->placement.spec : "fixed"));
	if (e->colocate.mode == ZAB_COLOC_CPU)
		zj_set(ex, "colocate_cpu", zj_num(e->colocate.cpu));
	/* per session: the CPU its daemons and benchmarks ran on (null: not co-located) */
	if (sessinfo)
		zj_set(ex, "session_placement", zj_dup(sessinfo));
}

static void benchmarks_json(struct zj *doc, const struct zab_result *r,
			    const struct zab_experiment *e)
{
	struct zj *arr = zj_set(doc, "benchmarks", zj_new(ZJ_ARR)), *o;
	size_t b;

	for (b = 0; b < r->nb; b++) {
		o = zj_push(arr, zj_new(ZJ_OBJ));
		zj_set(o, "name", zj_str(r->b[b].name));
		zj_set(o, "group", zj_str(r->b[b].group));
		zj_set(o, "unit", zj_str(r->b[b].unit));
		zj_set(o, "better", zj_str(r->b[b].higher ? "higher" : "lower"));
		zj_set(o, "cmd", zj_str(e->bench[r->b[b].src].cmd));
		zj_set(o, "source", zj_str(rkind_names[r->b[b].kind]));
	}
}

static void variants_json(struct zj *doc, const struct zab_result *r,
			  const struct zab_experiment *e, struct zj *devinfo)
{
	struct zj *arr = zj_set(doc, "variants", zj_new(ZJ_ARR)), *o, *s;
	size_t v;

	for (v = 0; v < r->nv; v++) {
		const struct zab_variant *vv = &e->var[v];

		o = zj_push(arr, zj_new(ZJ_OBJ));
		zj_set(o, "name", zj_str(vv->name));
		if (vv->cmd)
			zj_set(o, "cmd", zj_str(vv->cmd));
		zj_set(o, "env", kv_obj(vv->env, vv->nenv));
		zj_set(o, "vars", kv_obj(vv->vars, vv->nvars));
		zj_set(o, "placement", zj_str(zab_var_placement(e, v)->spec ?
					      zab_var_placement(e, v)->spec : "fixed"));
		if (!vv->device)
			continue;
		s = zj_set(o, "device", zj_new(ZJ_OBJ));
		zj_set(s, "routine", zj_str(vv->routine));
		zj_set(s, "align", zj_str(vv->align));
		zj_set(s, "align_point", zj_str(vv->align_point));
		zj_set(s, "chunk", zj_str(vv->chunk));
		zj_set(s, "frontend", zj_str(vv->frontend ? vv->frontend : "fuse"));
		zj_set(s, "threads", zj_str(vv->threads));
		if (devinfo && v < devinfo->n)
			zj_set(s, "sessions", zj_dup(devinfo->items[v]));
	}
}

/* Per-layout cells and the figures over layouts (placement random/sweep). */
static void layouts_json(struct zj *o, const struct zab_result *r, size_t b, size_t v)
{
	struct zab_lstat ls, lb;
	struct zab_lpair p;
	struct zj *arr, *l, *pj;
	size_t j;

	if (!zab_layout_stat(zab_cell(r, b, v), r->b[b].higher, &ls))
		return;
	arr = zj_set(o, "layouts", zj_new(ZJ_ARR));
	for (j = 0; j < ls.nl; j++) {
		l = zj_push(arr, zj_new(ZJ_OBJ));
		zj_set(l, "offset", zj_num(ls.off[j]));
		zj_set(l, "runs", zj_num((double)ls.n[j]));
		zj_set(l, "mean", zj_num(ls.mean[j]));
	}
	l = zj_set(o, "over_layouts", zj_new(ZJ_OBJ));
	zj_set(l, "mean", zj_num(ls.grand));
	zj_set(l, "ci_lo", zj_num(ls.ci_lo));
	zj_set(l, "ci_hi", zj_num(ls.ci_hi));
	zj_set(l, "sensitivity_pct", zj_num(ls.sens_pct));
	zj_set(l, "sensitivity_significant", zj_bool(ls.sens_sig));
	zj_set(l, "layout_p", isnan(ls.sens_p) ? zj_new(ZJ_NULL) : zj_num(ls.sens_p));
	zj_set(l, "best_offset", zj_num(ls.off[ls.best]));
	zj_set(l, "worst_offset", zj_num(ls.off[ls.worst]));
	zj_set(l, "layout_share", isnan(ls.share) ? zj_new(ZJ_NULL) : zj_num(ls.share));
	if (v != r->base && zab_layout_stat(zab_cell(r, b, r->base), r->b[b].higher, &lb)) {
		if (zab_layout_pair(&lb, &ls, r->b[b].higher, &p)) {
			pj = zj_set(o, "paired_by_layout", zj_new(ZJ_OBJ));
			zj_set(pj, "layouts", zj_num((double)p.nl));
			zj_set(pj, "change_pct", zj_num(p.pct));
			zj_set(pj, "ci_lo_pct", zj_num(p.ci_lo));
			zj_set(pj, "ci_hi_pct", zj_num(p.ci_hi));
			zj_set(pj, "better", zj_num((double)p.better));
			zj_set(pj, "worse", zj_num((double)p.worse));
			zj_set(pj, "verdict", zj_str(p.flag > 0 ? "improvement" : p.flag < 0 ?
						     "regression" : "no difference"));
		}
		zab_lstat_free(&lb);
	}
	zab_lstat_free(&ls);
}

static void cells_json(struct zj *doc, const struct zab_result *r)
{
	struct zj *arr = zj_set(doc, "cells", zj_new(ZJ_ARR)), *o, *x;
	size_t b, v, i;

	for (b = 0; b < r->nb; b++)
		for (v = 0; v < r->nv; v++) {
			const struct zab_cell *c = zab_cell(r, b, v);

			o = zj_push(arr, zj_new(ZJ_OBJ));
			zj_set(o, "benchmark", zj_str(r->b[b].name));
			zj_set(o, "variant", zj_str(r->vname[v]));
			x = zj_set(o, "samples", zj_new(ZJ_ARR));
			for (i = 0; i < c->n; i++)
				zj_push(x, zj_num(c->x[i]));
			if (c->sess) {
				x = zj_set(o, "sample_sessions", zj_new(ZJ_ARR));
				for (i = 0; i < c->n; i++)
					zj_push(x, zj_num(c->sess[i]));
			}
			if (c->pre) {
				/* NaN (unknown) as null: JSON has no NaN */
				x = zj_set(o, "sample_preempted", zj_new(ZJ_ARR));
				for (i = 0; i < c->n; i++)
					zj_push(x, isnan(c->pre[i]) ? zj_new(ZJ_NULL) : zj_num(c->pre[i]));
			}
			if (c->off) {
				x = zj_set(o, "sample_offsets", zj_new(ZJ_ARR));
				for (i = 0; i < c->n; i++)
					zj_push(x, c->off[i] < 0 ? zj_new(ZJ_NULL) : zj_num(c->off[i]));
				layouts_json(o, r, b, v);
			}
			zj_set(o, "failed", zj_bool(c->failed));
			zj_set(o, "error", zj_str(c->error));
		}
}

struct zj *zab_result_json(const struct zab_result *r, const struct zab_experiment *e,
			   struct zj *env, struct zj *devinfo, struct zj *sessinfo, uint64_t seed)
{
	struct zj *doc = zj_new(ZJ_OBJ);

	zj_set(doc, "zab", zj_num(1));
	zj_set(doc, "sut", zj_str(r->sut));
	zj_set(doc, "environment", env);
	experiment_json(doc, r, e, sessinfo, seed);
	benchmarks_json(doc, r, e);
	variants_json(doc, r, e, devinfo);
	cells_json(doc, r);
	return doc;
}

static int bad_doc(const char *file, const char *what)
{
	cz_err("%s: not a zab result: %s", file, what);
	return -EINVAL;
}

static int bad_doc2(const char *file, const char *what, const char *name)
{
	cz_err("%s: not a zab result: %s: %s", file, what, name);
	return -EINVAL;
}

static size_t index_of(char *const *names, size_t n, const char *s)
{
	size_t i;

	for (i = 0; i < n; i++)
		if (!strcmp(names[i], s))
			return i;
	return n;
}

/*
 * A count of the experiment ("sessions": 4): absent is 0 (files from before
 * it was written); present it must be a whole number min..1000000, the range
 * zab run takes -- a cast of -5 or 1e300 to unsigned is no count at all.
 */
static int get_count(const struct zj *ex, const char *key, unsigned min, unsigned *out,
		     const char *file)
{
	struct zj *v = zj_get(ex, key);
	char what[96];

	if (!v)
		return 0;
	if (v->t != ZJ_NUM || v->num != floor(v->num) || v->num < min || v->num > 1000000) {
		snprintf(what, sizeof(what), "expected a whole number from %u to 1000000", min);
		return bad_doc2(file, key, what);
	}
	*out = (unsigned)v->num;
	return 0;
}

static int result_benchmarks(struct zab_result *r, const struct zj *doc, const char *file)
{
	struct zj *arr = zj_get(doc, "benchmarks"), *o;
	const char *s;
	size_t i;

	if (!arr || arr->t != ZJ_ARR || !arr->n || arr->n > ZAB_MAX_ITEMS)
		return bad_doc(file, "\"benchmarks\" missing, empty or too long");
	for (i = 0; i < arr->n; i++) {
		o = arr->items[i];
		s = zj_get_str(o, "name");
		if (!s)
			return bad_doc(file, "a benchmark without a name");
		for (size_t j = 0; j < r->nb; j++)
			if (!strcmp(r->b[j].name, s))
				return bad_doc2(file, "benchmark named twice", s);
		r->b[i].name = zab_xstrdup(s);
		s = zj_get_str(o, "group");
		r->b[i].group = zab_xstrdup(s ? s : "");
		s = zj_get_str(o, "unit");
		r->b[i].unit = zab_xstrdup(s ? s : "");
		s = zj_get_str(o, "better");
		r->b[i].higher = !s || strcmp(s, "lower");
		r->nb++;
	}
	return 0;
}

static int result_variants(struct zab_result *r, const struct zj *doc, const char *file)
{
	struct zj *arr = zj_get(doc, "variants");
	const char *s;
	size_t i;

	if (!arr || arr->t != ZJ_ARR || !arr->n || arr->n > ZAB_MAX_ITEMS)
		return bad_doc(file, "\"variants\" missing, empty or too long");
	for (i = 0; i < arr->n; i++) {
		s = zj_get_str(arr->items[i], "name");
		if (!s)
			return bad_doc(file, "a variant without a name");
		if (index_of(r->vname, r->nv, s) != r->nv)
			return bad_doc2(file, "variant named twice", s);
		r->vname[i] = zab_xstrdup(s);
		r->nv++;
	}
	return 0;
}

/* One cell: its samples (finite numbers), failed and error.  seen: cells already read. */
static int result_cell(struct zab_result *r, const struct zj *o, bool *seen, const char *file)
{
	const char *bn = zj_get_str(o, "benchmark"), *vn = zj_get_str(o, "variant"), *s;
	struct zab_cell *c;
	struct zj *x, *fl;
	char what[160];
	size_t b = r->nb, v, j;

	for (j = 0; bn && j < r->nb; j++)
		if (!strcmp(r->b[j].name, bn))
			b = j;
	v = vn ? index_of(r->vname, r->nv, vn) : r->nv;
	if (b == r->nb || v == r->nv)
		return bad_doc(file, "a cell names an unknown benchmark or variant");
	/* Two cells for one pair would be pooled silently: which file is right? */
	if (seen[b * r->nv + v]) {
		snprintf(what, sizeof(what), "benchmark '%s', variant '%s'", bn, vn);
		return bad_doc2(file, "a cell given twice", what);
	}
	seen[b * r->nv + v] = true;
	c = zab_cell(r, b, v);
	x = zj_get(o, "samples");
	for (j = 0; x && x->t == ZJ_ARR && j < x->n; j++) {
		if (x->items[j]->t != ZJ_NUM || !isfinite(x->items[j]->num))
			return bad_doc(file, "a sample is not a number");
		zab_cell_add(c, x->items[j]->num);
	}
	fl = zj_get(o, "failed");
	c->failed = fl && fl->t == ZJ_BOOL && fl->b;
	s = zj_get_str(o, "error");
	c->error = zab_xstrdup(s);
	return 0;
}

int zab_result_from_json(struct zab_result *r, struct zj *doc, const char *file)
{
	struct zj *ex, *arr;
	const char *s;
	bool *seen;
	double d;
	size_t i;
	int ret;

	memset(r, 0, sizeof(*r));
	r->doc = doc;
	if (doc->t != ZJ_OBJ || !zj_get_num(doc, "zab", &d))
		return bad_doc(file, "no \"zab\" version member");
	if (d != 1)
		return bad_doc(file, "unsupported \"zab\" version");
	ex = zj_get(doc, "experiment");
	s = zj_get_str(doc, "sut");
	r->sut = zab_xstrdup(s ? s : "unknown");
	s = zj_get_str(ex, "name");
	r->title = zab_xstrdup(s ? s : "");
	if (get_count(ex, "sessions", 1, &r->sessions, file) ||
	    get_count(ex, "warmups", 0, &r->warmups, file) ||
	    get_count(ex, "repeats", 1, &r->repeats, file))
		return -EINVAL;
	ret = result_benchmarks(r, doc, file);
	if (!ret)
		ret = result_variants(r, doc, file);
	if (ret)
		return ret;
	s = zj_get_str(ex, "base");
	r->base = s ? index_of(r->vname, r->nv, s) : 0;
	if (r->base == r->nv)
		return bad_doc(file, "the base variant is not among the variants");
	r->cells = zab_xmalloc(r->nb * r->nv * sizeof(*r->cells));
	arr = zj_get(doc, "cells");
	if (!arr || arr->t != ZJ_ARR)
		return bad_doc(file, "\"cells\" missing");
	seen = zab_xmalloc(r->nb * r->nv * sizeof(*seen));
	for (i = 0, ret = 0; !ret && i < arr->n; i++)
		ret = result_cell(r, arr->items[i], seen, file);
	free(seen);
	return ret;
}
