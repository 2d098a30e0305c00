/* races.c: a check under oclgrind (races.h). */
#include "races.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "files.h"
#include "isolate.h"
#include "str.h"

/* A launch under the simulator may take this long: it runs every work-item on the host and
   watches each access. */
#define ORACLE_LIMIT_S 300.0
/* The log read back at most. */
#define LOG_MAX (8u << 20)

/* "Global(17,0,0) Local(1,0,0) Group(1,0,0)" -> "work-item (1,0,0) of group (1,0,0)". */
static void say_entity(const char *line, char *buf, size_t len)
{
    const char *local = strstr(line, "Local("), *group = strstr(line, "Group(");
    int lc = 0, gc = 0;

    if (!local || !group) {
        snprintf(buf, len, "a work-item");
        return;
    }
    local += 5;
    group += 5;
    lc = (int)strcspn(local, ")") + 1;
    gc = (int)strcspn(group, ")") + 1;
    snprintf(buf, len, "work-item %.*s of group %.*s", lc, local, gc, group);
}

/* The next line of p into line (without its newline); the start of the one after. */
static const char *next_line(const char *p, char *line, size_t len)
{
    size_t n = strcspn(p, "\n");

    snprintf(line, len, "%.*s", (int)(n < len ? n : len - 1), p);
    return p[n] ? p + n + 1 : p + n;
}

/* Trims blanks at both ends, in place. */
static char *trimmed(char *s)
{
    char *end;

    while (*s == ' ' || *s == '\t')
        s++;
    end = s + strlen(s);
    while (end > s && (end[-1] == ' ' || end[-1] == '\t' || end[-1] == '\r'))
        *--end = '\0';
    return s;
}

/* The "Group(...)" part of an entity's line, into buf ("" when none). */
static void entity_group(const char *line, char *buf, size_t len)
{
    const char *group = strstr(line, "Group(");

    snprintf(buf, len, "%.*s", group ? (int)strcspn(group, ")") : 0, group ? group : "");
}

/* One message of the log as read so far: what races_parse keeps of it. */
struct message {
    char first[160];
    struct race_access access[2];
    int naccess;
    char group[2][40];          /* the groups of its entities */
    bool race;
};

/* Counts message m into out (the first one counted is kept whole), unless it is a race
   between two work-groups and only races inside a group count. */
static void count_message(const struct message *m, bool within_groups, struct race_log *out)
{
    if (within_groups && m->race && m->naccess == 2 && strcmp(m->group[0], m->group[1]) != 0) {
        out->between_groups++;
        return;
    }
    if (out->messages++ == 0) {
        str_copy(out->first, sizeof out->first, m->first);
        memcpy(out->access, m->access, sizeof out->access);
        out->naccess = m->naccess;
    }
    out->races += m->race;
}

void races_parse_groups(const char *log, bool within_groups, struct race_log *out)
{
    char line[512];
    struct message m;
    bool open = false;
    int access = -1;

    memset(out, 0, sizeof *out);
    for (const char *p = log; *p;) {
        p = next_line(p, line, sizeof line);
        if (strncmp(line, "Oclgrind:", 9) == 0)
            continue;   /* its own notice ("1000 errors generated - suppressing ...") */
        if (line[0] != '\0' && line[0] != '\t' && line[0] != ' ') {
            /* A message begins: its first line says what oclgrind saw. */
            if (open)
                count_message(&m, within_groups, out);
            memset(&m, 0, sizeof m);
            open = true;
            m.race = strstr(line, "data race") != NULL;
            str_copy(m.first, sizeof m.first, trimmed(line));
            access = -1;
            continue;
        }
        if (!open)
            continue;
        {
            char *t = trimmed(line);
            int number;
            if ((strncmp(t, "First entity:", 13) == 0 || strncmp(t, "Second entity:", 14) == 0 ||
                 strncmp(t, "Entity:", 7) == 0) && m.naccess < 2) {
                access = m.naccess++;
                say_entity(t, m.access[access].who, sizeof m.access[access].who);
                entity_group(t, m.group[access], sizeof m.group[access]);
            } else if (access >= 0 && sscanf(t, "At line %d", &number) == 1) {
                m.access[access].line = number;
                /* The source line comes next. */
                p = next_line(p, line, sizeof line);
                str_copy(m.access[access].code, sizeof m.access[access].code, trimmed(line));
            }
        }
    }
    if (open)
        count_message(&m, within_groups, out);
}

void races_parse(const char *log, struct race_log *out)
{
    races_parse_groups(log, false, out);
}

/* oclgrind stops telling at this many messages. */
#define OCLGRIND_MESSAGES_MAX 1000

/* "line 65 (acc += Atile[k][lr] * Btile[lc][k];)" */
static void say_access(const struct race_access *a, char *buf, size_t len)
{
    if (a->line > 0)
        snprintf(buf, len, "line %d (%s)", a->line, a->code);
    else
        snprintf(buf, len, "a line oclgrind did not name");
}

void races_describe(const struct race_log *rl, const char *file, char *buf, size_t len)
{
    bool capped = rl->messages >= OCLGRIND_MESSAGES_MAX;
    const char *more = capped ? " or more" : "";
    int races = capped && rl->races >= OCLGRIND_MESSAGES_MAX ? OCLGRIND_MESSAGES_MAX : rl->races;
    int messages = capped ? OCLGRIND_MESSAGES_MAX : rl->messages;
    char a[300], b[300];

    say_access(&rl->access[0], a, sizeof a);
    say_access(&rl->access[1], b, sizeof b);
    if (rl->races > 0 && rl->naccess == 2)
        snprintf(buf, len, "work-items race: %s at %s and %s at %s of %s use the same memory with no barrier "
                 "between them (oclgrind saw %d data race%s%s): look for a missing barrier", rl->access[0].who, a,
                 rl->access[1].who, b, file, races, races == 1 ? "" : "s", more);
    else if (rl->races > 0)
        snprintf(buf, len, "work-items race (oclgrind saw %d data race%s%s: %s): look for a missing barrier",
                 races, races == 1 ? "" : "s", more, rl->first);
    else
        snprintf(buf, len, "%s at %s of %s (oclgrind saw %d bad access%s%s): an index runs outside its buffer",
                 rl->naccess ? rl->access[0].who : "a work-item", a, file, messages,
                 messages == 1 ? "" : "es", more);
}

bool races_available(char *buf, size_t len)
{
    const char *given = getenv("OCLGRIND");
    const char *path = getenv("PATH");
    char dirs[8192];
    char *save = NULL;

    if (given && *given) {
        str_copy(buf, len, given);
        return access(given, X_OK) == 0;
    }
    str_copy(buf, len, "oclgrind");
    if (!path)
        return false;
    str_copy(dirs, sizeof dirs, path);
    for (char *d = strtok_r(dirs, ":", &save); d; d = strtok_r(NULL, ":", &save)) {
        char full[8300];
        snprintf(full, sizeof full, "%s/oclgrind", *d ? d : ".");
        if (access(full, X_OK) == 0) {
            str_copy(buf, len, full);
            return true;
        }
    }
    return false;
}

/* Where the check under oclgrind runs: the exercise's race-check size, else its first. */
static struct gemm_size race_size(const struct exercise *x)
{
    return x->race_size.m > 0 ? x->race_size : x->sizes[0];
}

/* Runs the check once under oclgrind, its log into a file of our own; fills r->races. */
static void under_oclgrind(const char *oclgrind, const struct exercise *x, const struct lesson_set *lessons,
                           const struct check_options *o, struct check_report *r)
{
    char log_path[4200];
    const char *tmp = getenv("TMPDIR");
    /* The simulated device's local memory as an NVIDIA GPU's (oclgrind's own is 32 KiB): the
       lessons' require lines allow their groups 48 KiB. */
    const char *wrapper[] = { oclgrind, "--data-races", "--local-mem-size", "49152", "--log", log_path, NULL };
    struct check_options once = *o;
    struct check_report rep;
    struct isolate *iso;
    struct race_log rl;
    struct error e;
    char found[1024];
    char *log;
    size_t len;
    int fd, rc;

    error_init(&e);
    snprintf(log_path, sizeof log_path, "%s/clmm-tutor-oclgrind-XXXXXX", tmp && *tmp ? tmp : "/tmp");
    if ((fd = mkstemp(log_path)) < 0) {
        r->races = RACES_FAILED;
        snprintf(r->races_message, sizeof r->races_message, "no file for oclgrind's log in %s: %s",
                 tmp && *tmp ? tmp : "/tmp", strerror(errno));
        return;
    }
    close(fd);
    once.step = NULL;
    once.waiting = NULL;
    once.measure.cancel = o->measure.cancel;
    iso = isolate_new(NULL, wrapper);
    rc = isolate_check_once(iso, x, lessons, &once, ORACLE_LIMIT_S, &rep, &e);
    isolate_free(iso);
    log = files_read(log_path, LOG_MAX, "oclgrind's log", &len, &e);
    unlink(log_path);
    if (rc < 0 || (rep.verdict != CHECK_VERIFIED && rep.verdict != CHECK_WRONG && rep.verdict != CHECK_UNSTABLE &&
                   !(log && log[0]))) {
        r->races = rep.verdict == CHECK_CANCELLED ? RACES_NOT_RUN : RACES_FAILED;
        snprintf(r->races_message, sizeof r->races_message, "under oclgrind: %.900s", rc < 0 ? e.msg : rep.message);
        if (rc == 0)
            check_report_free(&rep);
        free(log);
        return;
    }
    check_report_free(&rep);
    races_parse_groups(log ? log : "", x->between_groups, &rl);
    free(log);
    if (rl.messages == 0) {
        r->races = RACES_NONE;
        if (rl.between_groups > 0)
            snprintf(r->races_message, sizeof r->races_message,
                     "at %lldx%lldx%lld: no race inside a work-group and no bad access (%d%s reports of races "
                     "between work-groups left out: OpenCL 1.2 promises nothing between the groups of a launch, "
                     "so oclgrind reports every read of another group's part; the fences that order them are "
                     "read from your file instead)",
                     race_size(x).m, race_size(x).n, race_size(x).k, rl.between_groups,
                     rl.between_groups >= OCLGRIND_MESSAGES_MAX - 1 ? " or more" : "");
        else
            snprintf(r->races_message, sizeof r->races_message, "at %lldx%lldx%lld: no race and no bad access",
                     race_size(x).m, race_size(x).n, race_size(x).k);
        return;
    }
    r->races = rl.races > 0 ? RACES_FOUND : RACES_ACCESS;
    races_describe(&rl, o->shown_name ? o->shown_name : o->file, found, sizeof found);
    snprintf(r->races_message, sizeof r->races_message, "at %lldx%lldx%lld: %.980s", race_size(x).m, race_size(x).n,
             race_size(x).k, found);
    if (r->verdict == CHECK_CRASHED)
        return;     /* what happened stays the verdict; oclgrind says where */
    r->verdict = CHECK_RACE;
    r->speed = CHECK_SPEED_NONE;
    str_copy(r->message, sizeof r->message, r->races_message);
}

void races_run(const struct exercise *x, const struct lesson_set *lessons, const struct check_options *o,
               bool asked, struct check_report *r)
{
    char oclgrind[4096];

    bool crashed = r->verdict == CHECK_CRASHED;

    r->races = RACES_NOT_RUN;
    /* A kernel that ended its process is looked at whenever oclgrind is there: it names the
       line of the access that went outside its buffer. */
    if (crashed && !races_available(oclgrind, sizeof oclgrind))
        return;
    if (!crashed && !asked && !x->race_check)
        return;
    if (!crashed && r->verdict != CHECK_VERIFIED && r->verdict != CHECK_WRONG && r->verdict != CHECK_UNSTABLE)
        return;
    if (!races_available(oclgrind, sizeof oclgrind)) {
        r->races = RACES_UNAVAILABLE;
        snprintf(r->races_message, sizeof r->races_message, "the race check needs oclgrind, which is not "
                 "installed (Debian: apt-get install oclgrind)");
        return;
    }
    if (o->step) {
        struct check_step st = { CHECK_STEP_RACES, race_size(x), 1, 1, ORACLE_LIMIT_S };
        o->step(o->step_ctx, &st);
    }
    under_oclgrind(oclgrind, x, lessons, o, r);
}
