#pragma once
// The MPI job a process belongs to (Open MPI's mpirun, or srun with PMIx),
// as the group of a shared match (mcts/match_group.h).
#include <functional>
#include <memory>

#include "match/match_group.h"

namespace vzero::cli {

// Joins the MPI job when an MPI launcher started this process (MPI_Init;
// MPI_Finalize when the group goes away); null when none did. Throws Error
// when one did with several ranks but this vzero was built without MPI, and
// when srun started several tasks that do not form one MPI job of as many ranks.
std::unique_ptr<MatchGroup> join_mpi_job();

// Runs body. In an MPI job an error would leave the other ranks waiting: it
// ends the whole job (MPI_Abort, status 2) after its line on stderr.
void run_ranked(MatchGroup* group, const std::function<void()>& body);

}  // namespace vzero::cli
