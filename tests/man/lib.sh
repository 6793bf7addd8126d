# SPDX-License-Identifier: GPL-2.0-or-later
# Shared by tests/man and tests/install: the programs, how to get their
# --help, and the man page each is documented in.
. "$top_srcdir/tests/tap.sh"

# "NAME BINARY HELP-ARGS..." per line; a binary not built here is skipped.
programs() {
	cat <<LIST
cusezero $CUSEZERO --help
zeroctl $ZEROCTL --help
zload $ZLOAD --help
pread_z100k $PREAD_Z100K --help
zbench $ZBENCH --help
zbench $ZBENCH memset -h
zbench $ZBENCH mmap -h
zbench $ZBENCH align -h
zbench $ZBENCH kernel -h
zab $ZAB --help
LIST
}

# zab's commands, each documented in man/zab-CMD.1 (git's style): the
# synopsis lines of zab --help, "usage: zab CMD ..." and "       zab CMD ...".
zab_commands() {
	"$ZAB" --help 2>/dev/null | sed -n 's/^\(usage:\)\{0,1\} *zab \([a-z][a-z-]*\).*/\2/p' | sort -u
}

# man_pages PAGE...: the pages as one plain text (man_text of each).
man_pages() { for p in "$@"; do man_text "$p"; done; }

# The long options a --help text names ("--iodepth_batch_submit", "--poll-us");
# "--export-*" names a family, not an option.
long_options() { grep -oE -- '--[a-z][a-z0-9_-]*[a-z0-9](-\*)?' | grep -v '\*$' | sort -u; }

# The options a --help text defines: at the start of a line ("  -c, --cycles"),
# after "[" (a synopsis, an alias list), ", " or "/ " -- not those its prose
# quotes, as "(e.g. --format simple)".
defined_options() {
	grep -oE -- '(^ *|\[|, |/ )--[a-z][a-z0-9_-]*[a-z0-9](-\*)?' | grep -v '\*$' |
		grep -oE -- '--[a-z0-9_-]+' | sort -u
}

# A man page as plain words: roff escapes for '-' and fonts dropped.
man_text() { sed -e 's/\\-/-/g' -e 's/\\f[BIRP]//g' -e 's/\\(em/ /g' "$1"; }

# mentions FILE OPTION: the option as a whole word (--align, not --align-point).
mentions() { grep -Eq -- "$2([^a-z0-9_-]|\$)" "$1"; }

# CI installs every tool these tests use (scripts/setup deps): there a missing
# one is a failure, elsewhere a visible skip.
need_or_skip() {	# need_or_skip WHAT-IS-MISSING
	if [ "${CI:-}" = true ]; then
		echo "Bail out! $1 (CI installs it: scripts/setup deps)"
		exit 1
	fi
	skip_all "$1"
}
