from .core import NeuralForecast
