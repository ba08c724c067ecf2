import torch
from torch.utils.data import DataLoader, TensorDataset

from bert import BERT_Model
from config import Config
from teacher import teacher_train


def get_loader(x, y, tokenizer):
    data = tokenizer.batch_encode_plus(x, max_length=50, padding="max_length", truncation="longest_first")
    dataset = TensorDataset(torch.LongTensor(data["input_ids"]), torch.LongTensor(data["attention_mask"]),
                            torch.LongTensor(y))
    return DataLoader(dataset, batch_size=64)


if __name__ == "__main__":
    cfg = Config()
    train_loader = get_loader(["a sample sentence"] * 128, [0] * 128, cfg.tokenizer)
    test_loader = get_loader(["another sentence"] * 64, [1] * 64, cfg.tokenizer)
    T_model = BERT_Model(cfg).to(cfg.device)
    teacher_train(T_model, cfg, train_loader, test_loader)
