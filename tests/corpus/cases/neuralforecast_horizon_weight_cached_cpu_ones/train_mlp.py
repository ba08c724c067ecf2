import numpy as np

from neuralforecast import NeuralForecast
from neuralforecast.losses.pytorch import MAE
from neuralforecast.models import MLP

# AirPassengers-like monthly series (stand-in for neuralforecast.utils.AirPassengersDF)
rng = np.random.RandomState(0)
Y_df = {'Airline1': 100 + np.arange(144) + 10 * rng.randn(144),
        'Airline2': 300 + np.arange(144) + 10 * rng.randn(144)}

model = MLP(h=12, input_size=24, loss=MAE(), max_steps=5)
nf = NeuralForecast(models=[model], freq='M')
nf.fit(df=Y_df)
print('trained', model.loss.horizon_weight.shape)
