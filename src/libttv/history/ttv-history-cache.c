/* ttv-history-cache.c: the state history's cache files in the
 * user's cache directory (never in the trace: see docs/state-history.md):
 * which file describes a traceset, what it must match (the program that
 * built it; paths, sizes, mtimes and first bytes of every file; formats),
 * checked loading (read, not mapped: the file's pages stay out of the
 * process), and a size cap with least-recently-used eviction. */
#include "ttv-config.h"

#include "ttv-history-private.h"
#include "ttv-error.h"
#include "ttv-temp-file.h"

#include <errno.h>
#include <fcntl.h>
#include <glib/gi18n-lib.h>
#include <glib/gstdio.h>
#include <inttypes.h>
#include <link.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/statvfs.h>
#include <unistd.h>

#define MAX_WALK_DEPTH 8
#define MAX_WALK_FILES 200000
/* Files whose first bytes go into the fingerprint, and how many bytes. */
#define MAX_HASHED_FILES 1024
#define HASHED_BYTES 4096
/* The default cap of the cache directory. */
#define DEFAULT_LIMIT ((guint64) 2 << 30)
/* Temporary files older than this are left over by a program that died. */
#define STALE_TMP_SECONDS 3600

char *
ttv_history_cache_path (TtvTraceset *ts, const TtvHistoryOptions *opt)
{
  g_autoptr (GChecksum) sum = g_checksum_new (G_CHECKSUM_SHA256);
  for (guint i = 0; i < ttv_traceset_get_n_traces (ts); i++)
    {
      const TtvTrace *t = ttv_traceset_get_trace (ts, i);
      const char *p = t->display_path ? t->display_path : t->path;
      g_autofree char *abs = p ? g_canonicalize_filename (p, NULL) : g_strdup ("-");
      g_checksum_update (sum, (const guchar *) abs, (gssize) strlen (abs) + 1);
      /* Times in the file are corrected times: another correction is
       * another history (no correction keeps the name it always had). */
      if (!ttv_clock_correction_is_identity (&t->clock))
        {
          g_autofree char *clock = g_strdup_printf ("clock %" G_GINT64_FORMAT " %.17g %.17g", t->clock.origin,
                                                    t->clock.offset_ns, t->clock.drift);
          g_checksum_update (sum, (const guchar *) clock, (gssize) strlen (clock) + 1);
        }
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

static guint64
head_hash (const char *path)
{
  guint8 buf[HASHED_BYTES];
  int fd = open (path, O_RDONLY | O_CLOEXEC | O_NOFOLLOW);
  if (fd < 0)
    return 0;
  ssize_t n = read (fd, buf, sizeof buf);
  close (fd);
  return n > 0 ? ttv_history_hash (buf, (gsize) n) : 0;
}

/* The GNU build id of the running program: a history built by another
 * build (another kernel model) is not trusted. */
static int
find_build_id (struct dl_phdr_info *info, size_t size, void *data)
{
  GString *out = data;
  for (int i = 0; i < info->dlpi_phnum && out->len == 0; i++)
    {
      const ElfW (Phdr) *ph = &info->dlpi_phdr[i];
      if (ph->p_type != PT_NOTE)
        continue;
      const guint8 *p = (const guint8 *) (info->dlpi_addr + ph->p_vaddr);
      const guint8 *end = p + ph->p_memsz;
      while (end - p >= 12)
        {
          guint32 namesz, descsz, type;
          memcpy (&namesz, p, 4);
          memcpy (&descsz, p + 4, 4);
          memcpy (&type, p + 8, 4);
          const guint8 *name = p + 12, *desc = name + ((namesz + 3) & ~3u);
          if (desc + descsz > end)
            break;
          if (type == NT_GNU_BUILD_ID && namesz == 4 && memcmp (name, "GNU", 4) == 0)
            {
              for (guint32 k = 0; k < descsz; k++)
                g_string_append_printf (out, "%02x", desc[k]);
              break;
            }
          p = desc + ((descsz + 3) & ~3u);
        }
    }
  /* The first object is the program itself (libttv is linked into it). */
  return 1;
}

static const char *
builder_id (void)
{
  static char *id;
  static gsize done;
  if (g_once_init_enter (&done))
    {
      GString *out = g_string_new (NULL);
      dl_iterate_phdr (find_build_id, out);
      if (out->len == 0)
        g_string_append (out, TTV_VERSION);
      id = g_string_free (out, FALSE);
      g_once_init_leave (&done, 1);
    }
  return id;
}

/* Every file under @dir (sorted, recursive): relative name, size, mtime,
 * and a hash of its first bytes. */
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
          g_string_append_printf (out, "file %s %" G_GUINT64_FORMAT " %" G_GINT64_FORMAT ".%09ld",
                                  child_rel, (guint64) st.st_size, (gint64) st.st_mtim.tv_sec,
                                  (long) st.st_mtim.tv_nsec);
          /* A file rewritten with the same size within the mtime's
           * resolution still differs in its first bytes (headers). */
          if (*n_files <= MAX_HASHED_FILES)
            g_string_append_printf (out, " %016" G_GINT64_MODIFIER "x", head_hash (child));
          g_string_append_c (out, '\n');
        }
    }
}

char *
ttv_history_fingerprint (TtvTraceset *ts)
{
  GString *out = g_string_new ("ttv-history 3\n");
  g_string_append_printf (out, "builder %s\n", builder_id ());
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

/* @len bytes at @offset of @h: in its blob, or read into @buf (of @len). */
static const guint8 *
get_bytes (TtvHistory *h, guint64 offset, gsize len, guint8 *buf)
{
  return ttv_history_source_get (h->data, h->fd, h->size, offset, len, buf);
}

/* The rows' directories and levels are small pieces after every row's
 * records, in the order of the rows, each row's followed by its
 * summary's bins: read a window at a time, not with a system call for
 * each piece (three a row took half of opening a cached history of 7,500
 * rows). */
#define INDEX_WINDOW (64u << 10)

/* get_bytes () for the rows' indexes, copied into @buf. */
static const guint8 *
get_index_bytes (TtvHistory *h, TtvHistoryReadWindow *win, guint64 offset, gsize len, guint8 *buf)
{
  if (h->data || len == 0 || len > win->cap)
    return get_bytes (h, offset, len, buf);
  const guint8 *p = ttv_history_read_window_get (win, h->fd, h->size, offset, len, buf);
  if (p && p != buf)
    memcpy (buf, p, len);
  return p ? buf : NULL;
}

/* The bytes of the rows' directories (checked to fit). */
static gsize
row_meta_size (const TtvHistoryRow *r)
{
  return (ttv_history_n_pieces (ttv_history_n_blocks (r->n_recs)) + ttv_history_n_pieces (ttv_history_n_blocks (r->n_marks)))
         * sizeof (TtvHistoryBlock);
}

/* Whether @levels (@n of them) are in bounds, and each after the first
 * is the one ttv_history_level_next makes of the level before: what the
 * row's index keeps of them is the first. */
static gboolean
levels_valid (const TtvHistory *h, const TtvHistoryLevel *levels, guint n)
{
  for (guint k = 0; k < n; k++)
    {
      const TtvHistoryLevel *lv = &levels[k];
      if (lv->shift >= 62 || !fits (h->size, lv->offset, lv->n_bins, TTV_HISTORY_BIN_SIZE) || lv->n_bins == 0)
        return FALSE;
      guint64 bins_max = G_MAXUINT64 >> lv->shift;
      if (lv->first_bin > bins_max || lv->n_bins > bins_max - lv->first_bin)
        return FALSE;
      if (k == 0)
        continue;
      TtvHistoryLevel made;
      ttv_history_level_next (&levels[k - 1], &made);
      if (made.offset != lv->offset || made.first_bin != lv->first_bin || made.n_bins != lv->n_bins
          || made.shift != lv->shift)
        return FALSE;
    }
  return TRUE;
}

gboolean
ttv_history_open_data (TtvHistory *h, gboolean trusted, GError **error)
{
  const char *what = h->cache_path ? h->cache_path : "state history";
  TtvHistoryHeader *hd = &h->header;
  if (h->size < sizeof (TtvHistoryHeader) || !get_bytes (h, 0, sizeof *hd, (guint8 *) hd))
    BAD (_("%s: truncated at byte %zu (no header)"), what, h->size);
  if (h->data)
    memcpy (hd, h->data, sizeof *hd);
  if (memcmp (hd->magic, TTV_HISTORY_MAGIC, sizeof hd->magic) != 0 || hd->version != TTV_HISTORY_VERSION
      || hd->bom != TTV_HISTORY_BOM)
    BAD (_("%s: not a state history of this version (byte 0)"), what);
  if (hd->file_size != h->size)
    BAD (_("%s: %zu bytes where the header says %" PRIu64), what, h->size,
         hd->file_size);
  if (!fits (h->size, hd->fingerprint_offset, hd->fingerprint_size, 1) || hd->fingerprint_size == 0)
    BAD (_("%s: bad trace description at byte %" PRIu64), what, hd->fingerprint_offset);
  if (hd->strings_offset > h->size || hd->strings_size > h->size - hd->strings_offset)
    BAD (_("%s: bad string table at byte %" PRIu64), what, hd->strings_offset);
  if (!fits (h->size, hd->string_index_offset, hd->n_strings, sizeof (guint64)))
    BAD (_("%s: bad string index at byte %" PRIu64), what, hd->string_index_offset);
  if (!fits (h->size, hd->rows_offset, hd->n_rows, sizeof (TtvHistoryRow)) || hd->n_rows > G_MAXUINT)
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
  if (hd->n_machines == 0 || hd->n_machines > hd->n_rows + 1)
    BAD (_("%s: bad row table at byte %" PRIu64), what, hd->rows_offset);

  /* The strings stay (rows point to them); the string index and the rows
   * are read from a file only for this, their content goes to the
   * quarks, @infos and @index. */
  gsize index_bytes = hd->n_strings * sizeof (guint64), rows_bytes = hd->n_rows * sizeof (TtvHistoryRow);
  const guint8 *strings, *index_bytes_p, *rows_p;
  g_autofree guint8 *tables = NULL;
  if (h->data)
    {
      strings = h->data + hd->strings_offset;
      index_bytes_p = h->data + hd->string_index_offset;
      rows_p = h->data + hd->rows_offset;
    }
  else
    {
      h->meta = g_try_malloc (hd->strings_size + 1);
      tables = g_try_malloc (rows_bytes + index_bytes + 1);
      if (h->meta == NULL || tables == NULL)
        BAD (_("%s: too large a row table (byte %" PRIu64 ")"), what, hd->rows_offset);
      rows_p = tables;
      index_bytes_p = tables + rows_bytes;
      strings = h->meta;
      if (!get_bytes (h, hd->rows_offset, rows_bytes, tables)
          || !get_bytes (h, hd->string_index_offset, index_bytes, tables + rows_bytes)
          || !get_bytes (h, hd->strings_offset, hd->strings_size, h->meta))
        BAD (_("%s: cannot read its tables (byte %" PRIu64 ")"), what, hd->rows_offset);
    }
  if (hd->strings_size > 0 && strings[hd->strings_size - 1] != '\0')
    BAD (_("%s: bad string table at byte %" PRIu64), what, hd->strings_offset);
  const guint64 *index = (const guint64 *) index_bytes_p;
  h->n_strings = hd->n_strings;
  h->strings = g_new0 (const char *, hd->n_strings + 1);
  h->quarks = g_new0 (GQuark, hd->n_strings + 1);
  for (guint64 i = 0; i < hd->n_strings; i++)
    {
      if (index[i] >= hd->strings_size)
        BAD (_("%s: string %" PRIu64 " out of its table"), what, i);
      h->strings[i] = (const char *) strings + index[i];
      h->quarks[i] = g_quark_from_string (h->strings[i]);
    }

  const TtvHistoryRow *rows = (const TtvHistoryRow *) rows_p;
  h->infos = g_new0 (TtvHistoryRowInfo, hd->n_rows + 1);
  h->index = g_new0 (TtvHistoryRowIndex, hd->n_rows + 1);
  gsize meta_rows = 0;
  for (guint64 i = 0; i < hd->n_rows; i++)
    {
      const TtvHistoryRow *r = &rows[i];
      guint64 at = hd->rows_offset + i * sizeof (TtvHistoryRow);
      if (r->kind >= TTV_HISTORY_ROW_N_KINDS || i < h->row_base[r->kind] || i >= h->row_base[r->kind + 1])
        BAD (_("%s: bad row kind at byte %" PRIu64), what, at);
      if (r->n_recs > G_MAXUINT64 / 2 || r->n_marks > G_MAXUINT64 / 2
          || !fits (h->size, r->recs_dir_offset, ttv_history_n_pieces (ttv_history_n_blocks (r->n_recs)), sizeof (TtvHistoryBlock))
          || !fits (h->size, r->marks_dir_offset, ttv_history_n_pieces (ttv_history_n_blocks (r->n_marks)),
                    sizeof (TtvHistoryBlock))
          || r->n_levels > TTV_HISTORY_MAX_LEVELS
          || !fits (h->size, r->levels_offset, r->n_levels, sizeof (TtvHistoryLevel))
          || (r->name != TTV_HISTORY_NO_STRING && r->name >= hd->n_strings)
          /* Searches need each kind's rows grouped by machine. */
          || r->machine >= hd->n_machines
          || (i > h->row_base[r->kind] && r->machine < rows[i - 1].machine))
        BAD (_("%s: bad row at byte %" PRIu64), what, at);
      meta_rows += row_meta_size (r);
    }
  /* Each row's directories, and its first summary level: in memory
   * whatever the history's size (a directory entry stands for some 4096
   * records). */
  guint8 *p = h->data ? NULL : (h->meta_rows = g_try_malloc (meta_rows + 8));
  if (!h->data && p == NULL)
    BAD (_("%s: too large a row table (byte %" PRIu64 ")"), what, hd->rows_offset);
  g_autofree guint8 *window = h->data ? NULL : g_malloc (INDEX_WINDOW);
  TtvHistoryReadWindow win = { window, INDEX_WINDOW, 0, 0 };
  for (guint64 i = 0; i < hd->n_rows; i++)
    {
      const TtvHistoryRow *r = &rows[i];
      gsize dir_bytes = ttv_history_n_pieces (ttv_history_n_blocks (r->n_recs)) * sizeof (TtvHistoryBlock);
      gsize mark_bytes = ttv_history_n_pieces (ttv_history_n_blocks (r->n_marks)) * sizeof (TtvHistoryBlock);
      TtvHistoryLevel levels[TTV_HISTORY_MAX_LEVELS];
      const guint8 *d = get_index_bytes (h, &win, r->recs_dir_offset, dir_bytes, p);
      const guint8 *m = get_index_bytes (h, &win, r->marks_dir_offset, mark_bytes, p ? p + dir_bytes : NULL);
      const guint8 *l = get_index_bytes (h, &win, r->levels_offset, r->n_levels * sizeof (TtvHistoryLevel),
                                         (guint8 *) levels);
      if (d == NULL || m == NULL || l == NULL)
        BAD (_("%s: cannot read row %" PRIu64 "'s index"), what, i);
      if (l != (const guint8 *) levels)
        memcpy (levels, l, r->n_levels * sizeof (TtvHistoryLevel));
      if (!levels_valid (h, levels, r->n_levels))
        BAD (_("%s: bad summary level at byte %" PRIu64), what, r->levels_offset);
      TtvHistoryRowIndex *ri = &h->index[i];
      ri->dir = (const TtvHistoryBlock *) d;
      ri->mark_dir = (const TtvHistoryBlock *) m;
      ri->n_levels = r->n_levels;
      if (r->n_levels > 0)
        {
          ri->level_offset = levels[0].offset;
          ri->level_first_bin = levels[0].first_bin;
          ri->level_n_bins = levels[0].n_bins;
          ri->level_shift = levels[0].shift;
        }
      if (p)
        p += dir_bytes + mark_bytes;
      TtvHistoryRowInfo *info = &h->infos[i];
      info->kind = r->kind;
      info->machine = r->machine;
      info->id = r->id;
      info->cpu = r->cpu;
      info->tgid = r->tgid;
      info->ppid = r->ppid;
      info->name = r->name != TTV_HISTORY_NO_STRING ? h->strings[r->name] : NULL;
      info->birth = r->birth;
      info->end = r->end;
      info->dead = r->dead != 0;
      info->states_seen = r->states_seen;
      info->cpu_time = r->cpu_time;
      info->n_events = r->n_events;
      info->n_intervals = r->n_recs;
      info->n_marks = r->n_marks;
      /* Searches need sorted times, and decoding bytes that hold what
       * they claim.  A representation just built is trusted. */
      if (!trusted)
        {
          TtvHistorySeq seq;
          guint64 bad;
          ttv_history_row_recs (h, i, &seq);
          if (!ttv_history_seq_validate (&seq, &bad))
            BAD (_("%s: bad intervals at byte %" PRIu64), what, bad);
          ttv_history_row_marks (h, i, &seq);
          if (!ttv_history_seq_validate (&seq, &bad))
            BAD (_("%s: bad marks at byte %" PRIu64), what, bad);
        }
    }
  return TRUE;
}

/* The checks that need no mapping, read through the file: the header,
 * the trace it describes (a stale file costs a few bytes), the checksum. */
static gboolean
check_file (int fd, gsize size, const char *path, const char *fingerprint, GError **error)
{
  TtvHistoryHeader hd;
  if (size < sizeof hd || !ttv_file_read_at (fd, &hd, sizeof hd, 0))
    BAD (_("%s: truncated at byte %zu (no header)"), path, size);
  if (memcmp (hd.magic, TTV_HISTORY_MAGIC, sizeof hd.magic) != 0 || hd.version != TTV_HISTORY_VERSION
      || hd.bom != TTV_HISTORY_BOM)
    BAD (_("%s: not a state history of this version (byte 0)"), path);
  if (hd.file_size != size)
    BAD (_("%s: %zu bytes where the header says %" PRIu64), path, size,
         hd.file_size);
  if (fingerprint)
    {
      gsize n = strlen (fingerprint) + 1;
      if (hd.fingerprint_size != n || !fits (size, hd.fingerprint_offset, n, 1))
        {
          g_set_error (error, TTV_FORMAT_ERROR, TTV_FORMAT_ERROR_INVALID,
                       _("%s describes another state of the trace"), path);
          return FALSE;
        }
      g_autofree char *stored = g_malloc (n);
      if (!ttv_file_read_at (fd, stored, n, hd.fingerprint_offset) || memcmp (stored, fingerprint, n) != 0)
        {
          g_set_error (error, TTV_FORMAT_ERROR, TTV_FORMAT_ERROR_INVALID,
                       _("%s describes another state of the trace"), path);
          return FALSE;
        }
    }
  guint64 sum, at;
  if (!ttv_history_hash_file (fd, sizeof hd, size, &sum, &at))
    BAD (_("%s: cannot read byte %" PRIu64), path, at);
  if (sum != hd.checksum)
    BAD (_("%s: checksum mismatch (damaged file)"), path);
  return TRUE;
}

TtvHistory *
ttv_history_cache_load_full (const char *path, const char *fingerprint, GError **error)
{
  int fd = open (path, O_RDONLY | O_CLOEXEC);
  if (fd < 0)
    {
      int err = errno;
      g_set_error (error, TTV_FORMAT_ERROR, TTV_FORMAT_ERROR_IO, _("Cannot open %s: %s"), path,
                   g_strerror (err));
      return NULL;
    }
  struct stat st;
  if (fstat (fd, &st) != 0 || st.st_size == 0)
    {
      close (fd);
      g_set_error (error, TTV_FORMAT_ERROR, TTV_FORMAT_ERROR_TRUNCATED, _("%s: empty file (0 bytes)"), path);
      return NULL;
    }
  gsize size = (gsize) st.st_size;
  if (!check_file (fd, size, path, fingerprint, error))
    {
      close (fd);
      return NULL;
    }
  TtvHistory *h = g_new0 (TtvHistory, 1);
  h->cache_path = g_strdup (path);
  h->from_cache = TRUE;
  h->fd = fd;
  h->size = size;
  if (!ttv_history_open_data (h, FALSE, error))
    {
      ttv_history_free (h);
      return NULL;
    }
  /* Read as views need it: none of the file stays in memory. */
  posix_fadvise (fd, 0, 0, POSIX_FADV_RANDOM);
  return h;
}

TtvHistory *
ttv_history_cache_load (const char *path, const char *fingerprint)
{
  g_autoptr (GError) error = NULL;
  TtvHistory *h = ttv_history_cache_load_full (path, fingerprint, &error);
  if (h == NULL)
    g_debug ("state history cache not used: %s", error->message);
  return h;
}

/* ---- the size cap ---- */

/* "123", "64K", "500M", "2G" (powers of 1024); 0 when unreadable. */
static guint64
parse_size (const char *text)
{
  char *end = NULL;
  guint64 v = g_ascii_strtoull (text, &end, 10);
  if (end == text)
    return 0;
  switch (g_ascii_toupper (*end))
    {
    case 'K':
      return v << 10;
    case 'M':
      return v << 20;
    case 'G':
      return v << 30;
    case '\0':
      return v;
    default:
      return 0;
    }
}

guint64
ttv_history_cache_limit (const TtvHistoryOptions *opt, const char *dir)
{
  if (opt && opt->cache_max_bytes)
    return opt->cache_max_bytes;
  const char *env = g_getenv ("TTV_CACHE_MAX");
  guint64 v = env ? parse_size (env) : 0;
  return v;   /* 0: automatic, see evict */
}

typedef struct {
  char *path;
  guint64 size;
  gint64 used;             /* last use (access time), ns */
} CacheFile;

static void
cache_file_clear (CacheFile *f)
{
  g_free (f->path);
}

static gint
compare_use (gconstpointer a, gconstpointer b)
{
  const CacheFile *x = a, *y = b;
  return x->used < y->used ? -1 : x->used > y->used;
}

gboolean
ttv_history_cache_evict (const char *dir, guint64 limit, const char *keep)
{
  g_autoptr (GDir) d = g_dir_open (dir, 0, NULL);
  if (d == NULL)
    return TRUE;
  g_autoptr (GArray) files = g_array_new (FALSE, FALSE, sizeof (CacheFile));
  g_array_set_clear_func (files, (GDestroyNotify) cache_file_clear);
  gint64 now = g_get_real_time () / G_USEC_PER_SEC;
  guint64 total = 0;
  const char *name;
  while ((name = g_dir_read_name (d)))
    {
      g_autofree char *path = g_build_filename (dir, name, NULL);
      GStatBuf st;
      if (g_lstat (path, &st) != 0 || !S_ISREG (st.st_mode))
        continue;
      if (g_str_has_suffix (name, ".tmp"))
        {
          /* Left by a program that died while writing. */
          if (now - (gint64) st.st_mtime > STALE_TMP_SECONDS)
            g_unlink (path);
          continue;
        }
      /* State histories, and the analyses' results beside them (analysis/). */
      if (!g_str_has_suffix (name, ".hist") && !g_str_has_suffix (name, ".ttva"))
        continue;
      CacheFile f = { g_steal_pointer (&path), (guint64) st.st_size,
                      MAX ((gint64) st.st_atim.tv_sec * G_GINT64_CONSTANT (1000000000) + st.st_atim.tv_nsec,
                           (gint64) st.st_mtim.tv_sec * G_GINT64_CONSTANT (1000000000) + st.st_mtim.tv_nsec) };
      total += f.size;
      g_array_append_val (files, f);
    }
  if (limit == 0)
    {
      /* 2 GiB, or a tenth of the space the cache could have when less. */
      struct statvfs vfs;
      limit = DEFAULT_LIMIT;
      if (statvfs (dir, &vfs) == 0)
        limit = MIN (limit, ((guint64) vfs.f_bavail * vfs.f_frsize + total) / 10);
    }
  g_array_sort (files, compare_use);
  gboolean kept = TRUE;
  for (guint i = 0; i < files->len && total > limit; i++)
    {
      CacheFile *f = &g_array_index (files, CacheFile, i);
      if (keep && g_str_equal (f->path, keep))
        continue;
      if (g_unlink (f->path) == 0)
        total -= f->size;
    }
  if (total > limit && keep)
    {
      /* Larger than the cap alone: used this time (it is mapped), not kept. */
      for (guint i = 0; i < files->len; i++)
        if (g_str_equal (g_array_index (files, CacheFile, i).path, keep))
          kept = g_unlink (keep) != 0;
    }
  return kept;
}

void
ttv_history_cache_touch (const char *path)
{
  struct timespec times[2] = { { 0, UTIME_NOW }, { 0, UTIME_OMIT } };
  utimensat (AT_FDCWD, path, times, 0);
}
