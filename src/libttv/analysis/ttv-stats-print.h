/* ttv-stats-print.h: what the viewer's passes compute, printed for
 * ttv-report: the statistics tree of the viewer's statistics view
 * (--stats) and the density of its histogram (--density), as aligned text,
 * JSON lines or CSV.  docs/ttv-report.1 says what each prints. */
#pragma once

#include "ttv-analysis.h"
#include "ttv-indexer.h"
#include "ttv-stats-tree.h"

G_BEGIN_DECLS

/* The formats these print: text, JSON lines and CSV (not folded stacks). */
#define TTV_STATS_PRINT_FORMATS (TTV_ANALYSIS_FORMAT_BIT (TTV_ANALYSIS_FORMAT_TEXT)    \
                                 | TTV_ANALYSIS_FORMAT_BIT (TTV_ANALYSIS_FORMAT_JSONL) \
                                 | TTV_ANALYSIS_FORMAT_BIT (TTV_ANALYSIS_FORMAT_CSV))

/* Every node of the tree under @root, @root first, depth first: text (an
 * indented name and the view's columns: count, total, average, min, max,
 * durations in seconds to the nanosecond), a JSON object a line, or the
 * CSV the statistics view exports (key,name,count,total_s,min_s,max_s,
 * average_s). */
void ttv_stats_tree_append (const TtvStatsNode *root, TtvAnalysisFormat format, GString *out);

/* The bins of @density, one a line: their start and end times and their
 * events, and with @by_type the events of each event type (text: the
 * types a bin has, JSON: an object of them, CSV: a column per type). */
void ttv_density_append (const TtvIndexResult *density, gboolean by_type, TtvAnalysisFormat format,
                         GString *out);

G_END_DECLS
