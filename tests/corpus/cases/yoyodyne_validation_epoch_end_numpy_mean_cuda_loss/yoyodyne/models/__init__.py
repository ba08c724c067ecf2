from .lstm import LSTMEncoderDecoder
