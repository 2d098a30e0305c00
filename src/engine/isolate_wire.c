/* isolate_wire.c: the messages between the tool and its child (isolate_wire.h). */
#include "isolate_wire.h"

#include <stdlib.h>
#include <string.h>

#include "files.h"
#include "xalloc.h"

void wire_init(struct wire *w, uint32_t kind)
{
    memset(w, 0, sizeof *w);
    w->kind = kind;
}

void wire_free(struct wire *w)
{
    free(w->bytes);
    memset(w, 0, sizeof *w);
}

void wire_put(struct wire *w, const void *data, size_t len)
{
    if (w->len + len > w->cap) {
        w->cap = (w->len + len) * 2 + 256;
        w->bytes = xrealloc(w->bytes, w->cap);
    }
    if (len)
        memcpy(w->bytes + w->len, data, len);
    w->len += len;
}

void wire_put_string(struct wire *w, const char *s)
{
    uint32_t n = s ? (uint32_t)strlen(s) : 0;

    wire_put(w, &n, sizeof n);
    wire_put(w, s, n);
}

bool wire_get(struct wire *w, void *data, size_t len)
{
    if (w->bad || len > w->len - w->at) {
        w->bad = true;
        memset(data, 0, len);
        return false;
    }
    memcpy(data, w->bytes + w->at, len);
    w->at += len;
    return true;
}

char *wire_get_string(struct wire *w)
{
    uint32_t n;
    char *s;

    if (!wire_get(w, &n, sizeof n) || n > w->len - w->at) {
        w->bad = true;
        return NULL;
    }
    s = xmalloc((size_t)n + 1);
    memcpy(s, w->bytes + w->at, n);
    s[n] = '\0';
    w->at += n;
    return s;
}

int wire_send(int fd, const struct wire *w)
{
    uint32_t head[2] = { w->kind, (uint32_t)w->len };

    if (w->len > WIRE_MAX)
        return -1;
    return files_write_all(fd, head, sizeof head) < 0 || files_write_all(fd, w->bytes, w->len) < 0 ? -1 : 0;
}

int wire_receive(int fd, struct wire *w)
{
    uint32_t head[2];

    wire_init(w, 0);
    if (files_read_all(fd, head, sizeof head) < 0 || head[1] > WIRE_MAX)
        return -1;
    w->kind = head[0];
    w->len = w->cap = head[1];
    w->bytes = xmalloc(w->len + 1);
    if (files_read_all(fd, w->bytes, w->len) < 0) {
        wire_free(w);
        return -1;
    }
    return 0;
}

void wire_config_from(struct wire_config *wc, const struct measure_config *cfg)
{
    memset(wc, 0, sizeof *wc);
    wc->budget_s = cfg->budget_s;
    wc->reps = cfg->reps;
    wc->launch_limit_s = cfg->launch_limit_s;
    wc->force = cfg->force;
    wc->check_timing = cfg->check_timing;
    wc->seed = cfg->seed;
}

void wire_config_to(const struct wire_config *wc, struct measure_config *cfg)
{
    measure_config_defaults(cfg);
    cfg->budget_s = wc->budget_s;
    cfg->reps = wc->reps;
    cfg->launch_limit_s = wc->launch_limit_s;
    cfg->force = wc->force;
    cfg->check_timing = wc->check_timing;
    cfg->seed = wc->seed;
}
