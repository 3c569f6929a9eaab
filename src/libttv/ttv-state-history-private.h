/* ttv-state-history-private.h: the compact representation of a state
 * history, the same in memory and in its cache file, shared by the builder
 * (ttv-state-history.c), the summary (-summary.c) and the cache (-cache.c). */
#pragma once

#include "ttv-state-history.h"

#include <stdio.h>

G_BEGIN_DECLS

/* One interval start: 16 bytes.  @state: visual state in bits 0-7, CPU + 1
 * (process rows, 0 unknown) in bits 8-19, events in the interval in bits
 * 20-31 (an interval with more events is split into records of equal
 * state).  @aux: see TtvHistoryInterval (syscalls: a string index). */
typedef struct {
  gint64 start;
  guint32 state;
  guint32 aux;
} TtvHistRec;

#define TTV_HIST_REC_KEY(state) ((guint16) ((state) & 0xffu))
#define TTV_HIST_REC_CPU(state) ((gint) (((state) >> 8) & 0xfffu) - 1)
#define TTV_HIST_REC_COUNT(state) ((state) >> 20)
#define TTV_HIST_REC_MAX_COUNT 0xfffu
#define TTV_HIST_REC_NOCOUNT(state) ((state) & 0xfffffu)

typedef struct {
  gint64 time;
  guint32 kind;            /* TtvHistoryMarkKind */
  guint32 other;           /* pid; exec: string index of the name */
} TtvHistMark;

/* A summary bin: dominant visual state, the fraction of the bin it covers
 * (0..65535) and the row's events starting in the bin. */
typedef struct {
  guint16 key;
  guint16 cover;
  guint32 n_events;
} TtvHistBin;

#define TTV_HIST_MAX_LEVELS 12
#define TTV_HIST_LEVEL_STEP 4     /* each level's bins are 16 times wider */
#define TTV_HIST_NO_STRING G_MAXUINT32

typedef struct {
  guint32 kind;
  guint32 id;
  gint32 cpu;
  guint32 tgid;
  guint32 ppid;
  guint32 name;            /* string index or TTV_HIST_NO_STRING */
  gint64 birth;
  gint64 end;
  gint64 cpu_time;
  guint64 n_events;
  guint32 dead;
  guint32 n_levels;
  guint64 recs_offset;     /* file offsets (8-aligned) */
  guint64 n_recs;
  guint64 marks_offset;
  guint64 n_marks;
  guint32 level_shift[TTV_HIST_MAX_LEVELS];
  guint64 level_first_bin[TTV_HIST_MAX_LEVELS];  /* number of the first bin: (t - origin) >> shift */
  guint64 level_offset[TTV_HIST_MAX_LEVELS];
  guint64 level_n_bins[TTV_HIST_MAX_LEVELS];
} TtvHistRow;

#define TTV_HIST_MAGIC "TTVHIST"
#define TTV_HIST_VERSION 1u
#define TTV_HIST_BOM 0x01020304u

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
  guint64 string_index_offset; /* guint64 offsets into strings */
  guint64 n_strings;
  guint64 rows_offset;
  guint64 n_rows;
  guint64 n_events;
  gint64 origin;
  gint64 start;
  gint64 end;
  guint32 n_rows_by_kind[TTV_HISTORY_ROW_N_KINDS];
  guint32 pad;
} TtvHistHeader;

struct _TtvStateHistory {
  /* The representation: a heap blob or a mapped cache file. */
  const guint8 *data;
  gsize size;
  guint8 *heap;            /* owned, or NULL */
  GMappedFile *mapped;     /* owned, or NULL */
  const TtvHistHeader *header;
  const TtvHistRow *rows;
  guint row_base[TTV_HISTORY_ROW_N_KINDS + 1];
  /* Decoded for the API. */
  TtvHistoryRowInfo *infos;   /* owned, n_rows */
  GQuark *quarks;             /* owned: string index -> quark */
  const char **strings;       /* owned array, strings in the data */
  guint64 n_strings;
  gboolean from_cache;
  char *cache_path;
};

/* The writer of the representation, to memory or to a file. */
typedef struct {
  GByteArray *bytes;       /* memory, or NULL */
  FILE *file;              /* or a file */
  guint64 offset;
  guint64 hash;
  gboolean failed;
} TtvHistWriter;

void     ttv_hist_writer_put (TtvHistWriter *w, const void *data, gsize size);
void     ttv_hist_writer_align (TtvHistWriter *w);
guint64  ttv_hist_hash (guint64 hash, const guint8 *data, gsize size);

/* Builds the levels of a row from its records [recs, recs + n) ending at
 * @end and writes them; fills the level fields of @row. */
void     ttv_hist_summary_write (TtvHistWriter *w, TtvHistRow *row, const TtvHistRec *recs,
                                 guint64 n, gint64 origin, gint64 end);

/* ttv_state_history_query_pixels, also telling whether it read the
 * intervals themselves (@exact) rather than summary bins. */
guint64  ttv_hist_query_pixels_full (const TtvStateHistory *h, TtvHistoryRowKind kind, guint row,
                                     TtvTime t0, TtvTime t1, guint width, TtvHistoryPixel *out,
                                     gboolean *exact);

/* Checks a representation (header, bounds, strings) and decodes it into
 * @h; FALSE when it cannot be trusted.  @fingerprint: must match if not NULL. */
gboolean ttv_hist_open_data (TtvStateHistory *h, const char *fingerprint, GError **error);

/* The cache: file name for a traceset, its fingerprint (paths, sizes,
 * mtimes, formats), loading. */
char    *ttv_hist_cache_path (TtvTraceset *ts, const TtvStateHistoryOptions *opt);
char    *ttv_hist_fingerprint (TtvTraceset *ts);
TtvStateHistory *ttv_hist_cache_load (const char *path, const char *fingerprint);

G_END_DECLS
