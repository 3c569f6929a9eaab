/* ttv-view-action-state.c: action states made of packed arrays (see the
 * header). */
#include "ttv-view-action-state.h"

GVariant *
ttv_view_action_state_array (const GVariantType *type, gconstpointer data, gsize size)
{
  g_autoptr (GBytes) bytes = g_bytes_new (data, size);

  return g_variant_new_from_bytes (type, bytes, TRUE);
}
