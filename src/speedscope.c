/* speedscope.c -- write a call graph in speedscope's own file format. */
#include <config.h>

#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "flame.h"
#include "speedscope.h"
#include "util.h"

/* Writes S as a JSON string. */
static void put_json_string(struct outstream *os, const char *s)
{
	outstream_puts(os, "\"");
	outstream_puts_json(os, s);
	outstream_puts(os, "\"");
}

static void write_frames(const struct callgraph *cg, const struct source_map *map,
			 const struct flame_frames *frames, struct outstream *os)
{
	outstream_puts(os, "\"shared\":{\"frames\":[");
	for (size_t i = 0; i < frames->n; i++) {
		const struct flame_frame *fr = &frames->frames[i];

		outstream_puts(os, i ? ",\n{\"name\":\"" : "\n{\"name\":\"");
		flame_put_name(cg, fr, os, outstream_puts_json);
		if (fr->is_cycle) {
			outstream_puts(os, "\"}");
			continue;
		}
		outstream_puts(os, "\",\"file\":");
		put_json_string(os, map->home[fr->what].file);
		if (map->home[fr->what].line)
			outstream_printf(os, ",\"line\":%u", map->home[fr->what].line);
		outstream_puts(os, "}");
	}
	outstream_puts(os, "]}");
}

/* The samples as they are unrolled: each stack written, its weight kept
 * for the list of weights after them. */
struct samples {
	struct outstream *os;
	uint64_t *weights;
	size_t n, cap;
};

static bool write_sample(void *ctx, const size_t *path, size_t depth, uint64_t weight)
{
	struct samples *s = ctx;
	uint64_t *weights = array_grow(s->weights, &s->cap, s->n + 1, sizeof *weights);

	if (!weights)
		return false;
	s->weights = weights;
	weights[s->n] = weight;
	outstream_puts(s->os, s->n++ ? ",\n[" : "\n[");
	for (size_t i = 0; i < depth; i++) {
		char *p = outstream_room(s->os, 22);

		if (i)
			*p++ = ',';
		outstream_advance(s->os, outstream_format_u64(p, path[i]));
	}
	outstream_puts(s->os, "]");
	return true;
}

int speedscope_write(const struct callgraph *cg, const struct source_map *map,
		     const struct speedscope_info *info, struct outstream *os,
		     struct g2c_error *err)
{
	struct flame_bounds bounds = { info->cut_share, info->max_depth };
	struct flame_frames frames = { 0 };
	struct samples samples = { .os = os };
	uint64_t total;
	int rc;

	outstream_puts(os, "{\"$schema\":\"https://www.speedscope.app/file-format-schema.json\",\n"
		       "\"exporter\":\"" PACKAGE_NAME " " PACKAGE_VERSION "\",\"name\":");
	put_json_string(os, info->name);
	outstream_puts(os, ",\"activeProfileIndex\":0,\n\"profiles\":[{\"type\":\"sampled\",\"name\":");
	put_json_string(os, info->name);
	outstream_printf(os, ",\"unit\":\"%s\",\"startValue\":0,\n\"samples\":[",
			 info->in_seconds ? "nanoseconds" : "none");
	rc = flame_unroll(cg, &bounds, write_sample, &samples, &frames, &total, err);
	if (rc == 0) {
		outstream_puts(os, "],\n\"weights\":[");
		for (size_t i = 0; i < samples.n; i++) {
			char *p = outstream_room(os, 24);

			if (i)
				*p++ = ',';
			if (i % 16 == 0)
				*p++ = '\n';
			outstream_advance(os, outstream_format_u64(p, samples.weights[i]));
		}
		outstream_printf(os, "],\n\"endValue\":%" PRIu64 "}],\n", total);
		write_frames(cg, map, &frames, os);
		outstream_puts(os, "}\n");
	}
	free(samples.weights);
	flame_frames_release(&frames);
	return rc;
}
