/* ttv-fd-table.h: the file each open file descriptor of each process is,
 * as the fd tracker of the kernel analyses learns it: (thread group, fd)
 * to a name the caller owns.  Looked up at every system call with an fd
 * argument, so an open-addressing table of unboxed 64-bit keys. */
#pragma once

#include <glib.h>

G_BEGIN_DECLS

typedef struct {
  guint64 *keys;           /* [capacity]: tgid << 32 | fd */
  const char **names;      /* [capacity]; NULL: an empty slot */
  guint capacity;          /* 0 or a power of two */
  guint n;                 /* names held */
} TtvFdTable;

void        ttv_fd_table_init (TtvFdTable *table);
void        ttv_fd_table_clear (TtvFdTable *table);
/* The name of @fd of @tgid, or NULL. */
const char *ttv_fd_table_lookup (const TtvFdTable *table, guint32 tgid, gint64 fd);
/* @name (not copied, not NULL) as @fd of @tgid, replacing any before. */
void        ttv_fd_table_insert (TtvFdTable *table, guint32 tgid, gint64 fd, const char *name);
void        ttv_fd_table_remove (TtvFdTable *table, guint32 tgid, gint64 fd);
guint       ttv_fd_table_size (const TtvFdTable *table);
/* Every fd of @src (whatever its thread groups) into @dst as an fd of @tgid
 * (a child's files after fork). */
void        ttv_fd_table_copy_as (TtvFdTable *dst, const TtvFdTable *src, guint32 tgid);

G_END_DECLS
