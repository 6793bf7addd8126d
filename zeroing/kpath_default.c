/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * zero_device_default(): the routine a device runs when none is named --
 * the one that is what the running kernel runs for clear_user on this CPU
 * (kpath.h: its release's tree among $CUSEZERO_KERNEL_SOURCES and
 * /var/cache/cusezero-ksrc, else the nearest release below), when a
 * built-in routine is that code: the inline "rep stosb" is rep_stosb, a
 * call of rep_stos_alternative is rep_stos_alternative.  Otherwise (no
 * tree, not x86-64, a release that calls a function no built-in routine
 * ports) zero_default(), the registry's choice from the CPU flags; why
 * says which and why, in one line.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/utsname.h>

#include "kpath.h"

#define KPATH_DEFAULT_TREES "/var/cache/cusezero-ksrc"
#define KPATH_DEFAULT_MAX_DIRS 32

/* The built-in routine that is r's code, or NULL. */
static const struct zero_routine *builtin_of(const struct zero_kpath_res *r)
{
	if (r->is_inline)
		return !strcmp(r->insn, "rep stosb") ? zero_lookup("rep_stosb") : NULL;
	return !strcmp(r->symbol, "rep_stos_alternative") ? zero_lookup("rep_stos_alternative") : NULL;
}

/* The running kernel's clear_user path into r (p the tree picked): 0, or -errno with err. */
static int resolve_running(struct zero_kpath_pick *p, struct zero_kpath_res *r, const char *release,
			   char *err, size_t errlen)
{
	const char *env = getenv("CUSEZERO_KERNEL_SOURCES");
	char *copy = strdup(env ? env : ""), *w, *save = NULL, where[160];
	const char *dirs[KPATH_DEFAULT_MAX_DIRS];
	struct zero_kpath_cpu cpu;
	size_t n = 0;
	int ret;

	if (!copy) {
		snprintf(err, errlen, "out of memory");
		return -ENOMEM;
	}
	for (w = strtok_r(copy, " \t\n:", &save); w && n < KPATH_DEFAULT_MAX_DIRS - 1;
	     w = strtok_r(NULL, " \t\n:", &save))
		dirs[n++] = w;
	dirs[n++] = KPATH_DEFAULT_TREES;
	snprintf(where, sizeof(where), "%s%s", n > 1 ? "$CUSEZERO_KERNEL_SOURCES, " : "",
		 KPATH_DEFAULT_TREES);
	ret = zero_kpath_cpu_host(&cpu, err, errlen);
	if (!ret)
		ret = zero_kpath_pick_dirs(dirs, n, where, release, p, err, errlen);
	if (!ret)
		ret = zero_kpath_resolve(p->tree, ZERO_KPATH_CLEAR_USER, &cpu, r, err, errlen);
	free(copy);
	return ret;
}

/* The decision, once per process. */
static const struct zero_routine *decide(char *why, size_t len)
{
	struct zero_kpath_pick *p = calloc(1, sizeof(*p));
	struct zero_kpath_res *r = calloc(1, sizeof(*r));
	const struct zero_routine *rt = NULL, *def = zero_default();
	char err[1024];
	struct utsname u;

	if (!p || !r)
		snprintf(err, sizeof(err), "out of memory");
	else if (uname(&u))
		snprintf(err, sizeof(err), "uname: %s", strerror(errno));
	else if (!resolve_running(p, r, u.release, err, sizeof(err)) && !(rt = builtin_of(r)))
		snprintf(err, sizeof(err), "%s runs %s, which no built-in routine is (--source "
			 "kpath:%.700s:clear_user runs it)", r->release, r->brief, p->tree);
	if (rt && !zero_usable(rt, NULL)) {
		snprintf(err, sizeof(err), "%s runs %s, but %s is not usable here", r->release, r->brief,
			 rt->name);
		rt = NULL;
	}
	if (rt)
		snprintf(why, len, "what Linux %s runs for clear_user on this CPU, per %.1500s: %s",
			 u.release, p->how, r->brief);
	else
		snprintf(why, len, "the registry's default for this CPU (the running kernel's "
			 "clear_user not decided: %.1500s)", err);
	free(p);
	free(r);
	return rt ? rt : def;
}

const struct zero_routine *zero_device_default(char *why, size_t len)
{
	static const struct zero_routine *r;
	static char saved[2048];

	if (!r)
		r = decide(saved, sizeof(saved));
	if (why && len)
		snprintf(why, len, "%s", saved);
	return r;
}
