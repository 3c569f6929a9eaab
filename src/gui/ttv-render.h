/* ttv-render.h: `ttv --render VIEW --trace T --window T0:T1 --size WxH -o
 * FILE`: renders one viewer module's view to PNG/SVG without showing a window. */
#pragma once

#include <glib.h>

G_BEGIN_DECLS

/* TRUE when @argv asks for a render (then ttv_render_main() runs it). */
gboolean    ttv_render_requested (int argc, char **argv);
/* The process's exit status. */
int         ttv_render_main (int argc, char **argv);
/* A few lines on --render for `ttv --help` (translated, static). */
const char *ttv_render_help (void);

G_END_DECLS
