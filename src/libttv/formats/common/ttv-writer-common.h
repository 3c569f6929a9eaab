/* ttv-writer-common.h: what the trace writers share (the CTF, LTT and LTTng 0.x
 * writers under formats/): their argument and I/O errors and their output folder. */
#pragma once

#include <glib.h>

G_BEGIN_DECLS

/* Sets a TTV_USAGE_ERROR_BAD_ARGUMENT error from a printf-style message
 * (already translated by the caller); returns FALSE. */
gboolean ttv_writer_bad_argument (GError **error, const char *format, ...) G_GNUC_PRINTF (2, 3);

/* Sets a TTV_FORMAT_ERROR_IO error "PATH: cannot write: REASON" for @err
 * (an errno value); returns FALSE. */
gboolean ttv_writer_io_error (GError **error, const char *path, int err);

/* Creates @dir and its parents for a new trace: FALSE with a
 * TTV_FORMAT_ERROR_IO error when that fails.  Otherwise *@empty (when not
 * NULL) tells whether @dir holds nothing yet: each writer decides what to
 * refuse. */
gboolean ttv_writer_make_dir (const char *dir, gboolean *empty, GError **error);

G_END_DECLS
