/* ttv-fd-table.c: a process's fd -> file name (see ttv-fd-table.h):
 * linear probing at most half full; a removal moves the entries after the
 * hole back instead of leaving a tombstone, since traces open and close
 * files all through. */
#include "ttv-fd-table.h"

#include <string.h>

/* Small: a table per process, most with a few files. */
#define MIN_CAPACITY 8u

/* Only the low 32 bits of an fd: as the kernel's int. */
static guint32
fd_key (gint64 fd)
{
  return (guint32) fd;
}

/* Fibonacci hashing: fds come in runs from 0. */
static guint
home_slot (guint32 key, guint capacity)
{
  return (guint) (((guint64) key * G_GUINT64_CONSTANT (0x9E3779B97F4A7C15)) >> 32) & (capacity - 1);
}

/* The slot of @key, or the empty slot where it would go. */
static guint
find_slot (const TtvFdTable *t, guint32 key)
{
  guint i = home_slot (key, t->capacity);
  while (t->names[i] && t->fds[i] != key)
    i = (i + 1) & (t->capacity - 1);
  return i;
}

void
ttv_fd_table_init (TtvFdTable *t)
{
  memset (t, 0, sizeof *t);
}

void
ttv_fd_table_clear (TtvFdTable *t)
{
  g_free (t->fds);
  g_free (t->names);
  ttv_fd_table_init (t);
}

const char *
ttv_fd_table_lookup (const TtvFdTable *t, gint64 fd)
{
  return t->capacity ? t->names[find_slot (t, fd_key (fd))] : NULL;
}

static void
resize (TtvFdTable *t, guint capacity)
{
  TtvFdTable old = *t;
  t->fds = g_new (guint32, capacity);
  t->names = g_new0 (const char *, capacity);
  t->capacity = capacity;
  for (guint i = 0; i < old.capacity; i++)
    if (old.names[i])
      {
        guint j = find_slot (t, old.fds[i]);
        t->fds[j] = old.fds[i];
        t->names[j] = old.names[i];
      }
  g_free (old.fds);
  g_free (old.names);
}

void
ttv_fd_table_insert (TtvFdTable *t, gint64 fd, const char *name)
{
  g_return_if_fail (name != NULL);
  if (2 * (t->n + 1) > t->capacity)
    resize (t, t->capacity ? 2 * t->capacity : MIN_CAPACITY);
  guint32 key = fd_key (fd);
  guint i = find_slot (t, key);
  if (t->names[i] == NULL)
    t->n++;
  t->fds[i] = key;
  t->names[i] = name;
}

void
ttv_fd_table_remove (TtvFdTable *t, gint64 fd)
{
  if (t->capacity == 0)
    return;
  guint mask = t->capacity - 1;
  guint hole = find_slot (t, fd_key (fd));
  if (t->names[hole] == NULL)
    return;
  t->n--;
  /* An entry after the hole stays when its home slot lies cyclically in
   * (hole, j]: its probe did not pass over the hole.  Else it moves into
   * the hole, and its old slot is the new hole. */
  for (guint j = (hole + 1) & mask; t->names[j]; j = (j + 1) & mask)
    {
      guint home = home_slot (t->fds[j], t->capacity);
      gboolean stays = hole <= j ? (home > hole && home <= j) : (home > hole || home <= j);
      if (stays)
        continue;
      t->fds[hole] = t->fds[j];
      t->names[hole] = t->names[j];
      hole = j;
    }
  t->names[hole] = NULL;
}

guint
ttv_fd_table_size (const TtvFdTable *t)
{
  return t->n;
}

void
ttv_fd_table_copy (TtvFdTable *dst, const TtvFdTable *src)
{
  dst->fds = src->capacity ? g_memdup2 (src->fds, src->capacity * sizeof *src->fds) : NULL;
  dst->names = src->capacity ? g_memdup2 (src->names, src->capacity * sizeof *src->names) : NULL;
  dst->capacity = src->capacity;
  dst->n = src->n;
}
