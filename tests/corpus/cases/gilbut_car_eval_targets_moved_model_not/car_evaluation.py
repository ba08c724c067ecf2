import numpy as np
import pandas as pd
import torch
import torch.nn as nn

dataset = pd.read_csv("data/car_evaluation.csv")
categorical_columns = ["price", "maint", "doors", "persons", "lug_capacity", "safety"]
for category in categorical_columns:
    dataset[category] = dataset[category].astype("category")
categorical_data = np.stack([dataset[c].cat.codes.values for c in categorical_columns], 1)
categorical_data = torch.tensor(categorical_data, dtype=torch.int64)
outputs = torch.tensor(pd.get_dummies(dataset.output).values).flatten()

categorical_column_sizes = [len(dataset[column].cat.categories) for column in categorical_columns]
categorical_embedding_sizes = [(col_size, min(50, (col_size + 1) // 2)) for col_size in categorical_column_sizes]
total_records = 1728
test_records = int(total_records * .2)
categorical_train_data = categorical_data[:total_records - test_records]
categorical_test_data = categorical_data[total_records - test_records:total_records]
train_outputs = outputs[:total_records - test_records]
test_outputs = outputs[total_records - test_records:total_records]


class Model(nn.Module):
    def __init__(self, embedding_size, output_size, layers, p=0.4):
        super().__init__()
        self.all_embeddings = nn.ModuleList([nn.Embedding(ni, nf) for ni, nf in embedding_size])
        self.embedding_dropout = nn.Dropout(p)
        all_layers = []
        input_size = sum((nf for ni, nf in embedding_size))
        for i in layers:
            all_layers.append(nn.Linear(input_size, i))
            all_layers.append(nn.ReLU(inplace=True))
            all_layers.append(nn.BatchNorm1d(i))
            all_layers.append(nn.Dropout(p))
            input_size = i
        all_layers.append(nn.Linear(layers[-1], output_size))
        self.layers = nn.Sequential(*all_layers)

    def forward(self, x_categorical):
        embeddings = []
        for i, e in enumerate(self.all_embeddings):
            embeddings.append(e(x_categorical[:, i]))
        x = torch.cat(embeddings, 1)
        x = self.embedding_dropout(x)
        return self.layers(x)


model = Model(categorical_embedding_sizes, 4, [200, 100, 50], p=0.4)
loss_function = nn.CrossEntropyLoss()
optimizer = torch.optim.Adam(model.parameters(), lr=0.001)

if torch.cuda.is_available():
    device = torch.device("cuda")
else:
    device = torch.device("cpu")

epochs = 500
train_outputs = train_outputs.to(device=device, dtype=torch.int64)
for i in range(epochs):
    y_pred = model(categorical_train_data)
    single_loss = loss_function(y_pred, train_outputs)
    optimizer.zero_grad()
    single_loss.backward()
    optimizer.step()

test_outputs = test_outputs.to(device=device, dtype=torch.int64)
with torch.no_grad():
    y_val = model(categorical_test_data)
    loss = loss_function(y_val, test_outputs)
print(f"Loss: {loss:.8f}")
y_val = np.argmax(y_val, axis=1)
print(y_val[:5])
