import numpy as np
import torch
import torch.nn as nn
import torch.nn.functional as F
from torch.autograd import Variable


def convert_ids_to_toks(token_ids, tokenizer):
    """
    Convert tokens id to tokens word
    :input:
        token_ids:   tokens id
        tokenizer:   tokenizer from Huggingface
    """
    special_tokens = tokenizer.special_tokens_map_extended.values()
    results = []
    for tok_ids in token_ids:
        tok_words = tokenizer.convert_ids_to_tokens(tok_ids)
        result_toks = []
        for word in tok_words:
            if word == tokenizer.sep_token:
                break
            if word not in special_tokens:
                result_toks.append(word)
        results.append(' '.join(result_toks))
    return results


def subsequent_mask(batch_size, size):
    """
    Mask out subsequent positions to batch.
    :input:
        batch_size:   batch size
        size:         length of texts
    """
    attn_shape = (batch_size, size, size)
    subsequent_mask = np.triu(np.ones(attn_shape), k=1).astype('uint8')
    return torch.from_numpy(subsequent_mask) == 0


def beam_search(model, src, src_mask, tokenizer, max_len=None, k=5, alpha=0.6):
    """
    Beam search for generation. Apply for batch
    :input:
        model:          generation model
        src:            tokenized inputs
        src_mask:       masks of inputs
        max_len:        maximum generation length
        tokenizer:      tokenizer from Huggingface
        k:              beam width
        alpha:          length penalty parameter
    """

    def init_vars(model, src_text, src_mask, tgt_tokenizer, max_len=64, k=5, device=None):
        """
        Encode texts and initialize beam
        """
        batch_size = src_text.shape[0]
        start_symbol = tgt_tokenizer.cls_token_id

        # Encoded inputs
        memory = model.encoder(src_text, src_mask)

        # Result tokens
        ys = torch.ones(batch_size, 1).fill_(start_symbol).long()

        # Target masks
        ys_mask = subsequent_mask(batch_size, ys.size(1)).type_as(src_mask.data)

        # Decoder output
        out = model.decoder(Variable(ys).to(device),
                            memory, src_mask,
                            Variable(ys_mask).to(device))

        # Probability
        prob = model.out(out[:, -1])
        out = F.softmax(prob, dim=-1)
        probs, ix = out.data.topk(k, dim=1)
        log_scores = torch.log(probs)

        # Result beam
        ys = torch.zeros(batch_size, k, max_len).long()
        memorys = torch.zeros(batch_size, k, memory.size(-2), memory.size(-1)).to(device)

        # Copy data to beam
        for index in range(batch_size):
            ys[index, :, 0] = start_symbol
            ys[index, :, 1] = ix[index, 0]
            memorys[index, :, :] = memory[index]

        return ys, memorys, log_scores

    def k_best_outputs(outputs, out, log_scores, i, k):
        """
        Get best beams by top k
        """
        # Get top k score
        probs, ix = out.data.topk(k, dim=1)
        log_probs = torch.log(probs) + log_scores.transpose(0, 1)
        k_probs, k_ix = log_probs.view(-1).topk(k)

        # row and column of scores
        row = k_ix // k
        col = k_ix % k

        outputs[:, :i] = outputs[row, :i]
        outputs[:, i] = ix[row, col]

        log_scores = k_probs.unsqueeze(0)
        return outputs, log_scores

    # Main function of beam search
    model.eval()
    batch_size = src.shape[0]
    device = next(model.parameters()).device
    if max_len is None:
        max_len = src.shape[-1]

    ys, memorys, log_scores = init_vars(
        model, src, src_mask, tokenizer,
        max_len=max_len, k=k, device=device)

    results = []
    for batch_id in range(batch_size):
        # Iterate through batch
        ys_k = ys[batch_id]
        memorys_k = memorys[batch_id].unsqueeze(0)
        log_scores_k = log_scores[batch_id].unsqueeze(0)
        src_mask_k = src_mask[batch_id].unsqueeze(0)
        for i in range(2, max_len):
            # Target masks
            trg_mask = subsequent_mask(1, i).type_as(src_mask.data)
            out = model.decoder(
                ys_k[:, :i].to(device),
                memorys_k.to(device),
                src_mask_k.to(device),
                trg_mask.to(device))
            prob = model.out(out[:, -1])
            out = F.softmax(prob, dim=-1)
            ys_k, log_scores_k = k_best_outputs(ys_k, out, log_scores_k, i, k)

            # Length penalty
            length_penalty = ((5.0 + (i + 1)) / 6.0) ** alpha
            log_scores_k = log_scores_k / length_penalty

        # Only get beam with highest prob
        highest_prob, highest_prob_id = torch.max(log_scores_k, dim=1)
        highest_prob_sent = ys_k[highest_prob_id]
        token_ids_k = highest_prob_sent.detach().cpu().numpy()
        results_k = convert_ids_to_toks(token_ids_k, tokenizer)
        results.append(results_k)

    return results


class Encoder(nn.Module):
    """Stand-in for the project's Transformer encoder (patch features -> memory)."""

    def __init__(self, feat_dim, d_model):
        super().__init__()
        self.embed = nn.Linear(feat_dim, d_model)

    def forward(self, src, src_mask):
        return torch.tanh(self.embed(src))


class Decoder(nn.Module):
    """Stand-in for the project's Transformer decoder: embeds the tokens and attends to the memory."""

    def __init__(self, vocab_size, d_model):
        super().__init__()
        self.embed = nn.Embedding(vocab_size, d_model)
        self.proj = nn.Linear(d_model, d_model)

    def forward(self, trg, e_outputs, src_mask, trg_mask):
        x = self.embed(trg)
        if e_outputs.dim() == 4:  # one image's memory repeated for its k beams
            e_outputs = e_outputs.squeeze(0)
        attn = torch.softmax(x @ e_outputs.transpose(-1, -2), dim=-1)
        return self.proj(x + attn @ e_outputs)


class Transformer(nn.Module):
    """Captioning transformer: encoder, decoder and output projection, `predict` runs beam search."""

    def __init__(self, trg_vocab, feat_dim=32, d_model=64):
        super().__init__()
        self.encoder = Encoder(feat_dim, d_model)
        self.decoder = Decoder(trg_vocab, d_model)
        self.out = nn.Linear(d_model, trg_vocab)

    def forward(self, src, trg, src_mask, trg_mask):
        e_outputs = self.encoder(src, src_mask)
        return self.out(self.decoder(trg, e_outputs, src_mask, trg_mask))

    def predict(self, src_inputs, src_masks, tokenizer, max_len=None):
        if max_len is None:
            max_len = src_inputs.shape[-1]
        return beam_search(
            self,
            src=src_inputs,
            src_mask=src_masks,
            tokenizer=tokenizer,
            max_len=max_len, k=3, alpha=0.7)


class WordTokenizer:
    """Stand-in for the Huggingface tokenizer: the attributes beam_search reads."""

    def __init__(self, vocab_size):
        self.vocab = ['[PAD]', '[CLS]', '[SEP]'] + ['w%d' % i for i in range(vocab_size - 3)]
        self.cls_token_id = 1
        self.sep_token = '[SEP]'
        self.special_tokens_map_extended = {'pad_token': '[PAD]', 'cls_token': '[CLS]', 'sep_token': '[SEP]'}

    def convert_ids_to_tokens(self, ids):
        return [self.vocab[int(i)] for i in ids]


if __name__ == '__main__':
    device = torch.device('cuda' if torch.cuda.is_available() else 'cpu')
    tokenizer = WordTokenizer(vocab_size=50)
    model = Transformer(trg_vocab=50).to(device)
    patches = torch.rand(2, 10, 32).to(device)
    masks = torch.ones(2, 1, 10).to(device)
    print(model.predict(patches, masks, tokenizer, max_len=8))
