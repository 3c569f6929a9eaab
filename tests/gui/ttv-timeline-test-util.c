/* ttv-timeline-test-util.c: helpers of the time line tests (see the header). */
#include "ttv-config.h"

#include "ttv-timeline-test-util.h"

#include "ttv-gui-test-util.h"

/* LeakSanitizer (ASan builds): GLib drops its first quark block (2048
 * quarks, allocated by its library constructor) when the quark table grows,
 * on purpose (gquark.c: lockless lookups).  The GTK widgets of the views
 * plus the real traces' names pass 2048 quarks in these tests.  Allocations
 * made while libraries initialise are one-time by nature. */
const char *__lsan_default_suppressions (void);
const char *
__lsan_default_suppressions (void)
{
  return "leak:_dl_init\n";
}

/* The frames above GLib's allocator: without them the suppression above
 * cannot see that the block comes from a library constructor. */
const char *__asan_default_options (void);
const char *
__asan_default_options (void)
{
  return "fast_unwind_on_malloc=0";
}

guint32
ttv_test_pixel (cairo_surface_t *s, int x, int y)
{
  const guint8 *data = cairo_image_surface_get_data (s);

  g_assert_cmpint (x, >=, 0);
  g_assert_cmpint (y, >=, 0);
  g_assert_cmpint (x, <, cairo_image_surface_get_width (s));
  g_assert_cmpint (y, <, cairo_image_surface_get_height (s));
  return *(const guint32 *) (data + y * cairo_image_surface_get_stride (s) + x * 4) & 0xffffffu;
}

cairo_surface_t *
ttv_test_load_png (const char *path)
{
  cairo_surface_t *s = cairo_image_surface_create_from_png (path);

  g_assert_cmpint (cairo_surface_status (s), ==, CAIRO_STATUS_SUCCESS);
  cairo_surface_flush (s);
  return s;
}

int
ttv_test_header_of (cairo_surface_t *s)
{
  int h = cairo_image_surface_get_height (s);

  for (int y = 0; y < h; y++)
    if (ttv_test_pixel (s, 1, y) == 0xe6e6e6 || ttv_test_pixel (s, 1, y) == 0xf7f7f7)
      return y;
  return h;
}

guint
ttv_test_count_rows (cairo_surface_t *s)
{
  int h = cairo_image_surface_get_height (s);
  guint n = 0;

  for (int y = ttv_test_header_of (s) + 9; y < h; y += 18)
    {
      guint32 p = ttv_test_pixel (s, 1, y);

      if (p == 0xffffff)
        break;
      /* Alternating stripes: tells a row from the next. */
      g_assert_cmphex (p, ==, n % 2 == 0 ? 0xe6e6e6 : 0xf7f7f7);
      n++;
    }
  return n;
}

GArray *
ttv_test_shown_pids (GtkWidget *cf)
{
  g_autoptr (GVariant) v = g_action_group_get_action_state (gtk_widget_get_action_group (cf, "controlflow"),
                                                            "shown-pids");
  gsize n = 0;
  const guint32 *pids = g_variant_get_fixed_array (v, &n, sizeof (guint32));
  GArray *a = g_array_new (FALSE, FALSE, sizeof (guint32));

  g_array_append_vals (a, pids, n);
  return a;
}

gboolean
ttv_test_pids_contain (GArray *pids, guint32 pid)
{
  for (guint i = 0; i < pids->len; i++)
    if (g_array_index (pids, guint32, i) == pid)
      return TRUE;
  return FALSE;
}

void
ttv_test_set_search (GtkWidget *viewer, const char *text)
{
  GtkWidget *entry = ttv_gui_test_find_widget (viewer, GTK_TYPE_SEARCH_ENTRY, NULL);

  g_assert_nonnull (entry);
  gtk_entry_set_text (GTK_ENTRY (entry), text);
  g_signal_emit_by_name (entry, "search-changed");
}

gboolean
ttv_test_find_interval (const TtvHistory *h, guint low, TtvExecMode mode, guint *row,
                        TtvHistoryInterval *out)
{
  TtvTime best = 0;

  for (guint r = 0; r < ttv_history_get_n_rows (h, TTV_HISTORY_ROW_PROCESS); r++)
    {
      const TtvHistoryRowInfo *info = ttv_history_get_row (h, TTV_HISTORY_ROW_PROCESS, r);
      g_autoptr (GArray) ivs = NULL;

      if (info->id == 0)
        continue;
      ivs = ttv_history_query_intervals (h, TTV_HISTORY_ROW_PROCESS, r, G_MININT64, G_MAXINT64);
      for (guint i = 0; i < ivs->len; i++)
        {
          const TtvHistoryInterval *iv = &g_array_index (ivs, TtvHistoryInterval, i);

          if (ttv_history_state_low (iv->state) == low && ttv_history_state_mode (iv->state) == mode
              && iv->end - iv->start > best)
            {
              best = iv->end - iv->start;
              *row = r;
              *out = *iv;
            }
        }
    }
  return best > 0;
}

gboolean *
ttv_test_active_pixels (const TtvHistory *h, TtvHistoryRowKind kind, guint row, TtvTime t0, TtvTime t1,
                        guint w, gboolean (*busy) (guint16 state))
{
  g_autoptr (GArray) ivs = ttv_history_query_intervals (h, kind, row, t0, t1);
  gboolean *out = g_new0 (gboolean, w);

  for (guint i = 0; i < ivs->len; i++)
    {
      const TtvHistoryInterval *iv = &g_array_index (ivs, TtvHistoryInterval, i);
      double a, b;

      if (!busy (iv->state) || iv->end <= t0 || iv->start >= t1)
        continue;
      a = (double) (MAX (iv->start, t0) - t0) / (double) (t1 - t0) * w;
      b = (double) (MIN (iv->end, t1) - t0) / (double) (t1 - t0) * w;
      for (guint x = (guint) a; x < w && x < b; x++)
        out[x] = TRUE;
    }
  return out;
}

gboolean
ttv_test_irq_active (guint16 state)
{
  return ttv_history_state_low (state) != 0;
}
