/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Description: helper of tests/zeroing/ksrc.sh, comparing a built-in
 * routine with the kernel file it claims to reproduce:
 *
 *     ksrc-loop code|faults|where NAME            a built-in routine
 *     ksrc-loop code|faults|where --source SPEC   a kernel file's routine
 *
 * code: the routine's bytes from its loop head to the end of its code, raw
 * on stdout (the script disassembles them with objdump and cuts at the
 * branch back to the head); faults: "k d returned" for stores running into
 * a guard page after k of k + d bytes; where: "entry OFF loop OFF" (offsets
 * in the routine's code).  Exit 1 with one line on stderr on error.
 */
#include <errno.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <sys/mman.h>

#include "ksrc.h"
#include "zeroing.h"

static int faults(const struct zero_routine *r)
{
	static const size_t ks[] = { 0, 1, 5, 8, 13, 64, 100, 4093, 4096 };
	static const size_t ds[] = { 1, 3, 8, 9, 63, 64, 65, 200 };
	unsigned char *map = mmap(NULL, 4 * 4096, PROT_READ | PROT_WRITE,
				  MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	size_t i, j;

	if (map == MAP_FAILED || mprotect(map + 2 * 4096, 2 * 4096, PROT_NONE) ||
	    zero_fault_install())
		return 1;
	for (i = 0; i < sizeof(ks) / sizeof(ks[0]); i++)
		for (j = 0; j < sizeof(ds) / sizeof(ds[0]); j++)
			printf("%zu %zu %zu\n", ks[i], ds[j],
			       r->fn(map + 2 * 4096 - ks[i], ks[i] + ds[j]));
	return 0;
}

int main(int argc, char **argv)
{
	const struct zero_routine *r = NULL;
	struct zero_ksrc_opts o = { 0 };
	char err[1024];
	uintptr_t start, entry;

	if (argc == 4 && !strcmp(argv[2], "--source")) {
		o.source = argv[3];
		if (zero_ksrc_load(&o, &r, err, sizeof(err))) {
			fprintf(stderr, "ksrc-loop: %s\n", err);
			return 1;
		}
	} else if (argc == 3) {
		r = zero_lookup(argv[2]);
	}
	if (!r || !r->code_start) {
		fprintf(stderr, "usage: ksrc-loop code|faults|where NAME|--source SPEC (relocatable)\n");
		return 1;
	}
	start = (uintptr_t)r->code_start;
	entry = r->place_entry ? (uintptr_t)r->place_entry : start;
	if (!strcmp(argv[1], "faults"))
		return faults(r);
	if (!strcmp(argv[1], "where")) {
		printf("entry %lu loop %lu\n", (unsigned long)(entry - start),
		       r->loop_head ? (unsigned long)((uintptr_t)r->loop_head - start) : 0ul);
		return 0;
	}
	if (!r->loop_head)
		return 1;
	fwrite(r->loop_head, 1, (size_t)((uintptr_t)r->code_end - (uintptr_t)r->loop_head), stdout);
	return 0;
}
