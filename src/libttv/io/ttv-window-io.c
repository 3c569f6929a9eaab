/* ttv-window-io.c: mapped or copied, decided once per process (see
 * ttv-window-io.h); ttv-file-window.c measures, with the windows' own
 * two ways. */
#include "ttv-window-io.h"

static gint window_io = TTV_WINDOW_IO_UNDECIDED;  /* atomic */
static gint measuring;                            /* atomic: a thread measures */

TtvWindowIo
ttv_window_io_get (void)
{
  return (TtvWindowIo) g_atomic_int_get (&window_io);
}

void
ttv_window_io_set (TtvWindowIo io)
{
  g_atomic_int_set (&window_io, (gint) io);
}

const char *
ttv_window_io_name (TtvWindowIo io)
{
  switch (io)
    {
    case TTV_WINDOW_IO_MAP: return "map";
    case TTV_WINDOW_IO_COPY: return "copy";
    case TTV_WINDOW_IO_UNDECIDED: break;
    }
  return "undecided";
}

/* TTV_WINDOW_IO's way, or UNDECIDED when it is unset or "auto". */
static TtvWindowIo
from_environment (void)
{
  const char *v = g_getenv ("TTV_WINDOW_IO");
  if (v == NULL || *v == '\0' || g_str_equal (v, "auto"))
    return TTV_WINDOW_IO_UNDECIDED;
  if (g_str_equal (v, "map"))
    return TTV_WINDOW_IO_MAP;
  if (g_str_equal (v, "copy"))
    return TTV_WINDOW_IO_COPY;
  g_warning ("TTV_WINDOW_IO=%s: expected map, copy or auto; measuring instead", v);
  return TTV_WINDOW_IO_UNDECIDED;
}

TtvWindowIo
ttv_window_io_choose (TtvWindowIoMeasure measure, gpointer data)
{
  TtvWindowIo io = ttv_window_io_get ();
  if (G_LIKELY (io != TTV_WINDOW_IO_UNDECIDED))
    return io;
  /* Another thread measures: this window copies meanwhile. */
  if (!g_atomic_int_compare_and_exchange (&measuring, 0, 1))
    return TTV_WINDOW_IO_COPY;
  static gboolean environment_read;
  if (!environment_read)
    {
      environment_read = TRUE;
      io = from_environment ();
    }
  if (io == TTV_WINDOW_IO_UNDECIDED)
    io = measure (data);
  if (io != TTV_WINDOW_IO_UNDECIDED)
    ttv_window_io_set (io);
  g_atomic_int_set (&measuring, 0);
  return io == TTV_WINDOW_IO_UNDECIDED ? TTV_WINDOW_IO_COPY : io;
}
