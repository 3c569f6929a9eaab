/* ttv-bin-map.h: which binary (executable or shared object) each traced
 * process had where, and when: built from LTTng-UST's statedump and dl
 * events (base address, size, path, build id, debug link), so that an
 * address of a process at a time names a binary and an offset in it.
 * The symbolizer resolves addresses through it. */
#pragma once

#include "ttv-ust-model.h"

G_BEGIN_DECLS

/* One binary mapped in one process. */
typedef struct {
  guint64 baddr;                /* run-time address of its first loadable segment */
  guint64 memsz;                /* bytes mapped from @baddr */
  char *path;                   /* owned: as the process named it ("[linux-vdso.so.1]" too) */
  gboolean is_pic;
  guint build_id_len;           /* 0: none recorded */
  guint8 build_id[TTV_UST_MAX_BUILD_ID];
  char *debug_link;             /* owned, NULL: none recorded */
  guint32 debug_link_crc;
  TtvTime loaded;               /* TTV_TIME_MIN: already there when the statedump described it */
  TtvTime unloaded;             /* TTV_TIME_MAX: never unloaded in the trace */
} TtvBinMapping;

typedef struct _TtvBinMap TtvBinMap;

TtvBinMap   *ttv_bin_map_new (void);
void         ttv_bin_map_free (TtvBinMap *map);
/* Applies a TTV_UST_BIN_INFO, _LOAD, _UNLOAD, _BUILD_ID or _DEBUG_LINK
 * event (others are ignored).  A process is its trace and vpid (-1 when
 * the trace has no vpid context: then every process of that trace is one). */
void         ttv_bin_map_apply (TtvBinMap *map, const TtvUstEvent *event);
/* The binary of process (@trace, @vpid) holding @addr at @time, or NULL. */
const TtvBinMapping *ttv_bin_map_lookup (const TtvBinMap *map, guint trace, gint64 vpid, guint64 addr,
                                         TtvTime time);
/* Every mapping of the process (of TtvBinMapping *, borrowed), by address. */
GPtrArray   *ttv_bin_map_list (const TtvBinMap *map, guint trace, gint64 vpid);
/* The processes described, as (trace, vpid) pairs: of gint64, two per
 * process, in no particular order; transfer full. */
GArray      *ttv_bin_map_dup_processes (const TtvBinMap *map);
/* Processes described, and mappings in all. */
guint        ttv_bin_map_get_n_processes (const TtvBinMap *map);
guint        ttv_bin_map_get_n_mappings (const TtvBinMap *map);

G_DEFINE_AUTOPTR_CLEANUP_FUNC (TtvBinMap, ttv_bin_map_free)

G_END_DECLS
