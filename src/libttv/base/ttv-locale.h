/* ttv-locale.h: the language and number conventions of the ttv programs
 * (ttv, ttv-report, ttv-gen, ttv-bench call ttv_locale_init first thing). */
#pragma once

#include <glib.h>

G_BEGIN_DECLS

/* Takes the user's locale for messages, dates and character classes but
 * keeps C numbers, and binds the "ttv" catalogue (see ttv_locale_dir). */
void ttv_locale_init (void);

/* Where the compiled catalogues are looked up (LANG/LC_MESSAGES/ttv.mo
 * below it): the build tree's po/ when the running program is one built in
 * that tree, else the installed localedir. */
const char *ttv_locale_dir (void);

/* TRUE when the running executable lies in the build tree it was built in
 * (TTV_BUILD_ROOT): then it runs uninstalled, from a developer's tree or
 * the tests, and installed data (catalogues, settings schema) may be
 * missing or stale. */
gboolean    ttv_running_from_build_tree (void);

G_END_DECLS
