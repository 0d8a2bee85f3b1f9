/* SPDX-License-Identifier: MIT */
/*
 * sig.h - wmark's one signal policy.  SIGPIPE is ignored for the whole
 * run, so a closed pipe is an EPIPE that the writer reports (main's check
 * of standard output, apply's "the report is lost").  A command that has
 * something to finish catches SIGINT and SIGTERM (sig_catch_stop) and
 * polls sig_stopped().  A blocking call that must end on a stop signal or
 * a timeout runs between sig_wait_begin() and sig_wait_end(): from the
 * moment the deadline passes or a stop signal comes, a timer signal
 * interrupts it, and again every few milliseconds, so a signal that came
 * just before the call started cannot be lost.
 */
#ifndef WMARK_SIG_H
#define WMARK_SIG_H

#include <stdbool.h>

/* Ignore SIGPIPE.  Called once, first thing in main(). */
void sig_init(void);

/*
 * Catch SIGINT and SIGTERM (and SIGHUP when hup) without SA_RESTART, so
 * that a blocking call they interrupt returns EINTR; sig_stopped() then
 * names the signal.  Also sets up the timer sig_wait_begin() uses.
 * Return 0, or -errno if the timer cannot be created.
 */
int sig_catch_stop(bool hup);

/* The stop signal caught since sig_catch_stop() or sig_clear_stop(), or 0. */
int sig_stopped(void);

/* Forget a stop signal (a command whose first signal only starts its end). */
void sig_clear_stop(void);

/*
 * Open a wait for one blocking call: arm the deadline seconds from now
 * (timeout > 0; 0 for none) and let a stop signal interrupt it too.
 * sig_catch_stop() must have been called.  Return false when the wait is
 * already over (a stop signal came, or the deadline passed): do not start
 * the call.  Either way, sig_wait_end() closes the wait.
 */
bool sig_wait_begin(double timeout);

/* Close the wait: stop the timer; return whether its deadline passed. */
bool sig_wait_end(void);

/* Seconds on the monotonic clock, for periods and deadlines. */
double sig_now(void);

/*
 * Sleep until sig_now() reaches t, or until a stop signal has been caught
 * (sig_catch_stop); other signals that interrupt the sleep do not end it.
 */
void sig_sleep_until(double t);

#endif /* WMARK_SIG_H */
