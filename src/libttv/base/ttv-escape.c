/* ttv-escape.c: text from files and users made safe to print (see
 * ttv-escape.h). */
#include "ttv-escape.h"

#include <string.h>

static void
append_byte_escape (GString *out, guchar c)
{
  g_string_append_printf (out, "\\x%02x", c);
}

char *
ttv_escape_for_display (const char *text, gssize length)
{
  if (text == NULL)
    return g_strdup ("");
  gsize len = length < 0 ? strlen (text) : (gsize) length;
  GString *out = g_string_sized_new (len + 8);
  const char *p = text, *end = text + len;

  while (p < end)
    {
      guchar c = (guchar) *p;
      if (c < 0x80)
        {
          switch (c)
            {
            case '\n': g_string_append (out, "\\n"); break;
            case '\t': g_string_append (out, "\\t"); break;
            case '\r': g_string_append (out, "\\r"); break;
            case 0x1b: g_string_append (out, "\\e"); break;
            case '\\': g_string_append (out, "\\\\"); break;
            default:
              if (c < 0x20 || c == 0x7f)
                append_byte_escape (out, c);
              else
                g_string_append_c (out, (char) c);
              break;
            }
          p++;
          continue;
        }
      gunichar u = g_utf8_get_char_validated (p, (gssize) (end - p));
      if (u == (gunichar) -1 || u == (gunichar) -2)
        {
          append_byte_escape (out, c);
          p++;
          continue;
        }
      const char *next = g_utf8_next_char (p);
      /* C1 controls (CSI among them) and the bidirectional overrides that
       * make text read differently from what it is. */
      if ((u >= 0x80 && u < 0xa0) || (u >= 0x202a && u <= 0x202e) || (u >= 0x2066 && u <= 0x2069))
        g_string_append_printf (out, "\\u%04x", u);
      else
        g_string_append_len (out, p, next - p);
      p = next;
    }
  return g_string_free (out, FALSE);
}

/* Whether ttv_escape_for_display() would change more than backslashes. */
static gboolean
needs_escape (const char *text)
{
  const char *p = text;

  if (!g_utf8_validate (text, -1, NULL))
    return TRUE;
  for (; *p; p = g_utf8_next_char (p))
    {
      gunichar u = g_utf8_get_char (p);

      if (u < 0x20 || u == 0x7f || (u >= 0x80 && u < 0xa0) || (u >= 0x202a && u <= 0x202e)
          || (u >= 0x2066 && u <= 0x2069))
        return TRUE;
    }
  return FALSE;
}

char *
ttv_text_for_display (const char *text)
{
  if (text == NULL)
    return g_strdup ("");
  return needs_escape (text) ? ttv_escape_for_display (text, -1) : g_strdup (text);
}
