/* ttv-bookmarks.h: user bookmarks on a trace (seed 000, info/bookmarks.xml):
 * load, edit, save atomically, beside a trace directory or inside its archive. */
#pragma once

#include "ttv-time.h"
#include "ttv-trace.h"

G_BEGIN_DECLS

/* How a bookmark's interval was given.  Cycle bookmarks are kept as cycles
 * (converting needs the trace's clock) and written back unchanged. */
typedef enum {
  TTV_BOOKMARK_TIME,            /* time=t              (start == end) */
  TTV_BOOKMARK_INTERVAL,        /* start_time= end_time= */
  TTV_BOOKMARK_CYCLE,           /* cycle=c             (start_cycle == end_cycle) */
  TTV_BOOKMARK_CYCLE_INTERVAL,  /* start_cycle= end_cycle= */
} TtvBookmarkKind;

typedef struct {
  char *name;                   /* owned, may be NULL */
  gint cpu;                     /* -1: none */
  TtvBookmarkKind kind;
  TtvTime start, end;           /* for TIME / INTERVAL */
  guint64 start_cycle, end_cycle;       /* for CYCLE / CYCLE_INTERVAL */
  char *text;                   /* owned, may be NULL: the annotation */
} TtvBookmark;

/* A TIME bookmark when @start == @end, else an INTERVAL one; cpu -1. */
TtvBookmark *ttv_bookmark_new (const char *name, TtvTime start, TtvTime end, const char *text);
TtvBookmark *ttv_bookmark_new_cycles (const char *name, guint64 start_cycle, guint64 end_cycle,
                                      const char *text);
TtvBookmark *ttv_bookmark_copy (const TtvBookmark *bookmark);
void         ttv_bookmark_free (TtvBookmark *bookmark);
gboolean     ttv_bookmark_equal (const TtvBookmark *a, const TtvBookmark *b);

/* An ordered list of bookmarks. */
typedef struct _TtvBookmarks TtvBookmarks;

TtvBookmarks *ttv_bookmarks_new (void);
void          ttv_bookmarks_free (TtvBookmarks *bookmarks);
guint         ttv_bookmarks_get_n (const TtvBookmarks *bookmarks);
/* Borrowed; valid until the list changes. */
const TtvBookmark *ttv_bookmarks_get (const TtvBookmarks *bookmarks, guint index);
/* Takes ownership of @bookmark; returns its index (the end of the list). */
guint         ttv_bookmarks_add (TtvBookmarks *bookmarks, TtvBookmark *bookmark);
gboolean      ttv_bookmarks_remove (TtvBookmarks *bookmarks, guint index);
/* Takes ownership of @bookmark (freed when @index is out of range). */
gboolean      ttv_bookmarks_replace (TtvBookmarks *bookmarks, guint index, TtvBookmark *bookmark);
/* Time bookmarks by (start, end), then cycle bookmarks by cycles; stable. */
void          ttv_bookmarks_sort (TtvBookmarks *bookmarks);
gboolean      ttv_bookmarks_equal (const TtvBookmarks *a, const TtvBookmarks *b);

/* Parses a bookmarks document.  @file_name is for messages.  Malformed XML
 * is TTV_FORMAT_ERROR_SYNTAX, a bad attribute TTV_FORMAT_ERROR_INVALID, both
 * naming the file and line.  Bare attribute values as the seed writes them
 * (cpu=1) are accepted. */
TtvBookmarks *ttv_bookmarks_parse (const char *data, gsize length, const char *file_name,
                                   GError **error);
/* A missing file is an empty list. */
TtvBookmarks *ttv_bookmarks_load (const char *path, GError **error);
/* The seed's format, attribute values quoted; caller frees. */
char         *ttv_bookmarks_to_xml (const TtvBookmarks *bookmarks, gsize *length);
/* Temporary file in the same folder, fsync, rename: never a half-written file. */
gboolean      ttv_bookmarks_save (const TtvBookmarks *bookmarks, const char *path, GError **error);

/* --- Per trace -------------------------------------------------------------
 * LTT traces (and any trace with an info/ folder): <trace>/info/bookmarks.xml.
 * CTF traces: <trace>/.ttv-bookmarks.xml (hidden files are skipped by
 * babeltrace2 and by our CTF reader; see docs/bookmarks.md).
 * A trace opened from an archive: that member of the archive, rewritten with
 * ttv_archive_replace_member.  A read-only trace: an error; the caller may
 * offer ttv_bookmarks_dup_fallback_path instead. */

/* The member path relative to the trace directory ("info/bookmarks.xml"). */
const char   *ttv_bookmarks_get_member_path (const TtvTrace *trace);
/* Whether ttv_bookmarks_save_for_trace can write where the bookmarks belong. */
gboolean      ttv_bookmarks_trace_is_writable (const TtvTrace *trace);
/* Reads the trace's bookmarks; when it has none, those saved at the
 * fallback path, if any. */
TtvBookmarks *ttv_bookmarks_load_for_trace (const TtvTrace *trace, GError **error);
gboolean      ttv_bookmarks_save_for_trace (const TtvBookmarks *bookmarks, const TtvTrace *trace,
                                            GError **error);
/* g_get_user_data_dir()/ttv/bookmarks/<name>-<hash of the trace path>.xml */
char         *ttv_bookmarks_dup_fallback_path (const TtvTrace *trace);

G_DEFINE_AUTOPTR_CLEANUP_FUNC (TtvBookmark, ttv_bookmark_free)
G_DEFINE_AUTOPTR_CLEANUP_FUNC (TtvBookmarks, ttv_bookmarks_free)

G_END_DECLS
