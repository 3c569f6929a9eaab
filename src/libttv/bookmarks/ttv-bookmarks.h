/* ttv-bookmarks.h: user bookmarks on a trace (seed 000, info/bookmarks.xml):
 * load, edit, save atomically, beside a trace directory or inside its archive. */
#pragma once

#include "ttv-archive.h"
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
/* The manual offset of the trace's clock (docs/multi-machine.md), kept in
 * the same file as an element <clock offset="+0.250000000"/> (seconds, to
 * the nanosecond, at most 10^6 s either way): TRUE and *@offset_ns when
 * the list has one. */
gboolean      ttv_bookmarks_get_clock_offset (const TtvBookmarks *bookmarks, gint64 *offset_ns);
/* Sets it (@set FALSE: removes it); the next save writes it. */
void          ttv_bookmarks_set_clock_offset (TtvBookmarks *bookmarks, gboolean set, gint64 offset_ns);
/* The clock offset saved with @trace's bookmarks (where
 * ttv_bookmarks_find_for_trace finds them): TRUE and *@offset_ns; FALSE
 * when none is saved, or with @error when the file cannot be read. */
gboolean      ttv_bookmarks_load_clock_offset (const TtvTrace *trace, gint64 *offset_ns, GError **error);
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

/* Like ttv_bookmarks_to_xml, but keeps everything of @old (the document
 * the bookmarks were read from, @old_length bytes; may be NULL) that is not
 * a <location> element: comments, unknown elements and attributes, the
 * declaration, the layout.  A <location> of @old that is still in @bookmarks
 * is kept as it was written; the others are removed; new ones follow the
 * last location kept.  When @old does not parse as a bookmarks document,
 * the plain ttv_bookmarks_to_xml output. */
char         *ttv_bookmarks_to_xml_merged (const TtvBookmarks *bookmarks, const char *old,
                                           gsize old_length, gsize *length);

/* --- Per trace -------------------------------------------------------------
 * Where a trace's bookmarks live (see docs/bookmarks.md):
 * IN_TRACE: LTT traces (and any trace with an info/ folder):
 *   <trace>/info/bookmarks.xml; CTF traces: <trace>/.ttv-bookmarks.xml
 *   (hidden files are skipped by babeltrace2 and by our CTF reader).  A
 *   trace opened from an archive: that member of the archive, rewritten
 *   with ttv_archive_replace_member.
 * BESIDE_TRACE: a copy beside a read-only trace, in the folder that holds
 *   it: <folder>/<trace or archive name>.ttv-bookmarks.xml.
 * USER_DIR: g_get_user_data_dir()/ttv/bookmarks/<name>-<hash of the path>.xml. */
typedef enum {
  TTV_BOOKMARKS_IN_TRACE,
  TTV_BOOKMARKS_BESIDE_TRACE,
  TTV_BOOKMARKS_USER_DIR,
} TtvBookmarksPlace;

/* The member path relative to the trace directory ("info/bookmarks.xml"). */
const char   *ttv_bookmarks_get_member_path (const TtvTrace *trace);
/* The file at @place (IN_TRACE for an archive: the extracted copy). */
char         *ttv_bookmarks_dup_path (const TtvTrace *trace, TtvBookmarksPlace place);
/* Whether ttv_bookmarks_save_for_trace_full can write at @place. */
gboolean      ttv_bookmarks_place_is_writable (const TtvTrace *trace, TtvBookmarksPlace place);
/* Whether the bookmarks can be saved where they belong (IN_TRACE). */
gboolean      ttv_bookmarks_trace_is_writable (const TtvTrace *trace);
/* The first place, in the order IN_TRACE, BESIDE_TRACE, USER_DIR, that has
 * a bookmarks file: TRUE and *@place; FALSE when none has. */
gboolean      ttv_bookmarks_find_for_trace (const TtvTrace *trace, TtvBookmarksPlace *place);
/* Reads the bookmarks of the place ttv_bookmarks_find_for_trace finds (an
 * empty list when none). */
TtvBookmarks *ttv_bookmarks_load_for_trace (const TtvTrace *trace, GError **error);
/* Saves where the bookmarks belong (IN_TRACE); a read-only trace is an
 * error that names the USER_DIR file. */
gboolean      ttv_bookmarks_save_for_trace (const TtvBookmarks *bookmarks, const TtvTrace *trace,
                                            GError **error);
/* Saves at @place, atomically, keeping what the file there already holds
 * besides its locations (ttv_bookmarks_to_xml_merged).  Rewriting an
 * archive (IN_TRACE) can take seconds: it stops with G_IO_ERROR_CANCELLED
 * when @cancellable is cancelled (the archive untouched), and reports
 * progress through @progress (may be NULL), in the calling thread. */
gboolean      ttv_bookmarks_save_for_trace_full (const TtvBookmarks *bookmarks,
                                                 const TtvTrace *trace, TtvBookmarksPlace place,
                                                 GCancellable *cancellable,
                                                 TtvArchiveProgressFunc progress,
                                                 gpointer progress_data, GError **error);
/* ttv_bookmarks_dup_path (trace, TTV_BOOKMARKS_USER_DIR). */
char         *ttv_bookmarks_dup_fallback_path (const TtvTrace *trace);

G_DEFINE_AUTOPTR_CLEANUP_FUNC (TtvBookmark, ttv_bookmark_free)
G_DEFINE_AUTOPTR_CLEANUP_FUNC (TtvBookmarks, ttv_bookmarks_free)

G_END_DECLS
