/* test-srcmap.c -- the prefix-map rule: a source file name that starts
 * with OLD starts with NEW instead, and where several OLDs match, the
 * longest wins, whatever the order the maps are given in. */
#include <config.h>

#include <stdio.h>
#include <string.h>

#include "check.h"
#include "source_map.h"

#define MAP(o, n) { o, n, sizeof o - 1 }

/* FILE as MAPS[0..N) rewrite it (in a static buffer). */
static const char *rewritten(const struct prefix_map *maps, size_t n,
			     const char *file)
{
	static char buf[256];
	const struct prefix_map *m = prefix_map_find(maps, n, file);

	if (!m)
		return file;
	snprintf(buf, sizeof buf, "%s%s", m->new, file + m->old_len);
	return buf;
}

int main(void)
{
	/* The same three overlapping maps, shortest first and longest first. */
	static const struct prefix_map up[] = {
		MAP("/build", "/short"), MAP("/build/src", "/mid"),
		MAP("/build/src/lib", "/long"),
	};
	static const struct prefix_map down[] = {
		MAP("/build/src/lib", "/long"), MAP("/build/src", "/mid"),
		MAP("/build", "/short"),
	};
	static const struct prefix_map *const orders[] = { up, down };

	for (size_t i = 0; i < 2; i++) {
		const struct prefix_map *maps = orders[i];

		CHECK_STR_EQ(rewritten(maps, 3, "/build/src/lib/a.c"), "/long/a.c");
		CHECK_STR_EQ(rewritten(maps, 3, "/build/src/main.c"), "/mid/main.c");
		CHECK_STR_EQ(rewritten(maps, 3, "/build/gen.h"), "/short/gen.h");
		/* a plain prefix, as gcc's: not only whole directories */
		CHECK_STR_EQ(rewritten(maps, 3, "/build/src/library.c"),
			     "/longrary.c");
		CHECK(prefix_map_find(maps, 3, "/usr/include/stdio.h") == NULL);
		CHECK(prefix_map_find(maps, 3, "/buil") == NULL);
	}
	CHECK(prefix_map_find(up, 0, "/build/a.c") == NULL);
	return check_report("test-srcmap");
}
