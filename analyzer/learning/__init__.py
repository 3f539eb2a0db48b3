"""Training the learned player by self-play: the kernels that label decisions by roll-outs
(rollouts.py, over steps.py) and play the learning curve's matches (selfplay.py), the network's
fit (sgd.py) and the training run with its checkpoints (train.py)."""
