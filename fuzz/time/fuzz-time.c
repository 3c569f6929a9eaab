/* fuzz-time.c: libFuzzer target for the times users type: ttv_time_parse
 * (bookmarks, filters), ttv_time_parse_argument (ttv-report --start, --end,
 * --state-at) and ttv_time_parse_text (the viewer's time entries, every
 * format).  Whatever parses must print back to the same time. */
#include "ttv-time.h"
#include "ttv-error.h"

#include <string.h>

int LLVMFuzzerTestOneInput (const guint8 *data, size_t size);

/* The first bytes choose the origin and the "near" time of the text forms. */
static gint64
take_i64 (const guint8 **data, size_t *size)
{
  guint64 v = 0;
  for (int i = 0; i < 8 && *size > 0; i++, (*data)++, (*size)--)
    v = v << 8 | **data;
  return (gint64) v;
}

int
LLVMFuzzerTestOneInput (const guint8 *data, size_t size)
{
  TtvTime origin = take_i64 (&data, &size);
  TtvTime near = take_i64 (&data, &size);
  char *text = g_strndup ((const char *) data, size);
  TtvTime t;
  GError *error = NULL;
  char buf[TTV_TIME_TEXT_MAX];

  if (ttv_time_parse (text, &t, NULL))
    {
      /* Seconds with nine decimals read back exactly. */
      TtvTime back;
      g_assert (ttv_time_parse (ttv_time_to_string (t, buf, sizeof buf), &back, NULL) && back == t);
    }
  /* The origin, or none when the traces have no event. */
  if (ttv_time_parse_argument (text, near & 1 ? &origin : NULL, &t, &error))
    g_assert (error == NULL);
  else
    {
      g_assert (error != NULL && error->domain == TTV_USAGE_ERROR);
      g_clear_error (&error);
    }
  for (TtvTimeFormat f = TTV_TIME_FORMAT_RELATIVE; f <= TTV_TIME_FORMAT_LOCAL; f++)
    {
      if (!ttv_time_parse_text (text, f, origin, near, &t, &error))
        {
          g_assert (error != NULL);
          g_clear_error (&error);
          continue;
        }
      /* Relative and absolute forms print back to the same time. */
      if (f == TTV_TIME_FORMAT_ABSOLUTE || (f == TTV_TIME_FORMAT_RELATIVE && origin > TTV_TIME_MIN / 2
                                            && origin < TTV_TIME_MAX / 2 && t > TTV_TIME_MIN / 2
                                            && t < TTV_TIME_MAX / 2))
        {
          TtvTime back;
          ttv_time_format_text (t, f, origin, 9, buf, sizeof buf);
          if (!ttv_time_parse_text (buf, f, origin, near, &back, NULL) || back != t)
            g_error ("%s in format %d prints as %s, which reads back as %" G_GINT64_FORMAT, text, f, buf,
                     back);
        }
    }
  g_free (text);
  return 0;
}
