/* callgrind_format.h -- what the callgrind format spells, as gmon2cg
 * writes and reads it.
 *
 * The words of the format ("Callgrind Format Specification" in Valgrind's
 * manual), the lines gmon2cg writes that its reader depends on, and the
 * pseudo names gmon2cg gives what is no function, in one place for the
 * writer (callgrind_write.c), the reader of --compare (callgrind_read.c),
 * the comparison's callgrind file (compare_report.c), the output's file
 * table (source_map.c), the output check (outcheck.c) and the speedscope
 * writer, so that what one writes the other reads.  Header lines are
 * written "KEY: VALUE"; the keys here are without the colon.
 */
#ifndef GMON2CG_CALLGRIND_FORMAT_H
#define GMON2CG_CALLGRIND_FORMAT_H

/* The first line of a callgrind file, and the one version there is. */
#define CALLGRIND_FIRST_LINE "# callgrind format"
#define CALLGRIND_VERSION "1"

/* The keys of header lines. */
#define CALLGRIND_KEY_VERSION "version"
#define CALLGRIND_KEY_CREATOR "creator"
#define CALLGRIND_KEY_CMD "cmd"
#define CALLGRIND_KEY_PART "part"
#define CALLGRIND_KEY_DESC "desc"
#define CALLGRIND_KEY_POSITIONS "positions"
#define CALLGRIND_KEY_EVENT "event"	/* an event's long name */
#define CALLGRIND_KEY_EVENTS "events"	/* the last line of a header */
#define CALLGRIND_KEY_SUMMARY "summary"
#define CALLGRIND_KEY_TOTALS "totals"

/* The values of "positions:": an address and a line, or a line only. */
#define CALLGRIND_POSITIONS_INSTR "instr line"
#define CALLGRIND_POSITIONS_LINE "line"

/* gmon2cg's events: the time, and the basic-block executions. */
#define CALLGRIND_EVENT_NS "ns"
#define CALLGRIND_EVENT_BB "bb"

/* The "desc:" lines the reader takes the sampling rate from: "Sampling
 * rate: N Hz ...", or "Samples: none ..." when there is no histogram. */
#define CALLGRIND_DESC_RATE "Sampling rate: "
#define CALLGRIND_DESC_RATE_UNIT " Hz"
#define CALLGRIND_DESC_NO_SAMPLES "Samples: none"

/* The file of what has no source file, as callgrind writes it. */
#define CALLGRIND_UNKNOWN_FILE "???"
/* The pseudo caller of what nothing in the profile calls. */
#define CALLGRIND_SPONTANEOUS "<spontaneous>"
/* The samples outside every function. */
#define CALLGRIND_NO_SYMBOL "<no symbol>"
/* The self cost of the functions a selection left out. */
#define CALLGRIND_HIDDEN "<hidden>"
/* The pseudo caller of an object's functions from outside it:
 * "<outside NAME>", NAME the object's base name. */
#define CALLGRIND_OUTSIDE_BEFORE "<outside "
#define CALLGRIND_OUTSIDE_AFTER ">"

#endif
