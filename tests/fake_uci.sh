#!/usr/bin/env bash
# A broken UCI engine for the tests: fake_uci.sh MODE [PIDFILE]
#   die      exits with status 3 when asked to move
#   hang     never answers "go" (sleeps in a child process)
#   illegal  answers "go" with e2e5
#   silent   never answers "uci"
# It appends its process id to PIDFILE, and offers the variants chess and grand.
mode=$1
[ -n "${2:-}" ] && echo $$ >> "$2"
while IFS= read -r line; do
  case "$line" in
    uci)
      [ "$mode" = silent ] && sleep 1000
      echo "id name fake"
      echo "option name UCI_Variant type combo default chess var chess var grand"
      echo "uciok" ;;
    isready) echo "readyok" ;;
    go*)
      case "$mode" in
        die) exit 3 ;;
        hang) sleep 1000 ;;
        illegal) echo "info depth 1"; echo "bestmove e2e5" ;;
      esac ;;
    quit) exit 0 ;;
  esac
done
