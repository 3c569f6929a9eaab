/* ttv-live-url.c: parsing and writing the net:// URLs of live sessions
 * (see ttv-live-url.h). */
#include "ttv-live-url.h"
#include "ttv-error.h"

#include <glib/gi18n-lib.h>
#include <string.h>

static const char *const schemes[] = { "net://", "net4://", "net6://" };

gboolean
ttv_live_url_is_live (const char *text)
{
  for (guint i = 0; text && i < G_N_ELEMENTS (schemes); i++)
    if (g_str_has_prefix (text, schemes[i]))
      return TRUE;
  return FALSE;
}

static void
url_error (GError **error, const char *text, const char *why)
{
  g_set_error (error, TTV_LIVE_ERROR, TTV_LIVE_ERROR_URL,
               _("%s: not a live session URL (%s); expected net://RELAY[:PORT][/host/HOSTNAME/SESSION]"),
               text, why);
}

/* RELAY or RELAY:PORT or [ADDRESS]:PORT, up to @end; NULL, or what is wrong. */
static const char *
parse_authority (const char *start, const char *end, TtvLiveUrl *url)
{
  const char *port = NULL;
  if (*start == '[')
    {
      const char *close = memchr (start, ']', (gsize) (end - start));
      if (close == NULL || close == start + 1)
        return _("unclosed or empty [address]");
      url->relay_host = g_strndup (start + 1, (gsize) (close - start - 1));
      if (close + 1 < end && close[1] != ':')
        return _("text after the [address]");
      port = close + 1 < end ? close + 2 : NULL;
    }
  else
    {
      const char *colon = memchr (start, ':', (gsize) (end - start));
      url->relay_host = g_strndup (start, (gsize) ((colon ? colon : end) - start));
      port = colon ? colon + 1 : NULL;
    }
  if (url->relay_host[0] == '\0')
    return _("no relay host");
  url->port = TTV_LIVE_DEFAULT_PORT;
  if (port)
    {
      g_autofree char *digits = g_strndup (port, (gsize) (end - port));
      guint64 value = 0;
      if (!g_ascii_string_to_unsigned (digits, 10, 1, 65535, &value, NULL))
        return _("the port is not a number from 1 to 65535");
      url->port = (guint16) value;
    }
  return NULL;
}

/* The /host/HOSTNAME[/SESSION][/] part; NULL, or what is wrong. */
static const char *
parse_path (const char *path, TtvLiveUrl *url)
{
  g_auto (GStrv) parts = g_strsplit (path, "/", -1);
  guint n = g_strv_length (parts);
  if (n > 0 && parts[n - 1][0] == '\0')
    n--;                          /* one trailing slash */
  if (n < 2 || n > 3 || strcmp (parts[0], "host") != 0)
    return _("the path is not /host/HOSTNAME/SESSION");
  for (guint i = 1; i < n; i++)
    if (parts[i][0] == '\0')
      return _("an empty host or session name");
  url->target_host = g_strdup (parts[1]);
  url->session = n == 3 ? g_strdup (parts[2]) : NULL;
  return NULL;
}

TtvLiveUrl *
ttv_live_url_parse (const char *text, GError **error)
{
  g_return_val_if_fail (text != NULL, NULL);
  g_autoptr (TtvLiveUrl) url = g_new0 (TtvLiveUrl, 1);
  const char *rest = NULL;
  for (guint i = 0; i < G_N_ELEMENTS (schemes) && !rest; i++)
    if (g_str_has_prefix (text, schemes[i]))
      rest = text + strlen (schemes[i]);
  const char *slash = rest ? strchr (rest, '/') : NULL;
  const char *why = rest == NULL ? _("it does not start with net://")
                                 : parse_authority (rest, slash ? slash : rest + strlen (rest), url);
  if (why == NULL && slash && slash[1] != '\0')
    why = parse_path (slash + 1, url);
  if (why)
    {
      url_error (error, text, why);
      return NULL;
    }
  return g_steal_pointer (&url);
}

void
ttv_live_url_free (TtvLiveUrl *url)
{
  if (url == NULL)
    return;
  g_free (url->relay_host);
  g_free (url->target_host);
  g_free (url->session);
  g_free (url);
}

static char *
relay_string (const char *host, guint16 port)
{
  return strchr (host, ':') ? g_strdup_printf ("[%s]:%u", host, port) : g_strdup_printf ("%s:%u", host, port);
}

char *
ttv_live_url_build (const char *relay_host, guint16 port, const char *target_host, const char *session)
{
  g_return_val_if_fail (relay_host != NULL, NULL);
  g_autofree char *relay = relay_string (relay_host, port);
  GString *s = g_string_new ("net://");
  g_string_append (s, relay);
  if (target_host)
    {
      g_string_append_printf (s, "/host/%s", target_host);
      if (session)
        g_string_append_printf (s, "/%s", session);
    }
  return g_string_free (s, FALSE);
}

char *
ttv_live_url_dup_relay (const TtvLiveUrl *url)
{
  g_return_val_if_fail (url != NULL, NULL);
  return relay_string (url->relay_host, url->port);
}
