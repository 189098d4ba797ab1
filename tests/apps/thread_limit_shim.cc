// Test-only LD_PRELOAD library: a process limit made deterministic, for root too (RLIMIT_NPROC
// does not bind root). pthread_create answers EAGAIN while GEMINI_TEST_THREADS threads it
// started are alive; posix_spawn answers EAGAIN once GEMINI_TEST_SPAWNS processes were started.
// Unset: no limit.

#include <dlfcn.h>
#include <pthread.h>
#include <spawn.h>

#include <atomic>
#include <cerrno>
#include <cstdlib>

namespace {

std::atomic<long> alive{0};
std::atomic<long> spawned{0};

long Limit(const char* name) {
  const char* value = std::getenv(name);
  return value != nullptr && *value != '\0' ? std::atol(value) : -1;
}

struct Start {
  void* (*routine)(void*);
  void* arg;
};

void* Run(void* data) {
  const Start start = *static_cast<Start*>(data);
  delete static_cast<Start*>(data);
  struct Leave {
    ~Leave() { alive.fetch_sub(1); }
  } leave;
  return start.routine(start.arg);
}

}  // namespace

extern "C" int pthread_create(pthread_t* thread, const pthread_attr_t* attr,
                              void* (*routine)(void*), void* arg) {
  using Real = int (*)(pthread_t*, const pthread_attr_t*, void* (*)(void*), void*);
  static const Real real = reinterpret_cast<Real>(dlsym(RTLD_NEXT, "pthread_create"));
  const long limit = Limit("GEMINI_TEST_THREADS");
  if (limit < 0) return real(thread, attr, routine, arg);
  if (alive.fetch_add(1) >= limit) {
    alive.fetch_sub(1);
    return EAGAIN;
  }
  auto* start = new Start{routine, arg};
  const int error = real(thread, attr, Run, start);
  if (error != 0) {
    delete start;
    alive.fetch_sub(1);
  }
  return error;
}

extern "C" int posix_spawn(pid_t* pid, const char* path, const posix_spawn_file_actions_t* actions,
                           const posix_spawnattr_t* attributes, char* const argv[],
                           char* const envp[]) {
  using Real = int (*)(pid_t*, const char*, const posix_spawn_file_actions_t*,
                       const posix_spawnattr_t*, char* const[], char* const[]);
  static const Real real = reinterpret_cast<Real>(dlsym(RTLD_NEXT, "posix_spawn"));
  const long limit = Limit("GEMINI_TEST_SPAWNS");
  if (limit >= 0 && spawned.fetch_add(1) >= limit) return EAGAIN;
  return real(pid, path, actions, attributes, argv, envp);
}
