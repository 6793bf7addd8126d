/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The registry: ONE table listing every routine built for this architecture,
 * usable on this CPU or not (glibc's ifunc-impl-list shape).  Choose by name
 * at run time with zero_lookup(); zero_default() is the best usable one.
 * The per-architecture entries live beside their assembly in
 * x86_64/registry.inc and aarch64/registry.inc.
 */
#include <errno.h>
#include <string.h>

#include "zeroing.h"
#include "generic.h"
#include "ksrc_int.h"

#if defined(__x86_64__)
#include "x86_64/routines.h"
#define ZR_ARCH ZERO_ARCH_X86_64
#define ZR_LIST "x86_64/registry.inc"
#elif defined(__aarch64__)
#include "aarch64/routines.h"
#define ZR_ARCH ZERO_ARCH_AARCH64
#define ZR_LIST "aarch64/registry.inc"
#endif

/* One entry per ZR_ROUTINE of the architecture's list: the name is typed once. */
#define ZR_ROUTINE(nm, ds, fl, us)					\
	{								\
		.name = #nm, .desc = ds, .arch = ZR_ARCH, .flags = fl,	\
		.fn = zr_##nm, .usable = us,				\
		.code_start = (const void *)zr_##nm,			\
		.code_end = zr_##nm##_end, .loop_head = zr_##nm##_loop,	\
	},

const struct zero_routine zero_routines[] = {
#ifdef ZR_LIST
#include ZR_LIST
#endif
	{
		.name = "memset",
		.desc = "glibc memset() through clear_pages(addr, npages) (2026 arm64 clear_page[s] patch)",
		.arch = ZERO_ARCH_ANY,
		.fn = zr_memset_clear_pages,
		.no_reloc_why = "calls glibc memset through the PLT",
	},
	{
		.name = "c_store_loop",
		.desc = "portable C loop of 8-byte stores, byte head and tail",
		.arch = ZERO_ARCH_ANY,
		.fn = zr_c_store_loop,
		.code_start = __start_zr_text_c_store_loop,
		.code_end = __stop_zr_text_c_store_loop,
	},
};
const size_t zero_nroutines = sizeof(zero_routines) / sizeof(zero_routines[0]);

/*
 * Loaded routines (kernel source files, ksrc.c), after the built-in ones.
 * Registered before any thread starts and never removed, so readers need
 * no lock.
 */
#define ZERO_MAX_LOADED 32
static const struct zero_routine *loaded[ZERO_MAX_LOADED];
static size_t nloaded;

int zero_register(const struct zero_routine *r)
{
	if (zero_lookup(r->name))
		return -EEXIST;
	if (nloaded >= ZERO_MAX_LOADED)
		return -ENOSPC;
	loaded[nloaded++] = r;
	return 0;
}

size_t zero_count(void)
{
	return zero_nroutines + nloaded;
}

const struct zero_routine *zero_at(size_t i)
{
	if (i < zero_nroutines)
		return &zero_routines[i];
	return i - zero_nroutines < nloaded ? loaded[i - zero_nroutines] : NULL;
}

size_t zero_index(const struct zero_routine *r)
{
	size_t i;

	for (i = 0; i < zero_count(); i++)
		if (zero_at(i) == r)
			return i;
	return (size_t)-1;
}

/*
 * Preference order for zero_default(): what the kernel itself would pick
 * first.  x86: clear_user is "rep stosb" only when the CPU makes it fast
 * (FSRS for clear_user, ERMS for clear_page_erms; FSRM implies the same
 * microcode), else rep_stos_alternative -- see default_skip().
 */
static const char *const default_order[] = {
#if defined(__x86_64__)
	"rep_stosb", "rep_stos_alternative",
#elif defined(__aarch64__)
	/* __arch_clear_user: the MOPS alternative when the CPU has FEAT_MOPS. */
	"clear_user_arm64_mops", "clear_user_arm64_fixed", "clear_user_arm64",
#endif
	"memset",
};

const struct zero_routine *zero_lookup(const char *name)
{
	size_t i;

	if (!name)
		return NULL;
	for (i = 0; i < zero_nroutines; i++)
		if (!strcmp(zero_routines[i].name, name))
			return &zero_routines[i];
	for (i = 0; i < nloaded; i++)
		if (!strcmp(loaded[i]->name, name))
			return loaded[i];
	return NULL;
}

bool zero_usable(const struct zero_routine *r, const char **why)
{
	const char *reason = NULL;

	if (r->usable && !r->usable(&reason)) {
		if (why)
			*why = reason ? reason : "not usable on this CPU";
		return false;
	}
	return true;
}

/* Usable but not what the kernel would choose on this CPU. */
static bool default_skip(const struct zero_routine *r)
{
#if defined(__x86_64__)
	const struct zero_cpu *c = zero_cpu();

	if (!strcmp(r->name, "rep_stosb"))
		return !(c->fsrs || c->fsrm || c->erms);
#endif
	(void)r;
	return false;
}

const struct zero_routine *zero_default(void)
{
	size_t i;

	for (i = 0; i < sizeof(default_order) / sizeof(default_order[0]); i++) {
		const struct zero_routine *r = zero_lookup(default_order[i]);

		if (r && zero_usable(r, NULL) && !default_skip(r))
			return r;
	}
	return zero_lookup("memset");
}

const char *zero_arch_name(enum zero_arch arch)
{
	switch (arch) {
	case ZERO_ARCH_X86_64:
		return "x86_64";
	case ZERO_ARCH_AARCH64:
		return "aarch64";
	case ZERO_ARCH_ANY:
		break;
	}
	return "any";
}

void zero_print_help(FILE *out)
{
	const struct zero_routine *def = zero_default();
	size_t i;

	fprintf(out, "%-28s %-8s %-7s %s\n", "routine", "arch", "place", "description");
	for (i = 0; i < zero_nroutines + nloaded; i++) {
		const struct zero_routine *r = i < zero_nroutines ? &zero_routines[i] :
					       loaded[i - zero_nroutines];
		const char *why = NULL;
		bool ok = zero_usable(r, &why);

		fprintf(out, "%-28s %-8s %-7s %s%s\n", r->name, zero_arch_name(r->arch),
			r->code_start ? "yes" : "no", r->desc, r == def ? " [default]" : "");
		if (!ok)
			fprintf(out, "%-28s   unusable here: %s\n", "", why);
	}
}
