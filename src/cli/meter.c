/* meter.c: the command line's progress line on a terminal. */
#include "meter.h"

#include <string.h>
#include <sys/ioctl.h>
#include <unistd.h>

#include "engine/str.h"

#define REDRAW_S 0.2            /* the line changes at most this often */

void meter_init(struct meter *m, FILE *out)
{
    memset(m, 0, sizeof *m);
    m->out = out;
    m->on = isatty(fileno(out));
    m->started = m->step_started = now_seconds();
    m->step_left = -1;
}

/* "42 s", "3:10", "1:02:03". */
static void duration(char *buf, size_t len, double s)
{
    long t = s < 0 ? 0 : (long)(s + 0.5);

    if (t < 60)
        snprintf(buf, len, "%ld s", t);
    else if (t < 3600)
        snprintf(buf, len, "%ld:%02ld", t / 60, t % 60);
    else
        snprintf(buf, len, "%ld:%02ld:%02ld", t / 3600, t / 60 % 60, t % 60);
}

void meter_line(char *buf, size_t len, const char *what, double elapsed, double left, int width)
{
    char line[512], spent[32], to_go[32];
    size_t n;

    duration(spent, sizeof spent, elapsed);
    duration(to_go, sizeof to_go, left);
    snprintf(line, sizeof line, "%s: %s elapsed, %s%s%s", what, spent, left < 0 ? "time left not known yet" : "about ",
             left < 0 ? "" : to_go, left < 0 ? "" : " left");
    n = str_prefix(line, width > 1 ? (size_t)width - 1 : 0);
    snprintf(buf, len, "%.*s", (int)n, line);
}

static int terminal_width(FILE *out)
{
    struct winsize ws;

    if (ioctl(fileno(out), TIOCGWINSZ, &ws) == 0 && ws.ws_col > 0)
        return ws.ws_col;
    return 80;
}

/* The time left: the mean of the steps finished for each step to come, and for the step
   running its own estimate, else what the mean leaves of it; with a deadline, no more
   than the steps that may still start before it. */
static double left_s(const struct meter *m, double now)
{
    double mean, running, left, until;

    if (m->finished == 0)
        return -1;
    mean = m->finished_s / (double)m->finished;
    running = m->step_left >= 0 ? m->step_left : mean - (now - m->step_started);
    running = running > 0 ? running : 0;
    left = running + mean * (double)m->after;
    if (m->deadline_s > 0) {
        until = m->deadline_s - (now - m->started);
        until = running + (until > 0 ? until : 0) + mean;
        left = until < left ? until : left;
    }
    return left;
}

/* Writes line over the one shown, blanking what is left of a longer one. */
static void put_line(struct meter *m, const char *line, double now)
{
    size_t n = str_columns(line, strlen(line));

    fprintf(m->out, "\r%s%*s", line, m->shown > n ? (int)(m->shown - n) : 0, "");
    fflush(m->out);
    m->shown = m->shown > n ? m->shown : n;
    m->drawn_at = now;
}

static void draw(struct meter *m)
{
    double now = now_seconds();
    char line[512];

    if (!m->on)
        return;
    meter_line(line, sizeof line, m->what, now - m->started, left_s(m, now), terminal_width(m->out));
    put_line(m, line, now);
}

void meter_show(struct meter *m, const char *text, bool now)
{
    double t = now_seconds();
    char line[512];

    if (!m->on || (!now && t - m->drawn_at < REDRAW_S))
        return;
    snprintf(line, sizeof line, "%.*s", (int)str_prefix(text, (size_t)terminal_width(m->out) - 1), text);
    put_line(m, line, t);
}

void meter_clear(struct meter *m)
{
    if (!m->on || m->shown == 0)
        return;
    fprintf(m->out, "\r%*s\r", (int)m->shown, "");
    fflush(m->out);
    m->shown = 0;
}

void meter_start(struct meter *m, const char *what, size_t after)
{
    str_copy(m->what, sizeof m->what, what);
    m->after = after;
    m->step_started = now_seconds();
    m->step_left = -1;
    draw(m);
}

void meter_finish(struct meter *m)
{
    m->finished_s += now_seconds() - m->step_started;
    m->finished++;
}

void meter_progress(void *ctx, const struct measure_progress *p)
{
    struct meter *m = ctx;

    m->step_left = p->phase == MEASURE_TIMED && p->left_s > 0 ? p->left_s : -1;
    if (now_seconds() - m->drawn_at >= REDRAW_S)
        draw(m);
}
