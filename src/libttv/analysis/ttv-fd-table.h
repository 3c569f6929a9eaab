/* ttv-fd-table.h: one process's open file descriptors, as the fd tracker
 * of the kernel analyses learns them: fd to a name the caller owns.
 * Looked up at every system call with an fd argument, so an
 * open-addressing table of unboxed keys. */
#pragma once

#include <glib.h>

G_BEGIN_DECLS

typedef struct {
  guint32 *fds;            /* [capacity] */
  const char **names;      /* [capacity]; NULL: an empty slot */
  guint capacity;          /* 0 or a power of two */
  guint n;                 /* names held */
} TtvFdTable;

/* Fds are the kernel's ints: only the low 32 bits of @fd count. */
void        ttv_fd_table_init (TtvFdTable *table);
void        ttv_fd_table_clear (TtvFdTable *table);
/* The name of @fd, or NULL. */
const char *ttv_fd_table_lookup (const TtvFdTable *table, gint64 fd);
/* @name (not copied, not NULL) as @fd, replacing any before. */
void        ttv_fd_table_insert (TtvFdTable *table, gint64 fd, const char *name);
void        ttv_fd_table_remove (TtvFdTable *table, gint64 fd);
guint       ttv_fd_table_size (const TtvFdTable *table);
/* @dst (initialized or cleared) as a copy of @src: a child's files after fork. */
void        ttv_fd_table_copy (TtvFdTable *dst, const TtvFdTable *src);

G_END_DECLS
