import torch
from torch import nn

from openprompt import PromptForClassification
from openprompt.data_utils.utils import InputFeatures


def make_batches(n_batches=10, batch_size=4, seq_len=16, vocab_size=1000):
    for _ in range(n_batches):
        input_ids = torch.randint(0, vocab_size, (batch_size, seq_len))
        loss_ids = torch.zeros(batch_size, seq_len, dtype=torch.long)
        loss_ids[:, 3] = 1
        yield InputFeatures(input_ids=input_ids, attention_mask=torch.ones(batch_size, seq_len),
                            label=torch.randint(0, 3, (batch_size,)), loss_ids=loss_ids)


plm = nn.Embedding(1000, 64)
myverbalizer = nn.Linear(64, 3)
use_cuda = True
prompt_model = PromptForClassification(plm=plm, template=None, verbalizer=myverbalizer, freeze_plm=False)
if use_cuda:
    prompt_model = prompt_model.cuda(2)

loss_func = torch.nn.CrossEntropyLoss()
optimizer = torch.optim.AdamW(prompt_model.parameters(), lr=1e-4)

for epoch in range(10):
    tot_loss = 0
    for step, inputs in enumerate(make_batches()):
        if use_cuda:
            inputs = inputs.cuda()
        logits = prompt_model(inputs)
        labels = inputs["label"]
        loss = loss_func(logits, labels)
        loss.backward()
        tot_loss += loss.item()
        optimizer.step()
        optimizer.zero_grad()
