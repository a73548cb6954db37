#!/bin/bash
# completion.sh -- the bash completion (completion/gmon2cg), loaded as
# bash-completion loads it, completes every option --help lists, the
# values of --format, --annotations and --fail-on, and file names where
# an option takes a file (directories only for --debug-dir); `make
# install` puts it where bash-completion looks (the Debian package's is
# checked by debian-package.sh).
. "${srcdir:-.}/tests/test-lib.sh"

bc=/usr/share/bash-completion/bash_completion
[ -f "$bc" ] || skip "bash-completion not installed"
script=$(cd "${srcdir:-.}/completion" && pwd)/gmon2cg
mkdir -p "$tmp/bin" "$tmp/dir/sub"
ln -s "$G2C_BINARY" "$tmp/bin/gmon2cg"
: >"$tmp/dir/prog.cg" && : >"$tmp/dir/gmon.out"

# complete WORD...: what the completion offers for the command line
# "gmon2cg WORD..." (the last word the one under the cursor), one a line.
complete_line() {
	(cd "$tmp/dir" && PATH=$tmp/bin:$PATH bash -c '
		source "$1" && source "$2" || exit 1
		shift 2
		COMP_WORDS=(gmon2cg "$@") COMP_CWORD=$#
		COMP_LINE="gmon2cg $*" COMP_POINT=${#COMP_LINE}
		_comp_gmon2cg gmon2cg "${COMP_WORDS[COMP_CWORD]}" "${COMP_WORDS[COMP_CWORD-1]}"
		printf "%s\n" "${COMPREPLY[@]}"' bash "$bc" "$script" "$@") 2>"$tmp/complete.err"
}

# every long option of --help is offered for "--"
"$G2C_BINARY" --help | grep -oE -- '--[a-z][a-z-]*' | sort -u >"$tmp/help-options"
complete_line -- | sed 's/=$//' | sort -u >"$tmp/offered"
missing=$(comm -23 "$tmp/help-options" "$tmp/offered")
[ -s "$tmp/offered" ] && [ -z "$missing" ]
check "every long option of --help is offered"
[ -z "$missing" ] || diag "not offered: $missing"
[ "$(complete_line --comp)" = "--compare" ] &&
	[ "$(complete_line --compare --mark)" = "--markdown=" ] &&
	[ "$(complete_line --compare --code)" = "--codequality=" ]
check "a prefix completes to its option, with = where it takes a value"
[ "$(complete_line --format=s | tr '\n' ' ')" = "speedscope svg " ] &&
	[ "$(complete_line --format s | tr '\n' ' ')" = "speedscope svg " ]
check "--format's values"
[ "$(complete_line --compare --annotations=)" = github ] &&
	complete_line --compare --fail-on=c | grep -qx 'calls:1'
check "--annotations's and --fail-on's values"
[ "$(complete_line --compare --markdown= | sort | tr '\n' ' ')" = "gmon.out prog.cg sub " ] &&
	[ "$(complete_line -o pr)" = prog.cg ] &&
	[ "$(complete_line --compare prog.cg '')" != "" ]
check "file names for -o, --markdown and the operands"
[ "$(complete_line --debug-dir '')" = sub ]
check "--debug-dir: directories only"
[ -z "$(complete_line --rate '')" ]
check "nothing for an option that takes a number"
[ -s "$tmp/complete.err" ] && diag <"$tmp/complete.err"

# make install puts it where bash-completion looks for gmon2cg's
if [ -f "$builddir/Makefile" ] && [ -z "$paths_only" ]; then
	# (not in make check's environment: its MAKEFLAGS would print directories)
	env -u MAKEFLAGS -u MFLAGS -u MAKELEVEL make -C "$builddir" -s \
		install-dist_bashcompDATA DESTDIR="$tmp/inst" >/dev/null 2>&1
	dir=$(env -u MAKEFLAGS -u MFLAGS -u MAKELEVEL make -C "$builddir" -s --no-print-directory \
		-f Makefile -f - print-bashcompdir <<<'print-bashcompdir: ; @echo $(bashcompdir)' 2>/dev/null)
	[ -n "$dir" ] && cmp -s "$tmp/inst$dir/gmon2cg" "$script"
	check "make install puts it in bash-completion's directory ($dir)"
else
	skip_check "make install puts it in bash-completion's directory" "no Makefile here, or a pass of code paths only"
fi

finish
