// Open MPI behind the group of a shared match; without MPI at build time, only the check that none
// is needed.
#include "cli/mpi_job.h"

#include <chrono>
#include <iostream>
#include <string>
#include <thread>

#include "util/error.h"
#include "util/launcher.h"

#ifdef VZERO_HAVE_MPI
#define OMPI_SKIP_MPICXX 1  // the C interface only
#define MPICH_SKIP_MPICXX 1
#include <mpi.h>
#endif

namespace vzero::cli {

namespace {

// Throws when srun started several tasks but no MPI launcher joins them: each task would play
// the whole match by itself.
void check_not_alone_in_step(int tasks) {
  check(tasks <= 1,
        "this process is one of " + std::to_string(tasks) +
            " tasks of a Slurm step but no MPI launcher joins them, so each would play the whole "
            "match: launch with `srun --mpi=pmix` (see `srun --mpi=list`), with mpirun, or with "
            "one task");
}

#ifdef VZERO_HAVE_MPI
// Waits for a non-blocking collective, asleep between looks: a rank that waits (for
// others still playing, or for the gate's next candidate) leaves its core to them,
// where a blocking collective would spin on it.
void wait_asleep(MPI_Request& request) {
  for (int done = 0; MPI_Test(&request, &done, MPI_STATUS_IGNORE), !done;)
    std::this_thread::sleep_for(std::chrono::milliseconds(2));
}

class MpiJob : public MatchGroup {
 public:
  MpiJob() {
    int provided = 0;
    // Only this thread calls MPI (the arena's game threads never do).
    MPI_Init_thread(nullptr, nullptr, MPI_THREAD_FUNNELED, &provided);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank_);
    MPI_Comm_size(MPI_COMM_WORLD, &size_);
  }
  ~MpiJob() override { MPI_Finalize(); }
  int rank() const override { return rank_; }
  int size() const override { return size_; }
  std::vector<std::string> all_gather(const std::string& text) override {
    check(text.size() < (1u << 31), "MPI: a rank's text is larger than 2 GB");
    const int length = int(text.size());
    std::vector<int> lengths(size_), offsets(size_, 0);
    MPI_Request request;
    MPI_Iallgather(&length, 1, MPI_INT, lengths.data(), 1, MPI_INT, MPI_COMM_WORLD, &request);
    wait_asleep(request);
    long total = 0;
    for (int r = 0; r < size_; ++r) {
      offsets[r] = int(total);
      total += lengths[r];
    }
    check(total < (1l << 31), "MPI: the ranks' texts are larger than 2 GB together");
    std::string all(size_t(total), '\0');
    MPI_Iallgatherv(text.data(), length, MPI_CHAR, all.data(), lengths.data(), offsets.data(),
                    MPI_CHAR, MPI_COMM_WORLD, &request);
    wait_asleep(request);
    std::vector<std::string> out;
    for (int r = 0; r < size_; ++r)
      out.push_back(all.substr(size_t(offsets[r]), size_t(lengths[r])));
    return out;
  }

 private:
  int rank_ = 0, size_ = 1;
};
#endif

}  // namespace

std::unique_ptr<MatchGroup> join_mpi_job() {
  const MpiLaunch launch = read_mpi_launch();
  const int ranks = launch.ranks;
  if (!launch.launched) {
    check_not_alone_in_step(launch.slurm_step_tasks);
    return nullptr;
  }
#ifdef VZERO_HAVE_MPI
  auto job = std::make_unique<MpiJob>();
  // An MPI that cannot use the launcher's PMI starts as a job of one rank in each task.
  check(ranks <= 1 || job->size() == ranks,
        "the launcher started " + std::to_string(ranks) + " ranks but MPI joined " +
            std::to_string(job->size()) +
            ", so each would play the whole match: with srun, pick a PMI plugin this MPI "
            "supports (`srun --mpi=list`; Open MPI: pmix), or use mpirun");
  return job;
#else
  check(ranks <= 1,
        "this vzero was built without MPI (install libopenmpi-dev, scripts/install-deps.sh, and "
        "build again) but runs as one of " +
            std::to_string(ranks) + " MPI ranks");
  return nullptr;
#endif
}

void run_ranked(MatchGroup* group, const std::function<void()>& body) {
  if (!group || group->size() == 1) return body();
  try {
    body();
  } catch (const std::exception& e) {
    std::cerr << "vzero: " << (dynamic_cast<const Error*>(&e) ? "" : "internal error: ") << e.what()
              << " (rank " << group->rank() << ")" << std::endl;
#ifdef VZERO_HAVE_MPI
    MPI_Abort(MPI_COMM_WORLD, 2);
#endif
    throw;
  }
}

}  // namespace vzero::cli
