class TFLogger(object):
  """Stand-in for the tensorboard logger."""

  def __init__(self, log_dir=None):
    self.log_dir = log_dir

  def scalar_summary(self, tag, value, step):
    print('{}: {} (step {})'.format(tag, value, step))

  def close(self):
    pass
