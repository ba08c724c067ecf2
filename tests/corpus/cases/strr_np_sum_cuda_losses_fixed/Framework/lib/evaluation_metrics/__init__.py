from .metrics import Accuracy

__factory = {
  'accuracy': Accuracy,
}


def factory():
  return __factory
