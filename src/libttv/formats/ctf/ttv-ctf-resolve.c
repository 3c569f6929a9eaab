/* ttv-ctf-resolve.c: the CTF reader's pass that checks, before any data is
 * read, that every sequence length, dynamic string or BLOB length and
 * variant selector names a field declared before it, of a kind that can
 * play that part (TSDL and CTF 2 metadata alike). */
#include "ttv-ctf-private.h"
#include "ttv-error.h"

#include <glib/gi18n-lib.h>
#include <string.h>

#define MAX_SCOPES 6
#define MAX_PARTS 32

typedef struct {
  const char *name;          /* "event.fields": what absolute paths start with */
  const TtvType *root;       /* weak, a struct or NULL */
} Scope;

typedef struct {
  const TtvType *compound;   /* weak: a struct being walked */
  guint member;              /* the member being walked */
} Frame;

typedef struct {
  Scope scopes[MAX_SCOPES];  /* earlier scopes first, the one walked last */
  guint n_scopes;
  GArray *frames;            /* of Frame, outermost first */
  GHashTable *where;         /* weak: TtvType * -> location text */
  const char *path;          /* metadata file, for messages */
  GError *error;
} Resolver;

static const TtvType *
member_type (const TtvType *compound, guint i)
{
  return ((const TtvField *) g_ptr_array_index (compound->fields, i))->type;
}

/* Member @name among the first @before members of @compound. */
static const TtvType *
member_named (const TtvType *compound, const char *name, guint before)
{
  for (guint i = 0; compound->fields && i < before && i < compound->fields->len; i++)
    if (g_strcmp0 (((const TtvField *) g_ptr_array_index (compound->fields, i))->name, name) == 0)
      return member_type (compound, i);
  return NULL;
}

/* Follows @parts[first..] below @t: through structs by name, through
 * variants into the first option that has the name, through arrays into
 * their element. */
static const TtvType *
follow (const TtvType *t, char **parts, guint first)
{
  for (guint i = first; t && parts[i]; i++)
    {
      while (t && (t->kind == TTV_TYPE_ARRAY || t->kind == TTV_TYPE_SEQUENCE))
        t = t->element;
      if (t == NULL)
        return NULL;
      if (t->kind == TTV_TYPE_VARIANT)
        {
          const TtvType *hit = NULL;
          for (guint k = 0; k < t->fields->len && !hit; k++)
            hit = follow (member_type (t, k), parts, i);
          return hit;
        }
      if (t->kind != TTV_TYPE_STRUCT)
        return NULL;
      t = member_named (t, parts[i], t->fields->len);
    }
  return t;
}

/* The field a reference names, as the decoder will find it (see ttv-type.h
 * for the syntax). */
static const TtvType *
lookup (Resolver *r, const char *ref)
{
  guint climb = 0;
  while (*ref == '^')
    climb++, ref++;
  g_auto (GStrv) parts = g_strsplit (ref, ".", MAX_PARTS);
  if (parts[0] == NULL || parts[0][0] == '\0')
    return NULL;
  Frame *frames = (Frame *) (void *) r->frames->data;
  guint n = r->frames->len;
  if (climb)
    {
      if (climb >= n)
        return NULL;
      const Frame *f = &frames[n - 1 - climb];
      return follow (member_named (f->compound, parts[0], f->member), parts, 1);
    }
  /* Absolute: a scope name, then a path from its root. */
  for (guint s = r->n_scopes; s-- > 0;)
    {
      const Scope *sc = &r->scopes[s];
      gsize len = strlen (sc->name);
      if (sc->root == NULL || strncmp (ref, sc->name, len) != 0 || ref[len] != '.')
        continue;
      guint skip = 0;
      for (const char *c = sc->name; *c; c++)
        skip += *c == '.';
      skip++;
      /* In the scope being walked, only members up to the one holding the
       * reference (an earlier member inside it is fine). */
      guint before = s == r->n_scopes - 1 && n > 0 ? frames[0].member + 1 : sc->root->fields->len;
      if (parts[skip] == NULL)
        return NULL;
      return follow (member_named (sc->root, parts[skip], before), parts, skip + 1);
    }
  /* Relative: the enclosing structures innermost first, then the roots of
   * the earlier scopes. */
  for (guint i = n; i-- > 0;)
    {
      const TtvType *hit = member_named (frames[i].compound, parts[0], frames[i].member);
      if (hit)
        return follow (hit, parts, 1);
    }
  for (guint s = r->n_scopes - 1; s-- > 0;)
    if (r->scopes[s].root)
      {
        const TtvType *hit = member_named (r->scopes[s].root, parts[0], r->scopes[s].root->fields->len);
        if (hit)
          return follow (hit, parts, 1);
      }
  return NULL;
}

/* Whether @t can be a length (an unsigned integer) or a selector: of a
 * TSDL variant an enum, of a CTF 2 one an integer, of an optional also a
 * boolean.  A variant target qualifies when each of its options does. */
static gboolean
fits (const TtvType *t, const TtvType *user, const char **what)
{
  if (t->kind == TTV_TYPE_VARIANT && !t->optional)
    {
      for (guint i = 0; i < t->fields->len; i++)
        if (!fits (member_type (t, i), user, what))
          return FALSE;
      return t->fields->len > 0;
    }
  gboolean integer = t->kind == TTV_TYPE_INTEGER || t->kind == TTV_TYPE_ENUM;
  gboolean boolean = t->kind == TTV_TYPE_INTEGER && t->int_kind == TTV_INT_BOOLEAN;
  if (user->kind == TTV_TYPE_VARIANT && user->option_ranges == NULL)
    {
      *what = _("an enumeration");
      return t->kind == TTV_TYPE_ENUM;
    }
  if (user->kind == TTV_TYPE_VARIANT)
    {
      *what = user->optional ? _("a boolean or an integer") : _("an integer");
      return integer && (user->optional || !boolean) && t->int_kind != TTV_INT_BIT_ARRAY;
    }
  *what = _("an unsigned integer");
  return integer && !boolean && !t->is_signed && t->int_kind != TTV_INT_BIT_ARRAY;
}

static const char *
kind_text (const TtvType *t)
{
  if (t->kind == TTV_TYPE_INTEGER && t->int_kind == TTV_INT_BOOLEAN)
    return _("a boolean");
  switch (t->kind)
    {
    case TTV_TYPE_INTEGER:
      return t->is_signed ? _("a signed integer") : _("an integer");
    case TTV_TYPE_ENUM:
      return t->is_signed ? _("a signed enumeration") : _("an enumeration");
    case TTV_TYPE_FLOAT:
      return _("a floating-point number");
    case TTV_TYPE_STRING:
      return _("a string");
    case TTV_TYPE_ARRAY:
    case TTV_TYPE_SEQUENCE:
      return _("an array");
    case TTV_TYPE_STRUCT:
      return _("a structure");
    case TTV_TYPE_VARIANT:
      return t->optional ? _("an optional") : _("a variant");
    }
  return "?";
}

static gboolean
fail (Resolver *r, const TtvType *user, const char *message)
{
  const char *where = r->where ? g_hash_table_lookup (r->where, user) : NULL;
  g_set_error (&r->error, TTV_FORMAT_ERROR, TTV_FORMAT_ERROR_INVALID, "%s: %s",
               where ? where : r->path, message);
  return FALSE;
}

static gboolean
check_ref (Resolver *r, const TtvType *t)
{
  const char *what = NULL;
  const TtvType *target = lookup (r, t->ref);
  if (target && fits (target, t, &what))
    return TRUE;
  g_autofree char *msg = NULL;
  if (target == NULL)
    msg = g_strdup_printf (t->kind == TTV_TYPE_VARIANT ? _("the selector “%s” of this variant or optional is not a field declared before it")
                           : _("the length “%s” of this sequence or string is not a field declared before it"),
                           t->ref);
  else
    msg = g_strdup_printf (t->kind == TTV_TYPE_VARIANT ? _("the selector “%s” of this variant or optional is %s, not %s")
                           : _("the length “%s” of this sequence or string is %s, not %s"),
                           t->ref, kind_text (target), what);
  return fail (r, t, msg);
}

static gboolean
check_type (Resolver *r, const TtvType *t)
{
  if (t == NULL)
    return TRUE;
  if (t->ref && !t->prefix && !check_ref (r, t))
    return FALSE;
  switch (t->kind)
    {
    case TTV_TYPE_ARRAY:
    case TTV_TYPE_SEQUENCE:
      return check_type (r, t->element);
    case TTV_TYPE_VARIANT:
      for (guint i = 0; i < t->fields->len; i++)
        if (!check_type (r, member_type (t, i)))
          return FALSE;
      return TRUE;
    case TTV_TYPE_STRUCT:
      {
        Frame f = { t, 0 };
        g_array_append_val (r->frames, f);
        gboolean ok = TRUE;
        for (guint i = 0; ok && i < t->fields->len; i++)
          {
            g_array_index (r->frames, Frame, r->frames->len - 1).member = i;
            ok = check_type (r, member_type (t, i));
          }
        g_array_set_size (r->frames, r->frames->len - 1);
        return ok;
      }
    default:
      return TRUE;
    }
}

/* Walks scope @root as the last of the scopes so far. */
static gboolean
check_scope (Resolver *r, const char *name, const TtvType *root)
{
  g_assert (r->n_scopes < MAX_SCOPES);
  r->scopes[r->n_scopes].name = name;
  r->scopes[r->n_scopes].root = root && root->kind == TTV_TYPE_STRUCT ? root : NULL;
  r->n_scopes++;
  g_array_set_size (r->frames, 0);
  return check_type (r, root);
}

gboolean
ttv_ctf_resolve_refs (const CtfMeta *m, GHashTable *where, GError **error)
{
  Resolver r = { .where = where, .path = m->path ? m->path : "metadata" };
  r.frames = g_array_new (FALSE, FALSE, sizeof (Frame));
  gboolean ok = check_scope (&r, "trace.packet.header", m->packet_header);
  for (guint i = 0; ok && i < m->streams->len; i++)
    {
      const CtfStreamClass *s = g_ptr_array_index (m->streams, i);
      r.n_scopes = 1;
      ok = check_scope (&r, "stream.packet.context", s->packet_context)
           && check_scope (&r, "stream.event.header", s->event_header)
           && check_scope (&r, "stream.event.context", s->event_context);
      for (guint j = 0; ok && j < s->events->len; j++)
        {
          const CtfEventClass *e = g_ptr_array_index (s->events, j);
          r.n_scopes = 4;
          ok = check_scope (&r, "event.context", e->context) && check_scope (&r, "event.fields", e->fields);
        }
    }
  g_array_unref (r.frames);
  if (!ok)
    g_propagate_error (error, r.error);
  return ok;
}
