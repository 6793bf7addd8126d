/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The features of a release's alternatives decided as that release decides
 * them (kpath.h): the CPUID bit (ERMS: leaf 7 EBX[9], FSRM: leaf 7 EDX[4],
 * FSRS: leaf 7 subleaf 1 EAX[11], arch/x86/include/asm/cpufeatures.h; no
 * bit for the Linux-defined REP_GOOD), then every set_cpu_cap /
 * clear_cpu_cap of it in the vendor's arch/x86/kernel/cpu/<vendor>.c, in
 * file order, each under the conditions that enclose it there:
 *
 *   6.12 amd.c init_amd():   if (cpu_has(c, X86_FEATURE_FSRM))
 *                                    set_cpu_cap(c, X86_FEATURE_FSRS);
 *   6.1 .. 7.2 amd.c:        if (c->x86 >= 0x10) set_cpu_cap(c, X86_FEATURE_REP_GOOD);
 *
 * Conditions understood: c->x86 / c->x86_model compared with a number,
 * c->x86_vfm with an asm/intel-family.h name (7.2 intel.c: IFM(6, 0x0D)),
 * cpu_has(c, X86_FEATURE_X) (decided the same way), !, &&, ||, and Intel's
 * IA32_MISC_ENABLE.FAST_STRING test, which user space cannot read: taken
 * as set (the firmware default), and said so.  A rule in a function called
 * from a `case N:` of the file runs for family N only.  Anything else is an
 * error naming the file and line, never skipped.
 */
#include <ctype.h>
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/stat.h>

#include "kpath_int.h"

#if defined(__x86_64__)
#include <cpuid.h>
#endif

void kpath_cat(char *dst, size_t len, const char *fmt, ...)
{
	size_t n = strlen(dst);
	va_list ap;

	if (n + 1 >= len)
		return;
	va_start(ap, fmt);
	vsnprintf(dst + n, len - n, fmt, ap);
	va_end(ap);
}

int kpath_text_read(const char *path, struct kpath_text *t)
{
	FILE *f = fopen(path, "r");
	size_t cap = 0, len = 0, i, n = 1;
	char *p;

	memset(t, 0, sizeof(*t));
	if (!f)
		return -errno;
	for (;;) {
		if (len + 4096 + 1 > cap) {
			p = realloc(t->buf, cap = cap * 2 + 8192);
			if (!p) {
				fclose(f);
				free(t->buf);
				return -ENOMEM;
			}
			t->buf = p;
		}
		i = fread(t->buf + len, 1, 4096, f);
		if (!i)
			break;
		len += i;
	}
	fclose(f);
	t->buf[len] = 0;
	for (i = 0; i < len; i++)
		n += t->buf[i] == '\n';
	t->line = calloc(n + 1, sizeof(*t->line));
	if (!t->line) {
		free(t->buf);
		return -ENOMEM;
	}
	t->line[t->n++] = t->buf;
	for (i = 0; i < len; i++)
		if (t->buf[i] == '\n') {
			t->buf[i] = 0;
			if (i + 1 < len)
				t->line[t->n++] = t->buf + i + 1;
		}
	return 0;
}

void kpath_text_free(struct kpath_text *t)
{
	free(t->line);
	free(t->buf);
	memset(t, 0, sizeof(*t));
}

/* ---- the CPU ------------------------------------------------------------- */

static const char *const feat_names[] = { "REP_GOOD", "ERMS", "FSRM", "FSRS" };

static const char *feat_canon(const char *s, size_t n)
{
	size_t i;

	if (n > 12 && !strncasecmp(s, "X86_FEATURE_", 12)) {
		s += 12;
		n -= 12;
	}
	for (i = 0; i < sizeof(feat_names) / sizeof(feat_names[0]); i++)
		if (strlen(feat_names[i]) == n && !strncasecmp(s, feat_names[i], n))
			return feat_names[i];
	return NULL;
}

int zero_kpath_cpu_host(struct zero_kpath_cpu *c, char *err, size_t errlen)
{
	memset(c, 0, sizeof(*c));
#if defined(__x86_64__)
	static const struct { const char *id, *name; } vendors[] = {
		{ "AuthenticAMD", "amd" }, { "GenuineIntel", "intel" }, { "HygonGenuine", "hygon" },
		{ "CentaurHauls", "centaur" }, { "  Shanghai  ", "zhaoxin" },
	};
	unsigned a, b, cx, d, max, base;
	char id[13];
	size_t i;

	__cpuid(0, max, b, cx, d);
	memcpy(id, &b, 4);
	memcpy(id + 4, &d, 4);
	memcpy(id + 8, &cx, 4);
	id[12] = 0;
	for (i = 0; i < sizeof(vendors) / sizeof(vendors[0]); i++)
		if (!strcmp(id, vendors[i].id))
			snprintf(c->vendor, sizeof(c->vendor), "%s", vendors[i].name);
	__cpuid(1, a, b, cx, d);
	/* arch/x86/lib/cpu.c x86_family(), x86_model() */
	base = (a >> 8) & 0xf;
	c->family = base == 0xf ? base + ((a >> 20) & 0xff) : base;
	c->model = ((a >> 4) & 0xf) | (base >= 0x6 ? ((a >> 16) & 0xf) << 4 : 0);
	if (max >= 7) {
		__cpuid_count(7, 0, a, b, cx, d);
		c->erms = b & (1u << 9);
		c->fsrm = d & (1u << 4);
		__cpuid_count(7, 1, a, b, cx, d);
		c->fsrs = a & (1u << 11);
	}
	if (!c->vendor[0]) {
		snprintf(err, errlen, "this CPU's vendor %s has no rules here (--cpu describes one)", id);
		return -ENOTSUP;
	}
	return 0;
#else
	snprintf(err, errlen, "kernel paths are resolved for x86-64: describe a CPU with --cpu");
	return -ENOTSUP;
#endif
}

int zero_kpath_cpu_parse(const char *s, struct zero_kpath_cpu *c, char *err, size_t errlen)
{
	char buf[256], *fam, *feats, *end, *tok, *save = NULL;
	const char *f;

	memset(c, 0, sizeof(*c));
	snprintf(buf, sizeof(buf), "%s", s);
	fam = strchr(buf, ':');
	if (fam)
		*fam++ = 0;
	feats = fam ? strchr(fam, ':') : NULL;
	if (feats)
		*feats++ = 0;
	if (strcmp(buf, "amd") && strcmp(buf, "intel") && strcmp(buf, "hygon") &&
	    strcmp(buf, "centaur") && strcmp(buf, "zhaoxin")) {
		snprintf(err, errlen, "--cpu %s: vendor '%s' is not amd, intel, hygon, centaur or zhaoxin",
			 s, buf);
		return -EINVAL;
	}
	snprintf(c->vendor, sizeof(c->vendor), "%.15s", buf);
	c->family = fam ? (unsigned)strtoul(fam, &end, 0) : 0;
	if (fam && *fam && *end == '/' && end[1])
		c->model = (unsigned)strtoul(end + 1, &end, 0);
	if (!fam || !*fam || *end || c->family > 0x1ff || c->model > 0xff) {
		snprintf(err, errlen, "--cpu %s: expected VENDOR:FAMILY[/MODEL][:FEAT,...] (e.g. amd:0x19:erms,fsrm)", s);
		return -EINVAL;
	}
	for (tok = feats ? strtok_r(feats, ",", &save) : NULL; tok; tok = strtok_r(NULL, ",", &save)) {
		f = feat_canon(tok, strlen(tok));
		if (f && !strcmp(f, "ERMS"))
			c->erms = true;
		else if (f && !strcmp(f, "FSRM"))
			c->fsrm = true;
		else if (f && !strcmp(f, "FSRS"))
			c->fsrs = true;
		else {
			snprintf(err, errlen, "--cpu %s: '%s' is not a CPUID feature here (erms, fsrm, fsrs)",
				 s, tok);
			return -EINVAL;
		}
	}
	c->described = true;
	return 0;
}

int zero_kpath_force(struct zero_kpath_cpu *c, const char *s, char *err, size_t errlen)
{
	const char *eq = strchr(s, '='), *f;

	f = eq ? feat_canon(s, (size_t)(eq - s)) : NULL;
	if (!f || (strcmp(eq + 1, "on") && strcmp(eq + 1, "off"))) {
		snprintf(err, errlen, "--alt %s: expected REP_GOOD|ERMS|FSRM|FSRS=on|off", s);
		return -EINVAL;
	}
	if (c->nforced >= ZERO_KPATH_MAX_FORCED) {
		snprintf(err, errlen, "--alt %s: at most %d", s, ZERO_KPATH_MAX_FORCED);
		return -E2BIG;
	}
	snprintf(c->forced[c->nforced], sizeof(c->forced[0]), "%s", f);
	c->forced_on[c->nforced++] = !strcmp(eq + 1, "on");
	return 0;
}
