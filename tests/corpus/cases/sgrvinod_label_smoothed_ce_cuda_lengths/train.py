import torch

from model import LabelSmoothedCE, TinyTransformer, device


def train(train_loader, vocab_size=37000, epochs=1):
    model = TinyTransformer(vocab_size)
    criterion = LabelSmoothedCE(eps=0.1)
    model = model.to(device)
    criterion = criterion.to(device)
    optimizer = torch.optim.Adam(model.parameters(), lr=1e-4, betas=(0.9, 0.98), eps=1e-9)
    for _ in range(epochs):
        for source_sequences, target_sequences, source_sequence_lengths, target_sequence_lengths in train_loader:
            source_sequences = source_sequences.to(device)  # (N, max_source_sequence_pad_length_this_batch)
            target_sequences = target_sequences.to(device)  # (N, max_target_sequence_pad_length_this_batch)
            source_sequence_lengths = source_sequence_lengths.to(device)  # (N)
            target_sequence_lengths = target_sequence_lengths.to(device)  # (N)
            predicted_sequences = model(source_sequences, target_sequences, source_sequence_lengths,
                                        target_sequence_lengths)
            # Note: If the target sequence is "<BOS> w1 w2 ... wN <EOS> <PAD> <PAD> <PAD> <PAD> ..."
            # we should consider only "w1 w2 ... wN <EOS>" as <BOS> is not predicted
            loss = criterion(inputs=predicted_sequences, targets=target_sequences[:, 1:],
                             lengths=target_sequence_lengths - 1)
            optimizer.zero_grad()
            loss.backward()
            optimizer.step()
