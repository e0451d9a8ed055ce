// vzero web: the browser page of run folders and games, served on 127.0.0.1 (web/).
#include <spawn.h>
#include <sys/wait.h>

#include <chrono>
#include <iostream>
#include <thread>

#include "cli/commands.h"
#include "web/server.h"

extern char** environ;

namespace vzero::cli {
namespace {

struct WebCommandOptions {
  std::vector<std::string> run_dirs;
  int port = 0;
  bool open = false;
  bool allow_engines = false;
  int max_streams = 4;
};

// Opens url in the desktop's browser (xdg-open), without waiting for it; a failure is only
// reported.
void open_browser(const std::string& url) {
  pid_t pid = 0;
  const char* argv[] = {"xdg-open", url.c_str(), nullptr};
  if (posix_spawnp(&pid, "xdg-open", nullptr, nullptr, const_cast<char**>(argv), environ) != 0)
    std::cerr << "vzero web: could not run xdg-open; open the URL above by hand\n";
}

// Serves the page until SIGINT or SIGTERM.
void run_web(const WebCommandOptions& o) {
  WebOptions options;
  options.run_dirs = o.run_dirs;
  options.port = o.port;
  options.allow_engines = o.allow_engines;
  options.max_streams = o.max_streams;
  WebServer server(options);
  server.bind();
  std::cout << "vzero web: open " << server.url() << "\n"
            << "vzero web: serving " << o.run_dirs.size()
            << " run folder(s) on 127.0.0.1 only; Ctrl-C stops" << std::endl;
  if (o.open) open_browser(server.url());
  const std::atomic<bool>* stop = install_stop_signals();
  std::thread watcher([&] {
    while (!stop->load()) std::this_thread::sleep_for(std::chrono::milliseconds(200));
    server.stop();
  });
  server.serve();
  watcher.join();
}

}  // namespace

void add_web_command(CLI::App& app) {
  auto o = std::make_shared<WebCommandOptions>();
  CLI::App* web = app.add_subcommand("web",
                                     "Serve the browser page on 127.0.0.1: run dashboards, "
                                     "recorded games, play (README, \"Watching and "
                                     "playing in the browser\")");
  web->add_option("--run-dir", o->run_dirs,
                  "A run folder to show (repeat for several side by side)")
      ->check(CLI::ExistingDirectory);
  web->add_option("--port", o->port, "The port; 0 picks a free one")
      ->default_val(0)
      ->check(CLI::Range(0, 65535));
  web->add_option("--max-streams", o->max_streams,
                  "Live-update streams open at once, each holding one of the server's 8 threads "
                  "(pages beyond them poll every 2 s)")
      ->default_val(4)
      ->check(CLI::Range(0, 6));
  web->add_flag("--open", o->open, "Open the page in the desktop's browser (xdg-open)");
  web->add_flag("--allow-engines", o->allow_engines,
                "Allow uci: players (they start programs) [off]");
  web->callback([o] { run_web(*o); });
}

}  // namespace vzero::cli
