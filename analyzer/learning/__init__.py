"""Training the learned player by self-play: the kernels that play and leave samples
(selfplay.py), the network's fit (sgd.py) and the training run with its checkpoints (train.py)."""
