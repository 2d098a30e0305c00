/* cli.c: what the command line's modes share (cli.h). */
#include "cli.h"

#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <unistd.h>

#include "engine/text.h"

/* Prints an error; it may quote a lesson file (a title, a key) that holds control
   characters, so it is made printable first. */
int cli_fail(int status, const struct error *e)
{
    char *msg = text_printable(e->msg, true), *detail = e->detail ? text_printable(e->detail, true) : NULL;

    fprintf(stderr, "clmm-tutor: %s\n", msg);
    if (detail)
        fprintf(stderr, "%s\n", detail);
    free(msg);
    free(detail);
    return status;
}

int cli_terminal_width(void)
{
    struct winsize ws;

    /* A terminal's width, between 40 and 100 columns; 80 when not a terminal. */
    if (isatty(STDOUT_FILENO) && ioctl(STDOUT_FILENO, TIOCGWINSZ, &ws) == 0 && ws.ws_col > 0)
        return ws.ws_col < 40 ? 40 : ws.ws_col > 100 ? 100 : ws.ws_col;
    return 80;
}

struct isolate *cli_apart(const struct options *opts)
{
    return opts->lessons_dir ? isolate_new(NULL, NULL) : NULL;
}

int cli_select_device(const struct options *opts, struct device_list *list, const struct device_info **d)
{
    const char *spec = opts->device ? opts->device : getenv("CLMM_TUTOR_DEVICE");
    struct error e;

    error_init(&e);
    if (device_list_load(list, &e) < 0)
        return cli_fail(EXIT_ENVIRONMENT, &e);
    *d = device_select(list, spec, &e);
    if (!*d) {
        device_list_free(list);
        return cli_fail(EXIT_ENVIRONMENT, &e);
    }
    return EXIT_OK;
}

int cli_open_device(const struct options *opts, struct device_list *list, struct ocl *cl)
{
    const struct device_info *d;
    struct error e;
    int status;

    error_init(&e);
    if ((status = cli_select_device(opts, list, &d)) != EXIT_OK)
        return status;
    if (ocl_open(cl, d, &e) < 0) {
        device_list_free(list);
        return cli_fail(EXIT_ENVIRONMENT, &e);
    }
    return EXIT_OK;
}

/* The signal (SIGINT, SIGTERM, SIGHUP) that interrupted a search or a check, 0 until one
   came. A signal handler can only reach a variable of the file: this one is written by it
   alone. */
static atomic_int interrupted;
static const char *interrupt_message;

/* The first interrupt cancels the work, as the tutor's x does, and says so. A second one
   ends the program at once. */
static void on_interrupt(int sig)
{
    ssize_t written;

    if (atomic_exchange(&interrupted, sig) != 0) {
        signal(sig, SIG_DFL);
        raise(sig);
        return;
    }
    written = write(STDERR_FILENO, interrupt_message, strlen(interrupt_message));
    (void)written;              /* nothing to do when stderr is gone */
}

static const int interrupts[CLI_INTERRUPTS] = { SIGINT, SIGTERM, SIGHUP };

const atomic_int *cli_catch_interrupts(struct sigaction *old, const char *message)
{
    struct sigaction sa;

    interrupt_message = message;
    memset(&sa, 0, sizeof sa);
    sigemptyset(&sa.sa_mask);
    sa.sa_handler = on_interrupt;
    for (size_t i = 0; i < CLI_INTERRUPTS; i++)
        if (sigaction(interrupts[i], NULL, &old[i]) == 0 && old[i].sa_handler != SIG_IGN)
            sigaction(interrupts[i], &sa, NULL);
    return &interrupted;
}

void cli_release_interrupts(const struct sigaction *old)
{
    int sig;

    for (size_t i = 0; i < CLI_INTERRUPTS; i++)
        sigaction(interrupts[i], &old[i], NULL);
    sig = atomic_load(&interrupted);
    if (sig) {
        fflush(stdout);
        fflush(stderr);
        signal(sig, SIG_DFL);
        raise(sig);
    }
}
