# The settings that the 007 and Grand Chess runs share (session 40's 007 run), for their resume.sh:
# a 4-6 block network's self-play, training and loop matches; each run adds its config, tower and
# window.
deep_settings=(
  --set selfplay.games=300 --set selfplay.parallel_games=128 --set selfplay.games_per_shard=50 --set selfplay.full_visits=400 --set selfplay.fast_visits=80 --set selfplay.max_plies=400
  --set selfplay.resign_threshold=-0.95 --set selfplay.resign_playout_fraction=0.1
  --set inference.max_batch=128 --set inference.workers=2 --set inference.threads_per_worker=1
  --set search.cpuct=1.25 --set search.two_fold_draw=true --set search.temperature_halflife=8 --set search.final_temperature=0.2
  --set train.sample_reuse=6.0 --set 'train.optimizer="sgd"' --set train.momentum=0.9 --set train.weight_decay=1e-4
  --set train.root_value_weight=0.2 --set 'train.lr_schedule="cosine"' --set train.lr_decay_steps=30000 --set train.lr_min=0.002
  --set train.window_growth=true --set train.window_min=30000 --set train.bootstrap_share=0.3 --set train.lr_warmup_steps=50 --set train.threads=2
  --set selfplay.fast_batch=4 --set 'selfplay.full_root="fresh"'
  --set loop.bootstrap_games=600 --set loop.bootstrap_visits=400 --set 'loop.gate="always"' --set loop.arena_visits=200
  --set loop.measure_every=4 --set loop.arena_games=20 --set 'loop.baseline="mcts:sims=800,evaluator=heuristic"' --set loop.baseline_games=40
  --set loop.saturated_score=0.85 --set loop.saturated_games=10
  --set 'loop.anchors=["mcts:sims=200,evaluator=heuristic", "mcts:sims=3200,evaluator=heuristic"]' --set loop.anchor_games=20
  
)
