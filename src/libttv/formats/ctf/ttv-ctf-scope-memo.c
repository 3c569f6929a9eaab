/* ttv-ctf-scope-memo.c: the text of a context kept with its bytes (see
 * ttv-ctf-scope-memo.h). */
#include "ttv-ctf-scope-memo.h"

static gint plans_freed;

gint
ttv_ctf_scope_memo_generation (void)
{
  return g_atomic_int_get (&plans_freed);
}

void
ttv_ctf_scope_memo_plans_freed (void)
{
  g_atomic_int_inc (&plans_freed);
}

void
ttv_ctf_scope_memo_keep (TtvCtfScopeMemo *memo, const TtvType *type, gint generation, const guint8 *bytes,
                         gsize n_bytes, const char *text, gsize text_len)
{
  g_assert (n_bytes <= TTV_CTF_SCOPE_MEMO_BYTES);
  if (text_len > TTV_CTF_SCOPE_MEMO_TEXT)
    {
      memo->type = NULL;
      return;
    }
  memo->type = type;
  memo->generation = generation;
  memcpy (memo->bytes, bytes, n_bytes);
  memo->text_len = text_len;
  memcpy (memo->text, text, text_len);
}
