/* ttv-lttng-marker.c: LTTng 0.x marker format strings ("pid %d name %s") to
 * the common type system, and back for the writer.  Grammar in docs/lttng-format.md. */
#include "ttv-lttng-private.h"

#include <glib/gi18n-lib.h>
#include <string.h>

typedef enum {
  LEN_NONE, LEN_HH, LEN_H, LEN_L, LEN_LL, LEN_Z,
} LengthModifier;

static gboolean
syntax (GError **error, const char *format, gsize column, const char *what)
{
  g_set_error (error, TTV_FORMAT_ERROR, TTV_FORMAT_ERROR_SYNTAX,
               _("marker format “%s” does not parse at column %zu: %s"),
               format, column + 1, what);
  return FALSE;
}

static gboolean
is_name_start (char c)
{
  return g_ascii_isalpha (c) || c == '_';
}

static gboolean
is_name_char (char c)
{
  return g_ascii_isalnum (c) || c == '_';
}

/* Caps the alignment of every scalar field for the layout: packed traces
 * align nothing, aligned ones align a field on min (its size, alignment). */
static void
apply_alignment (TtvType *st, const TtvLttngLayout *l)
{
  guint max_align = 8;
  for (guint i = 0; i < st->fields->len; i++)
    {
      TtvType *ft = ((TtvField *) g_ptr_array_index (st->fields, i))->type;
      if (ft->kind == TTV_TYPE_INTEGER)
        {
          guint cap = l->alignment ? l->alignment * 8 : 8;
          ft->align_bits = MIN (ft->size_bits, cap);
        }
      else
        ft->align_bits = 8;
      max_align = MAX (max_align, ft->align_bits);
    }
  st->align_bits = max_align;
}

TtvType *
ttv_lttng_marker_parse (const char *format, const TtvLttngLayout *l, GError **error)
{
  g_return_val_if_fail (format != NULL && l != NULL, NULL);
  g_autoptr (TtvType) st = ttv_type_new_struct ();
  const char *p = format;
  while (TRUE)
    {
      while (g_ascii_isspace (*p))
        p++;
      if (*p == '\0')
        break;
      g_autofree char *name = NULL;
      if (is_name_start (*p))
        {
          const char *s = p;
          while (is_name_char (*p))
            p++;
          name = g_strndup (s, p - s);
          while (g_ascii_isspace (*p))
            p++;
          if (*p == '=' || *p == ':')
            p++;
          while (g_ascii_isspace (*p))
            p++;
          if (*p != '%')
            {
              g_autofree char *msg = g_strdup_printf (_("field name “%s” is not followed by a conversion"), name);
              syntax (error, format, p - format, msg);
              return NULL;
            }
        }
      else if (*p != '%')
        {
          syntax (error, format, p - format, _("expected a field name or a conversion"));
          return NULL;
        }
      const char *conv_start = p;
      p++; /* '%' */
      if (*p == '%' && name == NULL)
        {
          p++;   /* a literal percent sign */
          continue;
        }
      while (*p && strchr ("-+ #0", *p))
        p++;
      if (*p == '*')
        {
          syntax (error, format, p - format, _("'*' widths are not supported"));
          return NULL;
        }
      while (g_ascii_isdigit (*p))
        p++;
      if (*p == '.')
        {
          p++;
          if (*p == '*')
            {
              syntax (error, format, p - format, _("'*' precisions are not supported"));
              return NULL;
            }
          while (g_ascii_isdigit (*p))
            p++;
        }
      LengthModifier len = LEN_NONE;
      if (p[0] == 'h' && p[1] == 'h')
        len = LEN_HH, p += 2;
      else if (p[0] == 'h')
        len = LEN_H, p++;
      else if (p[0] == 'l' && p[1] == 'l')
        len = LEN_LL, p += 2;
      else if (p[0] == 'l')
        len = LEN_L, p++;
      else if (p[0] == 'L' || p[0] == 'q' || p[0] == 'j')
        len = LEN_LL, p++;
      else if (p[0] == 'z' || p[0] == 'Z' || p[0] == 't')
        len = LEN_Z, p++;
      char c = *p;
      if (c == '\0')
        {
          syntax (error, format, conv_start - format, _("the conversion is not finished"));
          return NULL;
        }
      p++;
      TtvType *t = NULL;
      switch (c)
        {
        case 'd': case 'i': case 'u': case 'o': case 'x': case 'X':
          {
            gboolean is_signed = c == 'd' || c == 'i';
            guint bits = 32;
            TtvNativeSize native = TTV_NATIVE_NONE;
            switch (len)
              {
              case LEN_NONE: bits = 32; break;
              case LEN_HH: bits = 8; break;
              case LEN_H: bits = 16; break;
              case LEN_LL: bits = 64; break;
              case LEN_L: native = TTV_NATIVE_LONG; break;
              case LEN_Z: native = TTV_NATIVE_LONG; break;
              }
            t = ttv_type_new_integer (bits, is_signed, l->byte_order, bits);
            t->native_size = native;
            t->base = c == 'x' || c == 'X' ? 16 : c == 'o' ? 8 : 10;
          }
          break;
        case 'p':
          if (len == LEN_NONE)
            {
              t = ttv_type_new_integer (32, FALSE, l->byte_order, 32);
              t->native_size = TTV_NATIVE_POINTER;
              t->base = 16;
            }
          break;
        case 'c':
          if (len == LEN_NONE)
            {
              t = ttv_type_new_integer (8, TRUE, l->byte_order, 8);
              t->format = g_strdup ("%c");
            }
          break;
        case 's':
          if (len == LEN_NONE)
            t = ttv_type_new_string ();
          break;
        default:
          break;
        }
      if (t == NULL)
        {
          g_autofree char *conv = g_strndup (conv_start, p - conv_start);
          g_autofree char *msg = g_strdup_printf (_("unsupported conversion “%s”"), conv);
          syntax (error, format, conv_start - format, msg);
          return NULL;
        }
      if (name == NULL)
        name = g_strdup_printf ("arg%u", st->fields->len);
      if (ttv_type_find_field (st, name) >= 0)
        {
          ttv_type_unref (t);
          g_autofree char *msg = g_strdup_printf (_("field “%s” appears twice"), name);
          syntax (error, format, conv_start - format, msg);
          return NULL;
        }
      ttv_type_add_field (st, name, t, NULL);
    }
  guint ptr_bits = l->arch_size * 8;
  ttv_type_resolve_native (st, 16, 32, ptr_bits, ptr_bits);
  apply_alignment (st, l);
  ttv_type_finish (st);
  return g_steal_pointer (&st);
}

static gboolean
append_integer_conversion (GString *s, const TtvType *t, GError **error)
{
  const char *len;
  if (t->native_size == TTV_NATIVE_POINTER)
    {
      g_string_append (s, "%p");
      return TRUE;
    }
  if (t->native_size == TTV_NATIVE_LONG)
    len = "l";
  else
    switch (t->size_bits)
      {
      case 8: len = "hh"; break;
      case 16: len = "h"; break;
      case 32: len = ""; break;
      case 64: len = "ll"; break;
      default:
        g_set_error (error, TTV_USAGE_ERROR, TTV_USAGE_ERROR_BAD_ARGUMENT,
                     _("LTTng 0.x markers have no integer of %u bits"), t->size_bits);
        return FALSE;
      }
  char conv = t->is_signed ? 'd' : t->base == 16 ? 'x' : t->base == 8 ? 'o' : 'u';
  g_string_append_printf (s, "%%%s%c", len, conv);
  return TRUE;
}

char *
ttv_lttng_marker_format_from_type (const TtvType *fields, GError **error)
{
  g_return_val_if_fail (fields != NULL, NULL);
  if (fields->kind != TTV_TYPE_STRUCT)
    {
      g_set_error (error, TTV_USAGE_ERROR, TTV_USAGE_ERROR_BAD_ARGUMENT,
                   _("LTTng 0.x event fields must be a struct, not a %s"),
                   ttv_type_kind_name (fields->kind));
      return NULL;
    }
  g_autoptr (GString) s = g_string_new (NULL);
  for (guint i = 0; i < fields->fields->len; i++)
    {
      const TtvField *f = g_ptr_array_index (fields->fields, i);
      gboolean ok = is_name_start (f->name[0]);
      for (const char *c = f->name; ok && *c; c++)
        ok = is_name_char (*c);
      if (!ok)
        {
          g_set_error (error, TTV_USAGE_ERROR, TTV_USAGE_ERROR_BAD_ARGUMENT,
                       _("“%s” cannot be an LTTng 0.x field name (letters, digits, '_')"), f->name);
          return NULL;
        }
      if (i)
        g_string_append_c (s, ' ');
      g_string_append_printf (s, "%s ", f->name);
      const TtvType *t = f->type;
      if (t->kind == TTV_TYPE_ENUM)
        t = t->container;
      if (t->kind == TTV_TYPE_INTEGER)
        {
          if (!append_integer_conversion (s, t, error))
            return NULL;
        }
      else if (t->kind == TTV_TYPE_STRING)
        g_string_append (s, "%s");
      else
        {
          g_set_error (error, TTV_USAGE_ERROR, TTV_USAGE_ERROR_BAD_ARGUMENT,
                       _("field “%s”: LTTng 0.x markers hold integers and strings, not a %s"),
                       f->name, ttv_type_kind_name (t->kind));
          return NULL;
        }
    }
  return g_string_free (g_steal_pointer (&s), FALSE);
}
