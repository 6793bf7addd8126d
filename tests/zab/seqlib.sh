# SPDX-License-Identifier: GPL-2.0-or-later
# Change sequences for the history and bisect tests, sourced after
# tests/zab/lib.sh.  A sequence is what an experiment's sequence expands
# to: variants s@0 (the base) .. s@N, here written out.
#   seq_file FILE NAME N PLANT [EXTRA]: experiment NAME, fakebench 1%
#     noise, steps s@PLANT..s@N 30% slower (FAKE_SCALE 0.7: a patch that
#     stays in the series), PLANT 0: none (A/A); EXTRA: a line added to the
#     last step (e.g. a cmd= that fails); $SEQ_BLIP K:SCALE: step K alone
#     at that scale (a one-step blip); $SEQ_MEAN the benchmark's mean
#     (default 1000: another makes another command); $SEQ_LABELS a file:
#     line K+1 is step K's label, with the provenance keys zab expand
#     writes (sequence, sequence-kind series, step, steps, label);
#     $SEQ_UNIT the unit (default bytes/sec; empty: none)
seq_file() {
	{
		printf '[experiment]\nname = %s\nsessions = 2\nrepeats = 3\n\n' "$2"
		printf '[benchmark x]\ncmd = %s --sd 0.01 --mean %s\nbetter = higher\n' "$FAKE" "${SEQ_MEAN:-1000}"
		[ -z "${SEQ_UNIT-bytes/sec}" ] || printf 'unit = %s\n' "${SEQ_UNIT-bytes/sec}"
		k=0
		while [ "$k" -le "$3" ]; do
			s=1.0
			[ "$4" -gt 0 ] && [ "$k" -ge "$4" ] && s=0.7
			[ "${SEQ_BLIP%%:*}" = "$k" ] && s=${SEQ_BLIP#*:}
			printf '\n[variant s@%d]\nenv.FAKE_SCALE = %s\n' "$k" "$s"
			[ -z "${SEQ_LABELS:-}" ] ||
				printf 'sequence = s\nsequence-kind = series\nstep = %d\nsteps = %d\nlabel = %s\n' \
					"$k" "$3" "$(sed -n "$((k + 1))p" "$SEQ_LABELS")"
			[ "$k" -eq "$3" ] && [ -n "${5:-}" ] && printf '%s\n' "$5"
			k=$((k + 1))
		done
	} >"$1"
}
