#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# Description: czsut.py, the SUT side of zab fleet, run directly (no sshd):
# every refusal and every error is one line "czsut: ..." naming the bad
# value, exit 3 -- never a Python traceback.  Cases: a SHA256SUMS line with
# an empty path component, one naming a folder that is not there, a
# SHA256SUMS that is not UTF-8, a KSRC256SUMS that is not UTF-8, a lock
# that is a symlink, a run folder that is not there, a timeout that is not
# a number.  A good run folder still runs its command.  bisect (zab fleet
# --bisect) makes the same checks, keeps the answer and bisect's exit
# status in bisect.txt, and refuses an exit that is no answer.
# Needs: none
. "$top_srcdir/tests/tap.sh"
PY=$top_srcdir/ansible/roles/cusezero_sut/files/czsut.py
command -v python3 >/dev/null || skip_all "no python3"
T=$(mktemp -d) || exit 1
trap 'rm -rf "$T"' EXIT
chmod 755 "$T"
W=$T/work
R=$(python3 "$PY" prepare "$W" 2>"$T/err") || { echo "Bail out! prepare: $(cat "$T/err")"; exit 1; }
echo data >"$R/f"
h=$(sha256sum "$R/f" | cut -d' ' -f1)
sums() {	# sums TEXT: write RUNDIR/SHA256SUMS (printf format), print its SHA-256
	printf "$1" >"$R/SHA256SUMS"
	sha256sum "$R/SHA256SUMS" | cut -d' ' -f1
}
# refused NAME PATTERN ARG...: czsut.py ARG... says one czsut: line matching PATTERN, exit 3
refused() {
	name=$1 pat=$2; shift 2
	python3 "$PY" "$@" >"$T/out" 2>"$T/err"
	rc=$?
	ok "$name: exit $rc, one line: $(head -c 200 "$T/err" | tr '\n' '|')" -- one_line "$pat"
}
one_line() { [ $rc -eq 3 ] && [ "$(wc -l <"$T/err")" -eq 1 ] && grep -q "^czsut: $1" "$T/err"; }

s=$(sums "$h  f\n")
out=$(python3 "$PY" run "$R" "$s" 5 echo ran 2>&1)
ok "a good run folder runs its command: $out" -- [ "$out" = ran ]

s=$(sums "$h  f\n$h  a//f\n")
refused "an empty path component in SHA256SUMS" "SHA256SUMS: bad line '[0-9a-f]*  a//f'" run "$R" "$s" 5 echo ran
s=$(sums "$h  f\n$h  f/\n")
refused "a trailing slash in SHA256SUMS" "SHA256SUMS: bad line" run "$R" "$s" 5 echo ran
s=$(sums "$h  nodir/f\n")
refused "a folder SHA256SUMS names is not there" "nodir/f: no such folder" run "$R" "$s" 5 echo ran
s=$(sums "$h  f\n\377\376  g\n")
refused "SHA256SUMS not UTF-8" "SHA256SUMS: not UTF-8" run "$R" "$s" 5 echo ran

s=$(sums "$h  f\n")
printf 'x\377\n' >"$R/KSRC256SUMS"
k=$(sha256sum "$R/KSRC256SUMS" | cut -d' ' -f1)
CZ_KSRC_SUMS=$k refused "KSRC256SUMS not UTF-8" "KSRC256SUMS: not UTF-8" run "$R" "$s" 5 echo ran
rm "$R/KSRC256SUMS"

refused "a timeout that is not a number" "timeout 'soon'" run "$R" "$s" soon echo ran
refused "a run folder that is not there" "$W/run.gone: no such folder" run "$W/run.gone" "$s" 5 echo ran

# bisect: a stand-in zab (bisect prints an answer and exits $FZ_RC; store export writes the file)
cat >"$T/fz" <<'FZ'
#!/bin/sh
case $1 in
bisect) echo "first change: step 3/4 s@3: -30.00% (R) in x on c"; echo "$*" >"$FZ_ARGS"; exit "$FZ_RC" ;;
store) shift 4; [ "$1" = -o ] && echo '{"results": []}' >"$2" ;;
esac
FZ
chmod 755 "$T/fz"
export FZ_ARGS=$T/fz.args
rm -f "$R/bisect.txt" "$R/bisect.db"
: >"$R/bisect.db"
FZ_RC=0 python3 "$PY" bisect "$R" "$s" 5 "$T/fz" exp --sut c >"$T/out" 2>"$T/err"
rc=$?
ok "bisect: exit $rc, the answer and 'exit 0' in bisect.txt, the probes exported" -- sh -c "[ $rc -eq 0 ] &&
	[ \"\$(cat '$R/bisect.txt')\" = 'first change: step 3/4 s@3: -30.00% (R) in x on c
exit 0' ] && [ -s '$R/result.json' ] && grep -qx 'bisect exp --sut c --store sqlite:$R/bisect.db' '$T/fz.args'"
rm -f "$R/bisect.txt"
FZ_RC=2 refused "bisect: an exit that is no answer" "zab bisect exit 2" bisect "$R" "$s" 5 "$T/fz" exp
rm -f "$R/bisect.txt"
s2=$(sums "$h  f\n$h  a//f\n")
refused "bisect: the run step's checks (SHA256SUMS)" "SHA256SUMS: bad line" bisect "$R" "$s2" 5 "$T/fz" exp
s=$(sums "$h  f\n")

rm -f "$W/lock"
ln -s "$T/victim" "$W/lock"
refused "a symlinked lock" "$W/lock: a symlink: refused" run "$R" "$s" 5 echo ran
ok "the lock symlink was not followed" -- [ ! -e "$T/victim" ]
done_testing
