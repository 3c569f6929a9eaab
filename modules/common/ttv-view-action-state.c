/* ttv-view-action-state.c: action states made of packed arrays (see the
 * header). */
#include "ttv-view-action-state.h"

GVariant *
ttv_view_action_state_array (const GVariantType *type, GArray *array)
{
  gsize size = (gsize) array->len * g_array_get_element_size (array);
  g_autoptr (GBytes) bytes = g_bytes_new_take (g_array_steal (array, NULL), size);

  return g_variant_new_from_bytes (type, bytes, TRUE);
}
