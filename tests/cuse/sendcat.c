/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * sendcat FILE: copy FILE to stdout with sendfile(2) alone, as busybox cat
 * tries first, so the tests see what a copier that never calls read(2) sees
 * (a FUSE file's page cache: refused for cusezero's text files).
 * Exit 0: copied to the end; 1: sendfile or the open failed; 2: usage.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <sys/sendfile.h>
#include <unistd.h>

int main(int argc, char **argv)
{
	ssize_t n;
	int fd;

	if (argc != 2) {
		fprintf(stderr, "usage: sendcat FILE\n");
		return 2;
	}
	fd = open(argv[1], O_RDONLY);
	if (fd < 0) {
		fprintf(stderr, "sendcat: %s: %s\n", argv[1], strerror(errno));
		return 1;
	}
	while ((n = sendfile(STDOUT_FILENO, fd, NULL, 1 << 16)) > 0)
		;
	if (n < 0) {
		fprintf(stderr, "sendcat: sendfile from %s: %s\n", argv[1], strerror(errno));
		return 1;
	}
	close(fd);
	return 0;
}
