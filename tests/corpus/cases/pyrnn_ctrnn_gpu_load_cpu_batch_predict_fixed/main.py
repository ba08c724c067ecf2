import os
import tempfile

from rnn import CTRNN as RNN
from three_bit_memory import ThreeBitDataset, plot_predictions

FIT = True

n_units = 16
N = 40  # trials length in dataset
batch_size = 8
epochs = 2
lr = 0.0025
save_path = os.path.join(tempfile.mkdtemp(), "3bit_memory.pt")

dataset = ThreeBitDataset(N, dataset_length=16)

if FIT:
    rnn = RNN(input_size=3, output_size=3, n_units=n_units, on_gpu=False, tau=50, dt=5)
    loss_history = rnn.fit(dataset, n_epochs=epochs, lr=lr, batch_size=batch_size)
    rnn.save(save_path)

rnn = RNN.load(save_path, input_size=3, output_size=3, n_units=n_units, on_gpu=FIT, tau=50, dt=5)
plot_predictions(rnn, N, batch_size)
