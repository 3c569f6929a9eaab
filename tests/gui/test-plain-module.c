/* test-plain-module.c: a shared module without the viewer entry point, so
 * that test-viewer-api checks the loader refuses it. */
int ttv_test_plain_answer (void);

int
ttv_test_plain_answer (void)
{
  return 42;
}
