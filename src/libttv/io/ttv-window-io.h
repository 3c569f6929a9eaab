/* ttv-window-io.h: how a window read on takes its bytes, mapped or copied,
 * chosen by measuring both on the machine the program runs on.
 *
 * A cursor reading a file through moves its window on from range to
 * range (ttv-file-window.h).  The window can map the next range (no copy;
 * the kernel sets up page tables and the processor walks them) or pread it
 * into the buffer it reuses (a copy from the page cache, no page-table
 * work).  Which costs less is not a property of the code: on one virtual
 * machine of this project's kind mapping read a 47 MB trace in 6 ms
 * against 9 for copies, on another (same kernel, another host) in 24-32 ms
 * against 9, every new page's first touch costing the host microseconds
 * (bench/README.md, "mapped or copied, measured by the program").  So the
 * first window read on in a process measures both on the range it is
 * about to read, and every later one does what cost less. */
#pragma once

#include <glib.h>

G_BEGIN_DECLS

typedef enum {
  TTV_WINDOW_IO_UNDECIDED,  /* not measured yet: windows copy meanwhile */
  TTV_WINDOW_IO_MAP,
  TTV_WINDOW_IO_COPY,
} TtvWindowIo;

/* The way chosen; TTV_WINDOW_IO_UNDECIDED before the first measurement
 * (or while another thread makes it). */
TtvWindowIo ttv_window_io_get (void);

/* Sets the way for the rest of the process, with no measurement: for
 * tests, and for the environment variable TTV_WINDOW_IO (map or copy),
 * which users and benchmarks set to compare the two. */
void        ttv_window_io_set (TtvWindowIo io);

/* Times both ways on what a window is about to read on: the faster, or
 * TTV_WINDOW_IO_UNDECIDED when there is too little to tell, or
 * TTV_WINDOW_IO_COPY when the bytes cannot be mapped
 * (ttv-file-window.c's, which reads as windows do). */
typedef TtvWindowIo (*TtvWindowIoMeasure) (gpointer data);

/* The way for a window about to read on: from TTV_WINDOW_IO, or measured
 * by @measure (@data) the first time (a few hundred KiB of the file read
 * both ways, about a millisecond), then the same for the rest of the
 * process. */
TtvWindowIo ttv_window_io_choose (TtvWindowIoMeasure measure, gpointer data);

/* "map", "copy" or "undecided": for benchmarks, which say what they measured. */
const char *ttv_window_io_name (TtvWindowIo io);

G_END_DECLS
