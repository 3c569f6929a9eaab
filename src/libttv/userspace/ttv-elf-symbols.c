/* ttv-elf-symbols.c: function symbols, build id, debug link and lines of
 * one ELF file through libelf and libdw (see ttv-elf-symbols.h).  The
 * file is untrusted: every size and offset goes through libelf's checked
 * accessors, and nothing is read beyond what they return. */
#include "ttv-elf-symbols.h"

#include <glib/gi18n-lib.h>
#include <gio/gio.h>

#include <dwarf.h>
#include <elfutils/libdw.h>
#include <errno.h>
#include <fcntl.h>
#include <gelf.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#define MAX_BUILD_ID 64

typedef struct {
  guint64 start;
  guint64 size;                 /* 0: covers its own address only */
  const char *name;             /* weak: in the ELF's string table */
  guint rank;                   /* global 2, weak 1, local 0: the name kept for an address */
} Function;

struct _TtvElfSymbols {
  char *path;                   /* owned: for messages */
  int fd;                       /* -1 over bytes */
  guint8 *bytes;                /* owned copy, or NULL */
  Elf *elf;                     /* owned */
  guint8 build_id[MAX_BUILD_ID];
  guint build_id_len;
  char *debug_link;             /* owned, or NULL */
  guint32 debug_link_crc;
  guint64 first_load;
  gboolean functions_read;
  GArray *functions;            /* of Function, sorted by start; NULL until read */
  gboolean dwarf_tried;
  Dwarf *dwarf;                 /* owned, NULL when the file has no DWARF */
};

static void
ensure_libelf (void)
{
  static gsize once;
  if (g_once_init_enter (&once))
    {
      elf_version (EV_CURRENT);
      g_once_init_leave (&once, 1);
    }
}

static void
read_build_id (TtvElfSymbols *e, Elf_Scn *scn)
{
  Elf_Data *data = elf_getdata (scn, NULL);
  if (data == NULL || data->d_buf == NULL)
    return;
  GElf_Nhdr nhdr;
  size_t name_off, desc_off, off = 0;
  while ((off = gelf_getnote (data, off, &nhdr, &name_off, &desc_off)) > 0)
    if (nhdr.n_type == NT_GNU_BUILD_ID && nhdr.n_namesz == 4 && nhdr.n_descsz > 0
        && nhdr.n_descsz <= MAX_BUILD_ID && name_off + 4 <= data->d_size
        && desc_off + nhdr.n_descsz <= data->d_size
        && memcmp ((const char *) data->d_buf + name_off, "GNU", 4) == 0)
      {
        memcpy (e->build_id, (const guint8 *) data->d_buf + desc_off, nhdr.n_descsz);
        e->build_id_len = nhdr.n_descsz;
        return;
      }
}

/* .gnu_debuglink: a file name, NUL, padding to 4 bytes, a CRC-32. */
static void
read_debug_link (TtvElfSymbols *e, Elf_Scn *scn)
{
  Elf_Data *data = elf_getdata (scn, NULL);
  if (data == NULL || data->d_buf == NULL || data->d_size < 8)
    return;
  const char *name = data->d_buf;
  const char *nul = memchr (name, '\0', data->d_size);
  if (nul == NULL || nul == name)
    return;
  gsize crc_off = ((gsize) (nul - name) + 4) & ~(gsize) 3;
  if (crc_off + 4 > data->d_size || (gsize) (nul - name) >= 4096 || strchr (name, '/'))
    return;
  const guint8 *p = (const guint8 *) data->d_buf + crc_off;
  gboolean big = elf_getident (e->elf, NULL)[EI_DATA] == ELFDATA2MSB;
  e->debug_link_crc = big ? (guint32) p[0] << 24 | (guint32) p[1] << 16 | (guint32) p[2] << 8 | p[3]
                          : (guint32) p[3] << 24 | (guint32) p[2] << 16 | (guint32) p[1] << 8 | p[0];
  e->debug_link = g_strdup (name);
}

static void
read_headers (TtvElfSymbols *e)
{
  size_t shstrndx;
  gboolean names = elf_getshdrstrndx (e->elf, &shstrndx) == 0;
  for (Elf_Scn *scn = elf_nextscn (e->elf, NULL); scn; scn = elf_nextscn (e->elf, scn))
    {
      GElf_Shdr shdr;
      if (gelf_getshdr (scn, &shdr) == NULL)
        continue;
      if (shdr.sh_type == SHT_NOTE && e->build_id_len == 0)
        read_build_id (e, scn);
      const char *name = names ? elf_strptr (e->elf, shstrndx, shdr.sh_name) : NULL;
      if (name && g_str_equal (name, ".gnu_debuglink") && e->debug_link == NULL)
        read_debug_link (e, scn);
    }
  size_t n;
  if (elf_getphdrnum (e->elf, &n) != 0)
    return;
  for (size_t i = 0; i < n; i++)
    {
      GElf_Phdr phdr;
      if (gelf_getphdr (e->elf, (int) i, &phdr) && phdr.p_type == PT_LOAD)
        {
          e->first_load = phdr.p_vaddr;
          break;
        }
    }
}

static TtvElfSymbols *
finish_open (TtvElfSymbols *e, GError **error)
{
  if (e->elf == NULL || elf_kind (e->elf) != ELF_K_ELF)
    {
      g_set_error (error, G_IO_ERROR, G_IO_ERROR_INVALID_DATA, _("%s: not an ELF file"), e->path);
      ttv_elf_symbols_free (e);
      return NULL;
    }
  GElf_Ehdr ehdr;
  if (gelf_getehdr (e->elf, &ehdr) == NULL || (ehdr.e_type != ET_EXEC && ehdr.e_type != ET_DYN))
    {
      g_set_error (error, G_IO_ERROR, G_IO_ERROR_INVALID_DATA,
                   _("%s: not an executable or shared library"), e->path);
      ttv_elf_symbols_free (e);
      return NULL;
    }
  read_headers (e);
  return e;
}

TtvElfSymbols *
ttv_elf_symbols_open (const char *path, GError **error)
{
  ensure_libelf ();
  /* O_NONBLOCK: a FIFO put where a binary was expected must not hang us. */
  int fd = open (path, O_RDONLY | O_CLOEXEC | O_NONBLOCK | O_NOCTTY);
  if (fd < 0)
    {
      int err = errno;
      g_set_error (error, G_IO_ERROR, g_io_error_from_errno (err), "%s: %s", path, g_strerror (err));
      return NULL;
    }
  struct stat st;
  if (fstat (fd, &st) != 0 || !S_ISREG (st.st_mode))
    {
      g_set_error (error, G_IO_ERROR, G_IO_ERROR_NOT_REGULAR_FILE, _("%s: not a regular file"), path);
      close (fd);
      return NULL;
    }
  TtvElfSymbols *e = g_new0 (TtvElfSymbols, 1);
  e->path = g_strdup (path);
  e->fd = fd;
  e->elf = elf_begin (fd, ELF_C_READ_MMAP, NULL);
  return finish_open (e, error);
}

TtvElfSymbols *
ttv_elf_symbols_new_from_bytes (const guint8 *data, gsize size, const char *name, GError **error)
{
  ensure_libelf ();
  TtvElfSymbols *e = g_new0 (TtvElfSymbols, 1);
  e->path = g_strdup (name);
  e->fd = -1;
  e->bytes = g_memdup2 (data, MAX (size, 1));
  e->elf = elf_memory ((char *) e->bytes, size);
  return finish_open (e, error);
}

void
ttv_elf_symbols_free (TtvElfSymbols *e)
{
  if (e == NULL)
    return;
  if (e->dwarf)
    dwarf_end (e->dwarf);
  if (e->elf)
    elf_end (e->elf);
  if (e->fd >= 0)
    close (e->fd);
  if (e->functions)
    g_array_unref (e->functions);
  g_free (e->debug_link);
  g_free (e->bytes);
  g_free (e->path);
  g_free (e);
}

const char *
ttv_elf_symbols_get_path (const TtvElfSymbols *e)
{
  return e->path;
}

const guint8 *
ttv_elf_symbols_get_build_id (const TtvElfSymbols *e, guint *len)
{
  *len = e->build_id_len;
  return e->build_id_len ? e->build_id : NULL;
}

const char *
ttv_elf_symbols_get_debug_link (const TtvElfSymbols *e, guint32 *crc)
{
  if (crc)
    *crc = e->debug_link_crc;
  return e->debug_link;
}

guint64
ttv_elf_symbols_get_first_load_address (const TtvElfSymbols *e)
{
  return e->first_load;
}

/* --- Functions ------------------------------------------------------------------ */

static gint
compare_functions (gconstpointer a, gconstpointer b)
{
  const Function *x = a, *y = b;
  if (x->start != y->start)
    return x->start < y->start ? -1 : 1;
  /* At one address: sized before unsized, then global, weak, local. */
  if ((x->size != 0) != (y->size != 0))
    return x->size != 0 ? -1 : 1;
  return (gint) y->rank - (gint) x->rank;
}

/* Adds the functions of one symbol table section; how many. */
static guint
read_symbol_table (TtvElfSymbols *e, Elf_Scn *scn, const GElf_Shdr *shdr)
{
  Elf_Data *data = elf_getdata (scn, NULL);
  size_t entsize = gelf_fsize (e->elf, ELF_T_SYM, 1, EV_CURRENT);
  if (data == NULL || entsize == 0)
    return 0;
  guint added = 0;
  size_t n = data->d_size / entsize;
  for (size_t i = 1; i < n; i++)
    {
      GElf_Sym sym;
      if (gelf_getsym (data, (int) i, &sym) == NULL)
        break;
      guint type = GELF_ST_TYPE (sym.st_info);
      if ((type != STT_FUNC && type != STT_GNU_IFUNC) || sym.st_shndx == SHN_UNDEF || sym.st_value == 0)
        continue;
      const char *name = elf_strptr (e->elf, shdr->sh_link, sym.st_name);
      if (name == NULL || name[0] == '\0')
        continue;
      guint bind = GELF_ST_BIND (sym.st_info);
      Function f = { sym.st_value, sym.st_size, name, bind == STB_GLOBAL ? 2 : bind == STB_WEAK ? 1 : 0 };
      g_array_append_val (e->functions, f);
      added++;
    }
  return added;
}

static void
read_functions (TtvElfSymbols *e)
{
  if (e->functions_read)
    return;
  e->functions_read = TRUE;
  e->functions = g_array_new (FALSE, FALSE, sizeof (Function));
  /* The full table when there is one; the dynamic one has only exports. */
  for (guint pass = 0; pass < 2 && e->functions->len == 0; pass++)
    for (Elf_Scn *scn = elf_nextscn (e->elf, NULL); scn; scn = elf_nextscn (e->elf, scn))
      {
        GElf_Shdr shdr;
        if (gelf_getshdr (scn, &shdr) && shdr.sh_type == (pass == 0 ? SHT_SYMTAB : SHT_DYNSYM))
          read_symbol_table (e, scn, &shdr);
      }
  g_array_sort (e->functions, compare_functions);
  /* One function per address: the first after sorting. */
  guint kept = 0;
  for (guint i = 0; i < e->functions->len; i++)
    {
      Function *f = &g_array_index (e->functions, Function, i);
      if (kept > 0 && g_array_index (e->functions, Function, kept - 1).start == f->start)
        continue;
      g_array_index (e->functions, Function, kept++) = *f;
    }
  g_array_set_size (e->functions, kept);
}

gboolean
ttv_elf_symbols_has_functions (TtvElfSymbols *e)
{
  read_functions (e);
  return e->functions->len > 0;
}

static Dwarf *
get_dwarf (TtvElfSymbols *e)
{
  if (!e->dwarf_tried)
    {
      e->dwarf_tried = TRUE;
      e->dwarf = dwarf_begin_elf (e->elf, DWARF_C_READ, NULL);
    }
  return e->dwarf;
}

gboolean
ttv_elf_symbols_has_lines (TtvElfSymbols *e)
{
  return get_dwarf (e) != NULL;
}

/* The compilation unit covering @addr: through .debug_aranges, else by
 * asking each unit (compilers may omit the ranges table). */
static gboolean
find_cu (Dwarf *dwarf, guint64 addr, Dwarf_Die *cu)
{
  if (dwarf_addrdie (dwarf, addr, cu) != NULL)
    return TRUE;
  Dwarf_Off off = 0, next;
  size_t header_size;
  guint guard = 0;
  while (dwarf_nextcu (dwarf, off, &next, &header_size, NULL, NULL, NULL) == 0 && guard++ < 1000000)
    {
      if (dwarf_offdie (dwarf, off + header_size, cu) != NULL && dwarf_haspc (cu, addr) > 0)
        return TRUE;
      if (next <= off)
        break;
      off = next;
    }
  return FALSE;
}

/* The outermost subprogram DIE around @addr (an inlined one is part of its
 * caller's code) into @die; FALSE when none. */
static gboolean
find_subprogram (TtvElfSymbols *e, guint64 addr, Dwarf_Die *die)
{
  Dwarf *dwarf = get_dwarf (e);
  Dwarf_Die cu, *scopes = NULL;
  if (dwarf == NULL || !find_cu (dwarf, addr, &cu))
    return FALSE;
  int n = dwarf_getscopes (&cu, addr, &scopes);
  gboolean found = FALSE;
  for (int i = n - 1; i >= 0 && !found; i--)
    if (dwarf_tag (&scopes[i]) == DW_TAG_subprogram)
      {
        *die = scopes[i];
        found = TRUE;
      }
  free (scopes);
  return found;
}

/* The name of the subprogram around @addr, for files whose symbol table
 * lacks it. */
static const char *
dwarf_function (TtvElfSymbols *e, guint64 addr, guint64 *offset)
{
  Dwarf_Die die;
  Dwarf_Addr low;
  const char *name = find_subprogram (e, addr, &die) ? dwarf_diename (&die) : NULL;
  if (name)
    *offset = dwarf_lowpc (&die, &low) == 0 && low <= addr ? addr - low : 0;
  return name;
}

/* The file @die is declared in.  elfutils 0.188 (Debian 12) answers NULL
 * for DWARF 5's file 0, the unit's own file, which clang names in
 * DW_AT_decl_file: then looked up in the unit's file table, where DWARF 5
 * counts from 0. */
static const char *
decl_file (Dwarf_Die *die)
{
  const char *file = dwarf_decl_file (die);
  if (file != NULL)
    return file;
  Dwarf_Attribute attr;
  Dwarf_Word index;
  Dwarf_Die cu;
  Dwarf_Files *files;
  size_t n_files;
  if (dwarf_attr_integrate (die, DW_AT_decl_file, &attr) == NULL || dwarf_formudata (&attr, &index) != 0
      || dwarf_diecu (die, &cu, NULL, NULL) == NULL || dwarf_getsrcfiles (&cu, &files, &n_files) != 0
      || index >= n_files)
    return NULL;
  return dwarf_filesrc (files, index, NULL, NULL);
}

const char *
ttv_elf_symbols_lookup_declaration (TtvElfSymbols *e, guint64 addr, guint *line)
{
  Dwarf_Die die;
  int lineno;
  if (!find_subprogram (e, addr, &die) || dwarf_decl_line (&die, &lineno) != 0 || lineno <= 0)
    return NULL;
  const char *file = decl_file (&die);
  if (file)
    *line = (guint) lineno;
  return file;
}

const char *
ttv_elf_symbols_lookup_function (TtvElfSymbols *e, guint64 addr, guint64 *offset)
{
  read_functions (e);
  guint lo = 0, hi = e->functions->len;
  while (lo < hi)
    {
      guint mid = lo + (hi - lo) / 2;
      if (g_array_index (e->functions, Function, mid).start <= addr)
        lo = mid + 1;
      else
        hi = mid;
    }
  if (lo > 0)
    {
      const Function *f = &g_array_index (e->functions, Function, lo - 1);
      if (addr == f->start || (f->size > 0 && addr - f->start < f->size))
        {
          *offset = addr - f->start;
          return f->name;
        }
    }
  return dwarf_function (e, addr, offset);
}

const char *
ttv_elf_symbols_lookup_line (TtvElfSymbols *e, guint64 addr, guint *line)
{
  Dwarf *dwarf = get_dwarf (e);
  Dwarf_Die cu;
  if (dwarf == NULL || !find_cu (dwarf, addr, &cu))
    return NULL;
  Dwarf_Line *l = dwarf_getsrc_die (&cu, addr);
  int lineno;
  if (l == NULL || dwarf_lineno (l, &lineno) != 0 || lineno <= 0)
    return NULL;
  const char *file = dwarf_linesrc (l, NULL, NULL);
  if (file == NULL)
    return NULL;
  *line = (guint) lineno;
  return file;
}
