/* layer_alone.c: a program that links one layer's library whole (every object in it, used or
   not) with only the layers below it (Makefile.am: tests/layer_engine, layer_cli, layer_tui).
   A call from the engine into the command line or the screen, or between those two, leaves a
   symbol undefined, and make check stops at the link. It runs nothing. */
int main(void)
{
    return 0;
}
