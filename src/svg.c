/* svg.c -- a flame graph as a self-contained interactive SVG. */
#include <config.h>

#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "diag.h"
#include "svg.h"
#include "util.h"

/* The layout, in pixels: frames share WIDTH, a row is ROW high, the
 * heading takes TOP and the line of details under the frames BOTTOM. */
#define MARGIN 10
#define WIDTH 1180
#define ROW 16
#define TOP 64
#define BOTTOM 28

bool svg_add_stack(void *ctx, const size_t *path, size_t depth, uint64_t weight)
{
	struct svg_picture *p = ctx;
	size_t same = 0;

	while (same < depth && same < p->nopen && p->nodes[p->open[same]].frame == path[same])
		same++;
	for (size_t d = same; d < depth; d++) {
		struct svg_node *nodes = array_grow(p->nodes, &p->cap, p->n + 1, sizeof *nodes);

		if (!nodes)
			return false;
		p->nodes = nodes;
		nodes[p->n] = (struct svg_node){ .frame = path[d], .depth = (unsigned)d,
						 .x = p->total };
		p->open[d] = p->n++;
	}
	p->nopen = depth;
	for (size_t d = 0; d < depth; d++)
		p->nodes[p->open[d]].width += weight;
	if (depth)
		p->nodes[p->open[depth - 1]].self += weight;
	if (depth > p->depth)
		p->depth = (unsigned)depth;
	p->total += weight;
	return true;
}

void svg_picture_release(struct svg_picture *p)
{
	free(p->nodes);
}

/* A time for people: "10.9 s", "250 ms". */
static void put_time(struct outstream *os, uint64_t ns)
{
	static const struct { double ns; const char *unit; } units[] = {
		{ 1e9, "s" }, { 1e6, "ms" }, { 1e3, "us" }, { 1, "ns" },
	};
	size_t u = 0;

	while (u + 1 < sizeof units / sizeof *units && (double)ns < units[u].ns)
		u++;
	outstream_printf(os, "%.3g %s", (double)ns / units[u].ns, units[u].unit);
}

/* A frame's warm colour, the same for a frame number in every run. */
static void put_warm_fill(struct outstream *os, size_t frame)
{
	uint64_t h = (uint64_t)frame * 0x9e3779b97f4a7c15u;

	outstream_printf(os, "#%02x%02x%02x", 205 + (unsigned)(h >> 58) % 50,
			 (unsigned)(h >> 40) % 200, (unsigned)(h >> 24) % 55);
}

/* The page's behaviour: hover, zoom, search.  (ES5, no library: the file
 * is opened from a disk or an artifact store, with nothing fetched.  W
 * and X0 are WIDTH and MARGIN.) */
static const char script[] =
"var W = 1180, X0 = 10, frames = [], zoomed = null, details, matched;\n"
"function init() {\n"
"  details = document.getElementById('details');\n"
"  matched = document.getElementById('matched');\n"
"  var gs = document.getElementsByClassName('f');\n"
"  for (var i = 0; i < gs.length; i++) {\n"
"    var g = gs[i], r = g.getElementsByTagName('rect')[0], t = g.getElementsByTagName('text')[0];\n"
"    frames.push({ g: g, r: r, t: t, name: t.textContent, fill: r.getAttribute('fill'),\n"
"      x: +g.getAttribute('data-x'), w: +g.getAttribute('data-ns'), d: +g.getAttribute('data-depth') });\n"
"    g.onmouseover = show; g.onmouseout = hide; g.onclick = zoom;\n"
"  }\n"
"  document.getElementById('unzoom').onclick = function () { place(null); };\n"
"  document.getElementById('search').onclick = function () {\n"
"    var term = prompt('Search (a regular expression):', '');\n"
"    if (term !== null) search(term);\n"
"  };\n"
"  place(null);\n"
"}\n"
"function frameOf(e) { for (var i = 0; i < frames.length; i++) if (frames[i].g === e) return frames[i]; }\n"
"function show() { details.textContent = this.getElementsByTagName('title')[0].textContent.replace(/\\n/g, '; '); }\n"
"function hide() { details.textContent = ' '; }\n"
"function zoom() { place(frameOf(this)); }\n"
"function place(z) {\n"
"  var x0 = z ? z.x : 0, w0 = z ? z.w : +document.documentElement.getAttribute('data-total');\n"
"  zoomed = z;\n"
"  document.getElementById('unzoom').style.display = z ? '' : 'none';\n"
"  for (var i = 0; i < frames.length; i++) {\n"
"    var f = frames[i], inside = f.x >= x0 && f.x + f.w <= x0 + w0 && (!z || f.d >= z.d),\n"
"        above = z && f.d < z.d && f.x <= x0 && f.x + f.w >= x0 + w0;\n"
"    if (!inside && !above) { f.g.style.display = 'none'; continue; }\n"
"    var x = above ? X0 : X0 + (f.x - x0) / w0 * W, w = above ? W : f.w / w0 * W;\n"
"    f.g.style.display = '';\n"
"    f.r.setAttribute('x', x); f.r.setAttribute('width', w);\n"
"    f.t.setAttribute('x', x + 3);\n"
"    var room = Math.floor((w - 6) / 7);\n"
"    f.t.textContent = room < 3 ? '' : f.name.length <= room ? f.name : f.name.slice(0, room - 2) + '..';\n"
"  }\n"
"}\n"
"function search(term) {\n"
"  var re = new RegExp(term), spans = [], sum = 0, end = -1;\n"
"  for (var i = 0; i < frames.length; i++) {\n"
"    var f = frames[i], hit = term !== '' && re.test(f.name);\n"
"    f.r.setAttribute('fill', hit ? '#e040e0' : f.fill);\n"
"    if (hit) spans.push(f);\n"
"  }\n"
"  spans.sort(function (a, b) { return a.x - b.x || b.w - a.w; });\n"
"  for (var j = 0; j < spans.length; j++)\n"
"    if (spans[j].x >= end) { sum += spans[j].w; end = spans[j].x + spans[j].w; }\n"
"  var total = +document.documentElement.getAttribute('data-total');\n"
"  matched.textContent = term === '' ? '' : 'Matched: ' + (total ? (100 * sum / total).toFixed(1) : 0) + '%';\n"
"  return sum;\n"
"}\n";

static const char style_sheet[] =
"text { font-family: monospace; font-size: 12px; fill: #000; }\n"
"g.f:hover rect { stroke: #000; stroke-width: 0.5; }\n"
"g.f { cursor: pointer; }\n"
"#search, #unzoom { cursor: pointer; fill: #336; }\n"
".head { font-size: 17px; }\n";

static void write_node(const struct svg_picture *p, const struct svg_node *n,
		       const struct svg_style *style, struct outstream *os)
{
	/* (a profile without samples has no frame to divide by) */
	double total = p->total ? (double)p->total : 1;
	double x = MARGIN + (double)n->x / total * WIDTH;
	double w = (double)n->width / total * WIDTH;
	double y = TOP + (double)(p->depth - 1 - n->depth) * ROW;
	const char *fill = style->fill ? style->fill(style->ctx, n) : NULL;

	outstream_printf(os, "<g class=\"f\" data-x=\"%" PRIu64 "\" data-ns=\"%" PRIu64
			 "\" data-self=\"%" PRIu64 "\" data-depth=\"%u\"><title>",
			 n->x, n->width, n->self, n->depth);
	style->name(style->ctx, n, os, outstream_puts_xml);
	if (style->details)
		style->details(style->ctx, n, os);
	outstream_puts(os, "\ntotal ");
	put_time(os, n->width);
	outstream_printf(os, " (%.2f%%), %" PRIu64 " ns\nself ", 100.0 * (double)n->width / total,
			 n->width);
	put_time(os, n->self);
	outstream_printf(os, ", %" PRIu64 " ns</title>"
			 "<rect x=\"%.2f\" y=\"%.0f\" width=\"%.3f\" height=\"%d\" rx=\"2\" fill=\"",
			 n->self, x, y, w, ROW - 1);
	if (fill)
		outstream_puts(os, fill);
	else
		put_warm_fill(os, n->frame);
	outstream_puts(os, "\"");
	if (style->rect_attributes)
		style->rect_attributes(style->ctx, n, os);
	outstream_printf(os, "/><text x=\"%.2f\" y=\"%.0f\">", x + 3, y + ROW - 4);
	style->name(style->ctx, n, os, outstream_puts_xml);
	outstream_puts(os, "</text></g>\n");
}

void svg_write(const struct svg_picture *p, const struct svg_style *style,
	       struct outstream *os)
{
	unsigned rows = p->depth ? p->depth : 1;
	unsigned height = TOP + rows * ROW + BOTTOM;

	outstream_printf(os, "<?xml version=\"1.0\" encoding=\"UTF-8\" standalone=\"no\"?>\n"
			 "<svg version=\"1.1\" xmlns=\"http://www.w3.org/2000/svg\" width=\"%d\" "
			 "height=\"%u\" viewBox=\"0 0 %d %u\" onload=\"init()\" data-total=\"%"
			 PRIu64 "\">\n<style type=\"text/css\"><![CDATA[\n%s]]></style>\n"
			 "<script type=\"text/ecmascript\"><![CDATA[\n%s]]></script>\n"
			 "<rect x=\"0\" y=\"0\" width=\"100%%\" height=\"100%%\" fill=\"#f8f8f0\"/>\n",
			 WIDTH + 2 * MARGIN, height, WIDTH + 2 * MARGIN, height, p->total,
			 style_sheet, script);
	outstream_printf(os, "<text class=\"head\" x=\"%d\" y=\"24\" text-anchor=\"middle\">",
			 MARGIN + WIDTH / 2);
	outstream_puts_xml(os, style->title);
	outstream_printf(os, "</text>\n<text x=\"%d\" y=\"44\" text-anchor=\"middle\">",
			 MARGIN + WIDTH / 2);
	outstream_puts_xml(os, style->subtitle);
	outstream_printf(os, "</text>\n<text id=\"unzoom\" x=\"%d\" y=\"24\">Reset zoom</text>\n"
			 "<text id=\"search\" x=\"%d\" y=\"24\" text-anchor=\"end\">Search</text>\n"
			 "<text id=\"matched\" x=\"%d\" y=\"%u\" text-anchor=\"end\"> </text>\n"
			 "<text id=\"details\" x=\"%d\" y=\"%u\"> </text>\n",
			 MARGIN, MARGIN + WIDTH, MARGIN + WIDTH, height - 10, MARGIN, height - 10);
	for (size_t i = 0; i < p->n; i++)
		write_node(p, &p->nodes[i], style, os);
	outstream_puts(os, "</svg>\n");
}

/* -- One profile (--format=svg) ----------------------------------------- */

struct profile_frames {
	const struct callgraph *cg;
	const struct source_map *map;
	const struct flame_frames *frames;
};

static void profile_name(void *ctx, const struct svg_node *n, struct outstream *os,
			 void (*put)(struct outstream *, const char *))
{
	const struct profile_frames *pf = ctx;

	flame_put_name(pf->cg, &pf->frames->frames[n->frame], os, put);
}

static void profile_details(void *ctx, const struct svg_node *n, struct outstream *os)
{
	const struct profile_frames *pf = ctx;
	const struct flame_frame *fr = &pf->frames->frames[n->frame];

	if (fr->is_cycle)
		return;
	outstream_puts(os, "\n");
	outstream_puts_xml(os, pf->map->home[fr->what].file);
	if (pf->map->home[fr->what].line)
		outstream_printf(os, ":%u", pf->map->home[fr->what].line);
}

int svg_write_profile(const struct callgraph *cg, const struct source_map *map,
		      const struct svg_info *info, struct outstream *os,
		      struct g2c_error *err)
{
	static const struct flame_bounds bounds = { 0, 0 };
	struct svg_picture picture = { 0 };
	struct flame_frames frames = { 0 };
	struct profile_frames pf = { cg, map, &frames };
	char title[512];
	uint64_t total;
	int rc = flame_unroll(cg, &bounds, svg_add_stack, &picture, &frames, &total, err);

	if (rc == 0) {
		snprintf(title, sizeof title, "Flame graph of %s", info->name);
		svg_write(&picture, &(struct svg_style){
				  .title = title,
				  .subtitle = "gprof's call graph unrolled (time split among callers by "
					      "calls); width: total time; hover for times, click to zoom",
				  .name = profile_name, .details = profile_details, .ctx = &pf },
			  os);
	}
	svg_picture_release(&picture);
	flame_frames_release(&frames);
	return rc;
}
