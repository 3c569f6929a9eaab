/* ttv-live-spool.c: the on-disk copy of a live session (see
 * ttv-live-spool.h): safe names, appends that leave no partial data behind,
 * removal of the spool and of those that dead processes left. */
#include "ttv-live-spool.h"
#include "ttv-remove-tree.h"
#include "ttv-error.h"

#include <errno.h>
#include <fcntl.h>
#include <glib/gi18n-lib.h>
#include <glib/gstdio.h>
#include <signal.h>
#include <string.h>
#include <unistd.h>

struct _TtvLiveSpool {
  char *path;                 /* owned */
  GHashTable *files;          /* "dir/name" -> GINT_TO_POINTER (fd + 1), owned */
  guint64 size;
};

static char *
spool_root (void)
{
  return g_build_filename (g_get_user_cache_dir (), "ttv", "live", NULL);
}

/* Spools are named PID-XXXXXX: those of processes that are gone go. */
static void
remove_stale (const char *root)
{
  g_autoptr (GDir) dir = g_dir_open (root, 0, NULL);
  for (const char *name; dir && (name = g_dir_read_name (dir));)
    {
      char *end = NULL;
      gint64 pid = g_ascii_strtoll (name, &end, 10);
      if (end == name || *end != '-' || pid <= 0 || pid > G_MAXINT || pid == getpid ())
        continue;
      if (kill ((pid_t) pid, 0) == 0 || errno != ESRCH)
        continue;
      g_autofree char *path = g_build_filename (root, name, NULL);
      ttv_remove_tree (path);
    }
}

TtvLiveSpool *
ttv_live_spool_new (GError **error)
{
  g_autofree char *root = spool_root ();
  if (g_mkdir_with_parents (root, 0700) != 0)
    {
      int err = errno;
      g_set_error (error, TTV_LIVE_ERROR, TTV_LIVE_ERROR_SPOOL, _("cannot create %s: %s"), root, g_strerror (err));
      return NULL;
    }
  remove_stale (root);
  g_autofree char *name = g_strdup_printf ("%d-XXXXXX", (int) getpid ());
  g_autofree char *tmpl = g_build_filename (root, name, NULL);
  if (g_mkdtemp_full (tmpl, 0700) == NULL)
    {
      int err = errno;
      g_set_error (error, TTV_LIVE_ERROR, TTV_LIVE_ERROR_SPOOL, _("cannot create a directory in %s: %s"), root,
                   g_strerror (err));
      return NULL;
    }
  TtvLiveSpool *spool = g_new0 (TtvLiveSpool, 1);
  spool->path = g_steal_pointer (&tmpl);
  spool->files = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, NULL);
  return spool;
}

void
ttv_live_spool_free (TtvLiveSpool *spool)
{
  if (spool == NULL)
    return;
  GHashTableIter it;
  gpointer fd;
  g_hash_table_iter_init (&it, spool->files);
  while (g_hash_table_iter_next (&it, NULL, &fd))
    close (GPOINTER_TO_INT (fd) - 1);
  g_hash_table_unref (spool->files);
  ttv_remove_tree (spool->path);
  g_free (spool->path);
  g_free (spool);
}

const char *
ttv_live_spool_get_path (const TtvLiveSpool *spool)
{
  return spool->path;
}

guint64
ttv_live_spool_get_size (const TtvLiveSpool *spool)
{
  return spool->size;
}

static gboolean
safe_component (const char *c)
{
  return c[0] != '\0' && c[0] != '.' && strchr (c, '\\') == NULL;
}

gboolean
ttv_live_spool_check_name (const char *dir, const char *name, GError **error)
{
  gboolean ok = dir[0] != '\0' && dir[0] != '/' && safe_component (name) && strchr (name, '/') == NULL;
  g_auto (GStrv) parts = g_strsplit (dir, "/", -1);
  for (guint i = 0; ok && parts[i]; i++)
    ok = safe_component (parts[i]);
  if (!ok)
    g_set_error (error, TTV_LIVE_ERROR, TTV_LIVE_ERROR_PROTOCOL,
                 _("the relay names a stream “%s/%s”, which is no relative path without “.”, “..” or hidden names"),
                 dir, name);
  return ok;
}

static int
open_file (TtvLiveSpool *spool, const char *key, const char *dir, GError **error)
{
  gpointer value = g_hash_table_lookup (spool->files, key);
  if (value)
    return GPOINTER_TO_INT (value) - 1;
  g_autofree char *full_dir = g_build_filename (spool->path, dir, NULL);
  g_autofree char *path = g_build_filename (spool->path, key, NULL);
  int fd = -1;
  if (g_mkdir_with_parents (full_dir, 0700) == 0)
    fd = open (path, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0600);
  if (fd < 0)
    {
      int err = errno;
      g_set_error (error, TTV_LIVE_ERROR, TTV_LIVE_ERROR_SPOOL, _("cannot create %s: %s"), path, g_strerror (err));
      return -1;
    }
  g_hash_table_insert (spool->files, g_strdup (key), GINT_TO_POINTER (fd + 1));
  return fd;
}

gboolean
ttv_live_spool_append (TtvLiveSpool *spool, const char *dir, const char *name, const guint8 *data, gsize len,
                       GError **error)
{
  g_autofree char *key = g_build_filename (dir, name, NULL);
  int fd = open_file (spool, key, dir, error);
  if (fd < 0)
    return FALSE;
  off_t start = lseek (fd, 0, SEEK_END);
  for (gsize done = 0; done < len;)
    {
      ssize_t n = write (fd, data + done, len - done);
      if (n < 0 && errno == EINTR)
        continue;
      if (n <= 0)
        {
          int err = n < 0 ? errno : ENOSPC;
          /* Readers must never see half a packet. */
          if (start >= 0 && ftruncate (fd, start) != 0)
            g_warning ("cannot cut %s/%s back: %s", spool->path, key, g_strerror (errno));
          g_set_error (error, TTV_LIVE_ERROR, TTV_LIVE_ERROR_SPOOL, _("cannot write %s/%s: %s"), spool->path, key,
                       g_strerror (err));
          return FALSE;
        }
      done += (gsize) n;
    }
  spool->size += len;
  return TRUE;
}

void
ttv_live_spool_close_file (TtvLiveSpool *spool, const char *dir, const char *name)
{
  g_autofree char *key = g_build_filename (dir, name, NULL);
  gpointer stolen, value;
  if (g_hash_table_steal_extended (spool->files, key, &stolen, &value))
    {
      close (GPOINTER_TO_INT (value) - 1);
      g_free (stolen);
    }
}
