/* unit_races.c: oclgrind's logs (tests/practice, as oclgrind 21.10 wrote them) read into the
   race, the two accesses with their lines and work-items, and the sentence a student reads;
   the exercise keys that ask for the check. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "units.h"
#include "engine/errmap.h"
#include "engine/files.h"
#include "engine/races.h"
#include "engine/str.h"

/* A fixture log without its first line (the fixture's own comment). */
static char *fixture_log(const char *name)
{
    char path[4200];
    const char *top = getenv("top_srcdir");
    struct error e;
    size_t len;
    char *text, *log;

    error_init(&e);
    snprintf(path, sizeof path, "%s/tests/practice/%s", top ? top : CLMM_SRCDIR, name);
    text = files_read(path, 1 << 20, "a log", &len, &e);
    ck_assert_msg(text != NULL, "%s", e.msg);
    log = strdup(strchr(text, '\n') + 1);
    free(text);
    return log;
}

START_TEST(test_races_parse_race)
{
    char *log = fixture_log("oclgrind-race.txt");
    struct race_log rl;
    char says[1024];

    races_parse(log, &rl);
    ck_assert_int_eq(rl.messages, 3);
    ck_assert_int_eq(rl.races, 3);
    ck_assert_str_eq(rl.first, "Read-write data race at local memory address 0x2000000000004");
    ck_assert_int_eq(rl.naccess, 2);
    ck_assert_int_eq(rl.access[0].line, 51);
    ck_assert_str_eq(rl.access[0].code, "Btile[lc][lr] = B[col * K + (k0 + lr)];");
    ck_assert_str_eq(rl.access[0].who, "work-item (1,0,0) of group (1,0,0)");
    ck_assert_int_eq(rl.access[1].line, 65);
    ck_assert_str_eq(rl.access[1].code, "acc += Atile[k][lr] * Btile[lc][k];");
    ck_assert_str_eq(rl.access[1].who, "work-item (0,0,0) of group (1,0,0)");
    races_describe(&rl, "mine.cl", says, sizeof says);
    ck_assert_msg(strstr(says, "work-items race: work-item (1,0,0) of group (1,0,0) at line 51 (Btile") &&
                  strstr(says, "and work-item (0,0,0) of group (1,0,0) at line 65 (acc += ") &&
                  strstr(says, "of mine.cl") && strstr(says, "(oclgrind saw 3 data races)") &&
                  strstr(says, "look for a missing barrier"), "%s", says);
    free(log);
}
END_TEST

START_TEST(test_races_parse_access)
{
    char *log = fixture_log("oclgrind-access.txt");
    struct race_log rl;
    char says[1024];

    races_parse(log, &rl);
    /* Two messages; oclgrind's own notice at the end is not one. */
    ck_assert_int_eq(rl.messages, 2);
    ck_assert_int_eq(rl.races, 0);
    ck_assert_int_eq(rl.naccess, 1);
    ck_assert_int_eq(rl.access[0].line, 41);
    ck_assert_str_eq(rl.access[0].code, "C[row * N + col + (1 << 28)] = acc;");
    races_describe(&rl, "far.cl", says, sizeof says);
    ck_assert_msg(strstr(says, "work-item (0,0,0) of group (1,0,0) at line 41 (C[row * N + col + (1 << 28)] = acc;) "
                               "of far.cl (oclgrind saw 2 bad accesses): an index runs outside its buffer") != NULL,
                  "%s", says);
    /* An empty log: nothing seen. */
    races_parse("", &rl);
    ck_assert_int_eq(rl.messages, 0);
    free(log);
}
END_TEST

/* oclgrind stops at 1000 messages: "1000 or more". */
START_TEST(test_races_capped)
{
    struct race_log rl;
    char says[1024];

    memset(&rl, 0, sizeof rl);
    rl.messages = rl.races = 1000;
    str_copy(rl.first, sizeof rl.first, "Read-write data race at local memory address 0x0");
    races_describe(&rl, "k.cl", says, sizeof says);
    ck_assert_msg(strstr(says, "oclgrind saw 1000 data races or more") != NULL, "%s", says);
}
END_TEST

/* A program that is not there is not oclgrind. */
START_TEST(test_races_available)
{
    char found[4096];
    const char *old = getenv("OCLGRIND");
    char *saved = old ? strdup(old) : NULL;

    setenv("OCLGRIND", "/nonexistent/oclgrind", 1);
    ck_assert(!races_available(found, sizeof found));
    ck_assert_str_eq(found, "/nonexistent/oclgrind");
    if (saved) {
        setenv("OCLGRIND", saved, 1);
        free(saved);
    } else {
        unsetenv("OCLGRIND");
    }
}
END_TEST

Suite *races_suite(void)
{
    Suite *s = suite_create("races");
    TCase *tc = tcase_create("oclgrind's log");

    tcase_add_test(tc, test_races_parse_race);
    tcase_add_test(tc, test_races_parse_access);
    tcase_add_test(tc, test_races_capped);
    tcase_add_test(tc, test_races_available);
    suite_add_tcase(s, tc);
    return s;
}
