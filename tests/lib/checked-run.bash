# checked-run.bash -- the body of $tmp/gmon2cg, the gmon2cg every test runs
# (tests/test-lib.sh writes "real=PROGRAM dir=DIR" above it).
#
# Runs PROGRAM with the arguments as they are, then, when it succeeded and
# wrote a callgrind file (to -o FILE, or to standard output redirected to
# a file or a pipe), keeps a copy of it in DIR and a line for it in
# DIR/manifest: "COPY<TAB>selection|all<TAB>what it is".  finish checks
# them all with tests/lib/check_callgrind.py.  The check is not made here:
# a run under "ulimit -v" or GNU time must measure gmon2cg alone.
# Exits with PROGRAM's status; prints nothing of its own.
# shellcheck disable=SC2154 # real and dir are set above this file

# getopt_long's view of the arguments: long options (":r" takes a value,
# ":o" one given with "="), the short ones that take a value, and those
# that select (gprof's -E -e -F -f -N -n -k: the guide's calls rule is
# looser under them).
long_options="output:r format:r gzip parts demangle:o no-demangle no-inline
no-instr prefix-map:r display-unused-functions debug-dir:r library:r rate:r
force stats summary:o exclude:r no-graph:o only:r graph:o no-time:r time:r
drop-arc:r no-static compare fail-on:r min-time:r alpha:r junit:r help version"
selecting=" exclude no-graph only graph no-time time drop-arc "

output=- writes=yes selection=all
args=("$@")
i=0
while [ "$i" -lt ${#args[@]} ]; do
	a=${args[i]}
	i=$((i + 1))
	case $a in
	--) break ;;
	--*)
		name=${a#--} name=${name%%=*} match='' exact=''
		for o in $long_options; do
			[ "${o%%:*}" = "$name" ] && exact=$o
			case ${o%%:*} in "$name"*) match="$match $o" ;; esac
		done
		[ -n "$exact" ] && match=$exact
		read -r -a match <<<"$match"
		[ ${#match[@]} -eq 1 ] || continue	# gmon2cg refuses it
		value=''
		case $a in
		*=*) value=${a#*=} ;;
		*) case ${match[0]} in *:r) value=${args[i]}; i=$((i + 1)) ;; esac ;;
		esac
		case ${match[0]%%:*} in
		output) output=$value ;;
		format) [ "$value" = callgrind ] || writes=no ;;
		compare | help | version) writes=no ;;
		esac
		case $selecting in *" ${match[0]%%:*} "*) selection=selection ;; esac
		;;
	-?*)
		# a cluster of short options, the last may take a value
		j=1
		while [ "$j" -lt ${#a} ]; do
			c=${a:j:1}
			j=$((j + 1))
			case $c in
			h | V | v) writes=no ;;
			o | E | e | Q | F | f | N | n | k | q)
				case $c in [oq]) ;; *) selection=selection ;; esac
				value=${a:j}
				if [ -z "$value" ] && [ "$c" != q ]; then
					value=${args[i]}
					i=$((i + 1))
				fi
				[ "$c" = o ] && output=$value
				break
				;;
			esac
		done
		;;
	esac
done

# what the copy is, for the report: the output and the command
what="${output/#-/standard output} from: gmon2cg $*"
what=${what//"${dir%/outputs}"/\$tmp}
what=${what//$'\t'/ }
what=${what//$'\n'/ }
keep() {
	local copy
	copy=$(mktemp "$dir/XXXXXX") || return
	cat >"$copy" && printf '%s\t%s\t%s\n' "$copy" "$selection" "$what" >>"$dir/manifest"
}

if [ "$writes" = no ]; then
	exec "$real" "$@"
elif [ "$output" != - ]; then
	"$real" "$@"
	status=$?
	[ "$status" -ne 0 ] || [ ! -f "$output" ] || keep <"$output"
elif [ -f /dev/stdout ]; then
	# (appended to a file: only what this run wrote)
	start=$(stat -L -c %s /dev/stdout)
	"$real" "$@"
	status=$?
	[ "$status" -ne 0 ] || tail -c +$((start + 1)) "/proc/$$/fd/1" | keep
elif [ -p /dev/stdout ]; then
	tee_copy=$(mktemp "$dir/XXXXXX.tee")
	"$real" "$@" | tee "$tee_copy"
	status=${PIPESTATUS[0]} tee_status=${PIPESTATUS[1]}
	# (a reader that stopped early leaves no whole copy)
	[ "$status" -ne 0 ] || [ "$tee_status" -ne 0 ] || keep <"$tee_copy"
	rm -f "$tee_copy"
else
	exec "$real" "$@"
fi
exit "$status"
