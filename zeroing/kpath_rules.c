/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * kpath_feature(): a feature's final value as a release's vendor file
 * derives it (the rules and conditions understood: kpath_feat.c).
 */
#include <ctype.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "kpath_int.h"

#define MAX_DEPTH 4

struct rules {
	const char *root, *release, *file;      /* file: relative to root */
	const struct zero_kpath_cpu *cpu;
	struct kpath_text t;
	bool *active;           /* per line: not in an #else of CONFIG_X86_64 etc. */
	char *detail;
	size_t detaillen;
	char *err;
	size_t errlen;
	int depth;
	bool msr_assumed;
};

static int feature_of(struct rules *R, const char *feat, bool *on, char *why, size_t whylen);

static const char *skip_ws(const char *s)
{
	while (*s && isspace((unsigned char)*s))
		s++;
	return s;
}

/* Preprocessor state per line: CONFIG_X86_64 holds, CONFIG_X86_32 does not. */
static int mark_active(struct rules *R)
{
	bool outer[32], known[32], cur = true;
	int sp = 0;
	size_t i;

	R->active = calloc(R->t.n + 1, sizeof(bool));
	if (!R->active)
		return -ENOMEM;
	for (i = 0; i < R->t.n; i++) {
		const char *l = skip_ws(R->t.line[i]);
		bool neg = strstr(l, "!") || !strncmp(l, "#ifndef", 7);

		if (!strncmp(l, "#if", 3) && sp < 32) {
			outer[sp] = cur;
			known[sp] = strstr(l, "CONFIG_X86_32") || strstr(l, "CONFIG_X86_64");
			if (strstr(l, "CONFIG_X86_32"))
				cur = cur && neg;
			else if (strstr(l, "CONFIG_X86_64"))
				cur = cur && !neg;
			sp++;
		} else if (!strncmp(l, "#else", 5) && sp && known[sp - 1]) {
			cur = outer[sp - 1] && !cur;
		} else if (!strncmp(l, "#endif", 6) && sp) {
			cur = outer[--sp];
		}
		R->active[i] = cur;
	}
	return 0;
}

static int not_understood(struct rules *R, size_t line, const char *what, const char *text)
{
	snprintf(R->err, R->errlen, "%s: %s:%zu: %s not understood: %s", R->release, R->file,
		 line + 1, what, text);
	return -ENOTSUP;
}

/* ---- conditions ---------------------------------------------------------- */

struct cond {
	struct rules *R;
	const char *p;
	size_t line;
	char *why;
	size_t whylen;
};

static int or_expr(struct cond *C, bool *v);

static int compare(const char *p, unsigned have, bool *v, const char **end)
{
	char op[3] = "";
	unsigned long n;
	char *e;

	p = skip_ws(p);
	if (p[0] == '>' || p[0] == '<' || p[0] == '=' || p[0] == '!') {
		op[0] = p[0];
		if (p[1] == '=')
			op[1] = '=';
	}
	if (!op[0] || (op[0] == '=' && op[1] != '=') || (op[0] == '!' && op[1] != '='))
		return -1;
	n = strtoul(skip_ws(p + strlen(op)), &e, 0);
	if (e == skip_ws(p + strlen(op)))
		return -1;
	*end = e;
	*v = !strcmp(op, ">=") ? have >= n : !strcmp(op, ">") ? have > n :
	     !strcmp(op, "<=") ? have <= n : !strcmp(op, "<") ? have < n :
	     !strcmp(op, "==") ? have == n : have != n;
	return 0;
}

/*
 * NAME of arch/x86/include/asm/intel-family.h ("#define NAME IFM(F, M)")
 * as family << 8 | model: c->x86_vfm's order for an Intel CPU (the vendor
 * part of VFM_MAKE() is the same on both sides).  0, or -1 if not there.
 */
static int intel_vfm(const struct rules *R, const char *name, size_t n, unsigned *out)
{
	char path[4200], want[160];
	struct kpath_text t;
	unsigned f;
	int m, ret = -1;
	size_t i;

	snprintf(path, sizeof(path), "%s/arch/x86/include/asm/intel-family.h", R->root);
	snprintf(want, sizeof(want), "#define %.*s", (int)n, name);
	if (kpath_text_read(path, &t))
		return -1;
	for (i = 0; i < t.n && ret; i++) {
		const char *l = t.line[i];

		if (!strncmp(l, want, strlen(want)) && isspace((unsigned char)l[strlen(want)]) &&
		    sscanf(skip_ws(l + strlen(want)), "IFM(%u, %i)", &f, &m) == 2 && m >= 0) {
			*out = f << 8 | (unsigned)m;
			ret = 0;
		}
	}
	kpath_text_free(&t);
	return ret;
}

static int atom(struct cond *C, bool *v)
{
	const char *p = skip_ws(C->p), *end = NULL;
	char feat[64], sub[200];
	size_t n;

	*v = false;
	if (!strncmp(p, "c->x86_model", 12) && !compare(p + 12, C->R->cpu->model, v, &end)) {
		kpath_cat(C->why, C->whylen, " [model %#x]", C->R->cpu->model);
	} else if (!strncmp(p, "c->x86", 6) && !isalnum((unsigned char)p[6]) && p[6] != '_' &&
		   !compare(p + 6, C->R->cpu->family, v, &end)) {
		kpath_cat(C->why, C->whylen, " [family %#x]", C->R->cpu->family);
	} else if (!strncmp(p, "c->x86_vfm ", 11) && !strcmp(C->R->cpu->vendor, "intel")) {
		const char *q = skip_ws(p + 11), *name;
		unsigned want, have = C->R->cpu->family << 8 | C->R->cpu->model;
		char op[3] = "";

		n = strspn(q, "<>=!");
		if (n < 1 || n > 2)
			return -1;
		memcpy(op, q, n);
		name = skip_ws(q + n);
		n = strspn(name, "ABCDEFGHIJKLMNOPQRSTUVWXYZ_0123456789");
		if (!n || intel_vfm(C->R, name, n, &want))
			return -1;
		*v = !strcmp(op, ">=") ? have >= want : !strcmp(op, ">") ? have > want :
		     !strcmp(op, "<=") ? have <= want : !strcmp(op, "<") ? have < want :
		     !strcmp(op, "==") ? have == want : !strcmp(op, "!=") ? have != want : false;
		kpath_cat(C->why, C->whylen, " [family/model %#x vs %.*s %#x]", have, (int)n, name, want);
		end = name + n;
	} else if (!strncmp(p, "cpu_has(c, X86_FEATURE_", 23)) {
		n = strspn(p + 23, "ABCDEFGHIJKLMNOPQRSTUVWXYZ_0123456789");
		if (p[23 + n] != ')')
			return -1;
		snprintf(feat, sizeof(feat), "%.*s", (int)n, p + 23);
		sub[0] = 0;
		if (feature_of(C->R, feat, v, sub, sizeof(sub)))
			return -2;
		kpath_cat(C->why, C->whylen, " [%s %s: %s]", feat, *v ? "on" : "off", sub);
		end = p + 24 + n;
	} else if (!strncmp(p, "misc_enable & MSR_IA32_MISC_ENABLE_FAST_STRING", 46)) {
		*v = true;
		C->R->msr_assumed = true;
		kpath_cat(C->why, C->whylen, " [IA32_MISC_ENABLE.FAST_STRING taken as set: not "
			  "readable from user space]");
		end = p + 46;
	} else {
		return -1;
	}
	C->p = end;
	return 0;
}

static int unary(struct cond *C, bool *v)
{
	int ret;

	C->p = skip_ws(C->p);
	if (*C->p == '!') {
		C->p++;
		ret = unary(C, v);
		if (!ret)
			*v = !*v;
		return ret;
	}
	if (*C->p == '(') {
		C->p++;
		ret = or_expr(C, v);
		C->p = skip_ws(C->p);
		if (ret || *C->p != ')')
			return ret ? ret : -1;
		C->p++;
		return 0;
	}
	return atom(C, v);
}

static int and_expr(struct cond *C, bool *v)
{
	bool w = false;
	int ret = unary(C, v);

	while (!ret && !strncmp(skip_ws(C->p), "&&", 2)) {
		C->p = skip_ws(C->p) + 2;
		ret = unary(C, &w);
		*v = *v && w;
	}
	return ret;
}

static int or_expr(struct cond *C, bool *v)
{
	bool w = false;
	int ret = and_expr(C, v);

	while (!ret && !strncmp(skip_ws(C->p), "||", 2)) {
		C->p = skip_ws(C->p) + 2;
		ret = and_expr(C, &w);
		*v = *v || w;
	}
	return ret;
}

/* Evaluate "if (TEXT)"'s TEXT found at line. */
static int eval_cond(struct rules *R, size_t line, const char *text, bool *v, char *why,
		     size_t whylen)
{
	struct cond C = { R, text, line, why, whylen };
	int ret = or_expr(&C, v);

	if (!ret && *skip_ws(C.p))
		ret = -1;
	if (ret == -1)
		return not_understood(R, line, "condition", text);
	return ret == -2 ? -ENOTSUP : 0;
}

/* ---- where a rule sits ---------------------------------------------------- */

/* The condition of "if (...)" starting in text, into out; false if none. */
static bool if_cond(const char *text, char *out, size_t outlen)
{
	const char *p = strstr(text, "if (");
	int depth = 0;
	size_t i;

	if (!p)
		return false;
	p += 3;
	for (i = 0; p[i]; i++) {
		depth += p[i] == '(';
		depth -= p[i] == ')';
		if (!depth)
			break;
	}
	if (!p[i])
		return false;
	snprintf(out, outlen, "%.*s", (int)(i - 1), p + 1);
	return true;
}

/* The text of the statement head ending at line e (joined back to its "if (" line). */
static void head_text(struct rules *R, size_t e, char *out, size_t outlen)
{
	size_t s = e;

	while (s > 0 && e - s < 4 && !strstr(R->t.line[s], "if (")) {
		const char *p = R->t.line[s - 1];
		size_t n = strlen(p);

		while (n && isspace((unsigned char)p[n - 1]))
			n--;
		if (!n || p[n - 1] == ';' || p[n - 1] == '{' || p[n - 1] == '}' || p[n - 1] == '/')
			break;
		s--;
	}
	out[0] = 0;
	for (; s <= e; s++)
		kpath_cat(out, outlen, "%s ", skip_ws(R->t.line[s]));
}

/* One enclosing condition, evaluated; *v false stops the rule. */
static int enclosing(struct rules *R, size_t line, bool negate, bool *v, char *why, size_t whylen)
{
	char text[600], cond[600];
	int ret;

	head_text(R, line, text, sizeof(text));
	if (!if_cond(text, cond, sizeof(cond)) || strstr(text, "else if"))
		return not_understood(R, line, "block", text);
	kpath_cat(why, whylen, " %s:%zu %sif (%s)", R->file, line + 1, negate ? "else of " : "",
		  cond);
	ret = eval_cond(R, line, cond, v, why, whylen);
	if (negate)
		*v = !*v;
	return ret;
}

/* A family gate for a function the file calls from "case N:". */
static int function_gate(struct rules *R, const char *fn, bool *v, char *why, size_t whylen)
{
	static const char *const boot[] = { "init_amd", "early_init_amd", "bsp_init_amd",
		"init_intel", "early_init_intel", "bsp_init_intel", "init_hygon", "early_init_hygon",
		"bsp_init_hygon", "init_centaur", "early_init_centaur", "init_zhaoxin",
		"early_init_zhaoxin" };
	char call[160];
	size_t i;

	for (i = 0; i < sizeof(boot) / sizeof(boot[0]); i++)
		if (!strcmp(fn, boot[i])) {
			*v = true;
			return 0;
		}
	snprintf(call, sizeof(call), "%s(c);", fn);
	for (i = 0; i < R->t.n; i++) {
		const char *l = skip_ws(R->t.line[i]);
		unsigned long fam;
		char *e;

		if (strncmp(l, "case ", 5) || !strstr(l, call))
			continue;
		fam = strtoul(l + 5, &e, 0);
		if (*e != ':')
			break;
		*v = R->cpu->family == fam;
		kpath_cat(why, whylen, " %s() runs for family %#lx only (%s:%zu)", fn, fam, R->file,
			  i + 1);
		return 0;
	}
	snprintf(R->err, R->errlen, "%s: %s: %s() not understood: neither a vendor init "
		 "function nor called from a family's case", R->release, R->file, fn);
	return -ENOTSUP;
}

/* What encloses a rule: its function, then the if blocks outside in, then a braceless if. */
struct frame {
	size_t line;
	bool negate, braceless;
};

#define MAX_FRAMES 16

/* The line of the '{' matching the '}' that starts line i ("} else {"). */
static size_t open_of(const struct rules *R, size_t i)
{
	int d = 1;
	size_t m = i;

	while (m-- > 0) {
		size_t x = strlen(R->t.line[m]);

		while (x-- > 0) {
			d += R->t.line[m][x] == '}' ? 1 : R->t.line[m][x] == '{' ? -1 : 0;
			if (!d)
				return m;
		}
	}
	return 0;
}

/* The function and the blocks enclosing line, innermost first; the function's '{' line in *fn. */
static int frames_of(struct rules *R, size_t line, struct frame *f, unsigned *nf, size_t *fn)
{
	int depth = 0;
	size_t i = line;

	*nf = 0;
	while (i-- > 0) {
		const char *l = R->t.line[i];
		size_t k = strlen(l);
		bool else_open = strstr(l, "} else {") != NULL;

		while (k-- > 0) {
			if (l[k] == '}') {
				depth++;
			} else if (l[k] == '{' && depth) {
				depth--;
			} else if (l[k] == '{' && k == 0) {
				*fn = i;
				return 0;
			} else if (l[k] == '{' && *nf < MAX_FRAMES) {
				f[(*nf)++] = (struct frame){ else_open ? open_of(R, i) : i, else_open, false };
				if (else_open)
					i = f[*nf - 1].line;
				break;
			}
		}
	}
	return not_understood(R, line, "rule outside a function", R->t.line[line]);
}

/* Whether the rule at line applies: its function, each enclosing if outside in, a braceless if. */
static int rule_applies(struct rules *R, size_t line, bool *v, char *why, size_t whylen)
{
	struct frame f[MAX_FRAMES + 1];
	unsigned nf, k;
	size_t fl, j;
	char fname[128], text[600], cond[600];
	const char *p, *q;
	int ret;

	*v = true;
	ret = frames_of(R, line, f, &nf, &fl);
	if (ret)
		return ret;
	p = fl ? strchr(R->t.line[fl - 1], '(') : NULL;
	for (q = p; q && q > R->t.line[fl - 1] && (isalnum((unsigned char)q[-1]) || q[-1] == '_'); q--)
		;
	if (!p || p == q)
		return not_understood(R, fl, "function", R->t.line[fl ? fl - 1 : 0]);
	snprintf(fname, sizeof(fname), "%.*s", (int)(p - q), q);
	ret = function_gate(R, fname, v, why, whylen);
	/* a braceless "if (...)" right before the rule, innermost */
	for (j = line; j > 0 && !strlen(skip_ws(R->t.line[j - 1])); j--)
		;
	if (j > 0) {
		const char *prev = skip_ws(R->t.line[j - 1]);

		head_text(R, j - 1, text, sizeof(text));
		if (strlen(prev) && prev[strlen(prev) - 1] == ')' && if_cond(text, cond, sizeof(cond)))
			f[nf++] = (struct frame){ j - 1, false, true };
	}
	for (k = nf; !ret && *v && k-- > 0; )
		ret = enclosing(R, f[k].line, f[k].negate, v, why, whylen);
	return ret;
}

static int feature_of(struct rules *R, const char *feat, bool *on, char *why, size_t whylen)
{
	const struct zero_kpath_cpu *c = R->cpu;
	char set[64], clr[64], sclr[64], rwhy[1200];
	size_t i;
	unsigned k;
	bool v;
	int ret;

	for (k = 0; k < c->nforced; k++)
		if (!strcmp(c->forced[k], feat)) {
			*on = c->forced_on[k];
			snprintf(why, whylen, "assumed %s", *on ? "on" : "off");
			return 0;
		}
	if (++R->depth > MAX_DEPTH) {
		snprintf(R->err, R->errlen, "%s: %s: rules for %s nest too deep", R->release, R->file, feat);
		return -ELOOP;
	}
	*on = !strcmp(feat, "ERMS") ? c->erms : !strcmp(feat, "FSRM") ? c->fsrm :
	      !strcmp(feat, "FSRS") ? c->fsrs : false;
	snprintf(why, whylen, "%s", !strcmp(feat, "REP_GOOD") ? "no CPUID bit" :
		 c->described ? (*on ? "described CPU has it" : "described CPU lacks it") :
		 (*on ? "CPUID" : "not in CPUID"));
	snprintf(set, sizeof(set), "set_cpu_cap(c, X86_FEATURE_%s)", feat);
	snprintf(clr, sizeof(clr), "clear_cpu_cap(c, X86_FEATURE_%s)", feat);
	snprintf(sclr, sizeof(sclr), "setup_clear_cpu_cap(X86_FEATURE_%s)", feat);
	for (i = 0; i < R->t.n; i++) {
		const char *l = skip_ws(R->t.line[i]);
		bool is_set = strstr(l, set) != NULL;

		if (!is_set && !strstr(l, clr) && !strstr(l, sclr))
			continue;
		if (l[0] == '*' || l[0] == '/')
			continue;
		if (!R->active[i]) {
			kpath_cat(R->detail, R->detaillen, "  %s: %s:%zu: %s -- not built on x86-64\n",
				  feat, R->file, i + 1, l);
			continue;
		}
		rwhy[0] = 0;
		ret = rule_applies(R, i, &v, rwhy, sizeof(rwhy));
		if (ret)
			return ret;
		kpath_cat(R->detail, R->detaillen, "  %s: %s:%zu: %s --%s: %s\n", feat, R->file, i + 1,
			  l, rwhy, v ? "applies" : "does not apply");
		if (!v)
			kpath_cat(why, whylen, "; %s:%zu %s does not apply:%s", R->file, i + 1,
				  is_set ? "setting it" : "clearing it", rwhy);
		if (v) {
			*on = is_set;
			snprintf(why, whylen, "%s:%zu %s%s%s", R->file, i + 1, is_set ? "sets it" : "clears it",
				 rwhy[0] ? ", under" : "", rwhy);
		}
	}
	R->depth--;
	return 0;
}

int kpath_feature(const char *root, const char *release, const struct zero_kpath_cpu *cpu,
		  const char *feat, bool *on, char *why, size_t whylen, char *detail,
		  size_t detaillen, char *err, size_t errlen)
{
	struct rules R = { .root = root, .release = release, .cpu = cpu, .detail = detail,
			   .detaillen = detaillen, .err = err, .errlen = errlen };
	char file[64], path[4200];
	int ret;

	if (!cpu->vendor[0]) {
		snprintf(err, errlen, "%s: no CPU vendor: its rules cannot be chosen", release);
		return -EINVAL;
	}
	snprintf(file, sizeof(file), "arch/x86/kernel/cpu/%s.c", cpu->vendor);
	R.file = file;
	snprintf(path, sizeof(path), "%s/%s", root, file);
	ret = kpath_text_read(path, &R.t);
	if (ret) {
		snprintf(err, errlen, "%s: %s: %s: the %s vendor rules for %s cannot be read "
			 "(scripts/kernel-sources.sh extracts it)", release, file, strerror(-ret),
			 cpu->vendor, feat);
		return ret;
	}
	ret = mark_active(&R);
	if (!ret)
		ret = feature_of(&R, feat, on, why, whylen);
	if (!ret && R.msr_assumed)
		kpath_cat(why, whylen, " (assumed: fast strings enabled)");
	free(R.active);
	kpath_text_free(&R.t);
	return ret;
}
