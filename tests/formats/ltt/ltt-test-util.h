/* ltt-test-util.h: helpers shared by the LTT format tests: temporary trace
 * directories and comparing decoded values with the scalars that were encoded. */
#pragma once

#include "ttv-test-util.h"

#include "ttv-decoder.h"
#include "ttv-encoder.h"

#include <glib/gstdio.h>
#include <string.h>

/* A fresh directory path (not created) in the test's temporary directory. */
static inline char *
ltt_test_tmp_trace (const char *name)
{
  return ttv_test_dup_tmp_path (name);
}

/* The decoded tree of @index in the encoder's walk order (strings borrowed). */
static inline void
ltt_test_flatten (const TtvDecoder *d, guint32 index, GArray *out)
{
  const TtvValue *v = ttv_decoder_get (d, index);
  TtvScalar s = { 0 };
  switch (v->type->kind)
    {
    case TTV_TYPE_INTEGER:
    case TTV_TYPE_ENUM:
      s.kind = TTV_TYPE_INTEGER;
      s.u = v->v.u;
      g_array_append_val (out, s);
      break;
    case TTV_TYPE_FLOAT:
      s.kind = TTV_TYPE_FLOAT;
      s.f = v->v.f;
      g_array_append_val (out, s);
      break;
    case TTV_TYPE_STRING:
      s.kind = TTV_TYPE_STRING;
      s.str = v->v.string.str;
      g_array_append_val (out, s);
      break;
    case TTV_TYPE_SEQUENCE:
    case TTV_TYPE_VARIANT:
      s.kind = TTV_TYPE_INTEGER;
      s.u = v->type->kind == TTV_TYPE_SEQUENCE ? v->n_children : v->v.u;
      g_array_append_val (out, s);
      /* fall through */
    case TTV_TYPE_ARRAY:
    case TTV_TYPE_STRUCT:
      for (guint32 i = 0; i < v->n_children; i++)
        ltt_test_flatten (d, v->first_child + i, out);
      break;
    }
}

static inline void
ltt_test_assert_scalars (const TtvScalar *want, guint n, const GArray *got)
{
  g_assert_cmpuint (got->len, ==, n);
  for (guint i = 0; i < n; i++)
    {
      const TtvScalar *g = &g_array_index (got, TtvScalar, i);
      g_assert_cmpint (g->kind, ==, want[i].kind);
      switch (want[i].kind)
        {
        case TTV_TYPE_INTEGER:
          g_assert_cmphex (g->u, ==, want[i].u);
          break;
        case TTV_TYPE_FLOAT:
          g_assert_true (g->f == want[i].f || g->f == (double) (float) want[i].f);
          break;
        case TTV_TYPE_STRING:
          g_assert_cmpstr (g->str, ==, want[i].str ? want[i].str : "");
          break;
        default:
          g_assert_not_reached ();
        }
    }
}
