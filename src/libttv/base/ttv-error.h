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

GQuark ttv_format_error_quark (void);
GQuark ttv_archive_error_quark (void);
GQuark ttv_engine_error_quark (void);
GQuark ttv_usage_error_quark (void);
GQuark ttv_filter_error_quark (void);

G_END_DECLS
