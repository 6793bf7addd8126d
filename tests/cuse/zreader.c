/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * zreader read|readv|pread FILE SECONDS SEED: a verifying reader for
 * tests/cuse/soak.sh.  Opens FILE and reads it with read(2), readv(2) (three
 * buffers of unrelated sizes) or pread(2) at random offsets, each call of a
 * random size from 1 B to 1 MiB + 1 (across the 1 MiB request limit),
 * until SECONDS have passed.  Before each call the buffer is filled with
 * 0xA5; every byte returned must be zero.
 *
 * One line on stdout at the end, which soak.sh parses:
 *     zreader MODE calls N bytes N bad N end OK|ERRNAME at SEC.NSEC
 * (SEC.NSEC: CLOCK_REALTIME of the failing call, as `date +%s.%N` prints).
 * Exit 0: ran SECONDS, every byte zero; 1: a non-zero byte (the line says
 * where); 4: a call or the open failed (ERRNAME); 3: usage.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/uio.h>
#include <time.h>
#include <unistd.h>

#include "util.h"

#define ZR_MAX ((1u << 20) + 1)

enum zr_mode { ZR_READ, ZR_READV, ZR_PREAD };

static unsigned char zr_buf[ZR_MAX];

/* xorshift64: sizes and offsets reproducible from SEED */
static uint64_t zr_next(uint64_t *s)
{
	*s ^= *s << 13;
	*s ^= *s >> 7;
	*s ^= *s << 17;
	return *s;
}

static ssize_t zr_call(enum zr_mode m, int fd, size_t n, uint64_t *seed)
{
	struct iovec iov[3];
	size_t a, b;

	switch (m) {
	case ZR_READ:
		return read(fd, zr_buf, n);
	case ZR_PREAD:
		return pread(fd, zr_buf, n, (off_t)(zr_next(seed) % (1ULL << 40)));
	default:
		a = n / 3 ? zr_next(seed) % (n / 3 + 1) : 0;
		b = (n - a) / 2;
		iov[0] = (struct iovec){ zr_buf, a };
		iov[1] = (struct iovec){ zr_buf + a, b };
		iov[2] = (struct iovec){ zr_buf + a + b, n - a - b };
		return readv(fd, iov, 3);
	}
}

static void zr_end(const char *mode, unsigned long long calls, unsigned long long bytes,
		   unsigned long long bad, int err)
{
	struct timespec ts;

	clock_gettime(CLOCK_REALTIME, &ts);
	printf("zreader %s calls %llu bytes %llu bad %llu end %s at %lld.%09ld\n", mode, calls,
	       bytes, bad, err ? strerrorname_np(err) : "OK", (long long)ts.tv_sec, ts.tv_nsec);
}

int main(int argc, char **argv)
{
	unsigned long long calls = 0, bytes = 0;
	uint64_t secs, seed, end;
	enum zr_mode m;
	ssize_t r;
	size_t n, bad;
	int fd;

	if (argc != 5 || cz_parse_u64(argv[3], 1, 86400, &secs) ||
	    cz_parse_u64(argv[4], 1, UINT64_MAX, &seed)) {
		fprintf(stderr, "usage: zreader read|readv|pread FILE SECONDS SEED(>0)\n");
		return 3;
	}
	if (!strcmp(argv[1], "read"))
		m = ZR_READ;
	else if (!strcmp(argv[1], "readv"))
		m = ZR_READV;
	else if (!strcmp(argv[1], "pread"))
		m = ZR_PREAD;
	else
		return 3;
	fd = open(argv[2], O_RDONLY | O_CLOEXEC);
	if (fd < 0) {
		zr_end(argv[1], 0, 0, 0, errno);
		return 4;
	}
	end = cz_now_ns() + secs * 1000000000ULL;
	while (cz_now_ns() < end) {
		n = 1 + zr_next(&seed) % ZR_MAX;
		memset(zr_buf, 0xa5, n);
		r = zr_call(m, fd, n, &seed);
		if (r < 0) {
			zr_end(argv[1], calls, bytes, 0, errno);
			return 4;
		}
		calls++;
		bytes += (unsigned long long)r;
		bad = cz_first_nonzero(zr_buf, (size_t)r);
		if (bad != (size_t)r || r == 0) {
			unsigned long long nbad = r ? 0 : 1;
			size_t i;

			for (i = bad; i < (size_t)r; i++)
				nbad += zr_buf[i] != 0;
			printf("zreader %s: call %llu of %zu bytes returned %zd, byte %zu = %#x\n",
			       argv[1], calls, n, r, bad, bad < (size_t)r ? zr_buf[bad] : 0);
			zr_end(argv[1], calls, bytes, nbad, 0);
			return 1;
		}
	}
	zr_end(argv[1], calls, bytes, 0, 0);
	return 0;
}
