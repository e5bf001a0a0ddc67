/* progress.c -- the progress line of a long `visa run`: after VISA_PROGRESS_DELAY_MS (default
** 1000; a test hook) the elapsed time, redrawn in place on a terminal; elsewhere (--progress) one
** line per second and a last line when the run ends. */
#define _POSIX_C_SOURCE 200809L /* clock_gettime, pthread_condattr_setclock */
#include <pthread.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "run.h"

struct progress_line {
    pthread_t thread;
    pthread_mutex_t lock;
    pthread_cond_t wake;
    bool done, tty, shown;
    const char *kernel;
    struct timespec t0;
    double delay;
};

static progress_line *active_progress; /* the line on the terminal, if any */

void progress_clear(void) {
    progress_line *p = active_progress;
    if (!p || !p->tty) return;
    pthread_mutex_lock(&p->lock);
    if (p->shown) fputs("\r\033[K", stderr);
    p->shown = false;
    pthread_mutex_unlock(&p->lock);
}

static double seconds_since(const struct timespec *t0) {
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (double)(t.tv_sec - t0->tv_sec) + (double)(t.tv_nsec - t0->tv_nsec) * 1e-9;
}

static void *progress_main(void *ud) {
    progress_line *p = ud;
    pthread_mutex_lock(&p->lock);
    double next = p->delay;
    while (!p->done) {
        struct timespec until = p->t0;
        until.tv_sec += (time_t)next;
        until.tv_nsec += (long)((next - (double)(time_t)next) * 1e9);
        if (until.tv_nsec >= 1000000000L) until.tv_sec++, until.tv_nsec -= 1000000000L;
        pthread_cond_timedwait(&p->wake, &p->lock, &until);
        if (p->done) break;
        double t = seconds_since(&p->t0);
        if (t < next) continue;
        fprintf(stderr, p->tty ? "\rvisa: running kernel '%s': %.0f s " : "visa: running kernel '%s': %.0f s\n",
                p->kernel, t);
        fflush(stderr);
        p->shown = true;
        next = t + (p->tty ? 0.5 : 1.0);
    }
    pthread_mutex_unlock(&p->lock);
    return NULL;
}

progress_line *progress_start(const char *kernel, bool tty) {
    progress_line *p = calloc(1, sizeof *p);
    if (!p) return NULL;
    p->kernel = kernel;
    p->tty = tty;
    const char *e = getenv("VISA_PROGRESS_DELAY_MS");
    char *end;
    unsigned long ms = e && *e ? strtoul(e, &end, 10) : 1000;
    p->delay = e && *e && !*end ? (double)ms / 1000 : 1.0;
    clock_gettime(CLOCK_MONOTONIC, &p->t0);
    pthread_mutex_init(&p->lock, NULL);
    pthread_condattr_t ca;
    pthread_condattr_init(&ca);
    pthread_condattr_setclock(&ca, CLOCK_MONOTONIC);
    pthread_cond_init(&p->wake, &ca);
    pthread_condattr_destroy(&ca);
    if (pthread_create(&p->thread, NULL, progress_main, p) != 0) p->done = true;
    active_progress = p;
    return p;
}

void progress_stop(progress_line *p) {
    if (!p) return;
    pthread_mutex_lock(&p->lock);
    bool started = !p->done;
    p->done = true;
    pthread_cond_signal(&p->wake);
    pthread_mutex_unlock(&p->lock);
    if (started) pthread_join(p->thread, NULL);
    active_progress = NULL;
    double t = seconds_since(&p->t0);
    if (p->tty && p->shown) fputs("\r\033[K", stderr); /* the line goes away */
    else if (!p->tty && t >= p->delay) fprintf(stderr, "visa: kernel '%s' ran for %.1f s\n", p->kernel, t);
    pthread_cond_destroy(&p->wake);
    pthread_mutex_destroy(&p->lock);
    free(p);
}
