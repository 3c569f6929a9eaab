/* ttv-ltt-system.c: info/system.xml, the description of the traced machine
 * (byte order, arch_size, block size, clock).  First pass of the LTT reader. */
#include "ttv-ltt-private.h"

#include <glib/gi18n-lib.h>
#include <string.h>

static const char * const arch_names[] = { "LP32", "ILP32", "LP64", "ILP64" };

const char *
ttv_ltt_arch_name (TtvLttArchSize arch)
{
  return (guint) arch < G_N_ELEMENTS (arch_names) ? arch_names[arch] : "?";
}

void
ttv_ltt_arch_sizes (TtvLttArchSize arch, guint *s, guint *i, guint *l, guint *p)
{
  static const guint sizes[4][4] = {
    { 16, 16, 32, 32 },   /* LP32 */
    { 16, 32, 32, 32 },   /* ILP32 */
    { 16, 32, 64, 64 },   /* LP64 */
    { 16, 64, 64, 64 },   /* ILP64 */
  };
  guint a = (guint) arch < 4 ? (guint) arch : 1;
  *s = sizes[a][0];
  *i = sizes[a][1];
  *l = sizes[a][2];
  *p = sizes[a][3];
}

static gboolean
parse_uint (const char *text, guint64 min, guint64 max, guint64 *out)
{
  if (text == NULL)
    return FALSE;
  return g_ascii_string_to_unsigned (g_strstrip ((char *) text), 10, min, max, out, NULL);
}

static gboolean
invalid (GError **error, const char *path, xmlNode *node, const char *attr, const char *value,
         const char *expected)
{
  g_set_error (error, TTV_FORMAT_ERROR, value ? TTV_FORMAT_ERROR_INVALID : TTV_FORMAT_ERROR_MISSING,
               value ? _("%s:%ld: attribute %s=“%s” is not %s")
                     : _("%s:%ld: attribute %s%s is missing (expected %s)"),
               path, xmlGetLineNo (node), attr, value ? value : "", expected);
  return FALSE;
}

gboolean
ttv_ltt_system_read (const char *path, TtvTrace *trace, TtvLttSystem *sys, GError **error)
{
  return ttv_ltt_system_parse (path, NULL, 0, trace, sys, error);
}

gboolean
ttv_ltt_system_parse (const char *path, const char *data, gsize length, TtvTrace *trace,
                      TtvLttSystem *sys, GError **error)
{
  g_autoptr (xmlDoc) doc = ttv_ltt_xml_read (path, data, length, error);
  if (doc == NULL)
    return FALSE;
  xmlNode *root = xmlDocGetRootElement (doc);
  if (strcmp ((const char *) root->name, "system") != 0)
    {
      g_set_error (error, TTV_FORMAT_ERROR, TTV_FORMAT_ERROR_INVALID,
                   _("%s:%ld: root element is <%s>, expected <system>"), path,
                   xmlGetLineNo (root), (const char *) root->name);
      return FALSE;
    }

  memset (sys, 0, sizeof *sys);
  g_autofree char *endian = ttv_ltt_xml_attr (root, "endian");
  if (endian == NULL || g_ascii_strcasecmp (endian, "little") == 0)
    sys->byte_order = TTV_BYTE_ORDER_LITTLE;
  else if (g_ascii_strcasecmp (endian, "big") == 0)
    sys->byte_order = TTV_BYTE_ORDER_BIG;
  else
    return invalid (error, path, root, "endian", endian, _("“little” or “big”"));

  g_autofree char *arch = ttv_ltt_xml_attr (root, "arch_size");
  gint a = -1;
  for (guint i = 0; arch && i < G_N_ELEMENTS (arch_names); i++)
    if (g_ascii_strcasecmp (arch, arch_names[i]) == 0)
      a = (gint) i;
  if (a < 0)
    return invalid (error, path, root, "arch_size", arch, _("LP32, ILP32, LP64 or ILP64"));
  sys->arch = (TtvLttArchSize) a;
  ttv_ltt_arch_sizes (sys->arch, &sys->short_bits, &sys->int_bits, &sys->long_bits,
                      &sys->pointer_bits);

  guint64 v;
  g_autofree char *bs = ttv_ltt_xml_attr (root, "ltt_block_size");
  if (!parse_uint (bs, TTV_LTT_MIN_BLOCK_SIZE, TTV_LTT_MAX_BLOCK_SIZE, &v))
    return invalid (error, path, root, "ltt_block_size", bs, _("a block size in bytes (64 to 2^30)"));
  sys->block_size = (guint32) v;

  g_autofree char *cpu = ttv_ltt_xml_attr (root, "cpu");
  sys->n_cpu = 0;
  if (cpu)
    {
      if (!parse_uint (cpu, 0, 1u << 20, &v))
        return invalid (error, path, root, "cpu", cpu, _("a number of processors"));
      sys->n_cpu = (guint) v;
    }

  g_autofree char *freq = ttv_ltt_xml_attr (root, "cycles_per_second");
  sys->freq = 1000000000u;
  if (freq && !parse_uint (freq, 1, G_GUINT64_CONSTANT (1) << 48, &sys->freq))
    return invalid (error, path, root, "cycles_per_second", freq, _("a frequency in Hz"));

  g_autofree char *fr = ttv_ltt_xml_attr (root, "flight_recorder");
  sys->flight_recorder = fr && strcmp (g_strstrip (fr), "1") == 0;

  if (trace)
    {
      for (xmlAttr *at = root->properties; at; at = at->next)
        {
          xmlChar *val = xmlNodeListGetString (doc, at->children, 1);
          ttv_trace_set_info (trace, (const char *) at->name, val ? (const char *) val : "");
          xmlFree (val);
        }
      xmlChar *text = xmlNodeGetContent (root);
      if (text)
        {
          g_autofree char *d = g_strstrip (g_strdup ((const char *) text));
          if (*d)
            ttv_trace_set_info (trace, "description", d);
          xmlFree (text);
        }
    }
  return TRUE;
}
