/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * zmap FILE private|shared|shared-ro BYTES: mmap BYTES of FILE (opened
 * read-write, shared-ro read-only) and check that every byte is zero, then,
 * for a private mapping, that a write stays in it.  One line on stdout;
 * exit 0 mapped and all zero, 1 a non-zero byte, 2 mmap failed (the line
 * names the errno), 3 usage or open.  Used by tests/cuse/mmap.sh.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#include "util.h"

int main(int argc, char **argv)
{
	unsigned char *p;
	uint64_t len;
	size_t bad;
	int fd, flags, prot = PROT_READ;

	if (argc != 4 || cz_parse_size(argv[3], &len) || !len) {
		fprintf(stderr, "usage: zmap FILE private|shared|shared-ro BYTES\n");
		return 3;
	}
	if (!strcmp(argv[2], "private")) {
		flags = MAP_PRIVATE;
		prot |= PROT_WRITE;
	} else if (!strcmp(argv[2], "shared")) {
		flags = MAP_SHARED;
		prot |= PROT_WRITE;
	} else {
		flags = MAP_SHARED;
	}
	fd = open(argv[1], prot & PROT_WRITE ? O_RDWR : O_RDONLY);
	if (fd < 0) {
		printf("open %s: %s\n", argv[1], strerror(errno));
		return 3;
	}
	p = mmap(NULL, (size_t)len, prot, flags, fd, 0);
	if (p == MAP_FAILED) {
		printf("mmap %s %s: %s (%s)\n", argv[2], argv[1], strerrorname_np(errno),
		       strerror(errno));
		return 2;
	}
	bad = cz_first_nonzero(p, (size_t)len);
	if (bad != len) {
		printf("mmap %s: byte %zu of %llu is %#x\n", argv[2], bad,
		       (unsigned long long)len, p[bad]);
		return 1;
	}
	if (flags == MAP_PRIVATE) {
		p[0] = 0xa5;
		if (p[0] != 0xa5) {
			printf("mmap private: a write did not stay\n");
			return 1;
		}
	}
	printf("mmap %s: %llu bytes, all zero\n", argv[2], (unsigned long long)len);
	return 0;
}
