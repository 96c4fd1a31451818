"""The expert bot's planner: table snapshots, physics rollouts, rollout scoring, the search."""
