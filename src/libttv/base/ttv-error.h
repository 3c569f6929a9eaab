/* ttv-error.h: the error domains of libttv, one per area.
 * Every failure that reaches a user is a GError from one of these. */
#pragma once

#include <glib.h>

G_BEGIN_DECLS

#define TTV_FORMAT_ERROR (ttv_format_error_quark ())
#define TTV_ARCHIVE_ERROR (ttv_archive_error_quark ())
#define TTV_ENGINE_ERROR (ttv_engine_error_quark ())
#define TTV_USAGE_ERROR (ttv_usage_error_quark ())
#define TTV_FILTER_ERROR (ttv_filter_error_quark ())
#define TTV_LIVE_ERROR (ttv_live_error_quark ())

typedef enum {
  TTV_FORMAT_ERROR_UNKNOWN_FORMAT,  /* no reader recognises the path */
  TTV_FORMAT_ERROR_IO,              /* open/read/mmap failed */
  TTV_FORMAT_ERROR_MISSING,         /* a required file or element is absent */
  TTV_FORMAT_ERROR_SYNTAX,          /* XML / TSDL / text syntax error (line, column) */
  TTV_FORMAT_ERROR_INVALID,         /* well-formed but inconsistent description */
  TTV_FORMAT_ERROR_CORRUPT,         /* binary data contradicts its description (offset) */
  TTV_FORMAT_ERROR_TRUNCATED,       /* data ends before its description says */
  TTV_FORMAT_ERROR_UNSUPPORTED,     /* valid but not handled */
} TtvFormatError;

typedef enum {
  TTV_ARCHIVE_ERROR_READ,           /* libarchive could not read it */
  TTV_ARCHIVE_ERROR_HOSTILE,        /* absolute path, "..", link escape, device */
  TTV_ARCHIVE_ERROR_TOO_LARGE,      /* decompression bomb guard */
  TTV_ARCHIVE_ERROR_WRITE,          /* could not write the cache or the archive */
} TtvArchiveError;

typedef enum {
  TTV_ENGINE_ERROR_BAD_POSITION,    /* token does not parse or does not match the traceset */
  TTV_ENGINE_ERROR_READ,            /* a tracefile failed while reading */
} TtvEngineError;

typedef enum {
  TTV_USAGE_ERROR_BAD_ARGUMENT,
} TtvUsageError;

/* Filter expressions, hook group files, report format files: messages name
 * the column (expressions) or file:line:column (files). */
typedef enum {
  TTV_FILTER_ERROR_SYNTAX,          /* does not parse: what was expected, where */
  TTV_FILTER_ERROR_UNKNOWN_NAME,    /* unknown variable, hook group or directive */
  TTV_FILTER_ERROR_BAD_VALUE,       /* a literal of the wrong kind (time, number) */
  TTV_FILTER_ERROR_IO,              /* a groups or format file cannot be read */
} TtvFilterError;

/* Live sessions through lttng-relayd (docs/live.md): messages name the
 * relay (host:port) and, for a reply, the command it answers. */
typedef enum {
  TTV_LIVE_ERROR_URL,               /* not a net://HOST[:PORT][/host/HOSTNAME/SESSION] URL */
  TTV_LIVE_ERROR_CONNECT,           /* the relay cannot be reached */
  TTV_LIVE_ERROR_VERSION,           /* the relay speaks an incompatible protocol version */
  TTV_LIVE_ERROR_CLOSED,            /* the relay closed the connection */
  TTV_LIVE_ERROR_TIMEOUT,           /* the relay stopped answering */
  TTV_LIVE_ERROR_PROTOCOL,          /* a reply that breaks the protocol (garbage, wrong size) */
  TTV_LIVE_ERROR_TOO_LARGE,         /* a reply announces more than ttv accepts */
  TTV_LIVE_ERROR_NO_SESSION,        /* no such session on the relay */
  TTV_LIVE_ERROR_REFUSED,           /* the relay refused a request (attach, packet) */
  TTV_LIVE_ERROR_SPOOL,             /* the local copy of the session cannot be written */
} TtvLiveError;

GQuark ttv_format_error_quark (void);
GQuark ttv_archive_error_quark (void);
GQuark ttv_engine_error_quark (void);
GQuark ttv_usage_error_quark (void);
GQuark ttv_filter_error_quark (void);
GQuark ttv_live_error_quark (void);

G_END_DECLS
