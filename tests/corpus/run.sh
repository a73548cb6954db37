#!/bin/bash
# corpus/run.sh -- gmon2cg on real programs and libraries nobody here wrote:
# Debian bookworm source packages (apt-get source), each built with our own
# compiler and flags by a recipe (tests/corpus/*.recipe), run on a
# deterministic workload, and converted.  Programs (built -pg -g) must
# agree with gprof (tests/lib/compare_gprof.py), have no call of cost 0,
# read in callgrind_annotate without a warning or an inclusive cost below
# a self cost, and load in KCachegrind.  Libraries (LD_PROFILE, driven by
# Debian's own programs) must keep every sample and put every call site
# on its call instruction.  Both must have each histogram bin's samples on
# the instructions that start in it (bins_kept.py), and will keep the
# whole-output invariants of tests/lib/check_callgrind.py (invariants()).
#
# Builds are cached outside the checkout, one directory per package
# version and variant: ${G2C_CORPUS_CACHE:-/var/cache/gmon2cg/corpus}/
# PKG_VERSION-VARIANT/ (sources below src/), so a rerun only reruns the
# workloads and checks.  Run alone from the build directory:
#   make check TESTS=tests/corpus/run.sh
#   srcdir=. GMON2CG=./gmon2cg bash tests/corpus/run.sh [RECIPE...]
# (G2C_CORPUS_KEEP=DIR keeps each workload's files, profiles and logs in
# DIR/NAME/ for people to look at, and for a program the path of the
# program in DIR/NAME/program: bench/real.sh times them.)
# A package whose source apt-get cannot fetch (no deb-src, no network)
# and that is not cached is skipped; anything else that fails is a failure.
. "${srcdir:-.}/tests/test-lib.sh"

: "${GPROF:=$(command -v gprof)}" "${PYTHON3:=$(command -v python3)}"
: "${CALLGRIND_ANNOTATE:=$(command -v callgrind_annotate)}"
export GPROF
[ -n "$GPROF" ] || skip "gprof not found (install binutils)"
[ -n "$PYTHON3" ] || skip "python3 not found"
cache=${G2C_CORPUS_CACHE:-/var/cache/gmon2cg/corpus}
mkdir -p "$cache/src" || skip "cannot create the cache directory $cache"
lib=$(cd "$srcdir/tests/lib" && pwd)
corpus=$(cd "$srcdir/tests/corpus" && pwd)
GMON2CG=$(cd "$(dirname "$GMON2CG")" && pwd)/$(basename "$GMON2CG")
started=$SECONDS

# source_version PKG: the version apt would fetch, or the newest cached.
source_version() {
	local v
	v=$(apt-cache showsrc --only-source "$1" 2>/dev/null | sed -n 's/^Version: //p' |
		sort -V | tail -n 1)
	[ -n "$v" ] || v=$(cd "$cache/src" && ls -d "$1"_* 2>/dev/null | sort -V | tail -n 1 |
		sed "s/^$1_//")
	echo "$v"
}

# fetch PKG VERSION: the unpacked source (Debian's patches applied) in
# $cache/src/PKG_VERSION; status 1 if apt-get source cannot fetch it.
fetch() {
	local dir=$cache/src/$1_$2 scratch
	[ -d "$dir" ] && return 0
	scratch=$(mktemp -d "$cache/src/.fetch.XXXXXX")
	(cd "$scratch" && apt-get source -qq "$1=$2" >log 2>&1) || {
		diag "apt-get source $1=$2 failed:" && tail -n 3 "$scratch/log" | diag
		rm -rf "$scratch"
		return 1
	}
	mv "$(find "$scratch" -mindepth 1 -maxdepth 1 -type d | head -n 1)" "$dir"
	rm -rf "$scratch"
}

# build: the recipe's build, into $out (made afresh unless it is cached).
build() {
	local t0=$SECONDS
	[ -f "$out/.built" ] && return 0
	rm -rf "$out" && mkdir -p "$out" || return 1
	# (in a shell of its own: set -e is void in a function whose status
	# is tested, so a recipe's failing command would not stop its build)
	recipe=$recipe src=$src out=$out corpus=$corpus \
		bash -e -c '. "$recipe"; cd "$src"; recipe_build' >"$out/build.log" 2>&1 || {
		tail -n 20 "$out/build.log" | diag
		mv "$out" "$out.failed.$$"
		return 1
	}
	touch "$out/.built"
	diag "$name: built in $((SECONDS - t0)) s"
}

# convert DESC ARGS...: gmon2cg ARGS; exit 0 and not a line on stderr,
# but for a gprof -s sum (a recipe's summed=yes) the one line that says
# the clones gprof does not list are part of the function before each.
# Known defect: (1) the warning "call arcs not where calls return".
convert() {
	local desc=$1
	shift
	"$GMON2CG" "$@" >"$work/convert.out" 2>"$work/convert.err"
	local status=$?
	if [ "$status" -eq 0 ] && [ ! -s "$work/convert.err" ]; then
		ok "$desc"
	elif [ "$status" -eq 0 ] && [ -n "$summed" ] && [ "$(wc -l <"$work/convert.err")" -eq 1 ] &&
		grep -q "a sum gprof -s wrote has the calls of gprof's own functions: [0-9]* functions it does not list (such as .*) are part of the function before, as in its call graph$" \
			"$work/convert.err"; then
		ok "$desc but gprof's folding of the sum's clones: $(sed 's/.*functions: //' "$work/convert.err")"
	else
		not_ok "$desc: exit $status, $(wc -l <"$work/convert.err") lines on stderr"
		diag <"$work/convert.err"
	fi
	[ -f "$work/$name.cg" ]
}

# Checks of a program's profile $work/$name.cg, converted with the
# recipe's gprof_options (gprof's selections, which gmon2cg takes too).
# gprof is run keeping the clones it drops (GCC's f.part.0, clang's
# lambdas): in real programs its crediting them to the function below
# spreads their children's time over that function's callers (zstd's
# POOL_thread under POOL_free).  But not on a gprof -s sum: its calls are
# between gprof's own functions already, the clones' at the function
# before each, and gmon2cg takes them as part of it, as gprof does.
program_checks() {
	local exe=$out/$prog keep=--keep-clones
	[ -z "$summed" ] || keep=
	$PYTHON3 "$lib/compare_gprof.py" $keep --gprof-args="$gprof_options" \
		--cg "$work/$name.cg" "$exe" "$work/gmon.out" \
		>"$work/compare.log" 2>&1 &&
		ok "$name agrees with gprof: $(tail -n 1 "$work/compare.log")" ||
		{ not_ok "$name differs from gprof: $(tail -n 1 "$work/compare.log")"
		  grep -v '^note' "$work/compare.log" | head -n 40 | diag; }
	bins_kept "$exe" --gmon "$work/gmon.out"
	invariants
	zero_cost_calls
	annotate
	kcachegrind
}

# bins_kept BINARY --gmon GMON | --oracle ORACLE: each histogram bin's
# samples are on the instructions that start in it, so every function's
# self cost is within what its bins allow.
bins_kept() {
	$PYTHON3 "$corpus/bins_kept.py" "$work/$name.cg" "$@" >"$work/bins.log" 2>&1 &&
		ok "$name: every bin's samples on its instructions, $(tail -n 1 "$work/bins.log")" ||
		{ not_ok "$name: bins, $(tail -n 1 "$work/bins.log")"; head -n 20 "$work/bins.log" | diag; }
}

# The invariants every gmon2cg output keeps, whatever the program
# (tests/lib/check_callgrind.py): this is where it is wired in.
invariants() {
	[ -f "$lib/check_callgrind.py" ] ||
		{ skip_check "$name: whole-output invariants" "tests/lib/check_callgrind.py is not there yet"; return; }
	$PYTHON3 "$lib/check_callgrind.py" "$work/$name.cg" >"$work/invariants.log" 2>&1 &&
		ok "$name: the whole-output invariants hold" ||
		{ not_ok "$name: $(wc -l <"$work/invariants.log") whole-output invariants broken"
		  head -n 20 "$work/invariants.log" | diag; }
}

# No call line of cost 0.  Known defect: (9) calls from <spontaneous> to
# roots with no samples.
zero_cost_calls() {
	$PYTHON3 "$corpus/zero_calls.py" "$work/$name.cg" >"$work/zero.log"
	local n=$?
	if [ "$n" -eq 0 ]; then
		ok "$name: no call of cost 0"
	else
		not_ok "$name: $(wc -l <"$work/zero.log") calls of cost 0"
		head -n 20 "$work/zero.log" | diag
	fi
}

# callgrind_annotate reads the profile without a warning, and no
# function's inclusive cost is below its self cost.
annotate() {
	[ -n "$CALLGRIND_ANNOTATE" ] ||
		{ skip_check "$name: callgrind_annotate" "callgrind_annotate not found"; return; }
	local mode
	for mode in no yes; do
		(cd / && "$CALLGRIND_ANNOTATE" --auto=no --threshold=100 --inclusive=$mode "$work/$name.cg") \
			>"$work/annotate.$mode" 2>&1
	done
	if grep -qi warning "$work/annotate.no" "$work/annotate.yes"; then
		not_ok "$name: callgrind_annotate warns: $(grep -hi warning "$work"/annotate.* | head -n 1)"
	elif ! $PYTHON3 "$corpus/annotate_check.py" "$work/annotate.no" "$work/annotate.yes" \
		>"$work/annotate.log"; then
		not_ok "$name: callgrind_annotate: $(tail -n 1 "$work/annotate.log")"
		head -n 20 "$work/annotate.log" | diag
	else
		ok "$name: callgrind_annotate, $(tail -n 1 "$work/annotate.log")"
	fi
}

# KCachegrind loads the profile without a loader message.
kcachegrind() {
	local missing
	missing=$(kcachegrind_missing)
	[ -z "$missing" ] || { skip_check "$name: KCachegrind" "$missing not installed"; return; }
	kcg_loads "$name" "$work/kcg.png" "$work/$name.cg"
}

# Checks of a library's LD_PROFILE profile $work/$name.cg.
library_checks() {
	local profile=$work/$soname.profile libfile=$1
	$PYTHON3 "$lib/ldprofile.py" "$profile" >"$work/oracle" ||
		{ not_ok "$name: the LD_PROFILE file cannot be read"; return; }
	$PYTHON3 "$corpus/samples_kept.py" "$work/$name.cg" "$work/oracle" "$libfile" \
		>"$work/kept.log" 2>&1
	case $? in
	0) ok "$name: every sample kept, $(tail -n 1 "$work/kept.log")" ;;
	*) not_ok "$name: samples lost, $(tail -n 1 "$work/kept.log")"; diag <"$work/kept.log" ;;
	esac
	bins_kept "$libfile" --oracle "$work/oracle"
	invariants
	$PYTHON3 "$corpus/call_sites.py" "$work/$name.cg" "$libfile" >"$work/sites.log" 2>&1
	case $? in
	0) ok "$name: every call site on its call instruction, $(tail -n 1 "$work/sites.log")" ;;
	*) not_ok "$name: call sites, $(tail -n 1 "$work/sites.log")"; head -n 20 "$work/sites.log" | diag ;;
	esac
}

# One recipe, in a subshell of its own: fetch, build, run, check.
run_recipe() (
	recipe=$1 kind=program name=$(basename "$1" .recipe) soname='' driver='' installed='' convert_with=''
	gprof_options='' summed=''
	recipe_build() { :; }
	. "$1"
	if [ -n "$installed" ]; then
		# (a library as Debian installs it: nothing to fetch or build)
		version=$(dpkg-query -W -f '${Version}' "$installed" 2>/dev/null) ||
			{ skip_check "$name" "$installed is not installed"; echo "checks=$checks failures=$failures" >"$tmp/counts"; return; }
		package=$installed
	else
		version=$(source_version "$package")
	fi
	if [ -z "$version" ] || { [ -z "$installed" ] && ! fetch "$package" "$version"; }; then
		skip_check "$name" "apt-get source $package is not possible here"
		echo "checks=$checks failures=$failures" >"$tmp/counts"
		return
	fi
	src=$cache/src/${package}_$version out=$cache/${package}_$version-$variant
	work=${G2C_CORPUS_KEEP:-$tmp}/$name
	rm -rf "$work" && mkdir -p "$work"
	if [ -n "$installed" ] || build; then
		ok "$name: $package $version $([ -n "$installed" ] && echo installed || echo "built ($variant)")"
		local t0=$SECONDS
		(cd "$work" && recipe_workload) >"$work/workload.log" 2>&1
		check "$name: the workload ran" || tail -n 5 "$work/workload.log" | diag
		diag "$name: workload in $((SECONDS - t0)) s"
		if [ "$kind" = program ]; then
			echo "$out/$prog" >"$work/program"
			convert "$name: converts, no warning" $gprof_options -o "$work/$name.cg" \
				"$out/$prog" "$work/gmon.out" &&
				program_checks
		else
			libfile=${libfile:-$out/$soname}
			LD_LIBRARY_PATH=$out convert "$name: converts, no warning" -o "$work/$name.cg" \
				"${convert_with:+$out/}${convert_with:-$driver}" "$work/$soname.profile" &&
				library_checks "$libfile"
		fi
	else
		not_ok "$name: $package $version does not build ($variant)"
	fi
	echo "checks=$checks failures=$failures" >"$tmp/counts"
)

if [ $# -gt 0 ]; then recipes=("$@"); else recipes=("$corpus"/*.recipe); fi
for recipe in "${recipes[@]}"; do
	run_recipe "$recipe"
	. "$tmp/counts"
done
diag "corpus: $((SECONDS - started)) s in all"
finish
