/* ttv-test-util.c: helpers shared by the tests (see ttv-test-util.h). */
#include "ttv-test-util.h"

#include <glib/gstdio.h>

void
ttv_test_remove_tree (const char *path)
{
  g_autoptr (GDir) dir = g_dir_open (path, 0, NULL);
  if (dir)
    {
      const char *name;
      while ((name = g_dir_read_name (dir)))
        {
          g_autofree char *child = g_build_filename (path, name, NULL);
          if (g_file_test (child, G_FILE_TEST_IS_DIR) && !g_file_test (child, G_FILE_TEST_IS_SYMLINK))
            ttv_test_remove_tree (child);
          else
            g_remove (child);
        }
    }
  g_remove (path);
}

char *
ttv_test_dup_shared_ctf_trace (const char *name)
{
  const char *shared = g_getenv ("TTV_SHARED_DIR");
  char *path = g_build_filename (shared ? shared : "../shared", "traces", "ctf", name, NULL);
  if (!g_file_test (path, G_FILE_TEST_IS_DIR))
    {
      g_autofree char *msg = g_strdup_printf ("%s absent: the shared traces are not beside the project", path);
      g_test_skip (msg);
      g_free (path);
      return NULL;
    }
  return path;
}

void
ttv_test_write_ltt_simulation (const char *trace_dir, TtvSim *sim, guint32 block_size,
                               guint n_cpu_slots, TtvSimEmitFunc tap, gpointer tap_data)
{
  g_autoptr (GError) error = NULL;
  TtvLttWriterOptions wo = {
    .byte_order = TTV_BYTE_ORDER_LITTLE,
    .arch_size = TTV_LTT_ARCH_LP64,
    .block_size = block_size,
    .start_time = ttv_sim_get_time (sim),
    .n_cpu_slots = n_cpu_slots,
  };
  g_assert_true (ttv_ltt_write_simulation (trace_dir, sim, &wo, tap, tap_data, NULL, &error));
  g_assert_no_error (error);
}
