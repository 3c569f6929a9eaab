/* ttv-safe-xml.h: XML documents from files that may be hostile (bookmarks,
 * LTT's info/system.xml and eventdefs), read within limits: the file's type
 * and size checked before reading, the markup checked in one linear pass
 * (no DTD, so no entity to expand; attributes per element; depth), then
 * libxml2 fed in pieces under a time bound.  Seed 000's bare attribute
 * values (cpu=1) are quoted on the way.  Used by bookmarks and the LTT reader. */
#pragma once

#include <glib.h>
#include <libxml/tree.h>

G_BEGIN_DECLS

typedef struct {
  gsize max_bytes;              /* the whole document */
  guint max_depth;              /* elements inside elements */
  guint max_attributes;         /* attributes of one element */
  guint max_seconds;            /* of parsing (libxml2's work) */
} TtvXmlLimits;

/* 64 MiB, depth 128, 64 attributes, 10 s. */
extern const TtvXmlLimits ttv_xml_default_limits;

/* Reads the regular file @path (a FIFO, a device, a folder or a link loop
 * is refused without blocking; a file larger than @limits->max_bytes
 * without reading it): FALSE with @error (TTV_FORMAT_ERROR_MISSING for a
 * missing file, TTV_FORMAT_ERROR_IO otherwise) naming @path. */
gboolean ttv_xml_read_file (const char *path, const TtvXmlLimits *limits, char **data, gsize *length,
                            GError **error);

/* Parses @length bytes of @data (@name for messages: "NAME:LINE: ...") with
 * libxml2 @options (XML_PARSE_NONET is always added).  Refused before
 * parsing (TTV_FORMAT_ERROR_UNSUPPORTED, naming the line): more than the
 * limits allow, or a document type declaration.  Malformed XML is
 * TTV_FORMAT_ERROR_SYNTAX with libxml2's first message and its line; a
 * document without a root element too.  Parsing longer than the time
 * bound is TTV_FORMAT_ERROR_UNSUPPORTED. */
xmlDoc  *ttv_xml_parse (const char *data, gsize length, const char *name, const TtvXmlLimits *limits,
                        int options, GError **error);

G_DEFINE_AUTOPTR_CLEANUP_FUNC (xmlDoc, xmlFreeDoc)

G_END_DECLS
