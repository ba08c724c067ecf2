import torch
from torch import nn

from funasr import AutoModel
from funasr.register import tables


class SenseVoiceEncoderSmall(nn.Module):
    def __init__(self, input_size, output_size=256, num_blocks=2):
        super().__init__()
        self.embed = nn.Linear(input_size, output_size)
        self.blocks = nn.ModuleList(nn.Linear(output_size, output_size) for _ in range(num_blocks))
        self._output_size = output_size

    def output_size(self):
        return self._output_size

    def forward(self, xs_pad, ilens):
        xs_pad = self.embed(xs_pad)
        for block in self.blocks:
            xs_pad = xs_pad + torch.relu(block(xs_pad))
        return xs_pad, ilens


class CTC(nn.Module):
    def __init__(self, odim, encoder_output_size):
        super().__init__()
        self.ctc_lo = nn.Linear(encoder_output_size, odim)

    def log_softmax(self, hs_pad):
        return torch.log_softmax(self.ctc_lo(hs_pad), dim=2)


@tables.register("model_classes", "SenseVoiceSmall")
class SenseVoiceSmall(nn.Module):
    def __init__(self, input_size=560, vocab_size=25055):
        super().__init__()
        self.encoder = SenseVoiceEncoderSmall(input_size)
        self.ctc = CTC(vocab_size, self.encoder.output_size())
        self.lid_dict = {"auto": 0, "zh": 3, "en": 4, "yue": 7, "ja": 11, "ko": 12, "nospeech": 13}
        self.textnorm_dict = {"withitn": 14, "woitn": 15}
        self.embed = nn.Embedding(7 + len(self.lid_dict) + len(self.textnorm_dict), input_size)

    def inference(self, speech):
        speech = speech[None, :, :]
        speech_lengths = torch.tensor([speech.shape[1]]).to(speech.device)

        textnorm_query = self.embed(torch.LongTensor([[self.textnorm_dict["woitn"]]]).to(speech.device)).repeat(speech.size(0), 1, 1)
        language_query = self.embed(torch.LongTensor([[self.lid_dict["zh"]]]).to(speech.device)).repeat(speech.size(0), 1, 1)
        event_emo_query = self.embed(torch.LongTensor([[1, 2]]).to(speech.device)).repeat(speech.size(0), 1, 1)
        speech = torch.cat((language_query, event_emo_query, textnorm_query, speech), dim=1)
        speech_lengths += 4

        encoder_out, _ = self.encoder(speech, speech_lengths)
        return self.ctc.log_softmax(encoder_out)[0, 4:]


def from_pretrained():
    model, kwargs = AutoModel.build_model(model="SenseVoiceSmall")
    model.encoder.eval()
    return model
