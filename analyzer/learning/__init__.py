"""Training the learned player by self-play: the kernels that label decisions by roll-outs
(rollouts.py, over steps.py) and play the learning curve's matches (selfplay.py), the network's
fit (sgd.py), the training run with its checkpoints (train.py) and the training of the second
stage's value network (stage2_training.py)."""
