#pragma once
// CPU time of this process, for compute budgets that hold on a shared machine.

#include <sys/resource.h>

namespace vzero {

// User plus system CPU seconds of this process (all its threads) and of its
// children that have been waited for (engines it ran), since it started.
inline double process_cpu_seconds() {
  double total = 0;
  for (int who : {RUSAGE_SELF, RUSAGE_CHILDREN}) {
    rusage u{};
    if (getrusage(who, &u) != 0) continue;
    total += double(u.ru_utime.tv_sec + u.ru_stime.tv_sec) +
             1e-6 * double(u.ru_utime.tv_usec + u.ru_stime.tv_usec);
  }
  return total;
}

}  // namespace vzero
