/* ttv-decode-plan.h: decode plans, a type tree compiled once into what the
 * decoder does for it (ttv-decoder.c runs them; ttv-type.c frees them). */
#pragma once

#include "ttv-decoder-private.h"

G_BEGIN_DECLS

typedef struct _TtvDecodePlan TtvDecodePlan;

/* Stands for "this type has no plan" in type->plan. */
extern TtvDecodePlan ttv_decode_no_plan;

const TtvDecodePlan *ttv_decode_plan_compile (const TtvType *type);

/* @type's plan, compiled on the first call (kept in type->plan; safe from
 * several threads), or NULL when the type needs the walk of its tree: a
 * reference the plan cannot resolve inside the type (to another scope, or
 * through a variant), or an odd alignment. */
static inline const TtvDecodePlan *
ttv_decode_plan_get (const TtvType *type)
{
  TtvDecodePlan *plan = g_atomic_pointer_get ((TtvDecodePlan **) &type->plan);
  if (G_LIKELY (plan != NULL))
    return plan == &ttv_decode_no_plan ? NULL : plan;
  return ttv_decode_plan_compile (type);
}
void ttv_decode_plan_free (gpointer plan);

/* Decodes a value into node @node (its type and name already set), as the
 * walk of the type tree would.  FALSE on any failure, the node array then
 * being undefined past its length before the call: the caller truncates it
 * and walks the tree for the exact error. */
gboolean ttv_decode_plan_run (const TtvDecodePlan *plan, TtvDecoder *d, guint32 node,
                              const guint8 *buf, guint64 buf_bits, guint64 *bit_pos);
/* ttv_decoder_decode of a value of the type whose plan this is: new nodes,
 * their root registered as @scope_name when set.  Where the plan fails
 * (damage, a limit), the walk of the type tree finds the error. */
gint32 ttv_decode_plan_decode (const TtvDecodePlan *plan, TtvDecoder *d, const char *scope_name,
                               const guint8 *buf, guint64 buf_bits, guint64 *bit_pos, GError **error);
/* ttv_decode_plan_decode without an error (-1 on failure): six
 * arguments, which a caller of fewer can call in tail position. */
gint32 ttv_decode_plan_decode_quiet (const TtvDecodePlan *plan, TtvDecoder *d, const char *scope_name,
                                     const guint8 *buf, guint64 buf_bits, guint64 *bit_pos);
/* Advances *bit_pos past a value without making nodes; FALSE on failure. */
gboolean ttv_decode_plan_skip (const TtvDecodePlan *plan, const guint8 *buf, guint64 buf_bits,
                               guint64 *bit_pos);

G_END_DECLS
