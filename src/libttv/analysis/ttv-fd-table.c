/* ttv-fd-table.c: (thread group, fd) -> file name (see ttv-fd-table.h):
 * linear probing at most half full; a removal moves the entries after the
 * hole back instead of leaving a tombstone, since traces open and close
 * files all through. */
#include "ttv-fd-table.h"

#include <string.h>

/* Small: a table per process, most with a few files. */
#define MIN_CAPACITY 8u

/* Only the low 32 bits of an fd: as the kernel's int. */
static guint64
fd_key (guint32 tgid, gint64 fd)
{
  return (guint64) tgid << 32 | (guint32) fd;
}

/* Fibonacci hashing: the tgid in the high half still moves the slot. */
static guint
home_slot (guint64 key, guint capacity)
{
  return (guint) ((key * G_GUINT64_CONSTANT (0x9E3779B97F4A7C15)) >> 32) & (capacity - 1);
}

/* The slot of @key, or the empty slot where it would go. */
static guint
find_slot (const TtvFdTable *t, guint64 key)
{
  guint i = home_slot (key, t->capacity);
  while (t->names[i] && t->keys[i] != key)
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
  g_free (t->keys);
  g_free (t->names);
  ttv_fd_table_init (t);
}

const char *
ttv_fd_table_lookup (const TtvFdTable *t, guint32 tgid, gint64 fd)
{
  return t->capacity ? t->names[find_slot (t, fd_key (tgid, fd))] : NULL;
}

static void
resize (TtvFdTable *t, guint capacity)
{
  TtvFdTable old = *t;
  t->keys = g_new (guint64, capacity);
  t->names = g_new0 (const char *, capacity);
  t->capacity = capacity;
  for (guint i = 0; i < old.capacity; i++)
    if (old.names[i])
      {
        guint j = find_slot (t, old.keys[i]);
        t->keys[j] = old.keys[i];
        t->names[j] = old.names[i];
      }
  g_free (old.keys);
  g_free (old.names);
}

void
ttv_fd_table_insert (TtvFdTable *t, guint32 tgid, gint64 fd, const char *name)
{
  g_return_if_fail (name != NULL);
  if (2 * (t->n + 1) > t->capacity)
    resize (t, t->capacity ? 2 * t->capacity : MIN_CAPACITY);
  guint64 key = fd_key (tgid, fd);
  guint i = find_slot (t, key);
  if (t->names[i] == NULL)
    t->n++;
  t->keys[i] = key;
  t->names[i] = name;
}

void
ttv_fd_table_remove (TtvFdTable *t, guint32 tgid, gint64 fd)
{
  if (t->capacity == 0)
    return;
  guint mask = t->capacity - 1;
  guint hole = find_slot (t, fd_key (tgid, fd));
  if (t->names[hole] == NULL)
    return;
  t->n--;
  /* An entry after the hole stays when its home slot lies cyclically in
   * (hole, j]: its probe did not pass over the hole.  Else it moves into
   * the hole, and its old slot is the new hole. */
  for (guint j = (hole + 1) & mask; t->names[j]; j = (j + 1) & mask)
    {
      guint home = home_slot (t->keys[j], t->capacity);
      gboolean stays = hole <= j ? (home > hole && home <= j) : (home > hole || home <= j);
      if (stays)
        continue;
      t->keys[hole] = t->keys[j];
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
ttv_fd_table_copy_as (TtvFdTable *dst, const TtvFdTable *src, guint32 tgid)
{
  for (guint i = 0; i < src->capacity; i++)
    if (src->names[i])
      ttv_fd_table_insert (dst, tgid, (gint32) (guint32) src->keys[i], src->names[i]);
}
