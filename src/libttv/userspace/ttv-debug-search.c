/* ttv-debug-search.c: finding a traced binary's files (see
 * ttv-debug-search.h).  Candidates are tried in a fixed order and checked
 * against what the trace recorded before they are used. */
#include "ttv-debug-search.h"

#include <glib/gi18n-lib.h>
#include <gio/gio.h>

#include <errno.h>
#include <fcntl.h>
#include <string.h>
#include <unistd.h>

static const char *const default_debug_dirs[] = { "/usr/lib/debug", NULL };

void
ttv_debug_files_clear (TtvDebugFiles *f)
{
  g_clear_pointer (&f->binary, ttv_elf_symbols_free);
  g_clear_pointer (&f->debug, ttv_elf_symbols_free);
  g_clear_pointer (&f->why, g_free);
}

gboolean
ttv_debug_link_crc32 (const char *path, guint32 *out)
{
  static guint32 table[256];
  static gsize once;
  if (g_once_init_enter (&once))
    {
      for (guint32 i = 0; i < 256; i++)
        {
          guint32 c = i;
          for (guint k = 0; k < 8; k++)
            c = c & 1 ? 0xedb88320u ^ (c >> 1) : c >> 1;
          table[i] = c;
        }
      g_once_init_leave (&once, 1);
    }
  int fd = open (path, O_RDONLY | O_CLOEXEC | O_NONBLOCK | O_NOCTTY);
  if (fd < 0)
    return FALSE;
  guint32 crc = 0xffffffffu;
  guint8 buf[1 << 16];
  ssize_t n;
  while ((n = read (fd, buf, sizeof buf)) > 0 || (n < 0 && errno == EINTR))
    for (ssize_t i = 0; i < n; i++)
      crc = table[(crc ^ buf[i]) & 0xff] ^ (crc >> 8);
  close (fd);
  if (n < 0)
    return FALSE;
  *out = crc ^ 0xffffffffu;
  return TRUE;
}

static gboolean
same_build_id (const TtvBinMapping *m, TtvElfSymbols *elf)
{
  guint len;
  const guint8 *id = ttv_elf_symbols_get_build_id (elf, &len);
  return id && len == m->build_id_len && memcmp (id, m->build_id, len) == 0;
}

/* Where the candidates were turned down, for the "why". */
typedef struct {
  GString *refused;
} Search;

static void
refuse (Search *s, const char *path, const char *reason)
{
  if (s->refused->len < 1024)
    g_string_append_printf (s->refused, "%s%s (%s)", s->refused->len ? "; " : "", path, reason);
}

/* @path as the binary of @m: an ELF file with the recorded build id (any
 * ELF file when none was recorded). */
static TtvElfSymbols *
try_binary (const TtvBinMapping *m, const char *path, Search *s)
{
  if (!g_file_test (path, G_FILE_TEST_EXISTS))
    return NULL;
  g_autoptr (GError) error = NULL;
  g_autoptr (TtvElfSymbols) elf = ttv_elf_symbols_open (path, &error);
  if (elf == NULL)
    refuse (s, path, error->message);
  else if (m->build_id_len > 0 && !same_build_id (m, elf))
    refuse (s, path, _("another build id"));
  else
    return g_steal_pointer (&elf);
  return NULL;
}

/* @path as the debug file of @m: checked by build id, else by the debug
 * link's CRC. */
static TtvElfSymbols *
try_debug (const TtvBinMapping *m, guint32 crc, gboolean has_crc, const char *path, Search *s)
{
  if (!g_file_test (path, G_FILE_TEST_EXISTS))
    return NULL;
  g_autoptr (GError) error = NULL;
  g_autoptr (TtvElfSymbols) elf = ttv_elf_symbols_open (path, &error);
  guint32 file_crc;
  if (elf == NULL)
    refuse (s, path, error->message);
  else if (m->build_id_len > 0 && !same_build_id (m, elf))
    refuse (s, path, _("another build id"));
  else if (m->build_id_len == 0 && has_crc && (!ttv_debug_link_crc32 (path, &file_crc) || file_crc != crc))
    refuse (s, path, _("another debug link CRC"));
  else
    return g_steal_pointer (&elf);
  return NULL;
}

static TtvElfSymbols *
find_binary (const TtvBinMapping *m, const char *const *dirs, gboolean recorded, Search *s)
{
  TtvElfSymbols *found = NULL;
  gboolean absolute = g_path_is_absolute (m->path);
  g_autofree char *base = g_path_get_basename (m->path);
  for (guint i = 0; dirs && dirs[i] && !found; i++)
    {
      if (absolute)
        {
          g_autofree char *under = g_build_filename (dirs[i], m->path, NULL);
          found = try_binary (m, under, s);
        }
      if (!found)
        {
          g_autofree char *flat = g_build_filename (dirs[i], base, NULL);
          found = try_binary (m, flat, s);
        }
    }
  if (!found && absolute && recorded)
    found = try_binary (m, m->path, s);
  return found;
}

static TtvElfSymbols *
find_debug (const TtvBinMapping *m, TtvElfSymbols *binary, const char *const *dirs,
            const char *const *debug_dirs, gboolean recorded, Search *s)
{
  TtvElfSymbols *found = NULL;
  /* By build id: .build-id/ab/cdef....debug */
  if (m->build_id_len > 1)
    {
      char hex[2 * TTV_UST_MAX_BUILD_ID + 1];
      ttv_ust_build_id_to_hex (m->build_id, m->build_id_len, hex);
      g_autofree char *rel = g_strdup_printf (".build-id/%.2s/%s.debug", hex, hex + 2);
      const char *const *lists[] = { dirs, debug_dirs };
      for (guint l = 0; l < G_N_ELEMENTS (lists) && !found; l++)
        for (guint i = 0; lists[l] && lists[l][i] && !found; i++)
          {
            g_autofree char *path = g_build_filename (lists[l][i], rel, NULL);
            found = try_debug (m, 0, FALSE, path, s);
          }
    }
  /* By debug link: the recorded one, else the binary's own. */
  guint32 crc = m->debug_link_crc;
  const char *link = m->debug_link;
  if (link == NULL && binary)
    link = ttv_elf_symbols_get_debug_link (binary, &crc);
  if (found || link == NULL || strchr (link, '/') || g_str_equal (link, "..") || !g_path_is_absolute (m->path))
    return found;
  g_autofree char *dir = g_path_get_dirname (m->path);
  g_autoptr (GPtrArray) candidates = g_ptr_array_new_with_free_func (g_free);
  if (recorded)
    {
      g_ptr_array_add (candidates, g_build_filename (dir, link, NULL));
      g_ptr_array_add (candidates, g_build_filename (dir, ".debug", link, NULL));
    }
  for (guint i = 0; debug_dirs && debug_dirs[i]; i++)
    g_ptr_array_add (candidates, g_build_filename (debug_dirs[i], dir, link, NULL));
  for (guint i = 0; dirs && dirs[i]; i++)
    {
      g_ptr_array_add (candidates, g_build_filename (dirs[i], link, NULL));
      g_ptr_array_add (candidates, g_build_filename (dirs[i], dir, link, NULL));
      g_ptr_array_add (candidates, g_build_filename (dirs[i], dir, ".debug", link, NULL));
    }
  for (guint i = 0; i < candidates->len && !found; i++)
    found = try_debug (m, crc, TRUE, g_ptr_array_index (candidates, i), s);
  return found;
}

static void
find_files (const TtvBinMapping *m, const char *const *dirs, const char *const *debug_dirs, gboolean recorded,
            TtvDebugFiles *out)
{
  memset (out, 0, sizeof *out);
  Search s = { g_string_new (NULL) };
  out->binary = find_binary (m, dirs, recorded, &s);
  /* A binary with its own symbols and lines needs no debug file. */
  if (!(out->binary && ttv_elf_symbols_has_functions (out->binary) && ttv_elf_symbols_has_lines (out->binary)))
    out->debug = find_debug (m, out->binary, dirs, debug_dirs, recorded, &s);
  if (out->binary || out->debug)
    out->why = out->debug && out->binary
                 ? g_strdup_printf (_("%s, debug information in %s"), ttv_elf_symbols_get_path (out->binary),
                                    ttv_elf_symbols_get_path (out->debug))
                 : g_strdup (ttv_elf_symbols_get_path (out->binary ? out->binary : out->debug));
  else if (s.refused->len)
    out->why = g_strdup_printf (_("not found: %s"), s.refused->str);
  else
    out->why = g_strdup (_("not found"));
  g_string_free (s.refused, TRUE);
}

void
ttv_debug_files_find (const TtvBinMapping *m, const char *const *dirs, const char *const *debug_dirs,
                      TtvDebugFiles *out)
{
  find_files (m, dirs, debug_dirs ? debug_dirs : default_debug_dirs, TRUE, out);
}

void
ttv_debug_files_find_in (const TtvBinMapping *m, const char *const *dirs, TtvDebugFiles *out)
{
  find_files (m, dirs, NULL, FALSE, out);
}
