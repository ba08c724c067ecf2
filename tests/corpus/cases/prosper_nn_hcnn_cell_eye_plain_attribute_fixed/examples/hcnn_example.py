import os
import sys

import torch

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))

import prosper_nn.models.hcnn
import prosper_nn.utils.generate_time_series_data as gtsd
import prosper_nn.utils.create_input_ecnn_hcnn as ci

# %% Define network parameters
n_data = 40
batchsize = 5
past_horizon = 10
forecast_horizon = 5
n_features_Y = 2
n_state_neurons = 6
epochs = 3
teacher_forcing = 1

device = torch.device("cuda" if torch.cuda.is_available() else "cpu")

# %% Create data and targets
targets = torch.zeros((past_horizon, batchsize, n_features_Y), device=device)

# generate data with "unknown" variables U
Y, U = gtsd.sample_data(n_data, n_features_Y=n_features_Y - 1, n_features_U=1)
Y = torch.cat((Y, U), 1)

# Only use Y as input for the hcnn
Y_batches = ci.create_input(Y, past_horizon, batchsize).to(device)

# %% Initialize Hcnn
hcnn_model = prosper_nn.models.hcnn.HCNN(
    n_state_neurons=n_state_neurons,
    n_features_Y=n_features_Y,
    past_horizon=past_horizon,
    forecast_horizon=forecast_horizon,
    teacher_forcing=teacher_forcing,
).to(device)

# %% Train model
optimizer = torch.optim.Adam(hcnn_model.parameters(), lr=0.001)
loss_function = torch.nn.MSELoss()

total_loss = epochs * [0]
for epoch in range(epochs):
    for batch_index in range(0, Y_batches.shape[0]):
        hcnn_model.zero_grad()

        Y_batch = Y_batches[batch_index]
        model_output = hcnn_model(Y_batch)
        past_error, forecast = torch.split(model_output, past_horizon)

        loss = loss_function(past_error, targets)
        loss.backward()
        optimizer.step()
        total_loss[epoch] += loss.detach()
    print(f"epoch {epoch}: loss {float(total_loss[epoch]):.4f}")
