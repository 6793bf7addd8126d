/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * zero_kpath_resolve(): the alternative construct a release's header puts
 * on the path, read from the header's own text, and the side this CPU gets
 * (kpath.h).  The constructs understood, as the kernel's
 * arch/x86/include/asm/alternative.h defines them (6.1 .. 7.2):
 *
 *   ALTERNATIVE(old, new, ft)          ALTERNATIVE_2(old, new1, ft1, new2, ft2)
 *   ALTERNATIVE_3(old, new1, ft1, new2, ft2, new3, ft3)
 *   alternative_call(old, new, ft, ...)  alternative_call_2(old, new1, ft1, new2, ft2, ...)
 *
 * ft: X86_FEATURE_F or ALT_NOT(X86_FEATURE_F) (patched when F is absent).
 * Each later replacement that applies overwrites the earlier (6.12's
 * ALTERNATIVE_2 is literally ALTERNATIVE(ALTERNATIVE(old, new1, ft1), new2,
 * ft2)).  A function with no construct is followed into the one inline
 * function of the same header it calls (7.2 clear_page() -> clear_pages()).
 */
#include <ctype.h>
#include <dirent.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "kpath_int.h"

#define MAX_ARGS 12

struct site {
	const char *release, *file;   /* file relative to the tree */
	char func[64];                /* the function holding the construct */
	char macro[32];
	size_t line;                  /* 1-based line of the construct */
	char args[MAX_ARGS][256];
	unsigned nargs;
	char after[512];              /* what follows the construct in its statement */
	bool label1;                  /* "1:" right before it */
};

int zero_kpath_path_parse(const char *s, enum zero_kpath_path *p)
{
	if (!strcmp(s, "clear_user"))
		*p = ZERO_KPATH_CLEAR_USER;
	else if (!strcmp(s, "clear_page"))
		*p = ZERO_KPATH_CLEAR_PAGE;
	else
		return -EINVAL;
	return 0;
}

const char *zero_kpath_path_name(enum zero_kpath_path p)
{
	return p == ZERO_KPATH_CLEAR_USER ? "clear_user" : "clear_page";
}

/* VERSION.PATCHLEVEL.SUBLEVEL of the tree's Makefile. */
int kpath_release(const char *root, char *out, size_t outlen, char *err, size_t errlen)
{
	static const char *const keys[] = { "VERSION = ", "PATCHLEVEL = ", "SUBLEVEL = " };
	char path[4200], v[3][16] = { "", "", "" };
	struct kpath_text t;
	size_t i, k;
	int ret;

	snprintf(path, sizeof(path), "%s/Makefile", root);
	ret = kpath_text_read(path, &t);
	if (ret) {
		snprintf(err, errlen, "%s: %s: not a kernel tree (its top Makefile names the release)",
			 path, strerror(-ret));
		return ret;
	}
	for (i = 0; i < t.n && i < 20; i++)
		for (k = 0; k < 3; k++)
			if (!strncmp(t.line[i], keys[k], strlen(keys[k])))
				snprintf(v[k], sizeof(v[k]), "%s", t.line[i] + strlen(keys[k]));
	kpath_text_free(&t);
	if (!v[0][0] || !v[1][0]) {
		snprintf(err, errlen, "%s: no VERSION / PATCHLEVEL: not a kernel tree", path);
		return -EINVAL;
	}
	snprintf(out, outlen, "%s.%s%s%s", v[0], v[1], v[2][0] ? "." : "", v[2]);
	return 0;
}

int zero_kpath_release(const char *root, char *out, size_t outlen, char *err, size_t errlen)
{
	return kpath_release(root, out, outlen, err, errlen);
}

/* The body of "static ... name(...)\n{ ... }": first and last line index; false if none. */
static bool find_function(const struct kpath_text *t, const char *name, size_t *open, size_t *close)
{
	size_t i, n = strlen(name), j;

	for (i = 0; i + 1 < t->n; i++) {
		const char *p = strstr(t->line[i], name);

		if (!p || p[n] != '(' || (p > t->line[i] && (isalnum((unsigned char)p[-1]) || p[-1] == '_')) ||
		    strchr(t->line[i], ';') || strncmp(t->line[i], "static", 6))
			continue;
		for (j = i + 1; j < t->n && j < i + 4 && t->line[j][0] != '{'; j++)
			;
		if (j >= t->n || t->line[j][0] != '{')
			continue;
		*open = j;
		for (j = *open + 1; j < t->n && t->line[j][0] != '}'; j++)
			;
		if (j >= t->n)
			return false;
		*close = j;
		return true;
	}
	return false;
}

/* Arguments of the call whose '(' is at p: split at depth-1 commas outside strings and comments. */
static const char *split_args(struct site *s, const char *p)
{
	int depth = 0;
	bool str = false;
	size_t n = 0;

	for (; *p; p++) {
		if (str) {
			if (*p == '\\' && p[1]) {
				if (n + 2 < sizeof(s->args[0]))
					s->args[s->nargs][n++] = *p;
				p++;
			} else if (*p == '"') {
				str = false;
			}
		} else if (*p == '"') {
			str = true;
		} else if (p[0] == '/' && p[1] == '*') {
			const char *e = strstr(p + 2, "*/");

			if (!e)
				return NULL;
			p = e + 1;
			continue;
		} else if (*p == '(' && depth++ == 0) {
			continue;
		} else if (*p == ')' && --depth == 0) {
			s->args[s->nargs++][n] = 0;
			return p + 1;
		} else if (*p == ',' && depth == 1) {
			s->args[s->nargs++][n] = 0;
			n = 0;
			if (s->nargs == MAX_ARGS)
				return NULL;
			continue;
		}
		if (n + 1 < sizeof(s->args[0]))
			s->args[s->nargs][n++] = isspace((unsigned char)*p) ? ' ' : *p;
	}
	return NULL;
}

/* A string-literal argument ("a" "b", %% as %, \n as ';') into out; false if anything else. */
static bool literal(const char *a, char *out, size_t outlen)
{
	size_t n = 0;

	out[0] = 0;
	while (*a) {
		if (isspace((unsigned char)*a)) {
			a++;
			continue;
		}
		if (*a != '"')
			return false;
		for (a++; *a && *a != '"'; a++) {
			char ch = *a;

			if (ch == '\\' && (a[1] == 'n' || a[1] == 't'))
				ch = *++a == 'n' ? ';' : ' ';
			else if (ch == '%' && a[1] == '%')
				a++;
			if (n + 1 < outlen)
				out[n++] = ch;
		}
		if (!*a)
			return false;
		a++;
	}
	out[n] = 0;
	while (n && (out[n - 1] == ';' || out[n - 1] == ' '))
		out[--n] = 0;
	return true;
}

/* The construct in lines [o, c] of t, or false with *name of the one inline function called. */
static int find_construct(const struct kpath_text *t, size_t o, size_t c, struct site *s,
			  char *callee, size_t calleelen)
{
	static const char *const macros[] = { "ALTERNATIVE_3(", "ALTERNATIVE_2(", "ALTERNATIVE(",
					      "alternative_call_2(", "alternative_call(" };
	size_t i, k, len = 0;
	char *body, *p, *hit = NULL;
	const char *end;

	for (i = o; i <= c; i++)
		len += strlen(t->line[i]) + 1;
	body = malloc(len + 1);
	if (!body)
		return -ENOMEM;
	body[0] = 0;
	for (i = o, len = 0; i <= c; i++)
		len += (size_t)sprintf(body + len, "%s\n", t->line[i]);
	for (p = body; *p && !hit; p++)
		if ((*p == 'A' || *p == 'a') && !strncasecmp(p, "alternative", 11) &&
		    (p == body || !(isalnum((unsigned char)p[-1]) || p[-1] == '_')))
			hit = p;
	callee[0] = 0;
	if (!hit) {
		/* no construct: the function of this header it calls, if one */
		for (p = body + strcspn(body, "{"); *p; p++)
			if ((isalpha((unsigned char)*p) || *p == '_') && !(isalnum((unsigned char)p[-1]) || p[-1] == '_')) {
				size_t n = strspn(p, "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ_0123456789");
				size_t a, b;
				char name[64];

				snprintf(name, sizeof(name), "%.*s", (int)n, p);
				if (p[n] == '(' && strcmp(name, s->func) && find_function(t, name, &a, &b)) {
					snprintf(callee, calleelen, "%s", name);
					break;
				}
				p += n - 1;
			}
		free(body);
		return 1;
	}
	for (k = 0; k < sizeof(macros) / sizeof(macros[0]); k++)
		if (!strncmp(hit, macros[k], strlen(macros[k])))
			break;
	s->line = o + 1;
	for (p = body; p < hit; p++)
		s->line += *p == '\n';
	if (k == sizeof(macros) / sizeof(macros[0])) {
		snprintf(s->macro, sizeof(s->macro), "%.*s", (int)strcspn(hit, "( \n"), hit);
		free(body);
		return 2;
	}
	snprintf(s->macro, sizeof(s->macro), "%.*s", (int)strlen(macros[k]) - 1, macros[k]);
	/* "1:\n\t" right before it: the exception entry's start label */
	for (p = hit; p > body && hit - p < 16 && !s->label1; p--)
		s->label1 = !strncmp(p, "\"1:", 3);
	end = split_args(s, hit + strlen(macros[k]) - 1);
	if (end) {
		size_t n = strcspn(end, ";");

		snprintf(s->after, sizeof(s->after), "%.*s", (int)n, end);
		for (p = s->after; *p; p++)
			if (isspace((unsigned char)*p))
				*p = ' ';
	}
	free(body);
	return end ? 0 : 3;
}

/* "X86_FEATURE_F" or "ALT_NOT(X86_FEATURE_F)" -> F and not; false otherwise. */
static bool feature_arg(const char *a, char *f, size_t flen, bool *not)
{
	char buf[256];
	size_t n;

	snprintf(buf, sizeof(buf), "%s", a + strspn(a, " "));
	n = strlen(buf);
	while (n && buf[n - 1] == ' ')
		buf[--n] = 0;
	*not = !strncmp(buf, "ALT_NOT(", 8) && buf[n - 1] == ')';
	if (*not) {
		memmove(buf, buf + 8, n - 8);
		buf[n - 9] = 0;
	}
	if (strncmp(buf, "X86_FEATURE_", 12) || strspn(buf + 12, "ABCDEFGHIJKLMNOPQRSTUVWXYZ_0123456789") !=
	    strlen(buf + 12))
		return false;
	snprintf(f, flen, "%.*s", (int)flen - 1, buf + 12);
	return true;
}

/* Replacement i's code (0: the original) as text: a literal, or "call SYMBOL". */
static bool replacement(const struct site *s, unsigned i, char *out, size_t outlen)
{
	unsigned a = i ? 2 * i - 1 : 0;
	const char *sym = s->args[a] + strspn(s->args[a], " ");

	if (strncmp(s->macro, "alternative_call", 16))
		return literal(s->args[a], out, outlen);
	if (!isalpha((unsigned char)*sym) && *sym != '_')
		return false;
	snprintf(out, outlen, "call %.*s", (int)strspn(sym, "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ_0123456789"), sym);
	return true;
}

static unsigned n_repl(const char *macro)
{
	return !strcmp(macro, "ALTERNATIVE_3") ? 3 : !strcmp(macro, "ALTERNATIVE_2") ||
	       !strcmp(macro, "alternative_call_2") ? 2 : 1;
}

/* The side the CPU gets: the last replacement whose feature applies. */
static int decide(const char *root, const struct site *s, const struct zero_kpath_cpu *cpu,
		  struct zero_kpath_res *r, char *code, size_t codelen, char *err, size_t errlen)
{
	unsigned i, n = n_repl(s->macro), chosen = 0;
	char f[64], why[1500], text[256], reasons[2048] = "", feats[160] = "";
	bool not, on;
	int ret;

	if (s->nargs < 1 + 2 * n || !replacement(s, 0, code, codelen)) {
		snprintf(err, errlen, "%s: %s:%zu: %s's arguments not understood", s->release, s->file,
			 s->line, s->macro);
		return -ENOTSUP;
	}
	kpath_cat(r->detail, sizeof(r->detail), "  %s:%zu %s() %s: original \"%s\"\n", s->file,
		  s->line, s->func, s->macro, code);
	for (i = 1; i <= n; i++) {
		if (!replacement(s, i, text, sizeof(text)) || !feature_arg(s->args[2 * i], f, sizeof(f), &not)) {
			snprintf(err, errlen, "%s: %s:%zu: %s replacement %u not understood: %s, %s",
				 s->release, s->file, s->line, s->macro, i, s->args[2 * i - 1], s->args[2 * i]);
			return -ENOTSUP;
		}
		why[0] = 0;
		if (strcmp(f, "ALWAYS") && strcmp(f, "REP_GOOD") && strcmp(f, "ERMS") &&
		    strcmp(f, "FSRM") && strcmp(f, "FSRS")) {
			snprintf(err, errlen, "%s: %s:%zu: %s replacement %u: X86_FEATURE_%s is not a "
				 "feature decided here (REP_GOOD, ERMS, FSRM, FSRS)", s->release, s->file,
				 s->line, s->macro, i, f);
			return -ENOTSUP;
		}
		if (!strcmp(f, "ALWAYS")) {
			on = true;
			snprintf(why, sizeof(why), "always");
		} else {
			ret = kpath_feature(root, s->release, cpu, f, &on, why, sizeof(why), r->detail,
					    sizeof(r->detail), err, errlen);
			if (ret)
				return ret;
		}
		kpath_cat(r->detail, sizeof(r->detail), "  replacement %u \"%s\" if %s%s: %s %s (%s) -> %s\n",
			  i, text, not ? "not " : "", f, f, on ? "on" : "off", why,
			  on != not ? "patched in" : "kept out");
		kpath_cat(reasons, sizeof(reasons), "%s%s%s %s (%s)", reasons[0] ? "; " : "",
			  not ? "ALT_NOT " : "", f, on ? "on" : "off", why);
		kpath_cat(feats, sizeof(feats), "%s%s %s", feats[0] ? ", " : "", f, on ? "on" : "off");
		if (on != not) {
			chosen = i;
			snprintf(code, codelen, "%s", text);
		}
	}
	snprintf(r->summary, sizeof(r->summary), "%s %s: %s%s -- %s %s: %s", s->release,
		 zero_kpath_path_name(r->path), strncmp(code, "call ", 5) ? "inline " : "", code,
		 chosen ? "replacement" : "original", chosen ? "patched in" : "kept", reasons);
	snprintf(r->brief, sizeof(r->brief), "%s%.100s (%.80s)", strncmp(code, "call ", 5) ? "inline " : "",
		 code, feats);
	snprintf(r->site, sizeof(r->site), "%s:%zu", s->file, s->line);
	return 0;
}

/* The .S file of arch/x86/lib defining sym. */
static int symbol_file(const char *root, const char *release, const char *sym, char *out,
		       size_t outlen, char *err, size_t errlen)
{
	char dir[4200], path[4600], a[300], b[300];
	struct dirent *de;
	DIR *d;

	snprintf(dir, sizeof(dir), "%s/arch/x86/lib", root);
	snprintf(a, sizeof(a), "(%s)", sym);
	snprintf(b, sizeof(b), "(%s,", sym);
	d = opendir(dir);
	while (d && (de = readdir(d))) {
		size_t n = strlen(de->d_name), i;
		struct kpath_text t;
		bool found = false;

		if (n < 3 || strcmp(de->d_name + n - 2, ".S"))
			continue;
		snprintf(path, sizeof(path), "%s/%s", dir, de->d_name);
		if (kpath_text_read(path, &t))
			continue;
		for (i = 0; i < t.n && !found; i++)
			found = !strncmp(t.line[i], "SYM_", 4) && (strstr(t.line[i], a) || strstr(t.line[i], b));
		kpath_text_free(&t);
		if (found) {
			closedir(d);
			snprintf(out, outlen, "%.*s", (int)outlen - 1, path);
			return 0;
		}
	}
	if (d)
		closedir(d);
	snprintf(err, errlen, "%s: %s is defined in no arch/x86/lib/*.S of %s", release, sym, root);
	return -ENOENT;
}

/* The construct on path's function (following one call into the header). */
static int find_site(const struct kpath_text *t, const char *func, struct site *s, char *err,
		     size_t errlen)
{
	char callee[64];
	size_t o, c;
	int depth, ret;

	snprintf(s->func, sizeof(s->func), "%s", func);
	for (depth = 0; depth < 3; depth++) {
		if (!find_function(t, s->func, &o, &c)) {
			snprintf(err, errlen, "%s: %s: no inline %s() there", s->release, s->file, s->func);
			return -ENOENT;
		}
		ret = find_construct(t, o, c, s, callee, sizeof(callee));
		if (ret < 0)
			return ret;
		if (ret == 0)
			return 0;
		if (ret == 2 || ret == 3 || !callee[0]) {
			snprintf(err, errlen, "%s: %s:%zu: %s() %s", s->release, s->file,
				 ret == 1 ? o : s->line, s->func, ret == 1 ?
				 "has no alternative construct understood here" : "construct not understood");
			if (ret == 2)
				kpath_cat(err, errlen, ": %s", s->macro);
			return -ENOTSUP;
		}
		snprintf(s->func, sizeof(s->func), "%s", callee);
	}
	snprintf(err, errlen, "%s: %s: %s(): calls nest too deep", s->release, s->file, func);
	return -ENOTSUP;
}

int zero_kpath_resolve(const char *root, enum zero_kpath_path path,
		       const struct zero_kpath_cpu *cpu, struct zero_kpath_res *r, char *err,
		       size_t errlen)
{
	struct site s;
	struct kpath_text t;
	char full[4200], code[256];
	int ret;

	memset(r, 0, sizeof(*r));
	memset(&s, 0, sizeof(s));
	r->path = path;
	ret = kpath_release(root, r->release, sizeof(r->release), err, errlen);
	if (ret)
		return ret;
	s.release = r->release;
	s.file = path == ZERO_KPATH_CLEAR_USER ? "arch/x86/include/asm/uaccess_64.h" :
		 "arch/x86/include/asm/page_64.h";
	snprintf(full, sizeof(full), "%s/%s", root, s.file);
	ret = kpath_text_read(full, &t);
	if (ret) {
		snprintf(err, errlen, "%s: %s: %s: %s's header is not there", r->release, s.file,
			 strerror(-ret), zero_kpath_path_name(path));
		return ret;
	}
	ret = find_site(&t, path == ZERO_KPATH_CLEAR_USER ? "__clear_user" : "clear_page", &s, err,
			errlen);
	kpath_text_free(&t);
	if (!ret)
		ret = decide(root, &s, cpu, r, code, sizeof(code), err, errlen);
	if (ret)
		return ret;
	/* the operands: from the first ':' outside a string, blanks collapsed */
	{
		const char *a = s.after;
		bool str = false;
		size_t n = 0;

		for (; *a && (str || *a != ':'); a++)
			str ^= *a == '"' && a[-1] != '\\';
		for (; *a && n + 1 < sizeof(r->contract); a++)
			if (!(*a == ' ' && n && r->contract[n - 1] == ' '))
				r->contract[n++] = *a;
		r->contract[n] = 0;
	}
	if (!strncmp(s.macro, "alternative_call", 16)) {
		unsigned i;

		r->contract[0] = 0;
		for (i = 1 + 2 * n_repl(s.macro); i < s.nargs; i++)
			kpath_cat(r->contract, sizeof(r->contract), "%s%s", i > 1 + 2 * n_repl(s.macro) ?
				  ", " : "", s.args[i] + strspn(s.args[i], " "));
	}
	r->extable = s.label1 && strstr(s.after, "_ASM_EXTABLE_UA(1b, 2b)");
	if (!strncmp(code, "call ", 5)) {
		snprintf(r->symbol, sizeof(r->symbol), "%s", code + 5);
		return symbol_file(root, r->release, r->symbol, r->file, sizeof(r->file), err, errlen);
	}
	r->is_inline = true;
	snprintf(r->insn, sizeof(r->insn), "%s", code);
	if (!strstr(s.after, "\"+c\"") || !strstr(s.after, "\"+D\"") || !strstr(s.after, "\"a\" (0)")) {
		snprintf(err, errlen, "%s: %s: inline \"%s\": register contract not understood "
			 "(expected \"+c\", \"+D\", \"a\" (0)): %s", r->release, r->site, code, r->contract);
		return -ENOTSUP;
	}
	return 0;
}
