# Sourced by the batch scripts: where vzero and the run live. Export these
# before `sbatch` (sbatch passes your environment on) or edit the defaults.
#   VZERO    the vzero binary, on every node (e.g. the build on the shared file system)
#   CONFIG   the run config
#   RUN_DIR  the run folder, on a file system every node shares
#   EXTRA    more arguments for vzero, e.g. "--set selfplay.parallel_games=64"
: "${VZERO:=$HOME/vzero/build/cli/vzero}"
: "${CONFIG:=$HOME/vzero/configs/attrition.toml}"
: "${RUN_DIR:=$HOME/vzero-runs/attrition}"
read -r -a EXTRA_ARGS <<< "${EXTRA:-}"
echo "vzero $(hostname) job ${SLURM_JOB_ID:-?} task ${SLURM_ARRAY_TASK_ID:-0}: $VZERO, $CONFIG, $RUN_DIR"
# run_ranks CMD...: the job's tasks run CMD as one MPI job when there are several (srun's PMIx,
# which Open MPI uses; set SRUN_MPI to your site's plugin, see `srun --mpi=list`), else one srun task.
run_ranks() {
  if [ "${SLURM_NTASKS:-1}" -gt 1 ]; then srun --mpi="${SRUN_MPI:-pmix}" "$@"; else srun "$@"; fi
}
