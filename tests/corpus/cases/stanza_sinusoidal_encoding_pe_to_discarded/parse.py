"""Run the parser's word encoder over a batch of sentences on the GPU; the last document has a
sentence longer than the position table built at construction (max_len)."""
import torch

from stanza.models.constituency.lstm_model import LSTMModel


def main():
    device = torch.device("cuda" if torch.cuda.is_available() else "cpu")
    model = LSTMModel(vocab_size=100, max_len=64).to(device)
    model.eval()
    sentences = [torch.randint(0, 100, (1, n)) for n in (12, 40, 80)]
    with torch.no_grad():
        for words in sentences:
            scores = model(words.to(device))
            print(tuple(scores.shape))


if __name__ == "__main__":
    main()
