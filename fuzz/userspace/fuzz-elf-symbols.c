/* fuzz-elf-symbols.c: libFuzzer target reading arbitrary bytes as an ELF
 * file (ttv_elf_symbols_new_from_bytes): build id, debug link, the first
 * loadable segment, then functions, lines and declarations at addresses
 * around every symbol and at addresses the input itself names. */
#include "ttv-elf-symbols.h"

#include <string.h>

int LLVMFuzzerTestOneInput (const guint8 *data, size_t size);

static void
look_up (TtvElfSymbols *elf, guint64 addr)
{
  guint64 offset = 0;
  guint line = 0;
  const char *name = ttv_elf_symbols_lookup_function (elf, addr, &offset);
  if (name)
    g_assert (offset <= addr);
  const char *file = ttv_elf_symbols_lookup_line (elf, addr, &line);
  if (file)
    g_assert (line > 0 && strlen (file) < G_MAXINT);
  file = ttv_elf_symbols_lookup_declaration (elf, addr, &line);
  if (file)
    g_assert (line > 0);
}

int
LLVMFuzzerTestOneInput (const guint8 *data, size_t size)
{
  GError *error = NULL;
  TtvElfSymbols *elf = ttv_elf_symbols_new_from_bytes (data, size, "fuzz.elf", &error);
  if (elf == NULL)
    {
      /* Every refusal names the file. */
      g_assert (error != NULL && strncmp (error->message, "fuzz.elf", 8) == 0);
      g_error_free (error);
      return 0;
    }
  guint len;
  const guint8 *id = ttv_elf_symbols_get_build_id (elf, &len);
  g_assert ((id == NULL) == (len == 0) && len <= 64);
  guint32 crc;
  const char *link = ttv_elf_symbols_get_debug_link (elf, &crc);
  g_assert (link == NULL || (*link && strchr (link, '/') == NULL));
  guint64 base = ttv_elf_symbols_get_first_load_address (elf);
  ttv_elf_symbols_has_functions (elf);
  ttv_elf_symbols_has_lines (elf);
  for (guint64 k = 0; k < 64; k++)
    look_up (elf, base + k * 16);
  /* Addresses the input names: its last bytes. */
  for (gsize at = size >= 8 ? size - 8 : 0; at + 8 <= size && at + 64 >= size; at = at >= 8 ? at - 8 : size)
    {
      guint64 addr;
      memcpy (&addr, data + at, sizeof addr);
      look_up (elf, addr);
      look_up (elf, base + (addr & 0xffff));
      if (at < 8)
        break;
    }
  ttv_elf_symbols_free (elf);
  return 0;
}
