/* fuzz_expr.c: fuzzes expr_eval, the integer expressions of lesson files ("global:",
   "require:", "loads:" and others; grammar in lessons/FORMAT).

   The input is one expression, evaluated with M, N, K and a lesson's parameters bound as
   a lesson would bind them, some of them large so that overflow checks are reached. It
   must give a value or a message (syntax, unknown name, division by zero, overflow), never
   crash, hang or run into undefined behaviour. Seeds: tests/fuzz/seeds/expr, the
   expressions of the shipped lessons. Run with `make fuzz`. */
#include <stdlib.h>

#include "fuzz.h"
#include "engine/expr.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    static const struct expr_var vars[] = {
        { "M", 4096 }, { "N", 1000 }, { "K", 65536 }, { "TS", 16 }, { "TSM", 128 }, { "TSN", 128 },
        { "TSK", 8 }, { "WPTM", 8 }, { "WPTN", 8 }, { "WIDTH", 4 }, { "BIG", 9223372036854775807LL },
        { "NEG", -9223372036854775807LL - 1 },
    };
    static const struct expr_env env = { vars, sizeof vars / sizeof vars[0] };
    char *text = fuzz_string(data, size);
    struct error e;
    long long value;

    error_init(&e);
    (void)expr_eval(text, &env, &value, &e);
    error_clear(&e);
    free(text);
    return 0;
}
