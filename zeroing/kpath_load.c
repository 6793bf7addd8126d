/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * A resolved path as a routine (kpath.h): a function of the tree's .S file
 * through zero_ksrc_load() as any --source, or an inline sequence written
 * as a function of its own -- the instructions between the labels 1: and
 * 2: the header puts around them, the header's _ASM_EXTABLE_UA(1b, 2b)
 * where it has one, then RET -- called by the thunk of the site's register
 * contract (clear_user: rdi = dst, rcx = count, rax = 0, rcx = bytes left;
 * 7.2 clear_pages: rdi = pages, rcx = bytes, rax = 0).  The call and RET
 * are the only instructions the kernel's inline site does not have.
 *
 *     --source kpath:TREE:clear_user|clear_page
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "ksrc.h"
#include "ksrc_int.h"
#include "kpath_int.h"

/* Instructions as the header has them: no directive, comment or label. */
static bool plain_insns(const char *s)
{
	return *s && strspn(s, "abcdefghijklmnopqrstuvwxyz0123456789 $%,;()_") == strlen(s);
}

static int write_inline(const struct zero_kpath_res *r, const char *path, char *err, size_t errlen)
{
	FILE *f = fopen(path, "w");

	if (!f) {
		snprintf(err, errlen, "%s: %s", path, strerror(errno));
		return -errno;
	}
	fprintf(f, "/* %s %s: the inline sequence of %s (%s) */\n"
		"#include <linux/linkage.h>\n#include <asm/asm.h>\n\t.text\n"
		"SYM_FUNC_START(cz_kpath_inline)\n1:\t%s\n2:\tRET\n%s"
		"SYM_FUNC_END(cz_kpath_inline)\n", r->release, zero_kpath_path_name(r->path), r->site,
		r->contract, r->insn, r->extable ? "\t_ASM_EXTABLE_UA(1b, 2b)\n" : "");
	if (fclose(f)) {
		snprintf(err, errlen, "%s: %s", path, strerror(errno));
		return -EIO;
	}
	return 0;
}

int zero_kpath_load(const struct zero_kpath_res *r, const char *const *alts, unsigned nalts,
		    const struct zero_routine **out, char *err, size_t errlen)
{
	return zero_kpath_load_as(r, alts, nalts, NULL, out, err, errlen);
}

int zero_kpath_load_as(const struct zero_kpath_res *r, const char *const *alts, unsigned nalts,
		       const char *as, const struct zero_routine **out, char *err, size_t errlen)
{
	struct zero_ksrc_opts o;
	char name[64], src[4400], dir[] = "/tmp/cz-kpath.XXXXXX", file[64];
	unsigned i;
	int ret;

	memset(&o, 0, sizeof(o));
	for (i = 0; i < nalts && i < ZERO_KSRC_MAX_SETTINGS; i++)
		o.alts[o.nalts++] = alts[i];
	snprintf(name, sizeof(name), "%s:%s", r->release, zero_kpath_path_name(r->path));
	o.name = as ? as : name;
	o.why = r->summary;
	if (!r->is_inline) {
		snprintf(src, sizeof(src), "%s:%s", r->file, r->symbol);
		o.source = src;
		return zero_ksrc_load(&o, out, err, errlen);
	}
	if (!plain_insns(r->insn)) {
		snprintf(err, errlen, "%s: %s: inline \"%s\": not plain instructions", r->release,
			 r->site, r->insn);
		return -ENOTSUP;
	}
	if (!mkdtemp(dir)) {
		snprintf(err, errlen, "mkdtemp %s: %s", dir, strerror(errno));
		return -errno;
	}
	snprintf(file, sizeof(file), "%s/kpath.S", dir);
	ret = write_inline(r, file, err, errlen);
	snprintf(src, sizeof(src), "%s:cz_kpath_inline%%%s", file,
		 r->path == ZERO_KPATH_CLEAR_USER ? "rcx" : "pages");
	o.source = src;
	if (!ret)
		ret = zero_ksrc_load(&o, out, err, errlen);
	ksrc_rm_dir(dir);
	return ret;
}

/* --source kpath:TREE:PATH with its --alt settings: this CPU, those features forced. */
int ksrc_kpath_source(const struct zero_ksrc_opts *o, const struct zero_routine **out, char *err,
		      size_t errlen)
{
	const char *spec = o->source + 6, *colon = strrchr(spec, ':');
	struct zero_kpath_cpu cpu;
	struct zero_kpath_res *r;
	enum zero_kpath_path p;
	char root[4096], e2[256];
	unsigned i;
	int ret;

	if (!colon || zero_kpath_path_parse(colon + 1, &p)) {
		snprintf(err, errlen, "--source %s: expected kpath:TREE:clear_user|clear_page", o->source);
		return -EINVAL;
	}
	snprintf(root, sizeof(root), "%.*s", (int)(colon - spec), spec);
	ret = zero_kpath_cpu_host(&cpu, err, errlen);
	for (i = 0; !ret && i < o->nalts; i++)
		if (zero_kpath_force(&cpu, o->alts[i], e2, sizeof(e2)) == -E2BIG)
			ret = -E2BIG;	/* a feature no path reads: forwarded to the file only */
	r = ret ? NULL : calloc(1, sizeof(*r));
	if (!ret && !r)
		ret = -ENOMEM;
	if (!ret)
		ret = zero_kpath_resolve(root, p, &cpu, r, err, errlen);
	if (!ret)
		ret = zero_kpath_load(r, o->alts, o->nalts, out, err, errlen);
	free(r);
	return ret;
}
