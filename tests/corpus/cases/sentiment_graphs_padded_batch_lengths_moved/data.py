import random

import torch
from torch.nn.utils.rnn import pad_sequence


class CharContainer:
    def __init__(self, index_mapping, batch_vocab, voc_lengths):
        self.index_mapping = index_mapping
        self.batch_vocab = batch_vocab
        self.voc_lengths = voc_lengths
        self.vocab_size = len(batch_vocab)

    def to(self, device):
        self.index_mapping = self.index_mapping.to(device)
        self.batch_vocab = self.batch_vocab.to(device)


class PaddedBatch:
    """Container class for padded data"""

    def __init__(self, graph_ids, targetss, unpadding_mask, chars,
                 seq_lengths, indices):
        self.graph_ids = graph_ids
        self.targetss = targetss
        self.unpadding_mask = unpadding_mask
        self.chars = chars
        self.seq_lengths = seq_lengths
        self.indices = indices
        self.sentence_count = len(graph_ids)

    def to(self, device):
        self.targetss = [target.to(device) for target in self.targetss]
        self.unpadding_mask = self.unpadding_mask.to(device)
        self.chars.to(device)
        self.seq_lengths = self.seq_lengths.to(device)
        self.indices = [inds.to(device) for inds in self.indices]


PAD_WORD = (0, 0, 0)


def padded_collate(batch):
    # Sort batch by the longest sequence desc
    batch.sort(key=lambda sequence: len(sequence[3]), reverse=True)

    graph_ids, targetss, char_indices, *index_groups = zip(*batch)

    # The number of words in each sequence
    seq_lengths = torch.LongTensor(
        [len(indices) for indices in index_groups[0]])
    max_word_count = seq_lengths[0]

    padded_targetss = []
    unpadding_mask = None
    targetss = tuple(zip(*targetss))
    for targets in targetss:
        padded_targets = torch.zeros(
            len(seq_lengths), max_word_count, max_word_count, dtype=torch.long)
        if unpadding_mask is None:
            unpadding_mask = torch.zeros_like(padded_targets, dtype=torch.bool)
        for i, target in enumerate(targets):
            padded_targets[i, :seq_lengths[i], :seq_lengths[i]] = target
            unpadding_mask[i, :seq_lengths[i], :seq_lengths[i]] = 1
        padded_targetss.append(padded_targets)

    # Batch specific word vocabulary where each word
    # is expressed by its character indices
    batch_voc = list({word for sentence in char_indices for word in sentence})
    batch_voc.append(PAD_WORD)

    batch_voc.sort(key=lambda word: len(word), reverse=True)
    voc_lengths = torch.LongTensor([len(word) for word in batch_voc])
    voc_lookup = {word: i for i, word in enumerate(batch_voc)}
    batch_voc = pad_sequence([torch.LongTensor(tup) for tup in batch_voc],
                             batch_first=True)
    index_mapping = torch.full(
        size=(len(batch), max_word_count),
        fill_value=voc_lookup[PAD_WORD],
        dtype=torch.long)

    # Map each word in the batch to an index in the char word vocabulary
    for i, sentence in enumerate(char_indices):
        for j, word in enumerate(sentence):
            index_mapping[i, j] = voc_lookup[word]

    padded = PaddedBatch(
        graph_ids, padded_targetss,
        unpadding_mask,
        CharContainer(index_mapping, batch_voc, voc_lengths), seq_lengths,
        [pad_sequence(indices, batch_first=True) for indices in index_groups])

    return padded


def random_graph_data(n_sentences=16, vocab=40, chars=20, seed=1):
    """Sentences with random words and edge targets (stands for the sentiment graph corpora)."""
    rng = random.Random(seed)
    data = []
    for graph_id in range(n_sentences):
        n = rng.randint(3, 9)
        words = torch.LongTensor([rng.randint(1, vocab - 1) for _ in range(n)])
        word_chars = [tuple(rng.randint(1, chars - 1) for _ in range(rng.randint(2, 6))) for _ in range(n)]
        targets = torch.LongTensor([[rng.randint(0, 1) for _ in range(n)] for _ in range(n)])
        data.append((graph_id, (targets,), word_chars, words))
    return data
