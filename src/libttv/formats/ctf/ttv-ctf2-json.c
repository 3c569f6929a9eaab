/* ttv-ctf2-json.c: the CTF 2 metadata reader's JSON parser (RFC 8259), with
 * a depth limit, integers kept exact up to 64 bits and every node's byte
 * offset for messages; used on each fragment of the JSON text sequence. */
#include "ttv-ctf2-private.h"
#include "ttv-error.h"

#include <glib/gi18n-lib.h>
#include <string.h>

typedef struct {
  const char *text;      /* weak: the whole metadata text */
  gsize pos, end;
  const char *path;
  guint depth;
  GError *error;
} Parser;

char *
ttv_ctf2_where (const char *path, const char *text, gsize offset)
{
  guint line = 1, column = 1;
  for (gsize i = 0; text && i < offset; i++)
    {
      if (text[i] == '\n')
        line++, column = 1;
      else if (((guchar) text[i] & 0xC0) != 0x80)
        column++;
    }
  return g_strdup_printf ("%s:%u:%u (byte offset %zu)", path, line, column, offset);
}

void
ttv_ctf2_set_error_va (GError **error, gint code, const char *path, const char *text, gsize offset,
                       const char *format, va_list ap)
{
  if (*error)
    return;
  g_autofree char *msg = g_strdup_vprintf (format, ap);
  g_autofree char *where = ttv_ctf2_where (path, text, offset);
  g_set_error (error, TTV_FORMAT_ERROR, code, "%s: %s", where, msg);
}

static Ctf2Json *
fail (Parser *p, gsize at, const char *message)
{
  if (p->error == NULL)
    {
      g_autofree char *where = ttv_ctf2_where (p->path, p->text, at);
      g_set_error (&p->error, TTV_FORMAT_ERROR, TTV_FORMAT_ERROR_SYNTAX, _("%s: JSON syntax error: %s"),
                   where, message);
    }
  return NULL;
}

static void
skip_space (Parser *p)
{
  while (p->pos < p->end)
    {
      char c = p->text[p->pos];
      if (c != ' ' && c != '\t' && c != '\n' && c != '\r')
        break;
      p->pos++;
    }
}

static Ctf2Json *
node_new (Ctf2JsonKind kind, gsize offset)
{
  Ctf2Json *n = g_new0 (Ctf2Json, 1);
  n->kind = kind;
  n->offset = offset;
  return n;
}

void
ttv_ctf2_json_free (Ctf2Json *n)
{
  if (n == NULL)
    return;
  switch (n->kind)
    {
    case CTF2_JSON_STRING:
      g_free (n->v.s);
      break;
    case CTF2_JSON_ARRAY:
      for (guint i = 0; i < n->v.a.n; i++)
        ttv_ctf2_json_free (n->v.a.items[i]);
      g_free (n->v.a.items);
      break;
    case CTF2_JSON_OBJECT:
      for (guint i = 0; i < n->v.o.n; i++)
        {
          g_free (n->v.o.keys[i]);
          ttv_ctf2_json_free (n->v.o.values[i]);
        }
      g_free (n->v.o.keys);
      g_free (n->v.o.values);
      break;
    default:
      break;
    }
  g_free (n);
}

static gboolean
literal (Parser *p, const char *word)
{
  gsize n = strlen (word);
  if (p->end - p->pos < n || memcmp (p->text + p->pos, word, n) != 0)
    return FALSE;
  p->pos += n;
  return TRUE;
}

static int
hex4 (Parser *p, gsize at)
{
  if (p->end - at < 4)
    return -1;
  int v = 0;
  for (gsize i = 0; i < 4; i++)
    {
      int d = g_ascii_xdigit_value (p->text[at + i]);
      if (d < 0)
        return -1;
      v = v * 16 + d;
    }
  return v;
}

/* A string after its opening quote; UTF-8 checked, escapes undone.  A NUL
 * (\u0000) is refused: names and values are C strings here. */
static char *
parse_string_body (Parser *p, gsize start)
{
  GString *s = g_string_new (NULL);
  for (;;)
    {
      if (p->pos >= p->end)
        {
          g_string_free (s, TRUE);
          return (fail (p, start, _("unterminated string")), NULL);
        }
      guchar c = (guchar) p->text[p->pos];
      if (c == '"')
        {
          p->pos++;
          break;
        }
      if (c < 0x20)
        {
          g_string_free (s, TRUE);
          return (fail (p, p->pos, _("control character in a string")), NULL);
        }
      if (c != '\\')
        {
          /* Copy one UTF-8 sequence, checked. */
          const char *endp = NULL;
          gsize left = p->end - p->pos;
          gsize k = c < 0x80 ? 1 : c < 0xE0 ? 2 : c < 0xF0 ? 3 : 4;
          if (k > left || !g_utf8_validate (p->text + p->pos, (gssize) k, &endp))
            {
              g_string_free (s, TRUE);
              return (fail (p, p->pos, _("a string is not UTF-8")), NULL);
            }
          g_string_append_len (s, p->text + p->pos, (gssize) k);
          p->pos += k;
          continue;
        }
      gsize esc = p->pos;
      p->pos++;
      if (p->pos >= p->end)
        continue;
      char e = p->text[p->pos++];
      switch (e)
        {
        case '"': g_string_append_c (s, '"'); break;
        case '\\': g_string_append_c (s, '\\'); break;
        case '/': g_string_append_c (s, '/'); break;
        case 'b': g_string_append_c (s, '\b'); break;
        case 'f': g_string_append_c (s, '\f'); break;
        case 'n': g_string_append_c (s, '\n'); break;
        case 'r': g_string_append_c (s, '\r'); break;
        case 't': g_string_append_c (s, '\t'); break;
        case 'u':
          {
            int u = hex4 (p, p->pos);
            gunichar ch = (gunichar) u;
            p->pos += 4;
            if (u >= 0xD800 && u <= 0xDBFF && p->end - p->pos >= 6 && p->text[p->pos] == '\\'
                && p->text[p->pos + 1] == 'u')
              {
                int lo = hex4 (p, p->pos + 2);
                if (lo >= 0xDC00 && lo <= 0xDFFF)
                  {
                    ch = 0x10000 + (((gunichar) u - 0xD800) << 10) + ((gunichar) lo - 0xDC00);
                    p->pos += 6;
                  }
              }
            if (u < 0 || u == 0 || (ch >= 0xD800 && ch <= 0xDFFF))
              {
                g_string_free (s, TRUE);
                return (fail (p, esc, u == 0 ? _("a string holds U+0000") : _("bad \\u escape")), NULL);
              }
            g_string_append_unichar (s, ch);
          }
          break;
        default:
          g_string_free (s, TRUE);
          return (fail (p, esc, _("bad escape in a string")), NULL);
        }
    }
  return g_string_free (s, FALSE);
}

static Ctf2Json *
parse_number (Parser *p)
{
  gsize start = p->pos;
  gboolean negative = FALSE;
  if (p->text[p->pos] == '-')
    {
      negative = TRUE;
      p->pos++;
    }
  gsize digits = p->pos;
  while (p->pos < p->end && g_ascii_isdigit (p->text[p->pos]))
    p->pos++;
  if (p->pos == digits || (p->text[digits] == '0' && p->pos - digits > 1))
    return fail (p, start, _("malformed number"));
  gboolean integral = TRUE;
  if (p->pos < p->end && p->text[p->pos] == '.')
    {
      integral = FALSE;
      gsize frac = ++p->pos;
      while (p->pos < p->end && g_ascii_isdigit (p->text[p->pos]))
        p->pos++;
      if (p->pos == frac)
        return fail (p, start, _("malformed number"));
    }
  if (p->pos < p->end && (p->text[p->pos] == 'e' || p->text[p->pos] == 'E'))
    {
      integral = FALSE;
      p->pos++;
      if (p->pos < p->end && (p->text[p->pos] == '+' || p->text[p->pos] == '-'))
        p->pos++;
      gsize exp = p->pos;
      while (p->pos < p->end && g_ascii_isdigit (p->text[p->pos]))
        p->pos++;
      if (p->pos == exp)
        return fail (p, start, _("malformed number"));
    }
  if (!integral)
    {
      g_autofree char *s = g_strndup (p->text + start, p->pos - start);
      Ctf2Json *n = node_new (CTF2_JSON_REAL, start);
      n->v.d = g_ascii_strtod (s, NULL);
      return n;
    }
  guint64 mag = 0;
  for (gsize i = digits; i < p->pos; i++)
    {
      guint d = (guint) (p->text[i] - '0');
      if (mag > (G_MAXUINT64 - d) / 10)
        return fail (p, start, _("integer out of the 64-bit range"));
      mag = mag * 10 + d;
    }
  if (negative && mag > (guint64) G_MAXINT64 + 1)
    return fail (p, start, _("integer out of the 64-bit range"));
  Ctf2Json *n = node_new (CTF2_JSON_INT, start);
  n->v.i.magnitude = mag;
  n->v.i.negative = negative && mag != 0;
  return n;
}

static Ctf2Json *parse_value (Parser *p);

static Ctf2Json *
parse_array (Parser *p)
{
  Ctf2Json *n = node_new (CTF2_JSON_ARRAY, p->pos++);
  GPtrArray *items = g_ptr_array_new ();
  skip_space (p);
  if (p->pos < p->end && p->text[p->pos] == ']')
    p->pos++;
  else
    for (;;)
      {
        Ctf2Json *item = parse_value (p);
        if (item == NULL)
          break;
        g_ptr_array_add (items, item);
        skip_space (p);
        if (p->pos < p->end && p->text[p->pos] == ',')
          {
            p->pos++;
            continue;
          }
        if (p->pos < p->end && p->text[p->pos] == ']')
          {
            p->pos++;
            break;
          }
        fail (p, p->pos, _("expected “,” or “]”"));
        break;
      }
  n->v.a.n = items->len;
  n->v.a.items = (Ctf2Json **) g_ptr_array_free (items, FALSE);
  if (p->error)
    {
      ttv_ctf2_json_free (n);
      return NULL;
    }
  return n;
}

static Ctf2Json *
parse_object (Parser *p)
{
  Ctf2Json *n = node_new (CTF2_JSON_OBJECT, p->pos++);
  GPtrArray *keys = g_ptr_array_new (), *values = g_ptr_array_new ();
  GHashTable *seen = g_hash_table_new (g_str_hash, g_str_equal);
  skip_space (p);
  if (p->pos < p->end && p->text[p->pos] == '}')
    p->pos++;
  else
    for (;;)
      {
        skip_space (p);
        gsize at = p->pos;
        if (p->pos >= p->end || p->text[p->pos] != '"')
          {
            fail (p, p->pos, _("expected a member name"));
            break;
          }
        p->pos++;
        char *key = parse_string_body (p, at);
        if (key == NULL)
          break;
        if (g_hash_table_contains (seen, key))
          {
            g_autofree char *msg = g_strdup_printf (_("member “%s” appears twice"), key);
            g_free (key);
            fail (p, at, msg);
            break;
          }
        skip_space (p);
        if (p->pos >= p->end || p->text[p->pos] != ':')
          {
            g_free (key);
            fail (p, p->pos, _("expected “:”"));
            break;
          }
        p->pos++;
        Ctf2Json *value = parse_value (p);
        if (value == NULL)
          {
            g_free (key);
            break;
          }
        g_ptr_array_add (keys, key);
        g_ptr_array_add (values, value);
        g_hash_table_add (seen, key);
        skip_space (p);
        if (p->pos < p->end && p->text[p->pos] == ',')
          {
            p->pos++;
            continue;
          }
        if (p->pos < p->end && p->text[p->pos] == '}')
          {
            p->pos++;
            break;
          }
        fail (p, p->pos, _("expected “,” or “}”"));
        break;
      }
  g_hash_table_unref (seen);
  n->v.o.n = keys->len;
  n->v.o.keys = (char **) g_ptr_array_free (keys, FALSE);
  n->v.o.values = (Ctf2Json **) g_ptr_array_free (values, FALSE);
  if (p->error)
    {
      ttv_ctf2_json_free (n);
      return NULL;
    }
  return n;
}

static Ctf2Json *
parse_value (Parser *p)
{
  skip_space (p);
  if (p->pos >= p->end)
    return fail (p, p->pos, _("expected a value, found the end of the fragment"));
  if (++p->depth > CTF2_JSON_MAX_DEPTH)
    return fail (p, p->pos, _("values nested too deeply"));
  Ctf2Json *n = NULL;
  gsize at = p->pos;
  switch (p->text[p->pos])
    {
    case '{':
      n = parse_object (p);
      break;
    case '[':
      n = parse_array (p);
      break;
    case '"':
      {
        p->pos++;
        char *s = parse_string_body (p, at);
        if (s)
          {
            n = node_new (CTF2_JSON_STRING, at);
            n->v.s = s;
          }
      }
      break;
    case 't':
    case 'f':
    case 'n':
      if (literal (p, "true") || literal (p, "false"))
        {
          n = node_new (CTF2_JSON_BOOL, at);
          n->v.b = p->text[at] == 't';
        }
      else if (literal (p, "null"))
        n = node_new (CTF2_JSON_NULL, at);
      else
        fail (p, at, _("expected a value"));
      break;
    default:
      if (p->text[p->pos] == '-' || g_ascii_isdigit (p->text[p->pos]))
        n = parse_number (p);
      else
        fail (p, at, _("expected a value"));
      break;
    }
  p->depth--;
  return n;
}

Ctf2Json *
ttv_ctf2_json_parse (const char *text, gsize offset, gsize len, const char *path, GError **error)
{
  Parser p = { text, offset, offset + len, path, 0, NULL };
  Ctf2Json *n = parse_value (&p);
  if (n)
    {
      skip_space (&p);
      if (p.pos < p.end)
        {
          fail (&p, p.pos, _("text after the JSON value"));
          ttv_ctf2_json_free (n);
          n = NULL;
        }
    }
  if (n == NULL)
    g_propagate_error (error, p.error);
  return n;
}

const Ctf2Json *
ttv_ctf2_json_get (const Ctf2Json *obj, const char *key)
{
  if (obj == NULL || obj->kind != CTF2_JSON_OBJECT)
    return NULL;
  for (guint i = 0; i < obj->v.o.n; i++)
    if (strcmp (obj->v.o.keys[i], key) == 0)
      return obj->v.o.values[i];
  return NULL;
}

const char *
ttv_ctf2_json_get_string (const Ctf2Json *obj, const char *key)
{
  const Ctf2Json *v = ttv_ctf2_json_get (obj, key);
  return v && v->kind == CTF2_JSON_STRING ? v->v.s : NULL;
}

gboolean
ttv_ctf2_json_int (const Ctf2Json *n, gint64 *out)
{
  if (n == NULL || n->kind != CTF2_JSON_INT)
    return FALSE;
  if (n->v.i.negative)
    {
      *out = (gint64) (0 - n->v.i.magnitude);
      return TRUE;
    }
  if (n->v.i.magnitude > (guint64) G_MAXINT64)
    return FALSE;
  *out = (gint64) n->v.i.magnitude;
  return TRUE;
}

gboolean
ttv_ctf2_json_uint (const Ctf2Json *n, guint64 *out)
{
  if (n == NULL || n->kind != CTF2_JSON_INT || n->v.i.negative)
    return FALSE;
  *out = n->v.i.magnitude;
  return TRUE;
}
