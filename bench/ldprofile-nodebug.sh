#!/bin/bash
# SPDX-License-Identifier: GPL-3.0-or-later
# Times gmon2cg on the LD_PROFILE profile of a large shared library built
# with and without -g: FUNCS tiny exported functions (each even one calls
# the next through the PLT), and a program that calls CALLED of them, run
# under LD_PROFILE.  Without debug information no line is found anywhere,
# which must cost no more than with it.
#
# Usage: bench/ldprofile-nodebug.sh [FUNCS [CALLED...]]   (default 70000 17500 35000)
# Work files go to bench/work/ldprofile-nodebug/ (git-ignored).
set -euo pipefail
cd "$(dirname "$(readlink -f "$0")")"
gmon2cg=${GMON2CG:-$PWD/../gmon2cg}
funcs=${1:-70000}
shift || true
called=("$@")
[ ${#called[@]} -gt 0 ] || called=(17500 35000)
work=work/ldprofile-nodebug
mkdir -p "$work"
cd "$work"

if [ ! -e "src-$funcs.stamp" ]; then
	python3 - "$funcs" <<'PY'
import sys
n = int(sys.argv[1])
per = 5000
for part in range((n + per - 1) // per):
    with open("lib%d.c" % part, "w") as f:
        f.write("int f%d(int);\n" % n)
        for i in range(part * per, min(n, (part + 1) * per)):
            if i % 2 == 0:
                f.write("int f%d(int);\nint f%d(int x) { return f%d(x ^ %d) + 1; }\n"
                        % (i + 1, i, i + 1, i))
            else:
                f.write("int f%d(int x) { return x * %d; }\n" % (i, i))
    with open("prog.c", "w") as f:
        f.write("#include <stdlib.h>\n")
        f.write("".join("int f%d(int);\n" % i for i in range(n)))
        f.write("static int (*const fs[])(int) = {\n")
        f.write("".join("f%d,\n" % i for i in range(n)))
        f.write("};\nint main(int argc, char **argv)\n{\n"
                "\tint k = atoi(argv[1]), s = 0;\n"
                "\tfor (int i = 0; i < k; i++)\n"
                "\t\ts += fs[i * (%d / k)](i);\n"
                "\treturn s == 12345;\n}\n" % n)
PY
	touch "src-$funcs.stamp"
fi
parts=$(ls lib*.c)
for g in nodebug debug; do
	flags="-O2 -fPIC"
	[ "$g" = debug ] && flags="$flags -g"
	if [ ! -e "$g/libbig.so" ]; then
		mkdir -p "$g"
		for p in $parts; do
			echo "gcc $flags -c $p -o $g/${p%.c}.o"
		done | xargs -P 2 -I{} sh -c {}
		gcc -shared -Wl,-soname,libbig.so -o "$g/libbig.so" "$g"/lib*.o
		gcc -O2 -o "$g/prog" prog.c "$g/libbig.so" -Wl,-rpath,'$ORIGIN'
	fi
done
printf '%-8s %8s %10s\n' build called seconds
for k in "${called[@]}"; do
	for g in nodebug debug; do
		rm -f "$g/libbig.so.profile"
		LD_PROFILE=libbig.so LD_PROFILE_OUTPUT="$PWD/$g" "$g/prog" "$k" || true
		start=$(date +%s.%N)
		"$gmon2cg" -o /dev/null "$g/libbig.so" "$g/libbig.so.profile" 2>/dev/null
		end=$(date +%s.%N)
		printf '%-8s %8s %10.2f\n' "$g" "$k" "$(echo "$start $end" | awk '{ print $2 - $1 }')"
	done
done
