/* ttv-latency-throughput.c: the Block I/O view's throughput lists, per
 * device and per process, of the requests completed in the window: the
 * figures `ttv-report --analysis block` prints, formatted as it does
 * (bytes and bytes per second as integers), request time as the latency
 * views show durations; with several machines, a device's or a process's
 * name says its machine, as the CPU usage's threads do.  Used by
 * ttv-latency-viewer.c. */
#include "ttv-latency-viewer.h"
#include "ttv-view-text.h"
#include "ttv-view-list.h"

#include <glib/gi18n-lib.h>

/* The store's columns: text shown, then the numbers they sort by. */
enum {
  COL_KEY, COL_NAME, COL_REQUESTS, COL_READ, COL_WRITTEN, COL_READ_RATE, COL_WRITE_RATE, COL_BUSY, COL_N_TEXT,
  COL_KEY_V = COL_N_TEXT, COL_REQUESTS_V, COL_READ_V, COL_WRITTEN_V, COL_READ_RATE_V, COL_WRITE_RATE_V, COL_BUSY_V,
  COL_N
};

GtkWidget *
ttv_latency_throughput_view_new (gboolean by_process)
{
  GtkListStore *store = gtk_list_store_new (COL_N, G_TYPE_STRING, G_TYPE_STRING, G_TYPE_STRING, G_TYPE_STRING,
                                            G_TYPE_STRING, G_TYPE_STRING, G_TYPE_STRING, G_TYPE_STRING, G_TYPE_UINT,
                                            G_TYPE_UINT64, G_TYPE_UINT64, G_TYPE_UINT64, G_TYPE_DOUBLE, G_TYPE_DOUBLE,
                                            G_TYPE_INT64);
  /* As the CPU usage's threads: a process by its name first, then its PID. */
  const TtvViewListColumn figures[] = {
    { _("Requests"), COL_REQUESTS, COL_REQUESTS_V }, { _("Read bytes"), COL_READ, COL_READ_V },
    { _("Written bytes"), COL_WRITTEN, COL_WRITTEN_V }, { _("Read B/s"), COL_READ_RATE, COL_READ_RATE_V },
    { _("Written B/s"), COL_WRITE_RATE, COL_WRITE_RATE_V }, { _("Request time"), COL_BUSY, COL_BUSY_V },
  };
  TtvViewListColumn cols[2 + G_N_ELEMENTS (figures)];
  guint n = 0;
  if (by_process)
    {
      cols[n++] = (TtvViewListColumn) { _("Name"), COL_NAME, COL_NAME };
      cols[n++] = (TtvViewListColumn) { _("PID"), COL_KEY, COL_KEY_V };
    }
  else
    cols[n++] = (TtvViewListColumn) { _("Device"), COL_NAME, COL_NAME };
  for (guint i = 0; i < G_N_ELEMENTS (figures); i++)
    cols[n++] = figures[i];
  GtkWidget *view = ttv_view_list_new (GTK_TREE_MODEL (store), cols, n, TRUE);
  g_object_unref (store);
  gtk_widget_set_name (view, by_process ? "latency-processes" : "latency-devices");
  return view;
}

void
ttv_latency_throughput_fill (GtkWidget *view, TtvViewerTable *table, GArray *usage)
{
  gboolean machines = table && ttv_viewer_table_get_n_machines (table) > 1;
  GtkListStore *store = GTK_LIST_STORE (gtk_tree_view_get_model (GTK_TREE_VIEW (view)));
  gtk_list_store_clear (store);
  for (guint i = 0; usage && i < usage->len; i++)
    {
      const TtvViewerBlockUsage *u = &g_array_index (usage, TtvViewerBlockUsage, i);
      g_autofree char *key = u->key == TTV_VIEWER_PID_NONE ? g_strdup ("") : g_strdup_printf ("%u", u->key);
      g_autofree char *requests = g_strdup_printf ("%" G_GUINT64_FORMAT, u->requests);
      g_autofree char *read = g_strdup_printf ("%" G_GUINT64_FORMAT, u->read_bytes);
      g_autofree char *written = g_strdup_printf ("%" G_GUINT64_FORMAT, u->write_bytes);
      g_autofree char *read_rate = g_strdup_printf ("%.0f", u->read_rate);
      g_autofree char *write_rate = g_strdup_printf ("%.0f", u->write_rate);
      g_autofree char *busy = ttv_viewer_format_duration (u->busy);
      g_autofree char *name = machines ? g_strdup_printf ("%s: %s", ttv_viewer_table_get_machine_name (table, u->machine),
                                                          u->name)
                                       : g_strdup (u->name);
      g_autofree char *valid = NULL;
      gtk_list_store_insert_with_values (store, NULL, -1, COL_KEY, key, COL_NAME, ttv_view_valid_text (name, &valid),
                                         COL_REQUESTS, requests,
                                         COL_READ, read, COL_WRITTEN, written, COL_READ_RATE, read_rate,
                                         COL_WRITE_RATE, write_rate, COL_BUSY, busy, COL_KEY_V, u->key,
                                         COL_REQUESTS_V, u->requests, COL_READ_V, u->read_bytes,
                                         COL_WRITTEN_V, u->write_bytes, COL_READ_RATE_V, u->read_rate,
                                         COL_WRITE_RATE_V, u->write_rate, COL_BUSY_V, (gint64) u->busy, -1);
    }
}
