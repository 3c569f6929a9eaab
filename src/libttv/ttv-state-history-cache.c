/* ttv-state-history-cache.c: the state history's cache file in the user's
 * cache directory: which file describes a traceset, what it must match
 * (paths, sizes, mtimes of every file, formats), and checked loading. */
#include "ttv-state-history-private.h"
#include "ttv-error.h"

#include <glib/gi18n-lib.h>
#include <glib/gstdio.h>
#include <inttypes.h>
#include <string.h>

#define MAX_WALK_DEPTH 8
#define MAX_WALK_FILES 200000

char *
ttv_hist_cache_path (TtvTraceset *ts, const TtvStateHistoryOptions *opt)
{
  g_autoptr (GChecksum) sum = g_checksum_new (G_CHECKSUM_SHA256);
  for (guint i = 0; i < ttv_traceset_get_n_traces (ts); i++)
    {
      const TtvTrace *t = ttv_traceset_get_trace (ts, i);
      const char *p = t->display_path ? t->display_path : t->path;
      g_autofree char *abs = p ? g_canonicalize_filename (p, NULL) : g_strdup ("-");
      g_checksum_update (sum, (const guchar *) abs, (gssize) strlen (abs) + 1);
    }
  g_autofree char *name = g_strconcat (g_checksum_get_string (sum), ".hist", NULL);
  if (opt && opt->cache_dir)
    return g_build_filename (opt->cache_dir, name, NULL);
  return g_build_filename (g_get_user_cache_dir (), "ttv", "history", name, NULL);
}

static gint
compare_strings (gconstpointer a, gconstpointer b)
{
  return strcmp (*(char * const *) a, *(char * const *) b);
}

/* Every file under @dir (sorted, recursive): relative name, size, mtime. */
static void
walk (GString *out, const char *root, const char *rel, guint depth, guint *n_files)
{
  if (depth > MAX_WALK_DEPTH || *n_files > MAX_WALK_FILES)
    return;
  g_autofree char *dir_path = rel ? g_build_filename (root, rel, NULL) : g_strdup (root);
  g_autoptr (GDir) dir = g_dir_open (dir_path, 0, NULL);
  if (dir == NULL)
    return;
  g_autoptr (GPtrArray) names = g_ptr_array_new_with_free_func (g_free);
  const char *name;
  while ((name = g_dir_read_name (dir)))
    g_ptr_array_add (names, g_strdup (name));
  g_ptr_array_sort (names, compare_strings);
  for (guint i = 0; i < names->len; i++)
    {
      name = g_ptr_array_index (names, i);
      /* The trace's info/ folder holds analysis results, not the trace. */
      if (rel == NULL && g_str_equal (name, "info"))
        continue;
      g_autofree char *child_rel = rel ? g_build_filename (rel, name, NULL) : g_strdup (name);
      g_autofree char *child = g_build_filename (root, child_rel, NULL);
      GStatBuf st;
      if (g_lstat (child, &st) != 0)
        continue;
      if (S_ISDIR (st.st_mode))
        walk (out, root, child_rel, depth + 1, n_files);
      else if (S_ISREG (st.st_mode))
        {
          (*n_files)++;
          g_string_append_printf (out, "file %s %" G_GUINT64_FORMAT " %" G_GINT64_FORMAT ".%09ld\n",
                                  child_rel, (guint64) st.st_size, (gint64) st.st_mtim.tv_sec,
                                  (long) st.st_mtim.tv_nsec);
        }
    }
}

char *
ttv_hist_fingerprint (TtvTraceset *ts)
{
  GString *out = g_string_new ("ttv-state-history 1\n");
  for (guint i = 0; i < ttv_traceset_get_n_traces (ts); i++)
    {
      const TtvTrace *t = ttv_traceset_get_trace (ts, i);
      g_string_append_printf (out, "trace %s %s %s\n", t->format ? t->format->name : "-",
                              t->display_path ? t->display_path : "-", t->path ? t->path : "-");
      GStatBuf st;
      if (t->display_path && g_stat (t->display_path, &st) == 0 && S_ISREG (st.st_mode))
        g_string_append_printf (out, "archive %" G_GUINT64_FORMAT " %" G_GINT64_FORMAT ".%09ld\n",
                                (guint64) st.st_size, (gint64) st.st_mtim.tv_sec, (long) st.st_mtim.tv_nsec);
      for (guint k = 0; k < t->tracefiles->len; k++)
        {
          const TtvTracefile *tf = g_ptr_array_index (t->tracefiles, k);
          g_string_append_printf (out, "tracefile %s %d %" G_GUINT64_FORMAT " %" G_GUINT64_FORMAT
                                  " %" G_GINT64_FORMAT " %" G_GINT64_FORMAT "\n",
                                  tf->name, tf->cpu, tf->size, tf->n_blocks, tf->start, tf->end);
        }
      guint n_files = 0;
      if (t->path && g_file_test (t->path, G_FILE_TEST_IS_DIR))
        walk (out, t->path, NULL, 0, &n_files);
    }
  return g_string_free (out, FALSE);
}

static gboolean
fits (gsize size, guint64 offset, guint64 count, gsize elem)
{
  return offset <= size && offset % 8 == 0 && count <= (size - offset) / elem;
}

#define BAD(...) \
  G_STMT_START { \
    g_set_error (error, TTV_FORMAT_ERROR, TTV_FORMAT_ERROR_CORRUPT, __VA_ARGS__); \
    return FALSE; \
  } G_STMT_END

gboolean
ttv_hist_open_data (TtvStateHistory *h, const char *fingerprint, GError **error)
{
  const char *what = h->cache_path ? h->cache_path : "state history";
  if (h->size < sizeof (TtvHistHeader))
    BAD (_("%s: truncated at byte %zu (no header)"), what, h->size);
  const TtvHistHeader *hd = (const TtvHistHeader *) h->data;
  if (memcmp (hd->magic, TTV_HIST_MAGIC, sizeof hd->magic) != 0 || hd->version != TTV_HIST_VERSION
      || hd->bom != TTV_HIST_BOM)
    BAD (_("%s: not a state history of this version (byte 0)"), what);
  if (hd->file_size != h->size)
    BAD (_("%s: %zu bytes where the header says %" PRIu64), what, h->size,
         hd->file_size);
  if (h->mapped
      && ttv_hist_hash (TTV_HIST_HASH_SEED, h->data + sizeof *hd, h->size - sizeof *hd)
         != hd->checksum)
    BAD (_("%s: checksum mismatch (damaged file)"), what);
  if (!fits (h->size, hd->fingerprint_offset, hd->fingerprint_size, 1) || hd->fingerprint_size == 0
      || h->data[hd->fingerprint_offset + hd->fingerprint_size - 1] != '\0')
    BAD (_("%s: bad trace description at byte %" PRIu64), what, hd->fingerprint_offset);
  if (fingerprint && strcmp ((const char *) h->data + hd->fingerprint_offset, fingerprint) != 0)
    {
      g_set_error (error, TTV_FORMAT_ERROR, TTV_FORMAT_ERROR_INVALID,
                   _("%s describes another state of the trace"), what);
      return FALSE;
    }
  if (hd->strings_offset > h->size || hd->strings_size > h->size - hd->strings_offset
      || (hd->strings_size > 0 && h->data[hd->strings_offset + hd->strings_size - 1] != '\0'))
    BAD (_("%s: bad string table at byte %" PRIu64), what, hd->strings_offset);
  if (!fits (h->size, hd->string_index_offset, hd->n_strings, sizeof (guint64)))
    BAD (_("%s: bad string index at byte %" PRIu64), what, hd->string_index_offset);
  if (!fits (h->size, hd->rows_offset, hd->n_rows, sizeof (TtvHistRow)) || hd->n_rows > G_MAXUINT)
    BAD (_("%s: bad row table at byte %" PRIu64), what, hd->rows_offset);
  guint64 total = 0;
  for (guint k = 0; k < TTV_HISTORY_ROW_N_KINDS; k++)
    {
      h->row_base[k] = (guint) total;
      total += hd->n_rows_by_kind[k];
    }
  h->row_base[TTV_HISTORY_ROW_N_KINDS] = (guint) MIN (total, G_MAXUINT);
  if (total != hd->n_rows)
    BAD (_("%s: row counts do not add up (byte %" PRIu64 ")"), what, hd->rows_offset);

  const guint64 *index = (const guint64 *) (h->data + hd->string_index_offset);
  h->n_strings = hd->n_strings;
  h->strings = g_new0 (const char *, hd->n_strings + 1);
  h->quarks = g_new0 (GQuark, hd->n_strings + 1);
  for (guint64 i = 0; i < hd->n_strings; i++)
    {
      if (index[i] >= hd->strings_size)
        BAD (_("%s: string %" PRIu64 " out of its table"), what, i);
      h->strings[i] = (const char *) h->data + hd->strings_offset + index[i];
      h->quarks[i] = g_quark_from_string (h->strings[i]);
    }

  h->header = hd;
  h->rows = (const TtvHistRow *) (h->data + hd->rows_offset);
  h->infos = g_new0 (TtvHistoryRowInfo, hd->n_rows + 1);
  for (guint64 i = 0; i < hd->n_rows; i++)
    {
      const TtvHistRow *r = &h->rows[i];
      guint64 at = hd->rows_offset + i * sizeof (TtvHistRow);
      if (r->kind >= TTV_HISTORY_ROW_N_KINDS || i < h->row_base[r->kind] || i >= h->row_base[r->kind + 1])
        BAD (_("%s: bad row kind at byte %" PRIu64), what, at);
      guint64 n_blocks = r->n_recs / TTV_HIST_BLOCK + 1, n_mark_blocks = r->n_marks / TTV_HIST_BLOCK + 1;
      if (!fits (h->size, r->recs_offset, r->recs_size, 1)
          || !fits (h->size, r->blocks_offset, n_blocks - (r->n_recs % TTV_HIST_BLOCK == 0), sizeof (TtvHistBlock))
          || !fits (h->size, r->marks_offset, r->marks_size, 1)
          || !fits (h->size, r->mark_blocks_offset, n_mark_blocks - (r->n_marks % TTV_HIST_BLOCK == 0),
                    sizeof (TtvHistBlock))
          || r->n_levels > TTV_HIST_MAX_LEVELS
          || !fits (h->size, r->levels_offset, r->n_levels, sizeof (TtvHistLevel))
          || (r->name != TTV_HIST_NO_STRING && r->name >= hd->n_strings))
        BAD (_("%s: bad row at byte %" PRIu64), what, at);
      const TtvHistLevel *levels = (const TtvHistLevel *) (h->data + r->levels_offset);
      for (guint k = 0; k < r->n_levels; k++)
        if ((levels[k].event_bytes != 1 && levels[k].event_bytes != 2 && levels[k].event_bytes != 4)
            || !fits (h->size, levels[k].offset, levels[k].n_bins, 2 + levels[k].event_bytes)
            || levels[k].shift >= 62 || levels[k].first_bin > (G_MAXUINT64 >> levels[k].shift)
            || levels[k].n_bins > (G_MAXUINT64 >> levels[k].shift) - levels[k].first_bin)
          BAD (_("%s: bad summary level at byte %" PRIu64), what,
               r->levels_offset + k * sizeof (TtvHistLevel));
      /* Searches need sorted times, and decoding bytes that hold what
       * they claim.  A heap representation was just built: trusted. */
      if (h->mapped)
        {
          TtvHistSeq seq;
          guint64 bad;
          ttv_hist_row_recs (h, r, &seq);
          if (!ttv_hist_seq_validate (&seq, &bad))
            BAD (_("%s: bad intervals at byte %" PRIu64), what, r->recs_offset + bad);
          ttv_hist_row_marks (h, r, &seq);
          if (!ttv_hist_seq_validate (&seq, &bad))
            BAD (_("%s: bad marks at byte %" PRIu64), what, r->marks_offset + bad);
        }
      TtvHistoryRowInfo *info = &h->infos[i];
      info->kind = r->kind;
      info->id = r->id;
      info->cpu = r->cpu;
      info->tgid = r->tgid;
      info->ppid = r->ppid;
      info->name = r->name != TTV_HIST_NO_STRING ? h->strings[r->name] : NULL;
      info->birth = r->birth;
      info->end = r->end;
      info->dead = r->dead != 0;
      info->cpu_time = r->cpu_time;
      info->n_events = r->n_events;
      info->n_intervals = r->n_recs;
      info->n_marks = r->n_marks;
    }
  return TRUE;
}

TtvStateHistory *
ttv_hist_cache_load_full (const char *path, const char *fingerprint, GError **error)
{
  GMappedFile *mapped = g_mapped_file_new (path, FALSE, error);
  if (mapped == NULL)
    return NULL;
  TtvStateHistory *h = g_new0 (TtvStateHistory, 1);
  h->mapped = mapped;
  h->data = (const guint8 *) g_mapped_file_get_contents (mapped);
  h->size = g_mapped_file_get_length (mapped);
  h->cache_path = g_strdup (path);
  h->from_cache = TRUE;
  if (h->data == NULL || h->size == 0)
    {
      g_set_error (error, TTV_FORMAT_ERROR, TTV_FORMAT_ERROR_TRUNCATED,
                   _("%s: empty file (0 bytes)"), path);
      ttv_state_history_free (h);
      return NULL;
    }
  if (!ttv_hist_open_data (h, fingerprint, error))
    {
      ttv_state_history_free (h);
      return NULL;
    }
  return h;
}

TtvStateHistory *
ttv_hist_cache_load (const char *path, const char *fingerprint)
{
  g_autoptr (GError) error = NULL;
  TtvStateHistory *h = ttv_hist_cache_load_full (path, fingerprint, &error);
  if (h == NULL)
    g_debug ("state history cache not used: %s", error->message);
  return h;
}
