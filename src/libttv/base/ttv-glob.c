/* ttv-glob.c: shell-style patterns over text that may not be UTF-8. */
#include "ttv-glob.h"

#include <string.h>

gboolean
ttv_glob_match_bytes (const char *p, const char *s, gsize len)
{
  /* Iterative: on a mismatch, let the last '*' take one more byte. */
  const char *end = s + len, *star = NULL, *mark = NULL;
  while (s < end)
    {
      if (*p == '?' || (*p != '\0' && *p != '*' && *p == *s))
        p++, s++;
      else if (*p == '*')
        {
          star = p++;
          mark = s;
        }
      else if (star)
        {
          p = star + 1;
          s = ++mark;
        }
      else
        return FALSE;
    }
  while (*p == '*')
    p++;
  return *p == '\0';
}

gboolean
ttv_glob_match (const char *pattern, const char *text)
{
  if (g_utf8_validate (pattern, -1, NULL) && g_utf8_validate (text, -1, NULL))
    return g_pattern_match_simple (pattern, text);
  return ttv_glob_match_bytes (pattern, text, strlen (text));
}
