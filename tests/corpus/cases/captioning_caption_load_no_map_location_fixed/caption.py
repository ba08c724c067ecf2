import torch
from torch import nn
import torch.nn.functional as F
import json
import argparse

device = torch.device("cuda" if torch.cuda.is_available() else "cpu")


# ---- models.py (small stand-ins for the ResNet-101 encoder and the attention decoder) ----
class Encoder(nn.Module):
    """Encoder (stand-in for the ResNet-101 trunk): image -> (batch, enc_size, enc_size, encoder_dim)."""

    def __init__(self, encoded_image_size=4, encoder_dim=32):
        super(Encoder, self).__init__()
        self.conv = nn.Conv2d(3, encoder_dim, kernel_size=3, padding=1)
        self.adaptive_pool = nn.AdaptiveAvgPool2d((encoded_image_size, encoded_image_size))

    def forward(self, images):
        out = self.adaptive_pool(torch.relu(self.conv(images)))  # (batch_size, encoder_dim, enc, enc)
        return out.permute(0, 2, 3, 1)


class Attention(nn.Module):
    def __init__(self, encoder_dim, decoder_dim, attention_dim):
        super(Attention, self).__init__()
        self.encoder_att = nn.Linear(encoder_dim, attention_dim)
        self.decoder_att = nn.Linear(decoder_dim, attention_dim)
        self.full_att = nn.Linear(attention_dim, 1)
        self.relu = nn.ReLU()
        self.softmax = nn.Softmax(dim=1)

    def forward(self, encoder_out, decoder_hidden):
        att1 = self.encoder_att(encoder_out)
        att2 = self.decoder_att(decoder_hidden)
        att = self.full_att(self.relu(att1 + att2.unsqueeze(1))).squeeze(2)
        alpha = self.softmax(att)
        attention_weighted_encoding = (encoder_out * alpha.unsqueeze(2)).sum(dim=1)
        return attention_weighted_encoding, alpha


class DecoderWithAttention(nn.Module):
    def __init__(self, attention_dim, embed_dim, decoder_dim, vocab_size, encoder_dim=32):
        super(DecoderWithAttention, self).__init__()
        self.attention = Attention(encoder_dim, decoder_dim, attention_dim)
        self.embedding = nn.Embedding(vocab_size, embed_dim)
        self.decode_step = nn.LSTMCell(embed_dim + encoder_dim, decoder_dim, bias=True)
        self.init_h = nn.Linear(encoder_dim, decoder_dim)
        self.init_c = nn.Linear(encoder_dim, decoder_dim)
        self.f_beta = nn.Linear(decoder_dim, encoder_dim)
        self.sigmoid = nn.Sigmoid()
        self.fc = nn.Linear(decoder_dim, vocab_size)

    def init_hidden_state(self, encoder_out):
        mean_encoder_out = encoder_out.mean(dim=1)
        h = self.init_h(mean_encoder_out)
        c = self.init_c(mean_encoder_out)
        return h, c


def caption_image_greedy(encoder, decoder, word_map, max_len=20):
    """
    Captions an image (the tutorial's beam search reduced to its greedy k = 1 path; a random image stands in
    for the resized, normalised input).
    """
    img = torch.rand(3, 256, 256).to(device)
    image = img.unsqueeze(0)  # (1, 3, 256, 256)
    encoder_out = encoder(image)  # (1, enc_image_size, enc_image_size, encoder_dim)
    encoder_dim = encoder_out.size(3)
    encoder_out = encoder_out.view(1, -1, encoder_dim)  # (1, num_pixels, encoder_dim)

    k_prev_words = torch.LongTensor([[word_map['<start>']]]).to(device)  # (1, 1)
    seq = [word_map['<start>']]
    h, c = decoder.init_hidden_state(encoder_out)
    for step in range(max_len):
        embeddings = decoder.embedding(k_prev_words).squeeze(1)  # (1, embed_dim)
        awe, alpha = decoder.attention(encoder_out, h)  # (1, encoder_dim), (1, num_pixels)
        gate = decoder.sigmoid(decoder.f_beta(h))  # gating scalar, (1, encoder_dim)
        awe = gate * awe
        h, c = decoder.decode_step(torch.cat([embeddings, awe], dim=1), (h, c))  # (1, decoder_dim)
        scores = F.log_softmax(decoder.fc(h), dim=1)  # (1, vocab_size)
        next_word = scores.argmax(dim=1)
        seq.append(int(next_word))
        if int(next_word) == word_map['<end>']:
            break
        k_prev_words = next_word.unsqueeze(1)
    return seq


if __name__ == '__main__':
    parser = argparse.ArgumentParser(description='Show, Attend, and Tell - Tutorial - Generate Caption')
    parser.add_argument('--model', '-m', default='BEST_checkpoint_coco_5_cap_per_img_5_min_word_freq.pth.tar', help='path to model')
    parser.add_argument('--word_map', '-wm', default='WORDMAP_coco.json', help='path to word map JSON')
    args = parser.parse_args()

    # Load model
    checkpoint = torch.load(args.model, map_location=str(device), weights_only=False)
    decoder = checkpoint['decoder']
    decoder = decoder.to(device)
    decoder.eval()
    encoder = checkpoint['encoder']
    encoder = encoder.to(device)
    encoder.eval()

    # Load word map (word2ix)
    with open(args.word_map, 'r') as j:
        word_map = json.load(j)
    rev_word_map = {v: k for k, v in word_map.items()}  # ix2word

    with torch.no_grad():
        seq = caption_image_greedy(encoder, decoder, word_map)
    print(' '.join(rev_word_map[ind] for ind in seq))
