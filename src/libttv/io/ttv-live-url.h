/* ttv-live-url.h: the URLs of LTTng live sessions, in the form babeltrace2
 * reads: net://RELAY[:PORT][/host/HOSTNAME[/SESSION]] (net4://, net6:// too).
 * Used by the live client, the traceset and the CLI. */
#pragma once

#include <glib.h>

G_BEGIN_DECLS

/* lttng-relayd's default port for viewers. */
#define TTV_LIVE_DEFAULT_PORT 5344

typedef struct {
  char *relay_host;     /* owned: the relay's host name or address (no brackets) */
  guint16 port;
  char *target_host;    /* owned, may be NULL: the traced host's name, as the relay lists it */
  char *session;        /* owned, may be NULL: the session's name (NULL: list the sessions) */
} TtvLiveUrl;

/* TRUE when @text starts like a live URL (net://, net4://, net6://), so
 * that it is not taken for a file name. */
gboolean    ttv_live_url_is_live (const char *text);
/* NULL with TTV_LIVE_ERROR_URL saying what is wrong. */
TtvLiveUrl *ttv_live_url_parse (const char *text, GError **error);
void        ttv_live_url_free (TtvLiveUrl *url);
/* net://RELAY:PORT/host/HOSTNAME/SESSION (the relay's address in brackets
 * when it holds a colon); without the /host part when @target_host is NULL,
 * without the session when @session is NULL. */
char       *ttv_live_url_build (const char *relay_host, guint16 port, const char *target_host,
                                const char *session);
/* "RELAY:PORT", for messages. */
char       *ttv_live_url_dup_relay (const TtvLiveUrl *url);

G_DEFINE_AUTOPTR_CLEANUP_FUNC (TtvLiveUrl, ttv_live_url_free)

G_END_DECLS
