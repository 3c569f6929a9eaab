/* ttv-cli-text-option.c: text option values to UTF-8, naming the option
 * (see the header). */
#include "ttv-config.h"

#include "ttv-cli-text-option.h"

#include "ttv-error.h"

#include <glib/gi18n.h>

/* @value (bytes from the command line) as UTF-8, replacing it; FALSE with
 * a message naming @option and where the bad byte is. */
static gboolean
option_to_utf8 (const char *option, char **value, GError **error)
{
  const char *end;
  if (*value == NULL)
    return TRUE;
  if (g_get_charset (NULL))
    {
      if (g_utf8_validate (*value, -1, &end))
        return TRUE;
      g_set_error (error, TTV_USAGE_ERROR, TTV_USAGE_ERROR_BAD_ARGUMENT,
                   _("%s: the value is not valid UTF-8 (byte 0x%02x at byte %zu)"), option,
                   (guchar) *end, (gsize) (end - *value));
      return FALSE;
    }
  gsize read = 0;
  g_autoptr (GError) local = NULL;
  char *utf8 = g_locale_to_utf8 (*value, -1, &read, NULL, &local);
  if (utf8 == NULL)
    {
      g_set_error (error, TTV_USAGE_ERROR, TTV_USAGE_ERROR_BAD_ARGUMENT,
                   _("%s: the value is not text in the locale's encoding (byte 0x%02x at byte %zu)"),
                   option, (guchar) (*value)[read], read);
      return FALSE;
    }
  g_free (*value);
  *value = utf8;
  return TRUE;
}

gboolean
ttv_text_options_to_utf8 (const TtvTextOption *options, guint n, GError **error)
{
  for (guint i = 0; i < n; i++)
    {
      const TtvTextOption *o = &options[i];

      if (o->value && !option_to_utf8 (o->name, o->value, error))
        return FALSE;
      for (guint j = 0; o->values && *o->values && (*o->values)[j]; j++)
        if (!option_to_utf8 (o->name, &(*o->values)[j], error))
          return FALSE;
    }
  return TRUE;
}
