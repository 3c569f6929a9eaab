/* ttv-view-action-state.h: a viewer's action state made of a packed
 * array (the control flow's shown threads, the histogram's column counts),
 * for scripts and tests that read what a view shows. */
#pragma once

#include <glib.h>

G_BEGIN_DECLS

/* The @size bytes at @data (may be NULL when @size is 0), elements of a
 * fixed size whose every byte pattern is a value (numbers, tuples of
 * numbers), as a GVariant array of @type over a copy of them.  Trusted,
 * since such bytes are the array's normal form: g_simple_action_set_state
 * compares the new state with the old one, and g_variant_equal compares
 * untrusted values by printing them (60 ms for the pids of 79,000
 * processes, at every keystroke of the control flow's search). */
GVariant *ttv_view_action_state_array (const GVariantType *type, gconstpointer data, gsize size);

G_END_DECLS
