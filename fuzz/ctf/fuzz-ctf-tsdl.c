/* fuzz-ctf-tsdl.c: libFuzzer target for the TSDL passes alone (lexer,
 * parser, resolution), fed text with a dictionary of TSDL's words
 * (tsdl.dict): fuzz-ctf-metadata without its packetized branch. */
#define TTV_FUZZ_TSDL_ONLY 1
#include "fuzz-ctf-metadata.c"
