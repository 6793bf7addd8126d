/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * A deterministic fake benchmark for zab's tests: prints one number drawn
 * from a normal or lognormal distribution.  The draw depends only on --seed,
 * $ZAB_SEED and $ZAB_RUN (set by zab for every run), so a whole experiment
 * replays exactly.  $FAKE_SCALE multiplies the mean (a known shift: a code
 * effect).  --offset-effect REL plants a layout effect: the mean moves by up
 * to +-REL depending only on $ZAB_OFFSET (the run's placement), the same for
 * every variant, as a loop's alignment would.  --session-effect REL moves
 * it by +-REL in odd / even $ZAB_SESSION, as a session's CPU would.
 *
 *   fakebench [--mean M] [--sd REL] [--dist normal|lognormal] [--seed N]
 *             [--offset-effect REL] [--session-effect REL] [--log FILE]
 *             [--print TEXT] [--fail]
 */
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static uint64_t mix(uint64_t z)
{
	z += 0x9e3779b97f4a7c15ull;
	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
	z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
	return z ^ (z >> 31);
}

static double uniform(uint64_t *s)
{
	*s = mix(*s);
	return ((double)(*s >> 11) + 0.5) / 9007199254740992.0;
}

static double env_num(const char *name, double dflt)
{
	const char *s = getenv(name);

	return s && *s ? strtod(s, NULL) : dflt;
}

int main(int argc, char **argv)
{
	double mean = 1000, sd = 0.01, scale = env_num("FAKE_SCALE", 1), z, x, oeff = 0, seff = 0;
	const char *dist = "normal", *logf_ = NULL, *print = NULL;
	uint64_t seed = 1, st;
	int i, fail = 0;

	for (i = 1; i < argc; i++) {
		const char *a = argv[i], *v = i + 1 < argc ? argv[i + 1] : NULL;

		if (!strcmp(a, "--fail")) {
			fail = 1;
			continue;
		}
		if (!v) {
			fprintf(stderr, "fakebench: bad or incomplete option '%s'\n", a);
			return 2;
		}
		if (!strcmp(a, "--mean"))
			mean = strtod(v, NULL);
		else if (!strcmp(a, "--sd"))
			sd = strtod(v, NULL);
		else if (!strcmp(a, "--dist"))
			dist = v;
		else if (!strcmp(a, "--offset-effect"))
			oeff = strtod(v, NULL);
		else if (!strcmp(a, "--session-effect"))
			seff = strtod(v, NULL);
		else if (!strcmp(a, "--seed"))
			seed = strtoull(v, NULL, 0);
		else if (!strcmp(a, "--log"))
			logf_ = v;
		else if (!strcmp(a, "--print"))
			print = v;
		else {
			fprintf(stderr, "fakebench: unknown option '%s'\n", a);
			return 2;
		}
		i++;
	}
	if (logf_) {
		FILE *f = fopen(logf_, "a");
		const char *var = getenv("ZAB_VARIANT");

		if (!f) {
			perror(logf_);
			return 2;
		}
		fprintf(f, "%s %s\n", getenv("ZAB_SESSION") ? getenv("ZAB_SESSION") : "?", var ? var : "?");
		fclose(f);
	}
	if (fail) {
		fprintf(stderr, "fakebench: failing on purpose\n");
		return 3;
	}
	if (print) {
		printf("%s\n", print);
		return 0;
	}
	if (oeff && getenv("ZAB_OFFSET")) {
		uint64_t o = mix((uint64_t)env_num("ZAB_OFFSET", 0) + 0xabcdef);

		/* a fixed pseudo-random factor in [1 - oeff, 1 + oeff] per offset */
		mean *= 1 + oeff * (2.0 * (double)(o >> 11) / 9007199254740992.0 - 1);
	}
	if (seff)
		mean *= (long)env_num("ZAB_SESSION", 1) % 2 ? 1 + seff : 1 - seff;
	st = mix(seed) ^ mix((uint64_t)env_num("ZAB_SEED", 0) * 7919) ^
	     mix((uint64_t)env_num("ZAB_RUN", 0) + 0x1234567);
	z = sqrt(-2 * log(uniform(&st))) * cos(2 * M_PI * uniform(&st));
	if (!strcmp(dist, "lognormal"))
		x = mean * scale * exp(sd * z - sd * sd / 2);   /* mean stays mean*scale */
	else
		x = mean * scale * (1 + sd * z);
	printf("%.3f\n", x);
	return 0;
}
