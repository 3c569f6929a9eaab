/* ustplugin.c: a library ustwork.c opens with dlopen, so that the
 * analyses name functions of a binary loaded after the process started
 * (lttng_ust_dl events). */
static volatile int sink;

void plugin_inner (int n);
void plugin_work (void);

void
plugin_inner (int n)
{
  for (int i = 0; i < 300 * n; i++)
    sink += i;
}

void
plugin_work (void)
{
  plugin_inner (1);
  plugin_inner (2);
}
