#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# Description: bad zload options and devices give one line on stderr naming
# the option or the file, nothing on stdout, and a non-zero exit.
# Needs: io_uring
. "$top_srcdir/tests/zload/zload-lib.sh"
Z=$ZLOAD
[ -x "$Z" ] || skip_all "zload not built ($Z): no liburing for this host"

# bad DESC WANTED-SUBSTRING -- ARGS...
bad() {
	desc=$1 want=$2; shift 2; [ "$1" = -- ] && shift
	one_line_error "$desc" -- timeout 60 "$Z" "$@"	# bounded: a refused size must not run
	case $ERRLINE in
	*"$want"*) ;;
	*) fail "$desc: error line does not name '$want': '$ERRLINE'" ;;
	esac
}

bad "--qd 0"             "--qd"            -- --qd 0 /dev/zero
bad "--qd 5000"          "--qd"            -- --qd 5000 /dev/zero
bad "--qd x"             "--qd"            -- --qd x /dev/zero
bad "--bs 3x"            "--bs"            -- --bs 3x /dev/zero
bad "--bs 0"             "--bs"            -- --bs 0 /dev/zero
bad "--jobs 0"           "--jobs"          -- --jobs 0 /dev/zero
bad "--time abc"         "--time"          -- --time abc /dev/zero
bad "--time 0"           "--time"          -- --time 0 /dev/zero
bad "--size 0"           "--size"          -- --size 0 /dev/zero
# past the largest file offset (2^63 - 1): 2^64 - 1 rounded up to --bs wrapped to 0 I/Os
bad "--size 2^64-1"      "18446744073709551615" -- --size 18446744073709551615 /dev/zero
bad "--size 2^63"        "9223372036854775808"  -- --size 9223372036854775808 /dev/zero
bad "--cpu x"            "--cpu"           -- --cpu x /dev/zero
bad "--cpu 100"          "--cpu"           -- --cpu 100 /dev/zero
bad "--sqpoll-cpu alone" "--sqpoll"        -- --sqpoll-cpu 0 /dev/zero
bad "--batch-submit > qd" "--batch-submit" -- --qd 4 --batch-submit 8 /dev/zero
bad "--batch-complete 0" "--batch-complete" -- --batch-complete 0 /dev/zero
bad "--format xml"       "--format"        -- --format xml /dev/zero
bad "unknown option"     "--bogus"         -- --bogus /dev/zero
bad "value missing"      "--qd"            -- /dev/zero --qd
bad "missing device"     "DEVICE"
bad "two devices"        "/dev/null"       -- /dev/zero /dev/null
bad "nonexistent device" "$CZ_TMP/none"       -- "$CZ_TMP/none"
bad "a directory"        "$CZ_TMP"            -- "$CZ_TMP"
head -c 100 /dev/zero >"$CZ_TMP/small"
bad "file smaller than --bs" "--bs"        -- --bs 4KB "$CZ_TMP/small"
# A CPU that exists in the list syntax but not on this machine: found at pin time.
n=$(nproc)
if [ "$n" -lt 64 ]; then
	bad "--cpu 63 (not online here)" "--cpu" -- --cpu 63 --size 4KB /dev/zero
fi
ok "-h exits 0" -- quiet "$Z" -h

done_testing
