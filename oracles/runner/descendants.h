#pragma once
// No process the oracle starts outlives it. The oracle makes itself a child subreaper, so that
// a driver's descendants that leave its process group (setsid, a double fork) come back to the
// oracle when their parent ends instead of going to init; it registers the process group of
// every driver it starts; and on every way out (main returning, std::exit, std::terminate,
// SIGTERM, SIGINT, SIGHUP) it kills the registered groups and then every child it has left
// that it started (not one that was its child before EndAllOnExit), again and again until none
// is left, reaping them.

#include <sys/types.h>

#include <functional>

namespace gemini_oracle::runner::descendants {

/// Call once from main, before any thread starts (threads inherit the blocked signals):
/// becomes a child subreaper, blocks SIGINT, SIGTERM and SIGHUP and takes them in a thread of
/// its own, which ends everything started and then dies by that signal (default action restored
/// and the signal raised; 128 + its number as an exit status only if that fails); ends
/// everything as well at exit and in std::terminate. Children that existed when it was called
/// (a process started before the oracle was exec'd) are never ended. `who` begins the line said
/// on a signal.
void EndAllOnExit(const char* who);

/// Starts one process in a process group of its own and registers that group: `spawn` returns
/// 0 with the new pid, or an errno value. Returns ECANCELED without calling `spawn` once the
/// oracle is ending, so that nothing starts after the last sweep.
int StartGroup(const std::function<int(pid_t&)>& spawn, pid_t& pid);

/// The group's leader has been killed and is about to be reaped: its group is no longer the
/// oracle's to end (its id may be reused after the reaping).
void ForgetGroup(pid_t pgid);

/// Kills every registered group, then every child of this process that began after
/// EndAllOnExit (a subreaper's children include the orphans handed to it), repeatedly until none
/// is left, and reaps them. Only in
/// the process that called EndAllOnExit (never in a forked child). StartGroup refuses after.
void EndAll();

}  // namespace gemini_oracle::runner::descendants
