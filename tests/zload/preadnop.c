/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * preadnop.so, for LD_PRELOAD in tests/zload/pread-z100k.sh: a pread that
 * reports every byte read and writes none -- what a broken device would do.
 * pread_z100k --verify must catch it (it fills the buffer before each
 * call); a verify that only looks for non-zero bytes in a buffer still
 * holding zeros from before would not.
 */
#include <sys/types.h>
#include <unistd.h>

ssize_t pread(int fd, void *buf, size_t count, off_t offset);
ssize_t pread64(int fd, void *buf, size_t count, off_t offset);

ssize_t pread(int fd, void *buf, size_t count, off_t offset)
{
	(void)fd;
	(void)buf;
	(void)offset;
	return (ssize_t)count;
}

ssize_t pread64(int fd, void *buf, size_t count, off_t offset)
{
	return pread(fd, buf, count, offset);
}
