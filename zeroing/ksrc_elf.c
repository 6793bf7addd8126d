/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * A kernel source file's object (ELF64 relocatable, this machine's
 * architecture) turned into an executable image:
 *   - every executable section (.text, .noinstr.text, ...) laid out in
 *     section order at its alignment: the image IS the file's text, so a
 *     function that jumps to another of the same file (x86 __memset ->
 *     memset_orig) works anywhere the image is copied;
 *   - the text's relocations resolved against the image (only PC-relative
 *     kinds: an absolute or page-relative address in code would break when
 *     placement moves it, and a symbol the file does not define cannot be
 *     honoured: both are refused, naming the symbol);
 *   - the alternatives (cz_kalt, zeroing/kcompat/include/cz/records.h)
 *     applied where their feature holds: the replacement's bytes copied into
 *     the site with its own relocations resolved at the site, the rest of
 *     the site NOPs, as the kernel's apply_alternatives() does at boot;
 *   - the exception table (cz_kextable) as (insn, fixup) image offsets.
 * The image is written read+write, then made read+exec (W^X).
 */
#include <elf.h>
#include <errno.h>
#include <fcntl.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#include "kcompat/include/cz/records.h"
#include "ksrc_int.h"

#if defined(__x86_64__)
#define KSRC_MACHINE EM_X86_64
#elif defined(__aarch64__)
#define KSRC_MACHINE EM_AARCH64
#else
#define KSRC_MACHINE EM_NONE
#endif

#define NO_OFF ((size_t)-1)

struct obj {
	unsigned char *data;
	size_t size;
	const Elf64_Shdr *sh;
	unsigned shnum;
	const char *shstr;
	const Elf64_Sym *syms;
	size_t nsyms;
	const char *strtab;
	size_t *sec_off;        /* image offset of each executable section, else NO_OFF */
	size_t text_len;
	int extable, alt, altinstr;
	const char *display;
	char *err;
	size_t errlen;
};

__attribute__((format(printf, 2, 3)))
static int obj_err(struct obj *o, const char *fmt, ...)
{
	va_list ap;
	int n = snprintf(o->err, o->errlen, "%s: ", o->display);

	va_start(ap, fmt);
	if (n > 0 && (size_t)n < o->errlen)
		vsnprintf(o->err + n, o->errlen - (size_t)n, fmt, ap);
	va_end(ap);
	return -EINVAL;
}

static const char *sec_name(const struct obj *o, unsigned i)
{
	return o->shstr + o->sh[i].sh_name;
}

static bool in_file(const struct obj *o, uint64_t off, uint64_t len)
{
	return off <= o->size && len <= o->size - off;
}

static int obj_read(struct obj *o, const struct ksrc_blob *b)
{
	if (b->objlen < sizeof(Elf64_Ehdr))
		return obj_err(o, "its object is too short (%zu bytes)", b->objlen);
	o->size = b->objlen;
	o->data = malloc(o->size);
	if (!o->data)
		return obj_err(o, "no memory for its object");
	memcpy(o->data, b->obj, o->size);
	return 0;
}

static int obj_parse(struct obj *o)
{
	const Elf64_Ehdr *eh = (const Elf64_Ehdr *)o->data;
	unsigned i;

	if (memcmp(eh->e_ident, ELFMAG, SELFMAG) || eh->e_ident[EI_CLASS] != ELFCLASS64 ||
	    eh->e_type != ET_REL || eh->e_shentsize != sizeof(Elf64_Shdr) ||
	    !in_file(o, eh->e_shoff, (uint64_t)eh->e_shnum * sizeof(Elf64_Shdr)) ||
	    eh->e_shstrndx >= eh->e_shnum)
		return obj_err(o, "its object is not a 64-bit ELF relocatable file");
	if (eh->e_machine != KSRC_MACHINE)
		return obj_err(o, "architecture mismatch: its object is for ELF machine %u, this is %u",
			       eh->e_machine, KSRC_MACHINE);
	o->sh = (const Elf64_Shdr *)(o->data + eh->e_shoff);
	o->shnum = eh->e_shnum;
	for (i = 0; i < o->shnum; i++)
		if (o->sh[i].sh_type != SHT_NOBITS && !in_file(o, o->sh[i].sh_offset, o->sh[i].sh_size))
			return obj_err(o, "its object is truncated");
	o->shstr = (const char *)o->data + o->sh[eh->e_shstrndx].sh_offset;
	o->extable = o->alt = o->altinstr = -1;
	o->sec_off = malloc(o->shnum * sizeof(*o->sec_off));
	if (!o->sec_off)
		return -ENOMEM;
	for (i = 0; i < o->shnum; i++) {
		const Elf64_Shdr *s = &o->sh[i];
		uint64_t al = s->sh_addralign ? s->sh_addralign : 1;

		o->sec_off[i] = NO_OFF;
		if (s->sh_type == SHT_SYMTAB) {
			o->syms = (const Elf64_Sym *)(o->data + s->sh_offset);
			o->nsyms = s->sh_size / sizeof(Elf64_Sym);
			if (s->sh_link >= o->shnum)
				return obj_err(o, "its object has a bad symbol table");
			o->strtab = (const char *)o->data + o->sh[s->sh_link].sh_offset;
		} else if (!strcmp(sec_name(o, i), "cz_kextable")) {
			o->extable = (int)i;
		} else if (!strcmp(sec_name(o, i), "cz_kalt")) {
			o->alt = (int)i;
		} else if (!strcmp(sec_name(o, i), "cz_kaltinstr")) {
			o->altinstr = (int)i;
		} else if (s->sh_type == SHT_PROGBITS && (s->sh_flags & SHF_EXECINSTR) && s->sh_size) {
			if (al > 4096)
				return obj_err(o, "section %s wants %llu-byte alignment (at most 4096)",
					       sec_name(o, i), (unsigned long long)al);
			o->text_len = (o->text_len + al - 1) / al * al;
			o->sec_off[i] = o->text_len;
			o->text_len += s->sh_size;
		}
	}
	if (!o->syms)
		return obj_err(o, "its object has no symbol table");
	if (!o->text_len)
		return obj_err(o, "no code (no executable section)");
	return 0;
}

/* A symbol's image offset: it must be defined in one of the executable sections. */
static int sym_off(struct obj *o, size_t idx, size_t *off)
{
	const Elf64_Sym *s;

	if (idx >= o->nsyms)
		return obj_err(o, "bad symbol index %zu in a relocation", idx);
	s = &o->syms[idx];
	if (s->st_shndx == SHN_UNDEF)
		return obj_err(o, "refers to %s, which the file does not define "
			       "(only self-contained files can be loaded)", o->strtab + s->st_name);
	if (s->st_shndx >= o->shnum || o->sec_off[s->st_shndx] == NO_OFF)
		return obj_err(o, "code refers to %s in section %s (not code: not supported)",
			       s->st_name ? o->strtab + s->st_name : "a symbol",
			       s->st_shndx < o->shnum ? sec_name(o, s->st_shndx) : "?");
	*off = o->sec_off[s->st_shndx] + s->st_value;
	return 0;
}

static int ksrc_find_symbol(struct obj *o, const char *name, size_t *off, size_t *size)
{
	size_t i, j;

	for (i = 1; i < o->nsyms; i++) {
		const Elf64_Sym *s = &o->syms[i];

		if (strcmp(o->strtab + s->st_name, name) || s->st_shndx == SHN_UNDEF)
			continue;
		if (sym_off(o, i, off))
			return -EINVAL;
		*size = s->st_size;
		/* an alias (.set) has no size of its own: take the function's it names */
		for (j = 1; !*size && j < o->nsyms; j++)
			if (o->syms[j].st_shndx == s->st_shndx && o->syms[j].st_value == s->st_value)
				*size = o->syms[j].st_size;
		return 0;
	}
	return -ENOENT;
}

/* ---- relocations ------------------------------------------------------------ */

static int put_imm(struct obj *o, uint32_t *insn, int64_t off, unsigned bits, unsigned shift,
		   const char *what)
{
	int64_t lim = (int64_t)1 << (bits + 1);

	if (off & 3 || off >= lim || off < -lim)
		return obj_err(o, "%s branch out of range", what);
	*insn = (*insn & ~(((1u << bits) - 1) << shift)) |
		(((uint32_t)(off >> 2) & ((1u << bits) - 1)) << shift);
	return 0;
}

/* Write one relocation at `loc` (runtime address p) for target address s + a. */
static int apply_one(struct obj *o, unsigned type, unsigned char *loc, uint64_t p, uint64_t s,
		     int64_t a)
{
	int64_t v = (int64_t)(s + (uint64_t)a - p);
	int32_t v32 = (int32_t)v;
	uint32_t insn;

	memcpy(&insn, loc, 4);
	switch (type) {
#if defined(__x86_64__)
	case R_X86_64_PC32:
	case R_X86_64_PLT32:
		if (v != v32)
			return obj_err(o, "a PC-relative reference out of range");
		memcpy(loc, &v32, 4);
		return 0;
#elif defined(__aarch64__)
	case R_AARCH64_CALL26:
	case R_AARCH64_JUMP26:
		if (put_imm(o, &insn, v, 26, 0, "b/bl"))
			return -EINVAL;
		break;
	case R_AARCH64_CONDBR19:
	case R_AARCH64_LD_PREL_LO19:
		if (put_imm(o, &insn, v, 19, 5, "conditional"))
			return -EINVAL;
		break;
	case R_AARCH64_TSTBR14:
		if (put_imm(o, &insn, v, 14, 5, "tbz/tbnz"))
			return -EINVAL;
		break;
	case R_AARCH64_PREL32:
		if (v != v32)
			return obj_err(o, "a PC-relative reference out of range");
		memcpy(loc, &v32, 4);
		return 0;
#endif
	default:
		(void)put_imm;
		return obj_err(o, "relocation type %u in code: not position-independent "
			       "(an absolute or page-relative address cannot be placed)", type);
	}
	memcpy(loc, &insn, 4);
	return 0;
}

/* The relocation section applying to section `target`, or -1. */
static int rela_for(const struct obj *o, int target)
{
	unsigned i;

	for (i = 0; i < o->shnum; i++)
		if (o->sh[i].sh_type == SHT_RELA && (int)o->sh[i].sh_info == target)
			return (int)i;
	return -1;
}

static const Elf64_Rela *relas(const struct obj *o, int rs, size_t *n)
{
	*n = rs < 0 ? 0 : o->sh[rs].sh_size / sizeof(Elf64_Rela);
	return rs < 0 ? NULL : (const Elf64_Rela *)(o->data + o->sh[rs].sh_offset);
}

static int relocate_text(struct obj *o, unsigned char *img)
{
	unsigned i;
	size_t k, n, t;

	for (i = 0; i < o->shnum; i++) {
		const Elf64_Rela *r;

		if (o->sec_off[i] == NO_OFF)
			continue;
		memcpy(img + o->sec_off[i], o->data + o->sh[i].sh_offset, o->sh[i].sh_size);
		r = relas(o, rela_for(o, (int)i), &n);
		for (k = 0; k < n; k++) {
			size_t at = o->sec_off[i] + r[k].r_offset;

			if (r[k].r_offset + 4 > o->sh[i].sh_size)
				return obj_err(o, "a relocation outside its section");
			if (sym_off(o, ELF64_R_SYM(r[k].r_info), &t) ||
			    apply_one(o, ELF64_R_TYPE(r[k].r_info), img + at, (uintptr_t)img + at,
				      (uintptr_t)img + t, r[k].r_addend))
				return -EINVAL;
		}
	}
	return 0;
}

/*
 * The target of the 64-bit address at `off` of record section `sec`: its
 * relocation's symbol + addend, as an image offset (text) or, when in_alt,
 * an offset inside cz_kaltinstr.
 */
static int record_target(struct obj *o, int sec, size_t off, bool in_alt, size_t *out)
{
	size_t n, k;
	const Elf64_Rela *r = relas(o, rela_for(o, sec), &n);

	for (k = 0; k < n; k++) {
		const Elf64_Sym *s;

		if (r[k].r_offset != off)
			continue;
		if (ELF64_R_SYM(r[k].r_info) >= o->nsyms)
			break;
		s = &o->syms[ELF64_R_SYM(r[k].r_info)];
		if (in_alt && (int)s->st_shndx == o->altinstr) {
			*out = s->st_value + (size_t)r[k].r_addend;
			return 0;
		}
		if (sym_off(o, ELF64_R_SYM(r[k].r_info), out))
			return -EINVAL;
		*out += (size_t)r[k].r_addend;
		return 0;
	}
	return obj_err(o, "a %s record without its address", sec_name(o, (unsigned)sec));
}

static int load_extable(struct obj *o, struct ksrc_image *im)
{
	size_t i, n;

	if (o->extable < 0)
		return 0;
	n = o->sh[o->extable].sh_size / CZ_KEXTABLE_ENTRY_SIZE;
	im->extable = calloc(n ? n : 1, sizeof(*im->extable));
	if (!im->extable)
		return -ENOMEM;
	for (i = 0; i < n; i++) {
		size_t insn, fixup;

		if (record_target(o, o->extable, i * 16, false, &insn) ||
		    record_target(o, o->extable, i * 16 + 8, false, &fixup))
			return -EINVAL;
		if (insn >= o->text_len || fixup >= o->text_len)
			return obj_err(o, "an exception-table entry outside the code");
		im->extable[i][0] = (uint32_t)insn;
		im->extable[i][1] = (uint32_t)fixup;
	}
	im->nextable = n;
	return 0;
}

static void fill_nops(unsigned char *p, size_t n)
{
#if defined(__aarch64__)
	static const unsigned char nop[4] = { 0x1f, 0x20, 0x03, 0xd5 };
	size_t i;

	for (i = 0; i + 4 <= n; i += 4)
		memcpy(p + i, nop, 4);
#else
	memset(p, 0x90, n);
#endif
}

/* Copy one replacement into its site; its relocations are resolved at the site. */
static int patch_site(struct obj *o, unsigned char *img, size_t site, size_t site_len,
		      size_t repl, size_t repl_len)
{
	const Elf64_Shdr *rs = &o->sh[o->altinstr];
	size_t n, k, t;
	const Elf64_Rela *r = relas(o, rela_for(o, o->altinstr), &n);

	if (repl + repl_len > rs->sh_size)
		return obj_err(o, "an alternative's replacement outside its section");
	memcpy(img + site, o->data + rs->sh_offset + repl, repl_len);
	fill_nops(img + site + repl_len, site_len - repl_len);
	for (k = 0; k < n; k++) {
		size_t at;

		if (r[k].r_offset < repl || r[k].r_offset >= repl + repl_len)
			continue;
		at = site + (r[k].r_offset - repl);
		if (sym_off(o, ELF64_R_SYM(r[k].r_info), &t) ||
		    apply_one(o, ELF64_R_TYPE(r[k].r_info), img + at, (uintptr_t)img + at,
			      (uintptr_t)img + t, r[k].r_addend))
			return -EINVAL;
	}
	return 0;
}

static int apply_alts(struct obj *o, unsigned char *img, const struct ksrc_load_req *q,
		      struct ksrc_image *im)
{
	size_t i, n;
	const unsigned char *rec;

	if (o->alt < 0)
		return 0;
	if (o->altinstr < 0)
		return obj_err(o, "alternatives without replacement code");
	n = o->sh[o->alt].sh_size / CZ_KALT_ENTRY_SIZE;
	rec = o->data + o->sh[o->alt].sh_offset;
	for (i = 0; i < n; i++, rec += CZ_KALT_ENTRY_SIZE) {
		uint16_t feature;
		size_t site, repl, site_len = rec[18], repl_len = rec[19];
		bool on;

		memcpy(&feature, rec + 16, 2);
		if (record_target(o, o->alt, i * CZ_KALT_ENTRY_SIZE, false, &site) ||
		    record_target(o, o->alt, i * CZ_KALT_ENTRY_SIZE + 8, true, &repl))
			return -EINVAL;
		if (site + site_len > o->text_len || repl_len > site_len)
			return obj_err(o, "an alternative site longer than its code");
		if (!strcmp(ksrc_feat_name(feature), "unknown"))
			return obj_err(o, "an alternative on feature %u, unknown to cusezero",
				       feature & ~CZ_KF_NOT);
		if (ksrc_feat_applies(q->tree, feature, q->forced, q->forced_on, q->nforced, &on,
				      o->err, o->errlen))
			return -ENOTSUP;
		if (on && !ksrc_feat_executable(feature & ~CZ_KF_NOT) && !(feature & CZ_KF_NOT))
			return obj_err(o, "its %s alternative needs instructions this CPU lacks",
				       ksrc_feat_name(feature));
		if (on && patch_site(o, img, site, site_len, repl, repl_len))
			return -EINVAL;
		if (im->nalts < KSRC_MAX_ALTS)
			im->alts[im->nalts++] = (struct ksrc_alt_applied){ feature, on, site };
	}
	return 0;
}

/*
 * The loop head: LABEL's address, or the target of the function's first
 * backward branch (in address order) that stays inside the function, from
 * the branch list ksrc_build() made.
 */
static int find_loop(struct obj *o, const struct ksrc_load_req *q, struct ksrc_image *im)
{
	char line[256], sec[128];
	unsigned long at, to;
	size_t sz, best = NO_OFF;
	FILE *f;
	unsigned i;

	im->loop = NO_OFF;
	if (q->label && q->label[0]) {
		if (ksrc_find_symbol(o, q->label, &im->loop, &sz))
			return obj_err(o, "no label %s (a named label: .Lname or a symbol)", q->label);
		return 0;
	}
	f = fmemopen(q->blob->meta, q->blob->metalen, "r");
	if (!f)
		return obj_err(o, "cannot read its branch list");
	while (fgets(line, sizeof(line), f)) {
		size_t a, t;

		if (sscanf(line, "bb %127s %lx %lx", sec, &at, &to) != 3)
			continue;
		for (i = 0; i < o->shnum; i++)
			if (o->sec_off[i] != NO_OFF && !strcmp(sec_name(o, i), sec))
				break;
		if (i == o->shnum)
			continue;
		a = o->sec_off[i] + at;
		t = o->sec_off[i] + to;
		if (a >= im->entry && a < im->func_end && t >= im->entry && (best == NO_OFF || a < best)) {
			best = a;
			im->loop = t;
		}
	}
	fclose(f);
	return 0;
}

int ksrc_image_load(const struct ksrc_load_req *q, struct ksrc_image *im, char *err,
		    size_t errlen)
{
	struct obj o = { .display = q->display, .err = err, .errlen = errlen };
	size_t size = 0, thunk_size;
	unsigned char *img = MAP_FAILED;
	int ret;

	memset(im, 0, sizeof(*im));
	ret = obj_read(&o, q->blob);
	if (!ret)
		ret = obj_parse(&o);
	if (!ret && ksrc_find_symbol(&o, q->symbol, &im->entry, &size))
		ret = obj_err(&o, "no symbol %s", q->symbol);
	if (!ret && ksrc_find_symbol(&o, "cz_thunk", &im->thunk, &thunk_size))
		ret = obj_err(&o, "no cz_thunk (the compat layer's thunk was not assembled)");
	if (ret)
		goto out;
	im->func_end = im->entry + (size ? size : o.text_len - im->entry);
	im->text_len = o.text_len;
	im->map_len = (o.text_len + 4095) / 4096 * 4096;
	img = mmap(NULL, im->map_len, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	if (img == MAP_FAILED) {
		ret = -errno;
		snprintf(err, errlen, "%s: %s", q->display, strerror(-ret));
		goto out;
	}
	fill_nops(img, im->map_len);
	ret = relocate_text(&o, img);
	if (!ret)
		ret = apply_alts(&o, img, q, im);
	if (!ret)
		ret = load_extable(&o, im);
	if (!ret)
		ret = find_loop(&o, q, im);
	if (!ret && mprotect(img, im->map_len, PROT_READ | PROT_EXEC)) {
		ret = -errno;
		snprintf(err, errlen, "%s: %s", q->display, zero_place_strerror(ret));
	}
	if (!ret) {
		__builtin___clear_cache((char *)img, (char *)img + im->text_len);
		im->map = img;
		img = MAP_FAILED;
	}
out:
	if (img != MAP_FAILED)
		munmap(img, im->map_len);
	if (ret)
		ksrc_image_free(im);
	free(o.sec_off);
	free(o.data);
	return ret;
}

void ksrc_image_free(struct ksrc_image *im)
{
	if (im->map)
		munmap(im->map, im->map_len);
	free(im->extable);
	memset(im, 0, sizeof(*im));
}
