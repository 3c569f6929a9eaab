/* fuzz-ltt-system.c: libFuzzer target for info/system.xml: the safe XML
 * reader's markup pass and limits, libxml2 under them, and the
 * description of the traced machine (ttv_ltt_system_parse). */
#include "ttv-ltt-private.h"

#include <string.h>

int LLVMFuzzerTestOneInput (const guint8 *data, size_t size);

int
LLVMFuzzerTestOneInput (const guint8 *data, size_t size)
{
  GError *error = NULL;
  TtvLttSystem sys;
  TtvTrace *t = NULL;
  if (size > 0 && data[0] & 1)
    {
      /* Half the time, with a trace to receive the description. */
      t = g_new0 (TtvTrace, 1);
      t->info_keys = g_ptr_array_new_with_free_func (g_free);
      t->info = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, g_free);
    }
  if (ttv_ltt_system_parse ("fuzz/system.xml", (const char *) data, size, t, &sys, &error))
    {
      g_assert (error == NULL);
      g_assert (sys.block_size >= TTV_LTT_MIN_BLOCK_SIZE && sys.block_size <= TTV_LTT_MAX_BLOCK_SIZE);
      g_assert (sys.freq > 0);
    }
  else
    {
      /* Every refusal names the file. */
      g_assert (error != NULL && strncmp (error->message, "fuzz/system.xml", 15) == 0);
      g_error_free (error);
    }
  if (t)
    {
      g_ptr_array_unref (t->info_keys);
      g_hash_table_unref (t->info);
      g_free (t);
    }
  return 0;
}
