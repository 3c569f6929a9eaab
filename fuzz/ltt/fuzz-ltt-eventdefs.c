/* fuzz-ltt-eventdefs.c: fuzz target for the LTT XML passes: the input is parsed
 * as an eventdefs file, then becomes eventdefs/core.xml of a small valid trace. */
#include "fuzz-ltt-skeleton.h"

int
LLVMFuzzerTestOneInput (const guint8 *data, size_t size)
{
  skeleton_get ();
  /* The parser alone, whatever the checksum: every arch. */
  for (guint arch = 0; arch < 4; arch++)
    {
      TtvLttSystem sys = { .byte_order = arch % 2 ? TTV_BYTE_ORDER_BIG : TTV_BYTE_ORDER_LITTLE,
                           .arch = arch, .block_size = 256, .freq = 1000000000u };
      ttv_ltt_arch_sizes (arch, &sys.short_bits, &sys.int_bits, &sys.long_bits, &sys.pointer_bits);
      GError *error = NULL;
      xmlDoc *doc = ttv_ltt_xml_read ("fuzz.xml", (const char *) data, size, &error);
      if (doc)
        {
          GPtrArray *out = g_ptr_array_new_with_free_func ((GDestroyNotify) ttv_ltt_facility_free);
          if (!ttv_ltt_eventdefs_parse (doc, "fuzz.xml", &sys, out, &error))
            g_clear_error (&error);
          for (guint i = 0; i < out->len; i++)
            {
              TtvLttFacility *f = g_ptr_array_index (out, i);
              for (guint k = 0; k < f->events->len; k++)
                g_free (ttv_type_dup_signature (((TtvLttEventDef *) g_ptr_array_index (f->events, k))->fields));
            }
          g_ptr_array_unref (out);
          xmlFreeDoc (doc);
        }
      g_clear_error (&error);
    }
  skeleton_write ("eventdefs/core.xml", data, size);
  skeleton_read_all ();
  return 0;
}
