/* ttv-error.c: quarks for the libttv error domains (see ttv-error.h). */
#include "ttv-error.h"

G_DEFINE_QUARK (ttv-format-error-quark, ttv_format_error)
G_DEFINE_QUARK (ttv-archive-error-quark, ttv_archive_error)
G_DEFINE_QUARK (ttv-engine-error-quark, ttv_engine_error)
G_DEFINE_QUARK (ttv-usage-error-quark, ttv_usage_error)
G_DEFINE_QUARK (ttv-filter-error-quark, ttv_filter_error)
G_DEFINE_QUARK (ttv-live-error-quark, ttv_live_error)
