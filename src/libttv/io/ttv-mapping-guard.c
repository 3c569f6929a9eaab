/* ttv-mapping-guard.c: SIGBUS in a mapped trace file, reported as the
 * file that shrank (see ttv-mapping-guard.h). */
#include "ttv-mapping-guard.h"

#include <glib/gi18n-lib.h>
#include <signal.h>
#include <string.h>
#include <unistd.h>

/* A cursor holds a window for each of a trace's streams, a viewer a few
 * cursors: slots for 16 of them over 64 streams.  A window that finds
 * none free reads by copies instead. */
#define N_SLOTS 1024

/* A registered mapping.  The handler reads the slots without a lock:
 * @start is written last when a slot is taken (and first, to NULL, when it
 * is given back), so a slot the handler sees with its start is whole. */
typedef struct {
  const guint8 *start;   /* atomic; NULL: free */
  gsize len;
  const char *path;
  guint64 offset;
} Slot;

static Slot slots[N_SLOTS];
static GMutex lock;        /* takes and gives back slots (not the handler's) */
static gint free_slots[N_SLOTS];
static gint n_free = -1;   /* -1: the free list is not made yet */

/* The message's parts, translated before any signal: the handler may not
 * call gettext or printf. */
static const char *program;
static const char *shrank_before;   /* "the file shrank ...: the bytes at byte offset " */
static const char *shrank_after;

gint
ttv_mapping_guard_add (const void *start, gsize len, const char *path, guint64 offset)
{
  g_mutex_lock (&lock);
  if (n_free < 0)
    {
      for (gint i = 0; i < N_SLOTS; i++)
        free_slots[i] = N_SLOTS - 1 - i;
      n_free = N_SLOTS;
    }
  gint h = n_free > 0 ? free_slots[--n_free] : -1;
  g_mutex_unlock (&lock);
  if (h < 0)
    return -1;
  Slot *s = &slots[h];
  s->len = len;
  s->path = path;
  s->offset = offset;
  g_atomic_pointer_set (&s->start, start);
  return h;
}

void
ttv_mapping_guard_remove (gint h)
{
  if (h < 0)
    return;
  g_atomic_pointer_set (&slots[h].start, NULL);
  g_mutex_lock (&lock);
  free_slots[n_free++] = h;
  g_mutex_unlock (&lock);
}

static void
put (const char *s)
{
  gsize n = strlen (s);
  while (n > 0)
    {
      ssize_t w = write (STDERR_FILENO, s, n);
      if (w <= 0)
        return;
      s += w;
      n -= (gsize) w;
    }
}

/* @v in decimal, without printf. */
static void
put_u64 (guint64 v)
{
  char digits[24];
  char *p = digits + sizeof digits;
  *--p = '\0';
  do
    *--p = (char) ('0' + v % 10);
  while ((v /= 10) != 0);
  put (p);
}

static void
on_sigbus (int sig, siginfo_t *info, void *context)
{
  (void) context;
  const guint8 *addr = info->si_addr;
  for (gint i = 0; i < N_SLOTS; i++)
    {
      const guint8 *start = g_atomic_pointer_get (&slots[i].start);
      if (start == NULL || addr < start || (gsize) (addr - start) >= slots[i].len)
        continue;
      put (program);
      put (": ");
      put (slots[i].path);
      put (": ");
      put (shrank_before);
      put_u64 (slots[i].offset + (guint64) (addr - start));
      put (shrank_after);
      put ("\n");
      _exit (1);
    }
  /* Not a trace's mapping: the program's own fault, or a signal sent to
   * it, which the default action reports (a faulting access also runs
   * again on return). */
  signal (sig, SIG_DFL);
  raise (sig);
}

void
ttv_mapping_guard_install (const char *name)
{
  static gsize done;
  if (!g_once_init_enter (&done))
    return;
  program = g_strdup (name);
  /* TRANSLATORS: %s is a byte offset in a trace file another program
   * truncated while ttv read it. */
  const char *shrank = _("the file shrank while it was read: its bytes at byte offset %s are gone; stopping");
  const char *mark = strstr (shrank, "%s");
  shrank_before = mark ? g_strndup (shrank, (gsize) (mark - shrank)) : g_strdup (shrank);
  shrank_after = mark ? g_strdup (mark + 2) : "";
  struct sigaction sa;
  memset (&sa, 0, sizeof sa);
  sa.sa_sigaction = on_sigbus;
  sa.sa_flags = SA_SIGINFO;
  sigemptyset (&sa.sa_mask);
  sigaction (SIGBUS, &sa, NULL);
  g_once_init_leave (&done, 1);
}
