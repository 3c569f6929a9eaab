/* ttv-analysis-private.h: how an analysis's result is laid out, the same
 * in memory and in its cache file: shared by the table builder and reader
 * (ttv-analysis-table.c), the summaries (ttv-analysis-summary.c), the file
 * (ttv-analysis-file.c), the run (ttv-analysis.c) and the tests.
 *
 * A table is a sequence of records plus, per series key, a sequence of
 * entries (start, end, record index).  A sequence's entries are written in
 * blocks of TTV_ANALYSIS_BLOCK as they come; each block has an index entry
 * (where, how many, its least and greatest start and end, the durations
 * before it); the index entries go out in chunks of TTV_ANALYSIS_CHUNK, and
 * only a chunk's summary stays in memory (one per 4096 entries).  A query
 * walks a tree of the chunks' bounds, then reads the chunks and blocks it
 * needs: two small reads per place, whatever the table's size. */
#pragma once

#include "ttv-busy-clock.h"
#include "ttv-analysis.h"
#include "ttv-history-private.h"

G_BEGIN_DECLS

#define TTV_ANALYSIS_BLOCK 64
#define TTV_ANALYSIS_CHUNK 64

/* Index entry of a block (and, in memory, summary of a chunk). */
typedef struct {
  guint64 offset;          /* of the block's entries (of the chunk's block entries) */
  guint32 n;               /* entries (blocks) */
  guint32 pad;
  gint64 min_start, max_start;
  gint64 min_end, max_end;
  gint64 cum;              /* sum of the durations of the sequence's entries before it */
} TtvAnalysisBlock;

/* Where a sequence is. */
typedef struct {
  guint64 n_entries;
  guint64 n_blocks;
  guint64 n_chunks;
  guint64 chunks_offset;   /* TtvAnalysisBlock[n_chunks], each a chunk's summary */
  gint64 total;            /* sum of its entries' durations */
} TtvAnalysisSeqHeader;

/* An entry of a series' sequence. */
typedef struct {
  gint64 start, end;
  guint64 index;           /* of the record in the main sequence */
} TtvAnalysisSeriesEntry;

typedef struct {
  guint32 key;
  guint32 pad;
  TtvAnalysisSeqHeader seq;
} TtvAnalysisSeriesKey;

/* One level of scatter summary: bins of 1 << shift ns from the origin, a
 * TtvScatterColumn each (its count saturated to the bins' needs). */
typedef struct {
  guint64 offset;
  guint64 n_bins;
  guint32 shift;
  guint32 pad;
} TtvAnalysisLevel;

#define TTV_ANALYSIS_MAX_LEVELS 12

/* Per-group statistics as stored. */
typedef struct {
  gint64 key;
  guint64 count;
  gint64 total, min, max, p50, p90, p99;
  double mean, stddev;
} TtvAnalysisStats;

typedef struct {
  guint32 name;            /* string index */
  guint32 record_size;
  guint32 n_series;
  guint32 n_levels;
  TtvAnalysisSeqHeader main;
  guint64 series_offset[TTV_ANALYSIS_MAX_SERIES];  /* TtvAnalysisSeriesKey[n_keys] */
  guint64 n_keys[TTV_ANALYSIS_MAX_SERIES];
  /* Duration histogram by start time: bins of 1 << hist_shift ns from
   * the origin; bin i's cells are cells[bin_first[i] .. bin_first[i + 1]). */
  gint64 origin;
  guint32 hist_shift;
  guint32 hist_bins;
  guint64 bin_first_offset;  /* guint32[hist_bins + 1] */
  guint64 cells_offset;      /* guint32 pairs (bucket, count) */
  guint64 n_cells;
  guint64 levels_offset;     /* TtvAnalysisLevel[n_levels] */
  guint64 stats_offset;      /* TtvAnalysisStats[n_groups + 1], "all" first */
  guint64 n_groups;
} TtvAnalysisTableHeader;

#define TTV_ANALYSIS_MAGIC "TTVANAL"
#define TTV_ANALYSIS_VERSION 1u
#define TTV_ANALYSIS_BOM 0x01020304u

typedef struct {
  char magic[8];
  guint32 version;
  guint32 bom;
  guint64 file_size;
  guint64 checksum;        /* of bytes [sizeof header, file_size) */
  guint64 fingerprint_offset;
  guint64 fingerprint_size;
  guint64 strings_offset;  /* NUL-terminated strings, back to back */
  guint64 strings_size;
  guint64 string_index_offset; /* guint64 offsets into the strings */
  guint64 n_strings;
  guint64 tables_offset;   /* TtvAnalysisTableHeader[n_tables] */
  guint64 n_tables;
  guint64 values_offset;   /* (guint64 string index, gint64 value) pairs */
  guint64 n_values;
  guint64 n_events;
  gint64 start;
  gint64 end;
} TtvAnalysisHeader;

/* --- Reading ---------------------------------------------------------------- */

/* Where a result's bytes are: a heap blob or a file read with pread. */
typedef struct {
  const guint8 *data;      /* weak, or NULL */
  int fd;
  guint64 size;
  const char *what;        /* weak: the file's name for errors, or "analysis results" */
} TtvAnalysisSource;

/* @len bytes at @offset, in the blob or read into @buf; NULL when they
 * do not fit or cannot be read. */
const guint8 *ttv_analysis_source_get (const TtvAnalysisSource *src, guint64 offset, gsize len, guint8 *buf);

/* A sequence as queries see it: its header and chunk summaries (in
 * memory), and a tree of the chunks' bounds. */
typedef struct {
  TtvAnalysisSeqHeader h;
  gsize entry_size;
  TtvAnalysisBlock *chunks;    /* owned, h.n_chunks */
  /* Implicit tree over the chunks (leaves from @tree_base): least start,
   * greatest start and greatest end below each node. */
  gint64 *tree_min_start, *tree_max_start, *tree_max_end;   /* owned, 2 * tree_base */
  guint64 tree_base;
} TtvAnalysisSeq;

typedef struct {
  guint32 key;
  TtvAnalysisSeq seq;
} TtvAnalysisSeries;

struct _TtvAnalysisTable {
  const TtvAnalysis *result;   /* weak: the owner */
  const TtvAnalysisTableSpec *spec;  /* weak: static */
  TtvAnalysisTableHeader h;
  TtvAnalysisSeq main;
  TtvAnalysisSeries *series[TTV_ANALYSIS_MAX_SERIES];  /* owned, n_keys each, by key */
  guint32 *bin_first;                /* owned, hist_bins + 1 */
  guint32 *cells;                    /* owned, 2 * n_cells */
  TtvAnalysisLevel *levels;          /* owned, n_levels */
  TtvAnalysisStats *stats;           /* owned, n_groups + 1 */
  TtvBusyClock clock;                /* what the histogram's and scatter levels' bins measure */
};

struct _TtvAnalysis {
  gint ref_count;
  const TtvAnalysisClass *cls;     /* weak: static */
  gpointer data;                     /* owned through cls->free: an analysis without tables */
  TtvAnalysisSource src;
  guint8 *heap;                      /* owned blob, or NULL */
  TtvAnalysisHeader header;
  guint8 *strings_blob;              /* owned: the strings read from a file, or NULL */
  const char **strings;              /* owned array, n_strings */
  GHashTable *values;                /* char * (in strings) -> gint64 *, owned */
  TtvAnalysisTable *tables;          /* owned, n_tables */
  guint n_tables;
  gboolean from_cache;
  char *cache_path;
  gsize memory;
};

/* An analysis without tables: @cls's @data (taken). */
TtvAnalysis *ttv_analysis_new_data (const TtvAnalysisClass *cls, gpointer data);
/* Reads and checks the tables in @r->src (header, bounds, every index;
 * @fingerprint: the trace it must describe, NULL: not compared). */
gboolean ttv_analysis_open_tables (TtvAnalysis *r, const char *what, const char *fingerprint,
                                   GError **error);
/* The generic report of an analysis with tables (ttv-analysis-print.c). */
gboolean ttv_analysis_print (const TtvAnalysis *analysis, TtvAnalysisFormat format,
                             const TtvAnalysisOptions *options, GString *out, GError **error);

/* Loads and checks a result file (@fingerprint NULL: not compared). */
TtvAnalysis *ttv_analysis_load_file (const char *path, const char *fingerprint,
                                                  const TtvAnalysisClass *cls, GError **error);
/* An analysis with tables of @cls over @src (taken), not yet opened. */
TtvAnalysis *ttv_analysis_new_tables (const TtvAnalysisClass *cls, const TtvAnalysisSource *src,
                                            guint8 *heap);

/* Loads sequence @h (its chunk summaries) and builds its tree; through
 * @ahead (its buffer the caller's, or NULL) when many are loaded in file
 * order, one read for the summaries of dozens of sequences. */
gboolean ttv_analysis_seq_load (TtvAnalysisSeq *seq, const TtvAnalysisSource *src,
                                const TtvAnalysisSeqHeader *h, gsize entry_size, TtvHistoryReadWindow *ahead);
void     ttv_analysis_seq_clear (TtvAnalysisSeq *seq);

/* --- Building ---------------------------------------------------------------- */

/* A sequence being written: blocks go out as they fill, block entries in
 * chunks, chunk summaries stay. */
typedef struct {
  gsize entry_size;
  /* Where its arrays come from (weak), or NULL for malloc: a table's
   * series take theirs from one slab, thousands of small arrays that
   * grow, freed together (ttv_table_builder_new). */
  TtvHistorySlab *slab;
  guint8 *pending;         /* owned unless from the slab: the entries of the block being filled */
  guint n_pending;
  guint pending_cap;
  TtvAnalysisBlock block;  /* bounds of the pending entries */
  TtvAnalysisBlock *blocks; /* owned unless from the slab: index entries of the chunk being filled */
  guint n_blocks;
  guint blocks_cap;
  TtvAnalysisBlock chunk;  /* bounds of the chunk being filled */
  GArray *chunks;          /* of TtvAnalysisBlock, owned */
  guint64 n_entries, n_blocks_total;
  gint64 total;
} TtvAnalysisSeqWriter;

/* @slab: where its arrays come from, or NULL (see TtvAnalysisSeqWriter). */
void     ttv_analysis_seq_writer_init (TtvAnalysisSeqWriter *s, gsize entry_size, TtvHistorySlab *slab);
void     ttv_analysis_seq_writer_clear (TtvAnalysisSeqWriter *s);
void     ttv_analysis_seq_writer_add (TtvAnalysisSeqWriter *s, TtvHistoryWriter *w, const void *entry);
/* Writes what is pending and the chunk summaries; fills @h. */
void     ttv_analysis_seq_writer_finish (TtvAnalysisSeqWriter *s, TtvHistoryWriter *w, TtvAnalysisSeqHeader *h);
gsize    ttv_analysis_seq_writer_memory (const TtvAnalysisSeqWriter *s);

typedef struct _TtvAnalysisStatsAcc TtvAnalysisStatsAcc;

struct _TtvTableBuilder {
  TtvAnalysisBuilder *owner;         /* weak */
  const TtvAnalysisTableSpec *spec;  /* weak: static */
  TtvAnalysisSeqWriter main;
  GHashTable *series[TTV_ANALYSIS_MAX_SERIES];   /* key -> TtvAnalysisSeqWriter *, owned */
  guint32 last_key[TTV_ANALYSIS_MAX_SERIES];      /* the series of the last record, */
  TtvAnalysisSeqWriter *last_series[TTV_ANALYSIS_MAX_SERIES];   /* and its writer (weak), or NULL */
  /* The series' writers and arrays, and the histogram's bins: one per
   * thread, CPU or bin, thousands of small blocks, all kept until the
   * table is written. */
  TtvHistorySlab slab;
  /* Duration histogram by start time (summaries): per bin, counts per
   * bucket, allocated when a record first falls in the bin.  Bins are of
   * busy time: the long idle gaps between far-apart traces left out. */
  const TtvBusyClock *clock;         /* weak: the owner's */
  guint32 hist_shift;
  guint32 hist_bins;
  guint32 **hist;                    /* owned, hist_bins, each NULL or in slab */
  TtvAnalysisStatsAcc *stats;        /* owned: the statistics' first read (a group column or
                                      * summaries), or NULL */
};

/* Writes @t's table (its pending blocks, series, summaries, statistics);
 * @src reads back what @w wrote. */
gboolean ttv_table_builder_finish (TtvTableBuilder *t, TtvHistoryWriter *w, TtvAnalysisTableHeader *h,
                                   guint32 name, GCancellable *cancel, GError **error);
void     ttv_table_builder_free (TtvTableBuilder *t);
TtvTableBuilder *ttv_table_builder_new (TtvAnalysisBuilder *owner, const TtvAnalysisTableSpec *spec,
                                        const TtvBusyClock *clock);
/* The bin of @start among @n_bins bins of 2^@shift busy nanoseconds of
 * @clock: the first and last bins take what lies before and after. */
static inline guint32
ttv_analysis_busy_bin (const TtvBusyClock *clock, guint32 shift, guint64 n_bins, gint64 start)
{
  guint64 b = ttv_busy_clock_offset (clock, start) >> shift;
  return b < n_bins ? (guint32) b : (guint32) (n_bins - 1);
}
gsize    ttv_table_builder_memory (const TtvTableBuilder *t);

/* A builder for @cls's tables over @ts, written to its cache file
 * unless options say no (then memory, a temporary file beyond). */
TtvAnalysisBuilder *ttv_analysis_builder_new (TtvTraceset *ts, const TtvAnalysisClass *cls,
                                              const TtvAnalysisOptions *options, TtvState *state, GError **error);
void     ttv_analysis_builder_free (TtvAnalysisBuilder *builder);
void     ttv_analysis_builder_set_n_events (TtvAnalysisBuilder *builder, guint64 n);
void     ttv_analysis_builder_set_state (TtvAnalysisBuilder *builder, TtvState *state);
/* After the last event: the tables, strings, values and header. */
gboolean ttv_analysis_builder_write_tail (TtvAnalysisBuilder *builder, GCancellable *cancel, GError **error);
/* The analysis the builder wrote, committed to the cache when it has a path. */
TtvAnalysis *ttv_analysis_builder_open (TtvAnalysisBuilder *builder, const TtvAnalysisOptions *options,
                                        GError **error);
/* What a cache file of @cls must match: the trace and the class's version. */
char    *ttv_analysis_fingerprint (TtvTraceset *ts, const TtvAnalysisClass *cls);
/* A cache file just reused: marked used, the cache's cap applied. */
void     ttv_analysis_cache_reused (const char *path, const TtvAnalysisOptions *options);

/* Sorts records by start, then end, then their bytes. */
void     ttv_analysis_records_sort (GArray *records, gsize record_size);
/* Where the builder's tables write. */
TtvHistoryWriter *ttv_analysis_builder_get_writer (TtvAnalysisBuilder *builder);

/* The bytes @w wrote so far, to read back (flushes it). */
void     ttv_analysis_writer_source (TtvHistoryWriter *w, TtvAnalysisSource *src);

/* --- Summaries (ttv-analysis-summary.c) ----------------------------------------- */

/* Plans and writes the scatter levels of @t's main sequence (read from
 * @src), the duration histogram and the whole table's statistics. */
gboolean ttv_analysis_summaries_write (TtvTableBuilder *t, TtvHistoryWriter *w, const TtvAnalysisSource *src,
                                       const TtvAnalysisSeqHeader *main, TtvAnalysisTableHeader *h,
                                       GCancellable *cancel, GError **error);
/* The statistics' first read of a table's records (every one, in order),
 * taken as they are pushed rather than read back from the file; @bucket is
 * the record's duration's (ttv_duration_bucket). */
TtvAnalysisStatsAcc *ttv_analysis_stats_acc_new (const TtvAnalysisTableSpec *spec);
void     ttv_analysis_stats_acc_add (TtvAnalysisStatsAcc *a, const void *record, guint bucket);
void     ttv_analysis_stats_acc_free (TtvAnalysisStatsAcc *a);
gsize    ttv_analysis_stats_acc_memory (const TtvAnalysisStatsAcc *a);
/* Statistics of the records of @seq starting in [t0, t1] whose column
 * @only (may be NULL: every record) holds @only_value, grouped by the
 * spec's group column. */
typedef gboolean (*TtvRecordSelect) (const void *record, gpointer data);
GArray  *ttv_analysis_stats_compute (const TtvAnalysisTableSpec *spec, const TtvAnalysisSource *src,
                                     const TtvAnalysisSeq *seq, TtvTime t0, TtvTime t1,
                                     const TtvAnalysisColumn *only, gint64 only_value,
                                     TtvAnalysisStats *all, GCancellable *cancel, GError **error);

/* The entries of a sequence, for the table's queries and the summaries. */
typedef gboolean (*TtvEntryFunc) (const void *entry, guint64 index, gpointer data);
/* Calls @func for every entry of @seq in blocks whose bounds may hold an
 * entry selected by @mode over [t0, t1] (the caller checks each). */
gboolean ttv_analysis_seq_scan (const TtvAnalysisSeq *seq, const TtvAnalysisSource *src, TtvQueryMode mode,
                                TtvTime t0, TtvTime t1, TtvEntryFunc func, gpointer data, GError **error);

/* The entry of @seq that overlaps [t0, t1] and sorts last by (start, end)
 * (of equal ones, the one stored last), into @buf; *found FALSE when
 * there is none.  Exact whatever the entries' order; two reads when they
 * are stored in time order (a series'). */
gboolean ttv_analysis_seq_find_last (const TtvAnalysisSeq *seq, const TtvAnalysisSource *src, TtvTime t0,
                                     TtvTime t1, void *buf, gboolean *found, GError **error);

/* The same, skipping the blocks that cannot hold an entry lasting
 * @min_duration or more (the longest records: a block of short calls
 * spans little time). */
gboolean ttv_analysis_seq_scan_lasting (const TtvAnalysisSeq *seq, const TtvAnalysisSource *src,
                                        TtvQueryMode mode, TtvTime t0, TtvTime t1, TtvTime min_duration,
                                        TtvEntryFunc func, gpointer data, GError **error);

/* The error of a result whose bytes at @offset cannot be read or make no sense. */
void     ttv_analysis_set_read_error (GError **error, const TtvAnalysisSource *src, guint64 offset);

/* Record @index of @seq (a table's main sequence) into @buf. */
gboolean ttv_analysis_seq_read_entry (const TtvAnalysisSeq *seq, const TtvAnalysisSource *src, guint64 index,
                                      void *buf, GError **error);

G_END_DECLS
