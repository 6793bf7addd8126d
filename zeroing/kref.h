/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The running kernel as a reference: what its clear_user costs per 4 KiB
 * chunk, and which of the registry's routines it behaves like, measured
 * without a module.
 *
 * drivers/char/mem.c read_zero() clears a read's buffer PAGE_SIZE bytes at a
 * time with clear_user(), so the time of pread() on /dev/zero grows by one
 * clear_user per 4 KiB: the slope of the time per call over two or more
 * sizes is the kernel's cost per chunk, the syscall's own cost (the same at
 * every size) cancelling.  Each built-in routine is timed the same way, on
 * the same buffer, in 4 KiB calls, interleaved with the kernel's reads in
 * every round.  Where transparent huge pages can be had, a write fault on
 * a 2 MiB-aligned madvise(MADV_HUGEPAGE) range clears 512 pages in one go
 * (mm/memory.c, folio_zero_user): its time / 512 is the kernel's page
 * clearing per 4 KiB page, allocation included; a fault counts only when
 * /proc/self/smaps shows the range as AnonHugePages.  The range is emptied
 * (MADV_DONTNEED) and faulted again, so the page cleared is a recycled,
 * cache-warm one.
 *
 * Why measure: on x86-64 (arch/x86/include/asm/uaccess_64.h, Linux 6.12)
 * __clear_user is ALTERNATIVE("rep stosb", "call rep_stos_alternative",
 * ALT_NOT(X86_FEATURE_FSRS)), patched at boot; the CPU flags user space sees
 * do not always tell which one runs.
 */
#ifndef ZEROING_KREF_H
#define ZEROING_KREF_H

#include <stdbool.h>
#include <stddef.h>

#include "jsonout.h"
#include "zeroing.h"

#define ZERO_KREF_CHUNK      4096u      /* read_zero's PAGE_SIZE chunk */
#define ZERO_KREF_MAX_SIZES  8
#define ZERO_KREF_MAX_SIZE   (16u << 20)
#define ZERO_KREF_ROUNDS     31         /* default rounds */
#define ZERO_KREF_MAX_ROUNDS 1000
#define ZERO_KREF_THP_ROUNDS 48         /* 2 MiB faults timed */

struct zero_kref_opts {
	/* bytes per pread / per chunked pass, multiples of 4 KiB, >= 2 distinct (0: 16 KiB, 256 KiB) */
	size_t sizes[ZERO_KREF_MAX_SIZES];
	size_t nsizes;
	unsigned rounds;           /* 0: ZERO_KREF_ROUNDS (3 .. ZERO_KREF_MAX_ROUNDS) */
	size_t sample_bytes;       /* bytes per timed sample (whole calls; 0: 1 MiB) */
	bool no_thp;               /* skip the 2 MiB faults */
	unsigned thp_rounds;       /* 0: ZERO_KREF_THP_ROUNDS */
	const char *device;        /* another zero device measured as /dev/zero is (NULL: none) */
	/* the routines beside the kernel (NULL: every usable built-in one) */
	const struct zero_routine *const *routines;
	size_t nroutines;
	/*
	 * the routine the running kernel's release resolves to (kpath.h), timed
	 * as the routines are, never a candidate for closest (NULL: none)
	 */
	const struct zero_routine *resolved;
	/*
	 * more routines checked against the kernel as resolved is (an
	 * experiment's kernel paths of the running release), never candidates
	 * for closest either (NULL: none)
	 */
	const struct zero_routine *const *checks;
	size_t nchecks;
};

/* One figure: ns per 4 KiB chunk (THP: per page), median over rounds, 95% CI of the median. */
struct zero_kref_est {
	bool ok;                   /* measured; else why says why not */
	double ns, lo, hi;
	double fixed_ns;           /* the intercept: ns per call beside the chunks (pread's syscall) */
	size_t n;                  /* rounds (THP: faults) */
	char why[200];
};

struct zero_kref_routine {
	const struct zero_routine *r;
	struct zero_kref_est est;
	double ratio;              /* est.ns / kernel ns per chunk */
};

struct zero_kref {
	struct zero_kref_opts opts;          /* as used, defaults filled in */
	struct zero_kref_est kernel;         /* /dev/zero: clear_user per chunk */
	struct zero_kref_est device;         /* opts.device, if given */
	struct zero_kref_est thp;            /* 2 MiB fault per 4 KiB page */
	char thp_mode[32];                   /* /sys/kernel/mm/transparent_hugepage/enabled */
	struct zero_kref_routine *routines;  /* in registry order */
	size_t nroutines;
	struct zero_kref_routine resolved;   /* opts.resolved's figure (r NULL: none) */
	struct zero_kref_routine *checks;    /* opts.checks' figures, in their order */
	size_t nchecks;
	/* the routine nearest the kernel per chunk (|log ratio| smallest), its ratio; NULL: none */
	const struct zero_routine *closest;
	double closest_ratio;
	/*
	 * the device's figure over the kernel's (no routine is named: through a
	 * FUSE file the figure holds the transport's cost per page too)
	 */
	double device_ratio;
};

/*
 * Measure.  0 with every figure in k (a routine or THP that could not be
 * measured has ok false and its reason); -errno with one line in err when
 * the options are wrong (-EINVAL), opts.device cannot be opened (-ENOENT
 * and the like) or /dev/zero cannot be read as the kernel's zero device.  Free k with zero_kref_free() either way.
 */
int zero_kref_measure(const struct zero_kref_opts *o, struct zero_kref *k, char *err, size_t len);
void zero_kref_free(struct zero_kref *k);
/*
 * The figures as one JSON object (zbench kernel --format json, zab's
 * environment.kernel_ref); the checks as "checks": [{routine, ns_per_chunk,
 * ..., pct, inside, verdict, nearer, verdict_text}].
 */
json_t *zero_kref_json(const struct zero_kref *k);
/* How a figure stands to the kernel's. */
struct zero_kref_cmp {
	bool ok;                   /* both measured */
	double pct;                /* (x / kernel - 1) * 100: > 0 slower, < 0 faster */
	bool inside;               /* x within the kernel's 95% interval */
};
void zero_kref_compare(const struct zero_kref_est *kernel, const struct zero_kref_est *x,
		       struct zero_kref_cmp *c);
/* "1.0% faster than the kernel; inside the kernel's 95% interval" (or "not measured"). */
void zero_kref_cmp_text(const struct zero_kref_cmp *c, char *buf, size_t len);

/*
 * The resolved routine against the kernel: it agrees when its figure is
 * inside the kernel's 95% interval (ZERO_KREF_AGREES_INSIDE), or outside it
 * with no other routine between the two figures that is told apart from
 * it (their 95% intervals disjoint; a clear_user routine, or any when none
 * was measured) -- ZERO_KREF_AGREES_NEAREST: the kernel's read path adds
 * its own work per chunk (read_zero's loop, access_ok, STAC/CLAC), so the
 * kernel is rarely exactly its routine, but a measurably different routine
 * nearer on the same side explains it better.  It disagrees when there is
 * one, *nearer the nearest such.  ZERO_KREF_UNKNOWN: nothing resolved, or a
 * figure missing.
 */
enum zero_kref_verdict {
	ZERO_KREF_UNKNOWN,
	ZERO_KREF_AGREES_INSIDE,
	ZERO_KREF_AGREES_NEAREST,
	ZERO_KREF_DISAGREES,
};
enum zero_kref_verdict zero_kref_verdict(const struct zero_kref *k, const struct zero_kref_routine **nearer);
/* The same for x, the resolved routine or one of the checks. */
enum zero_kref_verdict zero_kref_verdict_of(const struct zero_kref *k, const struct zero_kref_routine *x,
					    const struct zero_kref_routine **nearer);
/*
 * The verdict as one phrase, x's distance first: "19.5% faster than the
 * kernel; outside the kernel's 95% interval; agrees with the kernel (...)"
 * or "...; DISAGREES: rep_stosb, told apart from it, lies between ...".
 */
void zero_kref_verdict_text(const struct zero_kref *k, const struct zero_kref_routine *x, char *buf,
			    size_t len);
/* The verdict as JSON's "verdict": "agrees", "disagrees", "unknown". */
const char *zero_kref_verdict_name(enum zero_kref_verdict v);

/* kB of AnonHugePages of the mapping holding addr (/proc/self/smaps), -1 if unknown. */
long zero_kref_anon_huge_kb(const void *addr);
/* The bracketed word of /sys/kernel/mm/transparent_hugepage/enabled, or "unavailable". */
void zero_kref_thp_mode(char *buf, size_t len);
/*
 * True when THP is disabled for this process whatever that file says:
 * prctl(PR_SET_THP_DISABLE), inherited across fork and execve, makes every
 * fault take 4 KiB pages, madvise(MADV_HUGEPAGE) or not -- unless it was
 * set with PR_THP_DISABLE_EXCEPT_ADVISED (Linux 6.18), which leaves the
 * madvised ranges this project uses their huge pages.
 */
bool zero_kref_thp_disabled(void);
#define ZERO_KREF_THP_DISABLED_WHY \
	"transparent huge pages are disabled for this process (prctl PR_SET_THP_DISABLE; " \
	"THP_enabled: 0 in /proc/self/status)"

#endif
