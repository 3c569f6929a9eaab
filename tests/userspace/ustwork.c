/* ustwork.c: the program the userspace analyses' tests trace
 * (tests/userspace/test-userspace.sh builds it with -finstrument-functions
 * -g and runs it under the LTTng-UST helper libraries).  Its call tree, its
 * allocations and its one leak are known: check-userspace.py models them.
 * Usage: ustwork PLUGIN.so|- [threads]   (-: no plugin; "threads": a
 * second thread runs worker()).  check-userspace.py finds each function's
 * line by its name at the start of a line, and the leak by "LEAK". */
#define _GNU_SOURCE
#include <dlfcn.h>
#include <pthread.h>
#include <stdlib.h>
#include <string.h>

static volatile int sink;
void *volatile ustwork_kept;   /* read by nobody: the leak */

void
leaf (int n)
{
  for (int i = 0; i < 200 * (n + 1); i++)
    sink += i;
}

void
helper (int n)
{
  leaf (n);
  leaf (n + 1);
}

int
fib (int n)
{
  return n < 2 ? n : fib (n - 1) + fib (n - 2);
}

/* Allocations that are all freed: 10 malloc, a calloc, a realloc that
 * grows, a posix_memalign; 12345 bytes at most at once. */
void
churn (void)
{
  void *blocks[10];
  for (int i = 0; i < 10; i++)
    blocks[i] = malloc (100 + i);
  for (int i = 0; i < 10; i++)
    free (blocks[i]);
  char *c = calloc (4, 250);
  free (c);
  char *r = malloc (64);
  r = realloc (r, 12345);
  free (r);
  void *a = NULL;
  if (posix_memalign (&a, 64, 512) == 0)
    free (a);
}

void
make_leak (void)
{
  ustwork_kept = malloc (4096);   /* LEAK: never freed */
}

void *
worker (void *arg)
{
  for (int i = 0; i < 4; i++)
    helper (i);
  return arg;
}

/* The thread's start, not traced: it names the thread before its first
 * event, whose procname context LTTng-UST keeps for the thread. */
__attribute__ ((no_instrument_function)) static void *
start_worker (void *arg)
{
  pthread_setname_np (pthread_self (), "ustworker");
  return worker (arg);
}

/* A thread on a stack of our own: glibc keeps the descriptors (and TLS) of
 * the stacks it allocates for reuse, which would look like leaks. */
static int
run_worker (void)
{
  enum { STACK = 256 * 1024 };
  void *stack = NULL;
  pthread_attr_t attr;
  pthread_t thread;
  if (posix_memalign (&stack, 4096, STACK) != 0 || pthread_attr_init (&attr) != 0
      || pthread_attr_setstack (&attr, stack, STACK) != 0
      || pthread_create (&thread, &attr, start_worker, NULL) != 0)
    return 5;
  pthread_join (thread, NULL);
  pthread_attr_destroy (&attr);
  free (stack);
  return 0;
}

void
run_plugin (const char *path)
{
  void *plugin = dlopen (path, RTLD_NOW);
  if (plugin == NULL)
    exit (3);
  void (*work) (void) = (void (*) (void)) dlsym (plugin, "plugin_work");
  if (work == NULL)
    exit (4);
  work ();
  dlclose (plugin);
}

int
main (int argc, char **argv)
{
  if (argc < 2)
    return 2;
  churn ();
  for (int i = 0; i < 3; i++)
    helper (i);
  sink += fib (5);
  if (strcmp (argv[1], "-") != 0)
    run_plugin (argv[1]);
  if (argc > 2 && strcmp (argv[2], "threads") == 0 && run_worker () != 0)
    return 5;
  make_leak ();
  return 0;
}
