// vzero ratings: one Elo scale over the games files of matches.
#include <fstream>
#include <iostream>

#include "cli/commands.h"
#include "match/ratings.h"
#include "util/error.h"
#include "util/files.h"

namespace vzero::cli {

void add_ratings_command(CLI::App& app) {
  auto files = std::make_shared<std::vector<std::string>>();
  auto anchor = std::make_shared<std::string>();
  auto csv = std::make_shared<std::string>();
  auto prior = std::make_shared<double>(RatingsOptions{}.prior_draws);
  CLI::App* cmd =
      app.add_subcommand("ratings", "Fit one Elo scale over recorded games (Bradley-Terry)");
  cmd->add_option("files", *files, "Games files (JSON lines) written by arena --record")
      ->required();
  cmd->add_option("--anchor", *anchor,
                  "PLAYER=ELO: fix this player's Elo (default: the mean is 0)");
  cmd->add_option("--prior", *prior, "Virtual draws between every two players who met")
      ->check(CLI::Range(0.001, 1000.0));
  cmd->add_option("--csv", *csv, "Also write the table as CSV to this file");
  cmd->callback([=] {
    PairwiseResults results;  // file by file: memory grows with the pairs, not the games
    for (const std::string& f : *files) {
      std::ifstream probe(f);
      check(bool(probe), "cannot read games file '" + f + "'");
      for (const MatchRecord& r : read_records(f)) results.add(r);
    }
    check(!results.empty(), "ratings: no games in the given files");
    RatingsOptions options;
    options.prior_draws = *prior;
    if (!anchor->empty()) options.anchor = parse_anchor(*anchor);
    const RatingsTable table = results.fit(options);
    if (!csv->empty()) write_text_file(*csv, table.csv());  // durably, replaced whole
    for (const std::string& note : table.notes) std::cerr << "note: " << note << "\n";
    std::cout << table.text() << std::flush;
  });
}

}  // namespace vzero::cli
