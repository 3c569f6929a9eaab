/* ttv-analysis-output.h: what every analysis report is written with:
 * tables that print aligned (text) or as CSV, and JSON strings, so that
 * every `ttv-report --analysis` output looks and parses alike. */
#pragma once

#include "ttv-json-out.h"

#include <glib.h>

G_BEGIN_DECLS

/* Appends ,"key": then a string / an integer / a number (with @key escaped). */
void        ttv_json_append_member_string (GString *out, const char *key, const char *value);
void        ttv_json_append_member_int (GString *out, const char *key, gint64 value);
void        ttv_json_append_member_double (GString *out, const char *key, double value);

typedef struct _TtvTable TtvTable;

/* A table of @n_columns; @headings (translated by the caller); columns
 * whose heading starts with '>' are right-aligned (numbers), the '>' is
 * not shown. */
TtvTable   *ttv_table_new (guint n_columns, const char *const *headings);
/* The same after a first column headed @first, when not NULL: the machine
 * column of a report over several machines (docs/multi-machine.md). */
TtvTable   *ttv_table_new_after (const char *first, guint n_columns, const char *const *headings);
/* A row to fill for ttv_table_add_row_take(): holding a copy of @first as
 * its first cell when not NULL (the row's machine, in such a table). */
GPtrArray  *ttv_table_row_new (const char *first);
void        ttv_table_free (TtvTable *table);
/* Adds a row of n_columns strings (copied; NULL prints as empty). */
void        ttv_table_add_row (TtvTable *table, const char *const *cells);
/* The same, taking a GPtrArray of owned strings (freed). */
void        ttv_table_add_row_take (TtvTable *table, GPtrArray *cells);
guint       ttv_table_get_n_rows (const TtvTable *table);
/* Aligned columns two spaces apart, each line starting with @indent;
 * at most @max_rows rows (0: all), then a line saying how many were left out. */
void        ttv_table_append_text (const TtvTable *table, GString *out, const char *indent, guint max_rows);
/* RFC 4180: a heading line then the rows, quoted where needed. */
void        ttv_table_append_csv (const TtvTable *table, GString *out);
/* One RFC 4180 field: @text as it is, or quoted (quotes doubled) when it
 * holds a comma, a quote or a line break. */
void        ttv_csv_append_field (GString *out, const char *text);

G_DEFINE_AUTOPTR_CLEANUP_FUNC (TtvTable, ttv_table_free)

G_END_DECLS
