from .EncoderRNN import EncoderRNN
from .DecoderRNN import DecoderRNN
from .Seq2Seq import Seq2Seq
