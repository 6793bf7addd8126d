#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# Description: the kernel-source build cache cannot be poisoned.  A cached
# object is code the loader executes, so root (this test) must never run
# an object another user could have written.  An unprivileged user (uid
# 65534) builds, in a cache of its own, the original clear_page_64.S and a
# patched one whose clear_page_rep zeroes correctly AND creates a marker
# file, then plants the patched build under the original's key (entry
# files renamed; in this build's format also re-headed with the key and a
# fresh digest, as anyone can compute them) where root might look:
#   - /tmp/cusezero-ksrc-0 made by the user (root with HOME unset or "/");
#   - CUSEZERO_KSRC_CACHE naming the user's folder, a symbolic link the
#     user made, a folder of mode 0777; XDG_CACHE_HOME in the user's folder;
#   - inside root's own cache: an entry owned by the user, an entry that
#     is a symbolic link, an entry whose digest does not match.
# Every case: refused with one line or ignored (rebuilt), the marker never
# appears, and a plain run afterwards works.  First, the control: the same
# planted entry in a cache root trusts (root's own file, right digest) does
# run, so the marker is a real witness.
# Needs: root
. "$top_srcdir/tests/tap.sh"

[ "$ZERO_ARCH" = x86_64 ] || skip_all "the planted routine is x86-64 code (ZERO_ARCH=$ZERO_ARCH)"
tree=$(ls -d /var/cache/cusezero-ksrc/6.12/linux-source-6.12 2>/dev/null | head -n 1)
if [ -z "$tree" ]; then
	[ "${CI:-}" = true ] && { echo "Bail out! CI: no kernel sources (scripts/kernel-sources.sh)"; exit 1; }
	skip_all "no kernel sources: scripts/kernel-sources.sh installs Debian's linux-source 6.12"
fi
command -v setpriv >/dev/null || skip_all "no setpriv (util-linux)"
rel=arch/x86/lib/clear_page_64.S
src=$tree/$rel:clear_page_rep

T=$(mktemp -d) || exit 1
chmod 755 "$T"
mkdir -m 1777 "$T/m"
MARK=$T/m/marker
FALLBACK=/tmp/cusezero-ksrc-0
trap 'rm -rf "$T" "$FALLBACK" /tmp/czlink-$$' EXIT
rm -rf "$FALLBACK"
user() { setpriv --reuid 65534 --regid 65534 --clear-groups env -u HOME -u XDG_CACHE_HOME "$@"; }
zb() { "$ZBENCH" memset -s 64KB -l 2 --format simple --source "$src" "$@"; }

# The evil patch: open(MARK, O_WRONLY|O_CREAT, 0644) and close, then the original.
mkdir -p "$T/a/${rel%/*}" "$T/b/${rel%/*}"
cp "$tree/$rel" "$T/a/$rel"
awk -v m="$MARK" '{ print }
	/^SYM_FUNC_START\(clear_page_rep\)/ {
		print "\tpush %rdi; push %rsi; push %rdx; push %rcx; push %rax; push %r11"
		print "\tlea .Lczmark(%rip), %rdi; mov $0x41, %esi; mov $0x1a4, %edx; mov $2, %eax; syscall"
		print "\tmov %rax, %rdi; mov $3, %eax; syscall"
		print "\tpop %r11; pop %rax; pop %rcx; pop %rdx; pop %rsi; pop %rdi"
		print "\tjmp .Lczgo"
		print ".Lczmark: .asciz \"" m "\""
		print ".Lczgo:"
	}' "$tree/$rel" >"$T/b/$rel"
(cd "$T" && diff -u "a/$rel" "b/$rel") >"$T/evil.patch"
chmod 644 "$T/evil.patch"

# The user's own builds: the original's entry names (its key) and the evil ones.
mkdir -m 700 "$T/ucache" && chown 65534:65534 "$T/ucache"
user CUSEZERO_KSRC_CACHE="$T/ucache" "$ZBENCH" memset -s 4KB -l 1 --format simple --source "$src" >/dev/null 2>"$T/e1"
ls "$T/ucache" >"$T/orig.names"
user CUSEZERO_KSRC_CACHE="$T/ucache" "$ZBENCH" memset -s 4KB -l 1 --format simple --source "$src" \
	--patch "$T/evil.patch" >/dev/null 2>"$T/e2"
ok "the user builds both in its own cache (the marker then belongs to the user)" -- \
	sh -c "[ -s '$T/orig.names' ] && [ \$(ls '$T/ucache' | wc -l) -gt \$(wc -l <'$T/orig.names') ] && [ \$(stat -c %u '$MARK') = 65534 ]"
rm -f "$MARK"
evil=$(ls "$T/ucache" | grep -vxF -f "$T/orig.names")
key=$(sed -n '1s/\.[a-z]*$//p' "$T/orig.names")
ekey=$(echo "$evil" | sed -n '1s/\.[a-z]*$//p')
ok "the key is a SHA-256 (64 hex digits): $key" -- sh -c "echo '$key' | grep -qx '[0-9a-f]\{64\}'"

# plant DIR: the evil build under the original's key, written as the user would.
plant() {
	for f in $evil; do
		ext=${f#"$ekey"}
		if [ "$ext" = .ksrc ]; then
			# re-head: the victim's key and the digest of key, object and branches
			lo=$(sed -n 's/^object //p;/^$/q' "$T/ucache/$f")
			lb=$(sed -n 's/^branches //p;/^$/q' "$T/ucache/$f")
			size=$(stat -c %s "$T/ucache/$f")
			tail -c $((lo + lb)) "$T/ucache/$f" >"$T/payload"
			sum=$({ printf '%s\0' "$key"; cat "$T/payload"; } | sha256sum | cut -d' ' -f1)
			{ printf 'cusezero-ksrc-cache 1\nkey %s\nobject %s\nbranches %s\nsha256 %s\n\n' \
				"$key" "$lo" "$lb" "$sum"; cat "$T/payload"; } >"$1/$key$ext"
			[ "$size" -gt 0 ]
		else
			cp "$T/ucache/$f" "$1/$key$ext"
		fi
	done
}
# safe: the marker absent, and the reason line (if any) one line
safe() {	# what=WHAT safe EXIT EXPECTED-EXIT [PATTERN]: after a run into $T/out, $T/err
	rc=$1 want=$2 pat=${3:-}
	ok "$what: exit $rc, no planted code ran${pat:+, one line: $(head -n 1 "$T/err")}" -- \
		sh -c "[ ! -e '$MARK' ] && [ $rc -eq $want ] &&
		       { [ -z '$pat' ] || { [ \$(wc -l <'$T/err') -eq 1 ] && grep -q -- '$pat' '$T/err'; }; }"
	rm -f "$MARK"
}

# control: root's own cache, root's own entry with the right digest: it runs
mkdir -m 700 "$T/rcache"
plant "$T/rcache"
CUSEZERO_KSRC_CACHE=$T/rcache zb >/dev/null 2>&1
ok "control: the planted entry in a cache root trusts runs (the marker appears)" -- test -e "$MARK"
rm -f "$MARK" "$T/rcache"/*

# 1. the old shared fallback in /tmp, prepared by the user
mkdir -m 777 "$FALLBACK" && chown 65534:65534 "$FALLBACK"
plant "$FALLBACK"
chown -R 65534:65534 "$FALLBACK"
env -u HOME -u XDG_CACHE_HOME -u CUSEZERO_KSRC_CACHE "$ZBENCH" memset -s 64KB -l 2 --format simple \
	--source "$src" >"$T/out" 2>"$T/err"
what="HOME unset, $FALLBACK planted" safe $? 0
env -u XDG_CACHE_HOME -u CUSEZERO_KSRC_CACHE HOME=/ "$ZBENCH" memset -s 64KB -l 2 --format simple --source "$src" >"$T/out" 2>"$T/err"
what="HOME=/, $FALLBACK planted" safe $? 0

# 2. CUSEZERO_KSRC_CACHE naming what the user controls: refused by name
CUSEZERO_KSRC_CACHE=$FALLBACK zb >"$T/out" 2>"$T/err"
what="CUSEZERO_KSRC_CACHE=the user's folder" safe $? 1 "refused as a build cache"
user ln -s "$T/rcache" /tmp/czlink-$$
CUSEZERO_KSRC_CACHE=/tmp/czlink-$$ zb >"$T/out" 2>"$T/err"
what="CUSEZERO_KSRC_CACHE=a symbolic link the user made" safe $? 1 "symbolic link owned by uid 65534"
ok "nothing was written through the link" -- sh -c "[ -z \"\$(ls '$T/rcache')\" ]"
mkdir -m 777 "$T/open"
plant "$T/open"
CUSEZERO_KSRC_CACHE=$T/open zb >"$T/out" 2>"$T/err"
what="CUSEZERO_KSRC_CACHE=a folder of mode 0777" safe $? 1 "writable by others"
mkdir -m 700 "$T/uxdg" && mkdir -p "$T/uxdg/cusezero/ksrc" && plant "$T/uxdg/cusezero/ksrc" &&
	chown -R 65534:65534 "$T/uxdg"
env -u CUSEZERO_KSRC_CACHE XDG_CACHE_HOME="$T/uxdg" "$ZBENCH" memset -s 64KB -l 2 --format simple \
	--source "$src" >"$T/out" 2>"$T/err"
what="XDG_CACHE_HOME in the user's folder (a private build instead)" safe $? 0

# 3. inside root's own cache
plant "$T/rcache"
chown 65534:65534 "$T/rcache"/*
CUSEZERO_KSRC_CACHE=$T/rcache zb >"$T/out" 2>"$T/err"
what="an entry owned by the user in root's cache (ignored, rebuilt)" safe $? 0
rm -f "$T/rcache"/*
plant "$T/open" && chown 65534:65534 "$T/open"/*
for f in "$T/open"/*; do ln -s "$f" "$T/rcache/${f##*/}"; done
CUSEZERO_KSRC_CACHE=$T/rcache zb >"$T/out" 2>"$T/err"
what="an entry that is a symbolic link (ignored, rebuilt)" safe $? 0
rm -f "$T/rcache"/*
# the original's entry with the evil object spliced in: the digest no longer matches
CUSEZERO_KSRC_CACHE=$T/rcache zb >/dev/null 2>&1
plant "$T/open"
lo=$(sed -n 's/^object //p;/^$/q' "$T/open/$key.ksrc")
lb=$(sed -n 's/^branches //p;/^$/q' "$T/open/$key.ksrc")
sum=$(sed -n 's/^sha256 //p;/^$/q' "$T/rcache/$key.ksrc")
{ printf 'cusezero-ksrc-cache 1\nkey %s\nobject %s\nbranches %s\nsha256 %s\n\n' "$key" "$lo" "$lb" "$sum"
  tail -c $((lo + lb)) "$T/open/$key.ksrc"; } >"$T/rcache/$key.ksrc"
CUSEZERO_KSRC_CACHE=$T/rcache zb >"$T/out" 2>"$T/err"
what="an entry whose digest does not match (ignored, rebuilt)" safe $? 0
ok "a plain run afterwards prints a figure" -- sh -c "CUSEZERO_KSRC_CACHE='$T/rcache' '$ZBENCH' memset -s 64KB -l 2 --format simple --source '$src' | grep -q '^ *[0-9][0-9.]*\$'"

# 4. the key covers every input: the patch, the compiler, the convention
mkdir -m 700 "$T/keys"
CUSEZERO_KSRC_CACHE=$T/keys zb >/dev/null 2>&1
CUSEZERO_KSRC_CACHE=$T/keys zb --patch "$T/evil.patch" >/dev/null 2>&1
rm -f "$MARK"
CUSEZERO_KSRC_CACHE=$T/keys CUSEZERO_KSRC_CC="gcc -g0" zb >/dev/null 2>&1
CUSEZERO_KSRC_CACHE=$T/keys "$ZBENCH" memset -s 64KB -l 2 --format simple \
	--source "$tree/$rel:clear_page_rep%memset" >/dev/null 2>&1
ok "four inputs, four entries: as is, patched, another compiler, another convention ($(ls "$T/keys" | wc -l))" -- \
	sh -c "[ \$(ls '$T/keys' | grep -c '^[0-9a-f]\{64\}\.') -eq 4 ]"
done_testing
