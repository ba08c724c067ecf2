import numpy as np
import torch
import torch.nn.functional as F
from sklearn import metrics


def teacher_train(model, config, train_loader, test_loader):
    model.train()
    optimizer = torch.optim.Adam(model.parameters(), lr=config.learning_rate)
    for epoch in range(config.teacher_num_epochs):
        for i, (ids, mask, labels) in enumerate(train_loader):
            ids = ids.to(config.device)
            mask = mask.to(config.device)
            outputs = model(ids, mask)
            model.zero_grad()
            loss = F.cross_entropy(outputs, labels)
            loss.backward()
            optimizer.step()
        print(teacher_evaluate(model, config, test_loader))


def teacher_evaluate(model, config, test_loader):
    model.eval()
    loss_total = 0
    predict_all = np.array([], dtype=int)
    labels_all = np.array([], dtype=int)
    with torch.no_grad():
        for ids, mask, labels in test_loader:
            ids = ids.to(config.device)
            mask = mask.to(config.device)
            outputs = model(ids, mask)
            loss = F.cross_entropy(outputs, labels)
            loss_total += loss
            labels_all = np.append(labels_all, labels.data.cpu().numpy())
            predict_all = np.append(predict_all, torch.max(outputs.data, 1)[1].cpu().numpy())
    return metrics.accuracy_score(labels_all, predict_all), loss_total / len(test_loader)
