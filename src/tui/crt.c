/* crt.c: curses set-up and teardown, colour roles, and the signal paths. */
#include "crt.h"

#include <curses.h>
#include <errno.h>
#include <langinfo.h>
#include <signal.h>
#include <stdio.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

static bool active, utf8, color;
static int attrs[ROLE_COUNT];
static volatile sig_atomic_t quit_signal;

struct role_style {
    short fg, bg;               /* colours; -1 is the terminal's default */
    int color_attr;             /* added with colours */
    int mono_attr;              /* without colours */
};

/* Roles without colour still differ: bold, underline, reverse, dim. */
static const struct role_style styles[ROLE_COUNT] = {
    [ROLE_NORMAL] = { -1, -1, A_NORMAL, A_NORMAL },
    [ROLE_TITLE] = { COLOR_BLACK, COLOR_CYAN, A_BOLD, A_REVERSE | A_BOLD },
    [ROLE_KEYS] = { COLOR_BLACK, COLOR_WHITE, A_NORMAL, A_REVERSE },
    [ROLE_KEY] = { COLOR_BLUE, COLOR_WHITE, A_BOLD, A_REVERSE | A_BOLD },
    [ROLE_BORDER] = { -1, -1, A_DIM, A_DIM },
    [ROLE_BORDER_FOCUS] = { COLOR_CYAN, -1, A_BOLD, A_BOLD },
    [ROLE_HEADING] = { COLOR_YELLOW, -1, A_BOLD, A_BOLD | A_UNDERLINE },
    [ROLE_EMPHASIS] = { -1, -1, A_BOLD, A_BOLD },
    [ROLE_CODE] = { COLOR_GREEN, -1, A_NORMAL, A_UNDERLINE },
    [ROLE_DIM] = { -1, -1, A_DIM, A_DIM },
    [ROLE_KEYWORD] = { COLOR_MAGENTA, -1, A_BOLD, A_BOLD },
    [ROLE_TYPE] = { COLOR_GREEN, -1, A_NORMAL, A_NORMAL },
    [ROLE_QUALIFIER] = { COLOR_YELLOW, -1, A_BOLD, A_BOLD },
    [ROLE_BUILTIN] = { COLOR_CYAN, -1, A_NORMAL, A_UNDERLINE },
    [ROLE_COMMENT] = { COLOR_BLUE, -1, A_NORMAL, A_DIM },
    [ROLE_NUMBER] = { COLOR_RED, -1, A_NORMAL, A_NORMAL },
    [ROLE_STRING] = { COLOR_RED, -1, A_NORMAL, A_NORMAL },
    [ROLE_PREPROC] = { COLOR_MAGENTA, -1, A_NORMAL, A_BOLD },
    [ROLE_CHANGED] = { COLOR_YELLOW, -1, A_BOLD, A_BOLD | A_REVERSE },
    [ROLE_ADDED] = { COLOR_GREEN, -1, A_BOLD, A_BOLD },
    [ROLE_REMOVED] = { COLOR_RED, -1, A_NORMAL, A_DIM },
    [ROLE_BAR] = { COLOR_BLUE, -1, A_NORMAL, A_NORMAL },
    [ROLE_BAR_CURRENT] = { COLOR_CYAN, -1, A_BOLD, A_BOLD },
    [ROLE_BAR_REFERENCE] = { COLOR_WHITE, -1, A_DIM, A_DIM },
    [ROLE_BEST] = { COLOR_YELLOW, -1, A_BOLD, A_BOLD },
    [ROLE_WRONG] = { COLOR_WHITE, COLOR_RED, A_BOLD, A_REVERSE | A_BOLD },
    [ROLE_WARNING] = { COLOR_RED, -1, A_BOLD, A_BOLD },
    [ROLE_GOOD] = { COLOR_GREEN, -1, A_NORMAL, A_NORMAL },
    [ROLE_SELECTED] = { COLOR_BLACK, COLOR_CYAN, A_NORMAL, A_REVERSE },
    [ROLE_MARK] = { COLOR_CYAN, -1, A_BOLD, A_BOLD },
    [ROLE_TILE_A] = { COLOR_GREEN, -1, A_NORMAL, A_NORMAL },
    [ROLE_TILE_B] = { COLOR_MAGENTA, -1, A_NORMAL, A_NORMAL },
    [ROLE_PADDING] = { -1, -1, A_DIM, A_DIM },
};

static void setup_roles(void)
{
    for (int r = 0; r < ROLE_COUNT; r++) {
        const struct role_style *st = &styles[r];
        if (!color) {
            attrs[r] = st->mono_attr;
            continue;
        }
        init_pair((short)(r + 1), st->fg, st->bg);
        attrs[r] = (int)COLOR_PAIR(r + 1) | st->color_attr;
    }
}

void crt_init(bool want_color)
{
    const char *codeset = nl_langinfo(CODESET);

    utf8 = codeset && strcmp(codeset, "UTF-8") == 0;
    initscr();
    active = true;
    cbreak();
    noecho();
    nonl();
    keypad(stdscr, TRUE);
    curs_set(0);
    set_escdelay(25);           /* Esc answers at once; arrow keys still arrive whole */
    color = want_color && has_colors();
    if (color) {
        start_color();
        use_default_colors();
    }
    setup_roles();
}

void crt_done(void)
{
    if (!active)
        return;
    active = false;
    curs_set(1);
    endwin();
}

int crt_attr(enum role r)
{
    return attrs[r];
}

bool crt_utf8(void)
{
    return utf8;
}

bool crt_has_color(void)
{
    return color;
}

static void on_quit(int sig)
{
    (void)sig;
    quit_signal = 1;
}

/* Signals whose default ends the process with a core dump: the crashes, and Ctrl-\ (SIGQUIT).
   Always ours, even over a handler a library installed: POCL's LLVM catches SIGQUIT, puts
   back the handler it found and lets the process run on, so that without ours the next
   SIGQUIT would end it with the terminal raw. */
static const int crashes[] = {
    SIGSEGV, SIGBUS, SIGFPE, SIGILL, SIGABRT, SIGQUIT, SIGTRAP, SIGSYS, SIGXCPU, SIGXFSZ,
};

/* The other signals whose default ends the process (SIGINT, SIGTERM and SIGHUP ask to
   quit instead). Ours only while they keep that default: a library that handles or
   ignores one (SIGPIPE, SIGUSR1) keeps it so; the real-time signals as well. */
static const int endings[] = {
    SIGALRM, SIGPIPE, SIGUSR1, SIGUSR2, SIGVTALRM, SIGPROF,
#ifdef SIGPOLL
    SIGPOLL,
#endif
#ifdef SIGPWR
    SIGPWR,
#endif
#ifdef SIGSTKFLT
    SIGSTKFLT,
#endif
};

/* The terminal first, then the signal's own ending (a core dump, the exit status). A
   handler an OpenCL driver installed for its own crash reports is not called: the process
   ends either way, and the terminal must be usable when it does. */
static void on_ending(int sig)
{
    crt_fatal();
    signal(sig, SIG_DFL);
    raise(sig);
}

/* ---- standard error while the screen is up ---- */

/* What the libraries print on stderr while the screen is up (a compiler's "1 error
   generated.") would land in the middle of the panes: it goes to a temporary file and is
   shown after the screen closes, or when the program ends some other way. */
static int saved_stderr = -1, held_stderr = -1;

void crt_hold_stderr(void)
{
    FILE *f = tmpfile();
    int fd;

    if (!f)
        return;
    fflush(stderr);
    fd = dup(fileno(f));
    fclose(f);
    if (fd < 0)
        return;
    saved_stderr = dup(STDERR_FILENO);
    if (saved_stderr < 0 || dup2(fd, STDERR_FILENO) < 0) {
        if (saved_stderr >= 0)
            close(saved_stderr);
        saved_stderr = -1;
        close(fd);
        return;
    }
    held_stderr = fd;
}

/* Puts stderr back and copies out what was held; only calls that are safe in a signal
   handler. */
static void give_back_stderr(void)
{
    char buf[4096];
    ssize_t n;

    if (saved_stderr < 0)
        return;
    dup2(saved_stderr, STDERR_FILENO);
    close(saved_stderr);
    saved_stderr = -1;
    if (lseek(held_stderr, 0, SEEK_SET) == 0)
        while ((n = read(held_stderr, buf, sizeof buf)) > 0)
            if (write(STDERR_FILENO, buf, (size_t)n) < 0)
                break;
    close(held_stderr);
    held_stderr = -1;
}

void crt_release_stderr(void)
{
    fflush(stderr);
    give_back_stderr();
}

void crt_fatal(void)
{
    crt_done();
    give_back_stderr();
}

/* ---- a command on the terminal ---- */

int crt_run_command(const char *command, const char *arg, char *why, size_t len)
{
    char script[4200];
    struct sigaction ignore, dfl, old_int, old_quit;
    int status = 0, stderr_now = -1;
    pid_t pid;

    snprintf(script, sizeof script, "%s \"$1\"", command);
    def_prog_mode();
    endwin();
    /* The command's messages go to the terminal; what the screen holds stays held. */
    fflush(stderr);
    if (saved_stderr >= 0) {
        stderr_now = dup(STDERR_FILENO);
        dup2(saved_stderr, STDERR_FILENO);
    }
    /* As system() does: Ctrl-C and Ctrl-\ belong to the command while it runs. */
    memset(&ignore, 0, sizeof ignore);
    sigemptyset(&ignore.sa_mask);
    ignore.sa_handler = SIG_IGN;
    dfl = ignore;
    dfl.sa_handler = SIG_DFL;
    sigaction(SIGINT, &ignore, &old_int);
    sigaction(SIGQUIT, &ignore, &old_quit);
    pid = fork();
    if (pid == 0) {
        /* Only calls that are safe between fork and exec in a program with threads. */
        sigaction(SIGINT, &dfl, NULL);
        sigaction(SIGQUIT, &dfl, NULL);
        execl("/bin/sh", "sh", "-c", script, "sh", arg, (char *)NULL);
        _exit(127);
    }
    if (pid > 0)
        while (waitpid(pid, &status, 0) < 0 && errno == EINTR)
            continue;
    sigaction(SIGINT, &old_int, NULL);
    sigaction(SIGQUIT, &old_quit, NULL);
    if (stderr_now >= 0) {
        dup2(stderr_now, STDERR_FILENO);
        close(stderr_now);
    }
    reset_prog_mode();
    clearok(curscr, TRUE);
    refresh();
    if (pid < 0)
        snprintf(why, len, "could not start %s: %s", command, strerror(errno));
    else if (WIFEXITED(status) && WEXITSTATUS(status) == 127)
        snprintf(why, len, "%s: command not found (set VISUAL or EDITOR)", command);
    else if (WIFEXITED(status) && WEXITSTATUS(status) != 0)
        snprintf(why, len, "%s ended with status %d", command, WEXITSTATUS(status));
    else if (WIFSIGNALED(status))
        snprintf(why, len, "%s ended by signal %d", command, WTERMSIG(status));
    else
        return 0;
    return -1;
}

static void install_ending(int sig, bool over_others)
{
    struct sigaction sa, old;

    if (sigaction(sig, NULL, &old) < 0)
        return;                 /* one the C library keeps for itself */
    if (!over_others && (old.sa_flags & SA_SIGINFO || old.sa_handler != SIG_DFL))
        return;
    memset(&sa, 0, sizeof sa);
    sigemptyset(&sa.sa_mask);
    sa.sa_handler = on_ending;
    sigaction(sig, &sa, NULL);
}

void crt_install_crash_handlers(void)
{
    for (size_t i = 0; i < sizeof crashes / sizeof crashes[0]; i++)
        install_ending(crashes[i], true);
    for (size_t i = 0; i < sizeof endings / sizeof endings[0]; i++)
        install_ending(endings[i], false);
#if defined(SIGRTMIN) && defined(SIGRTMAX)
    for (int sig = SIGRTMIN; sig <= SIGRTMAX; sig++)
        install_ending(sig, false);
#endif
}

/* In a build with AddressSanitizer or UBSan (make check-sanitize), their runtime prints a
   report and ends the process without a signal: the terminal must come back and the held
   report reach it first. The runtimes give a hook for that; a weak declaration leaves it
   NULL in a build without them. */
extern void __sanitizer_set_death_callback(void (*callback)(void)) __attribute__((weak));

static void on_sanitizer_death(void)
{
    crt_fatal();
}

void crt_install_signals(void)
{
    struct sigaction sa;

    if (__sanitizer_set_death_callback)
        __sanitizer_set_death_callback(on_sanitizer_death);

    memset(&sa, 0, sizeof sa);
    sigemptyset(&sa.sa_mask);
    sa.sa_handler = on_quit;    /* no SA_RESTART: a waiting getch returns at once */
    sigaction(SIGINT, &sa, NULL);
    sigaction(SIGTERM, &sa, NULL);
    sigaction(SIGHUP, &sa, NULL);
    crt_install_crash_handlers();
}

bool crt_quit_requested(void)
{
    return quit_signal != 0;
}

/* What follows an Esc that came with more bytes behind it: Alt+key, or an escape sequence
   curses does not know (the terminal's keys under a TERM that describes another terminal).
   The sequence is read to its end so that none of its bytes is taken for a key; Home and
   End in their common forms are understood, anything else is dropped. */
static int after_escape(int first)
{
    char seq[16];
    size_t n = 0;
    int c;

    if (first != '[' && first != 'O')
        return ERR;                         /* Alt+key: not a key of the tutor's */
    timeout(0);
    /* Parameter and intermediate bytes, then one final byte (ECMA-48). */
    while ((c = getch()) != ERR && n + 1 < sizeof seq) {
        seq[n++] = (char)c;
        if (c >= 0x40 && c <= 0x7e)
            break;
    }
    seq[n] = '\0';
    if (strcmp(seq, "H") == 0 || strcmp(seq, "1~") == 0 || strcmp(seq, "7~") == 0)
        return KEY_HOME;
    if (strcmp(seq, "F") == 0 || strcmp(seq, "4~") == 0 || strcmp(seq, "8~") == 0)
        return KEY_END;
    return ERR;
}

int crt_read_key(int timeout_ms)
{
    int key, next;

    timeout(timeout_ms);
    key = getch();
    if (key != CRT_KEY_ESC)
        return key;
    /* curses has waited ESCDELAY for a sequence it knows: a byte here means Alt+key or a
       sequence it does not know. */
    timeout(0);
    next = getch();
    return next == ERR ? CRT_KEY_ESC : after_escape(next);
}
